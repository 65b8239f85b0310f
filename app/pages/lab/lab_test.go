package lab

import (
	"fmt"
	"math"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/uitest"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// TestLabLanesWindowEdge renders the lanes after the window-edge attack on
// the default lanes (fixed window, sliding window log, token bucket, 10 per
// 1 s) for 10 s: the counts and worst cases app/sim's tests established.
func TestLabLanesWindowEdge(t *testing.T) {
	m := newLabModel()
	if !m.setClients("clients", m.edgeAttack()) {
		t.Fatal(m.errs)
	}
	m.lab.Clock().Pause()
	if err := m.lab.Step(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	html := uitest.Mount(t, &labLanes{M: m})
	uitest.WantTexts(t, html, map[string]string{
		"lab-clock":          "t = 10.000 s",
		"lane-0-allowed":     "100",
		"lane-0-denied":      "0",
		"lane-0-worst":       "all clients: 20 in 1 s at 0.99–1.99 s",
		"lane-1-allowed":     "50",
		"lane-1-denied":      "50",
		"lane-1-worst":       "all clients: 10 in 1 s at 0.99–1.99 s",
		"lane-2-allowed":     "50",
		"lane-2-worst":       "all clients: 10 in 1 s at 0.99–1.99 s",
		"lane-0-counts-over": "all clients",
		"lane-0-state-of":    "mallory: ",
	})
	// One client, mallory (its name in a span of its own, cut when long):
	// the same stretches.
	flat := regexp.MustCompile(`<span [^>]*class="worst-name"[^>]*>mallory</span>`).ReplaceAllString(strings.ReplaceAll(html, "\n", ""), "mallory")
	for i, n := range []int{20, 10, 10} {
		want := fmt.Sprintf(`id="lane-%d-worst-client" class="worst-line">one client (mallory): %d in 1 s at 0.99–1.99 s</span>`, i, n)
		want2 := fmt.Sprintf(`class="worst-line" id="lane-%d-worst-client">one client (mallory): %d in 1 s at 0.99–1.99 s</span>`, i, n)
		if !strings.Contains(flat, want) && !strings.Contains(flat, want2) {
			t.Errorf("lane %d lacks %s", i, want)
		}
	}
}

// TestLabModelBadLink: a tampered part falls back alone and is reported.
func TestLabModelBadLink(t *testing.T) {
	m := newLabModel()
	m.loadSetup(map[string][]string{"lane": {"token_bucket,-5,10"}, "seed": {"9"}})
	if len(m.linkErrs) != 1 || m.lab.Setup().Seed != 9 || len(m.lab.Lanes()) != len(sim.DefaultLanes()) {
		t.Fatalf("link errors %q, seed %d, %d lanes", m.linkErrs, m.lab.Setup().Seed, len(m.lab.Lanes()))
	}
}

// TestLabLaneParamKeepsLastGood: a value the limiter refuses keeps the lane
// and shows the limiter's message next to the field.
func TestLabLaneParamKeepsLastGood(t *testing.T) {
	m := newLabModel()
	before := m.lab.Setup().Lanes[0]
	m.setLaneParam(0, 1, -1) // window -1 s
	if got := m.lab.Setup().Lanes[0]; got.Config != before.Config {
		t.Errorf("lane changed to %v", got.Config)
	}
	if m.errs["lane-0-p2"] == "" {
		t.Error("no message next to the window field")
	}
}

// inspectSetup: one token bucket lane (5/s, burst 2) with a tier "pro"
// (10/s, burst 4), and two clients that only click: "you" and "paid" (pro).
func inspectSetup() sim.Setup {
	return sim.Setup{
		Lanes: []sim.LaneSpec{{
			Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 5, Burst: 2},
			Tiers:  map[string]limiter.Config{"pro": {Kind: limiter.KindTokenBucket, Rate: 10, Burst: 4}},
		}},
		Clients: []sim.Client{
			{Name: "you", Pattern: sim.Pattern{Kind: sim.PatternNone}},
			{Name: "paid", Pattern: sim.Pattern{Kind: sim.PatternNone}, Tier: "pro"},
		},
		Seed: 1, Speed: 1, Worst: time.Second,
	}
}

// TestLabInspector: after Burst ×3 for "you" and ×5 for "paid" at 0.1 s,
// opening the inspector on a lane decision pauses the clock and shows
// explain.Replay of that client's requests (rebuilt by Lab.EventsOf) with
// the client's tier Config; the selected decision is drawn.
func TestLabInspector(t *testing.T) {
	m := newLabModel()
	m.loadSetup(inspectSetup().Values())
	if len(m.linkErrs) != 0 {
		t.Fatal(m.linkErrs)
	}
	m.lab.Clock().Pause()
	m.lab.Step(100 * time.Millisecond)
	m.lab.Fire("you", 3)
	m.lab.Fire("paid", 5)
	m.lab.Clock().Resume()
	hist := m.lab.Lanes()[0].History(nil)
	if len(hist) != 8 {
		t.Fatalf("%d decisions; want 8", len(hist))
	}
	for _, tc := range []struct {
		k       int
		client  string
		ck      int
		cfg     limiter.Config
		allowed bool
	}{
		{0, "you", 0, inspectSetup().Lanes[0].Config, true},
		{2, "you", 2, inspectSetup().Lanes[0].Config, false},
		{6, "paid", 3, inspectSetup().Lanes[0].Tiers["pro"], true}, // allowed by the pro burst of 4
		{7, "paid", 4, inspectSetup().Lanes[0].Tiers["pro"], false},
	} {
		m.sel = labSel{lane: 0, g: int64(tc.k)}
		m.openInspector()
		if m.insp == nil || m.insp.err != "" {
			t.Fatalf("decision %d: inspector %+v", tc.k, m.insp)
		}
		events := make([]sim.Event, 0)
		for range tc.ck + 1 {
			events = append(events, sim.Event{At: 100 * time.Millisecond, Client: tc.client, N: 1})
		}
		want, err := explain.Replay(tc.cfg, tc.client, events, tc.ck)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(m.insp.exp, want) {
			t.Errorf("decision %d: inspector\n%s\nwant\n%s", tc.k, m.insp.exp.Text(), want.Text())
		}
		if got := m.insp.exp.Decision.Allowed; got != tc.allowed || got != hist[tc.k].Allowed {
			t.Errorf("decision %d: explained allowed=%v, lane %v; want %v", tc.k, got, hist[tc.k].Allowed, tc.allowed)
		}
		if !m.lab.Clock().Paused() {
			t.Errorf("decision %d: the clock runs with the inspector open", tc.k)
		}
		m.lab.Clock().Resume()
	}
	m.sel = labSel{lane: 0, g: 2}
	m.openInspector()
	html := uitest.Mount(t, &labLanes{M: m})
	uitest.WantTexts(t, html, map[string]string{
		"insp-title":      "Why: lane 1, request 3 (you) at 0.10 s: denied",
		"insp-verdict":    "✕ " + m.insp.exp.Verdict,
		"lane-0-selected": "Selected: request 3 (you) at 0.10 s: denied — Enter explains it",
	})
	for _, s := range []string{`id="lane-0-sel"`, `id="lab-insp-note"`, `tabindex="0"`, `role="application"`} {
		if !strings.Contains(html, s) {
			t.Errorf("the lanes lack %s", s)
		}
	}
}

// TestExplainLabDecisionBoundedHistory: with a history of 2, the third of
// three clicks at one instant is still request 3 of its client (the first
// rolled out of the history) and denied by burst 2.
func TestExplainLabDecisionBoundedHistory(t *testing.T) {
	s := inspectSetup()
	l, err := sim.New(s, nil, sim.Options{History: 2})
	if err != nil {
		t.Fatal(err)
	}
	l.Fire("you", 3)
	hist := l.Lanes()[0].History(nil)
	for k, allowed := range []bool{true, false} {
		e, err := explainLabDecision(l, 0, hist, k)
		if err != nil || e.Decision.Allowed != allowed || hist[k].Allowed != allowed {
			t.Errorf("history %d: explained allowed=%v (%v), lane %v; want %v", k, e.Decision.Allowed, err, hist[k].Allowed, allowed)
		}
	}
	if _, err := explainLabDecision(l, 0, hist, 2); err == nil {
		t.Error("decision 3 of a history of 2: no error")
	}
}

// TestNearestDecision: a click on a column's ✓ row picks its first allowed
// decision, on its ✕ row its denied one; nothing farther than the tolerance.
func TestNearestDecision(t *testing.T) {
	a := ui.Axis{X0: 0, X1: laneW, From: 0, To: 6 * time.Second} // 100 units a second
	hist := []sim.Record{
		{At: 0, Allowed: true}, {At: 0, Allowed: true}, {At: 0, Allowed: false},
		{At: time.Second, Allowed: true},
	}
	for _, tc := range []struct {
		x, y float64
		want int
	}{
		{1.5, okY, 0}, {1.5, noY, 2}, {98, okY, 3}, {98, noY, 3}, {50, okY, -1}, {106, okY, 3}, {107, okY, -1},
	} {
		if got := nearestDecision(hist, a, tc.x, tc.y, 6); got != tc.want {
			t.Errorf("nearestDecision(%g, %g) = %d; want %d", tc.x, tc.y, got, tc.want)
		}
	}
}

// TestFramesRedrawOnlyWhenMoved: a frame of a paused lab asks for no
// redraw, and one after a change does (see ui.Frames).
func TestFramesRedrawOnlyWhenMoved(t *testing.T) {
	now := time.Now()
	m := newLabModel()
	m.lab.Clock().Pause()
	lanes := &labLanes{M: m}
	d := app.NewClientTester(lanes)
	defer d.Close()
	ctx := d.Context()
	if lanes.frame(ctx, now, 33*time.Millisecond) {
		t.Error("paused lab: the frame asks for a redraw")
	}
	m.lab.Clock().Resume()
	if !lanes.frame(ctx, now, 33*time.Millisecond) {
		t.Error("running lab: the frame asks for no redraw")
	}

}

// TestLabLaneKindKeepsOtherMessages: switching a lane's strategy drops that
// lane's field messages, which were about its old fields, and keeps the
// others: the same budget's next to its still refused text, another lane's.
func TestLabLaneKindKeepsOtherMessages(t *testing.T) {
	m := newLabModel()
	m.setErr("budget", errString("limit 0 is out of range"))
	m.setLaneParam(0, 1, -1)
	m.setLaneParam(1, 1, -1)
	if m.errs["lane-0-p2"] == "" || m.errs["lane-1-p2"] == "" {
		t.Fatalf("messages before: %q", m.errs)
	}
	m.setLaneKind(0, limiter.KindGCRA)
	if got := m.lab.Setup().Lanes[0].Config.Kind; got != limiter.KindGCRA {
		t.Fatalf("lane 1 is %s, want GCRA", got)
	}
	want := map[string]string{"budget": "limit 0 is out of range", "lane-1-p2": m.errs["lane-1-p2"]}
	if !reflect.DeepEqual(m.errs, want) {
		t.Errorf("messages after: %q, want %q", m.errs, want)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// TestClientFieldsMatchSim: each client field's lowest value is one the
// simulation accepts (with the pattern's other values as a new client of
// that pattern has them), so a field never takes a value the lab then
// refuses with another range. Two exceptions hold across fields, and the
// message says so: an edge window of 1 ms is shorter than the default gap
// (the budget's window / 100), and a ramp to 0 from the default 0 sends
// nothing.
func TestClientFieldsMatchSim(t *testing.T) {
	m := newLabModel()
	for _, k := range sim.PatternKinds {
		for _, pp := range patternParams(0, k) {
			c := m.clients()
			c[0].Pattern = m.defaultPattern(k)
			v, err := pp.Parse(units.Num(pp.Min))
			if err != nil {
				t.Errorf("%s %s: its minimum %v refused: %v", k, pp.Name, pp.Min, err)
				continue
			}
			pp.set(&c[0].Pattern, v)
			err = m.lab.SetTraffic(c, 1)
			cross := map[string]string{
				"edge window": "gap 10ms is out of range; want > 0 and < window 1ms",
				"ramp to":     "ramp from 0/s to 0/s sends nothing; want a rate > 0 at one end",
			}[string(k)+" "+pp.Name]
			if cross != "" {
				if err == nil || !strings.HasSuffix(err.Error(), cross) {
					t.Errorf("%s %s = %v: %v, want %q", k, pp.Name, v, err, cross)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s %s = %v: the lab refuses it: %v", k, pp.Name, v, err)
			}
		}
	}
}

// A worst-case window that has not ended yet (a 60 s window 3 s into the
// run) is said to be open, and is not given as a stretch that ends in the
// future; once it has ended, it is the stretch.
func TestFormatWorstOpenWindow(t *testing.T) {
	w := sim.WorstCase{Window: time.Minute, Units: 5, Start: 27 * time.Millisecond, End: 60027 * time.Millisecond}
	for _, c := range []struct {
		now  sim.Instant
		want string
	}{
		{3173 * time.Millisecond, "all clients: 5 in 60 s from 0.027 s, window open until 60.027 s"},
		{60026 * time.Millisecond, "all clients: 5 in 60 s from 0.027 s, window open until 60.027 s"},
		{60027 * time.Millisecond, "all clients: 5 in 60 s at 0.027–60.027 s"},
	} {
		if got := formatWorst("all clients", w, c.now); got != c.want {
			t.Errorf("at %v: %q, want %q", c.now, got, c.want)
		}
	}
	if got := formatWorst("all clients", sim.WorstCase{Window: time.Second}, 0); got != "all clients: nothing admitted yet" {
		t.Errorf("nothing admitted: %q", got)
	}
	cw := sim.ClientWorst{Client: "c0557", WorstCase: sim.WorstCase{Window: time.Minute, Units: 28, Start: 18690 * time.Second, End: 18750 * time.Second}}
	if got := formatClientWorst(cw, 39568*time.Second); got != "one client (c0557): 28 in 60 s at 18690–18750 s" {
		t.Errorf("one client: %q", got)
	}
	if got := formatClientWorst(sim.ClientWorst{WorstCase: sim.WorstCase{Window: time.Second}}, 0); got != "one client: nothing admitted yet" {
		t.Errorf("one client, nothing admitted: %q", got)
	}
}

// TestLinkTakesWhatFieldsTake: a link's lane and client take exactly what
// the page's own fields take, from one definition (sim.LaneRanges,
// sim.PatternRanges, sim.WeightRange): a value just outside a field's range
// is refused by the field and by a link, and a lane's range ends are taken
// by both. A lane's number above its range is refused by both in the same
// words. A link's lane far out of its fields' range froze the tab.
func TestLinkTakesWhatFieldsTake(t *testing.T) {
	// text is field value v of range r written as a link writes it.
	text := func(r sim.Range, v float64) string {
		if r.Dur != 0 {
			return time.Duration(math.Round(v * float64(r.Dur))).String()
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	outside := func(p units.Param) []float64 {
		lo, hi := p.Min/2, p.Max*2
		if p.Integer || p.Min == 0 {
			lo = p.Min - 1
		}
		if p.Integer {
			hi = p.Max + 1
		}
		return []float64{lo, hi}
	}
	check := func(what, key, value string, r sim.Range, p units.Param, v float64) {
		t.Helper()
		in := v >= p.Min && v <= p.Max
		_, ferr := p.Parse(units.Num(v))
		_, lerr := sim.DecodeSetup(url.Values{key: {value}})
		switch {
		case in && (ferr != nil || lerr != nil):
			t.Errorf("%s %s = %s, in range: field %v; link %s=%s: %v", what, p.Name, units.Num(v), ferr, key, value, lerr)
		case !in && (ferr == nil || lerr == nil):
			t.Errorf("%s %s = %s, out of range: field %v; link %s=%s: %v", what, p.Name, units.Num(v), ferr, key, value, lerr)
		case !in && key == "lane" && v > p.Max && r.Dur == 0:
			if !strings.Contains(lerr.Error(), ": "+ferr.Error()+";") {
				t.Errorf("%s %s = %s: link says %q; want the field's %q", what, p.Name, units.Num(v), lerr, ferr)
			}
		}
	}
	base := map[limiter.Kind][2]float64{limiter.KindTokenBucket: {10, 10}, limiter.KindGCRA: {10, 10}, limiter.KindLeakyBucket: {10, 100},
		limiter.KindFixedWindow: {10, 1}, limiter.KindSlidingWindowLog: {10, 1}, limiter.KindSlidingWindowCounter: {10, 1}}
	for _, k := range limiter.Kinds {
		rs := sim.LaneRanges(k)
		for i, lp := range laneParams(0, k) {
			for _, v := range append(outside(lp.Param), lp.Min, lp.Max) {
				vals := base[k]
				vals[i] = v
				check(string(k), "lane", string(k)+","+text(rs[0], vals[0])+","+text(rs[1], vals[1]), rs[i], lp.Param, v)
			}
		}
	}
	pbase := map[sim.PatternKind][]float64{sim.PatternSteady: {5}, sim.PatternPoisson: {5}, sim.PatternOnOff: {5, 1000, 1000},
		sim.PatternRamp: {1, 5, 1000}, sim.PatternEdge: {5, 1000, 10}}
	for _, k := range sim.PatternKinds {
		rs := sim.PatternRanges(k)
		for i, pp := range patternParams(0, k) {
			for _, v := range outside(pp.Param) {
				vals := slices.Clone(pbase[k])
				vals[i] = v
				link := "a,1,," + string(k)
				for j, x := range vals {
					link += "," + text(rs[j], x)
				}
				check(string(k), "client", link, rs[i], pp.Param, v)
			}
		}
	}
	weight := fieldOf(sim.WeightRange, "", 0, false)
	for _, v := range outside(weight) {
		check("client", "client", "a,"+text(sim.WeightRange, v)+",,none", sim.WeightRange, weight, v)
	}
}
