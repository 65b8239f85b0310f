package lab

import (
	"math"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// Lane drawing geometry (SVG user units), one shared time axis for all
// lanes.
const (
	laneW              = 600.0
	laneH              = 140.0
	stripTop, stripBot = 12.0, 48.0
	okY, noY           = 22.0, 40.0
	rateTop, rateBot   = 56.0, 96.0
	stateTop, stateBot = 104.0, 136.0
	markCol            = 3.0 // marks are merged per column of this width
	nCols              = int(laneW / markCol)
)

// labFrameEvery is the lanes view's frame period: 30 redraws a second
// leave the browser every other frame to paint (six lanes at 200 requests/s).
const labFrameEvery = time.Second / 30

// labLanes is the lab's right column: the clock and scrubber, every lane
// drawn live on one shared time axis, and the per-client totals. It owns the
// animation loop: each frame moves the simulated clock by the real time
// elapsed (many requests per frame) and redraws this component only.
type labLanes struct {
	app.Compo
	M *labModel

	loop  ui.Frames
	drawn uint64
	// editsDrawn is the model's edits when the left column was last
	// redrawn for them.
	editsDrawn uint64
	urlAt      time.Time
	url        string

	hist   []sim.Record
	bks    []sim.Bucket
	pts    []sim.StatePoint
	buf    []byte
	okCol  [nCols]int32
	noCol  [nCols]int32
	stacks [][2]int // the history's [i, j) of each burst drawn as a stack
	counts []int    // the columns whose burst is drawn as marks with counts
	totals *totalsSnap
	totAt  time.Time
	totVer uint64

	// The timeline slider's value as last drawn, and as set on the
	// element (see frame).
	scrubAt int
	scrub   ui.RangeValue
}

func (v *labLanes) OnMount(ctx app.Context) {
	if !app.IsClient { // native component tests draw frames by hand
		return
	}
	browser.InstallKeyGuard()
	browser.InstallWheelGuard()
	v.loop.Start(ctx, v, labFrameEvery, v.frame)
}

// frame runs on the UI goroutine: it advances the clock, keeps the link in
// the address bar current, and redraws when anything moved.
func (v *labLanes) frame(ctx app.Context, now time.Time, dt time.Duration) bool {
	m := v.M
	m.revealDrawn()
	m.runStep() // "Run to end": this frame's parts
	if m.scrub == nil && !m.lab.Clock().Paused() {
		behind, err := m.lab.Tick(dt)
		if err != nil {
			m.setErr("clock", err)
			m.lab.Clock().Pause()
			m.changed()
		}
		if behind {
			m.behind = behindFrames
		} else if m.behind > 0 {
			m.behind--
		}
		m.moved()
	}
	if m.edits != v.editsDrawn && m.redrawControls != nil {
		v.editsDrawn = m.edits
		m.redrawControls()
	}
	if now.Sub(v.urlAt) > 300*time.Millisecond {
		v.urlAt = now
		v.syncURL(ctx)
	}
	// A changed max (after "Run to end", or "+1 s" while paused) is drawn
	// in an earlier frame: the value set here stays.
	v.scrub.Sync("scrub", v.scrubAt)
	return m.version != v.drawn
}

// syncURL writes the setup into the address bar, the share field and the
// quiz link when it changed.
func (v *labLanes) syncURL(ctx app.Context) {
	q := linkQuery(v.M)
	if q == v.url || v.M.unlinked {
		return
	}
	v.url = q
	u := *ctx.Page().URL()
	u.RawQuery = q
	ctx.Page().ReplaceURL(&u)
	if el := browser.ByID("share-link"); el.Truthy() {
		el.Set("value", shareLink(v.M))
	}
	// The quiz link too: the left column is not redrawn for a lane's
	// changes, so its link kept the setup it was drawn with.
	if el := browser.ByID("quiz-this"); el.Truthy() {
		el.Set("href", quizLinkFor(v.M))
	}
	if v.M.copied != "" && v.M.copied != shareLink(v.M) {
		// "Copied ✓" was about the link before this change (a copy made
		// since the change, before this frame, keeps it).
		v.M.copied = ""
		v.M.changed()
	}
}

func (v *labLanes) Render() app.UI {
	m := v.M
	v.drawn = m.version
	l := m.shown()
	a := v.M.zoom.axis(l)
	lanes := l.Lanes()

	// One rate scale for every lane, so their charts compare.
	rmax := 1.0
	width := l.Options().ChartBucket
	for _, ln := range lanes {
		v.bks = ln.Buckets(v.bks[:0])
		for _, b := range v.bks {
			if b.Start+width >= a.From {
				o, _ := b.Rates(width)
				rmax = max(rmax, o)
			}
		}
	}
	rmax = niceCeil(rmax)

	// Twice a second while the clock or "Run to end" runs (a trace of
	// 200,000 clients takes a while to rank), at once when paused.
	if v.totals == nil || (v.totVer != m.version && (time.Since(v.totAt) > 500*time.Millisecond || l.Clock().Paused() && m.toEnd == nil)) {
		v.totals, v.totAt, v.totVer = snapTotals(l), time.Now(), m.version
	}

	laneUIs := make([]app.UI, 0, len(lanes)+1)
	s := m.lab.Setup()
	for i, ln := range lanes {
		// Each lane has a slot of its own, the inspector right under the
		// lane it explains (so both stay in view): opening or closing it
		// moves no other lane, whose chart (and focus) would be rebuilt.
		var insp app.UI = app.Text("")
		if m.insp != nil && m.insp.lane == i {
			insp = v.inspectorUI()
		}
		laneUIs = append(laneUIs, app.Elem("div").Class("lane-slot").Body(v.lane(i, ln, l, a, rmax, s, len(lanes)), insp))
	}
	return app.Elem("div").Class("lab-main").Body(
		v.timebar(l),
		app.Elem("section").Class("card lanes").Attr("aria-label", "Lanes").Body(
			v.legend(l, s, rmax),
			app.Elem("div").Class("lane axis-row").Body(
				app.Elem("div").Class("lane-side axis-side").Body(app.Text("time (simulated) →"), v.zoomBar(l)),
				v.axisSVG(a),
			),
			app.Elem("div").ID("lanes").Body(laneUIs...),
			app.If(len(lanes) == 0, app.Elem("p").Class("hint").Text("No lanes: add one from “+ Add a lane…”.")),
		),
		&labTotals{M: m, Snap: v.totals},
	)
}

// legend names the lines and marks, and the client whose state is drawn
// (one of the setup's clients, or of the trace's).
func (v *labLanes) legend(l *sim.Lab, setup sim.Setup, rmax float64) app.UI {
	sent := 0
	if v.totals != nil {
		sent = v.totals.Clients // twice a second: the picker lists them anew
	}
	return app.Elem("div").Class("legend lab-legend").Body(
		// The marks are every client's; the state line is one client's:
		// with two clients a ✕ can stand where that line shows room.
		app.Elem("span").Class("key ok").Text("✓ allowed (all clients)"),
		app.Elem("span").Class("key no").Text("✕ denied (all clients)"),
		app.Elem("span").Class("key worst").Text("▮ worst-case stretch (all clients)"),
		app.Elem("span").Class("key stack").Text("≡ a burst: one bar per request (×25: its count)"),
		app.Elem("span").Class("key offered").Text("— offered rate (all clients)"),
		app.Elem("span").Class("key admitted").Text("— admitted rate (all clients)"),
		app.Elem("span").Class("key tok").Text("— state of one client (tokens, level, count)"),
		app.Elem("span").ID("rate-scale").Text("rate scale 0–"+units.Num(rmax)+"/s"),
		&clientPicker{M: v.M, Focus: l.Focus(), Sent: sent},
	)
}

// tierOf maps the clients of s that have a tier to it, for a lane with
// tiers (nil otherwise: the lanes draw every frame).
func tierOf(s sim.Setup, spec sim.LaneSpec) map[string]string {
	if len(spec.Tiers) == 0 {
		return nil
	}
	m := map[string]string{}
	for _, c := range s.Clients {
		if c.Tier != "" {
			m[c.Name] = c.Tier
		}
	}
	return m
}

// lane draws lane i: its editor, counts, worst case, live state, and the
// strip and charts on the shared axis.
func (v *labLanes) lane(i int, ln *sim.Lane, l *sim.Lab, a ui.Axis, rmax float64, s sim.Setup, n int) app.UI {
	id := "lane-" + strconv.Itoa(i)
	spec := ln.Spec()
	if i < len(s.Lanes) {
		spec = s.Lanes[i]
	}
	wc := ln.Worst()
	st := ln.State(l.Now(), l.Focus())
	stateText, gauge := stateLine(st, l.Now())
	return app.Elem("div").ID(id).Class("lane").Body(
		app.Elem("div").Class("lane-side").Body(
			&laneEditor{M: v.M, I: i, N: n, Spec: spec, TierOf: tierOf(s, spec), Err: laneErrs(v.M, i)},
			laneAggregates(id, ln, l.Now()),
			app.Elem("div").Class("lane-state").Body(
				app.Elem("span").ID(id+"-state-of").Class("state-of").Title(l.Focus()).Text(l.Focus()+": "),
				app.Elem("span").ID(id+"-state").Text(stateText),
				app.Elem("div").Class("gauge").Body(app.Elem("div").Class("gauge-fill").Style("width", ui.F1(gauge*100)+"%")),
			),
			v.selLine(id, i, ln),
		),
		v.laneSVG(i, id, ln, l, a, rmax, st, wc),
	)
}

// laneErrs joins the messages of lane i's controls (so its editor redraws
// when they change).
func laneErrs(m *labModel, i int) string {
	p := "lane-" + strconv.Itoa(i) + "-"
	var s string
	for _, k := range []string{"kind", "p1", "p2"} {
		if e, ok := m.errs[p+k]; ok {
			s += k + "\x00" + e + "\x00"
		}
	}
	return s
}

// stateLine describes a strategy's state in the field's terms, and how
// full it is (0 to 1) for the gauge.
func stateLine(st limiter.State, now sim.Instant) (string, float64) {
	frac := func(x float64) float64 {
		if st.Limit <= 0 {
			return 0
		}
		return min(max(x/float64(st.Limit), 0), 1)
	}
	lim := strconv.Itoa(st.Limit)
	switch st.Kind {
	case limiter.KindTokenBucket:
		return "tokens " + units.FormatTokens(st.Tokens) + " of " + lim + " · refill " + units.Num(math.Round(st.Rate*100)/100) + "/s", frac(st.Tokens)
	case limiter.KindGCRA:
		ahead := max(st.TAT-now, 0)
		return "TAT − now = " + units.FormatSeconds(ahead) + " of tolerance " + units.FormatSeconds(st.Tolerance) + " → " + units.FormatTokens(st.Tokens) + " tokens", frac(st.Tokens)
	case limiter.KindLeakyBucket:
		var delay time.Duration
		if st.Rate > 0 {
			delay = time.Duration(st.Level / st.Rate * float64(time.Second))
		}
		return "water level " + units.FormatTokens(st.Level) + " of " + lim + " · queue delay " + units.FormatRetry(delay), frac(st.Level)
	case limiter.KindFixedWindow:
		return "window [" + units.FormatSecs(st.WindowStart) + " s, " + units.FormatSecs(st.WindowStart+st.Window) + " s): " + strconv.Itoa(st.Count) + " of " + lim, frac(float64(st.Count))
	case limiter.KindSlidingWindowLog:
		return strconv.Itoa(len(st.Log)) + " timestamps in the last " + units.FormatWindow(st.Window) + " (of " + lim + ")", frac(float64(st.Count))
	case limiter.KindSlidingWindowCounter:
		w := 0.0
		if st.Window > 0 {
			w = 1 - float64(now-st.WindowStart)/float64(st.Window)
		}
		return "previous " + strconv.Itoa(st.Previous) + " × " + strconv.Itoa(int(math.Round(w*100))) + "% + current " + strconv.Itoa(st.Count) +
			" = " + units.FormatTokens(st.Weighted) + " of " + lim, frac(st.Weighted)
	}
	return "", 0
}
