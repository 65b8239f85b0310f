package sim

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// allKinds returns one lane per kind on the budget limit per window.
func allKinds(t testing.TB, limit int, window time.Duration) []LaneSpec {
	var ls []LaneSpec
	for _, k := range limiter.Kinds {
		c, err := SameBudget(k, limit, window)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, LaneSpec{Config: c})
	}
	return ls
}

func mixedSetup(t testing.TB) Setup {
	lanes := allKinds(t, 10, time.Second)
	pro, _ := SameBudget(limiter.KindTokenBucket, 50, time.Second)
	lanes[0].Tiers = map[string]limiter.Config{"pro": pro}
	return Setup{
		Lanes: lanes,
		Clients: []Client{
			{Name: "alice", Pattern: Pattern{Kind: PatternPoisson, Rate: 12}, Weight: 1},
			{Name: "bob", Pattern: Pattern{Kind: PatternOnOff, Rate: 30, On: 400 * ms, Off: 1100 * ms}, Weight: 1, Tier: "pro"},
			{Name: "mallory", Pattern: Pattern{Kind: PatternEdge, Size: 10, Window: time.Second, Gap: 5 * ms}, Weight: 1},
			{Name: "carol", Pattern: Pattern{Kind: PatternRamp, Rate: 1, To: 20, Ramp: 5 * time.Second}, Weight: 0.5},
		},
		Seed: 2024, Speed: 3, Worst: time.Second,
	}
}

type laneDecision struct {
	lane int
	r    Record
}

// run drives a lab for s through uneven frames, with clicks, recording
// every decision.
func run(t *testing.T, s Setup, frames []time.Duration) []laneDecision {
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []laneDecision
	lab.OnDecision = func(i int, r Record) { got = append(got, laneDecision{i, r}) }
	for i, f := range frames {
		if _, err := lab.Tick(f); err != nil {
			t.Fatal(err)
		}
		if i%7 == 3 {
			if err := lab.Fire("dave", 1+i%5); err != nil {
				t.Fatal(err)
			}
		}
	}
	return got
}

func TestSameSeedSameDecisions(t *testing.T) {
	s := mixedSetup(t)
	var frames []time.Duration
	for i := range 400 {
		frames = append(frames, time.Duration(5+i%23)*ms)
	}
	a, b := run(t, s, frames), run(t, s, frames)
	if len(a) < 6*900 {
		t.Fatalf("only %d decisions; want a busy run", len(a))
	}
	if len(a) != len(b) {
		t.Fatalf("runs made %d and %d decisions", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("decision %d differs: %+v vs %+v", i, a[i], b[i])
		}
	}
	// Every lane saw the same requests in the same order.
	var reqs [6][]Event
	for _, d := range a {
		reqs[d.lane] = append(reqs[d.lane], Event{d.r.At, d.r.Client, d.r.N})
	}
	for i := 1; i < 6; i++ {
		if !reflect.DeepEqual(reqs[0], reqs[i]) {
			t.Errorf("lane %d saw other requests than lane 1", i+1)
		}
	}
	// Another seed changes the decisions.
	s.Seed++
	if c := run(t, s, frames); reflect.DeepEqual(a, c) {
		t.Error("another seed gave the same decisions")
	}
}

// snapshot is everything a lab shows.
type snapshot struct {
	Now       Instant
	Processed int
	Clients   []string
	Lanes     []laneSnapshot
}

type laneSnapshot struct {
	Spec      string
	Total     Counts
	PerClient map[string]Counts
	History   []Record
	Buckets   []Bucket
	Current   Bucket
	Worst     WorstCase
	States    map[string]limiter.State
}

func snap(l *Lab) snapshot {
	s := snapshot{Now: l.Now(), Processed: l.Processed(), Clients: append([]string(nil), l.Clients()...)}
	for _, ln := range l.Lanes() {
		ls := laneSnapshot{Spec: ln.Spec().Config.String(), Total: ln.Total(), PerClient: map[string]Counts{}, States: map[string]limiter.State{},
			History: ln.History(nil), Buckets: ln.Buckets(nil), Current: ln.Current(), Worst: ln.Worst()}
		for _, c := range l.Clients() {
			ls.PerClient[c] = ln.Client(c)
			ls.States[c] = ln.State(l.Now(), c)
		}
		s.Lanes = append(s.Lanes, ls)
	}
	return s
}

func TestScrubberEqualsFreshRun(t *testing.T) {
	s := mixedSetup(t)
	fires := []struct {
		at Instant
		n  int
	}{{300 * ms, 3}, {1250 * ms, 20}, {1250 * ms, 1}, {2600 * ms, 5}, {4000 * ms, 2}}
	drive := func(until Instant) *Lab {
		lab, err := New(s, nil, Options{History: 64, ChartLen: 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fires {
			if f.at > until {
				break
			}
			lab.AdvanceTo(f.at)
			if err := lab.Fire("dave", f.n); err != nil {
				t.Fatal(err)
			}
		}
		if err := lab.AdvanceTo(until); err != nil {
			t.Fatal(err)
		}
		return lab
	}
	live := drive(7300 * ms)
	for _, at := range []Instant{0, 300 * ms, 1250 * ms, 2999 * ms, 4000 * ms, 7300 * ms} {
		past, err := live.At(at)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := snap(past), snap(drive(at)); !reflect.DeepEqual(got, want) {
			t.Errorf("At(%v) differs from a fresh run stopped there:\n%+v\nwant\n%+v", at, got.Lanes[0].Total, want.Lanes[0].Total)
		}
	}
	if _, err := live.At(8 * time.Second); err == nil || err.Error() != "scrub: instant 8s is out of range; want 0 to 7.3s" {
		t.Errorf("At(8s) error = %v", err)
	}
	// Scrubbing leaves the live lab as it was.
	if live.Now() != 7300*ms || !reflect.DeepEqual(snap(live), snap(drive(7300*ms))) {
		t.Error("At changed the live lab")
	}
}

func TestClock(t *testing.T) {
	c := NewClock()
	if got := c.Advance(16 * ms); got != 16*ms {
		t.Errorf("1×: %v", got)
	}
	if err := c.SetSpeed(100); err != nil {
		t.Fatal(err)
	}
	if got := c.Advance(10 * time.Second); got != 16*ms+25*time.Second { // clamped to 250 ms × 100
		t.Errorf("clamped 100×: %v", got)
	}
	for _, x := range []float64{0.05, 101, 0} {
		if err := c.SetSpeed(x); err == nil || !strings.HasSuffix(err.Error(), "is out of range; want 0.1× to 100×") {
			t.Errorf("SetSpeed(%g) error = %v", x, err)
		}
	}
	if err := c.SetSpeed(0.1); err != nil {
		t.Fatal(err)
	}
	c.Reset()
	if got := c.Advance(30 * ms); got != 3*ms {
		t.Errorf("0.1×: %v", got)
	}
	c.Pause()
	if got := c.Advance(time.Second); got != 3*ms {
		t.Errorf("paused: %v", got)
	}
	if got := c.Step(100 * ms); got != 103*ms {
		t.Errorf("step while paused: %v", got)
	}
	c.Resume()
	if got := c.Advance(-time.Second); got != 103*ms {
		t.Errorf("negative real time: %v", got)
	}
}

func TestStepRequestAndFire(t *testing.T) {
	s := Setup{Lanes: allKinds(t, 2, time.Second)[:1], Clients: []Client{{Name: "a", Pattern: Pattern{Kind: PatternSteady, Rate: 4}}}, Speed: 1, Worst: time.Second}
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lab.Clock().Pause()
	var got []string
	for range 3 {
		e, ok, err := lab.StepRequest()
		if !ok || err != nil {
			t.Fatal(ok, err)
		}
		got = append(got, e.At.String())
	}
	if w := []string{"0s", "250ms", "500ms"}; !reflect.DeepEqual(got, w) || lab.Now() != 500*ms {
		t.Errorf("stepped to %v, now %v; want %v", got, lab.Now(), w)
	}
	if _, err := lab.Tick(time.Second); err != nil || lab.Processed() != 3 {
		t.Errorf("paused Tick processed %d, %v", lab.Processed(), err)
	}
	lab.Step(100 * ms)
	if err := lab.Fire("b", 3); err != nil {
		t.Fatal(err)
	}
	if c := lab.Lanes()[0].Client("b"); c != (Counts{Allowed: 2, Denied: 1}) {
		t.Errorf("burst ×3 against burst 2: %+v; want 2 allowed, 1 denied", c)
	}
	if err := lab.Fire("b", 0); err == nil || err.Error() != "fire: count 0 is out of range; want 1 to 1000" {
		t.Errorf("Fire 0 error = %v", err)
	}
	lab.Reset()
	if lab.Now() != 0 || lab.Processed() != 0 || lab.Lanes()[0].Total() != (Counts{}) {
		t.Error("Reset kept state")
	}
}

func TestExportCSV(t *testing.T) {
	s := Setup{Lanes: allKinds(t, 2, time.Second)[3:5], Clients: []Client{{Name: "a", Pattern: Pattern{Kind: PatternSteady, Rate: 4}}}, Speed: 1, Worst: time.Second}
	lab, _ := New(s, nil, Options{})
	lab.AdvanceTo(900 * ms)
	lab.Fire("b", 1)
	var b strings.Builder
	if err := lab.ExportCSV(&b); err != nil {
		t.Fatal(err)
	}
	want := `lane,strategy,client,allowed,denied
1,fixed window: 2 per 1s,a,2,2
1,fixed window: 2 per 1s,b,1,0
2,sliding window log: 2 per 1s,a,2,2
2,sliding window log: 2 per 1s,b,1,0
`
	if b.String() != want {
		t.Errorf("CSV =\n%s\nwant\n%s", b.String(), want)
	}
}

// TestExportCSVInert: names that a spreadsheet reads as formulas are
// written after a single quote (OWASP, CSV injection); others as they are.
// (Each client has its own limiter: every first request is allowed.)
func TestExportCSVInert(t *testing.T) {
	s := Setup{Lanes: allKinds(t, 2, time.Second)[3:4], Speed: 1, Worst: time.Second}
	lab, _ := New(s, nil, Options{})
	for _, name := range []string{`=HYPERLINK("http://x","y")`, "+1", "-2", "@SUM(A1)", "a=b", "alice"} {
		lab.Fire(name, 1)
	}
	var b strings.Builder
	if err := lab.ExportCSV(&b); err != nil {
		t.Fatal(err)
	}
	want := `lane,strategy,client,allowed,denied
1,fixed window: 2 per 1s,"'=HYPERLINK(""http://x"",""y"")",1,0
1,fixed window: 2 per 1s,'+1,1,0
1,fixed window: 2 per 1s,'-2,1,0
1,fixed window: 2 per 1s,'@SUM(A1),1,0
1,fixed window: 2 per 1s,a=b,1,0
1,fixed window: 2 per 1s,alice,1,0
`
	if b.String() != want {
		t.Errorf("CSV =\n%s\nwant\n%s", b.String(), want)
	}
}

// TestEventsOf: a steady client and two Fire clicks at one instant, with a
// history of 2 decisions: EventsOf rebuilds every request from the source,
// in the order decided, and replaying them through a fresh limiter gives
// the lane's decisions.
func TestEventsOf(t *testing.T) {
	tb := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 2}
	s := Setup{
		Lanes: []LaneSpec{{Config: tb}},
		Clients: []Client{
			{Name: "s", Pattern: Pattern{Kind: PatternSteady, Rate: 2}},
			{Name: "you", Pattern: Pattern{Kind: PatternNone}},
		},
		Seed: 1, Speed: 1, Worst: time.Second,
	}
	lab, err := New(s, nil, Options{History: 2})
	if err != nil {
		t.Fatal(err)
	}
	lab.Clock().Pause()
	if err := lab.AdvanceTo(time.Second); err != nil {
		t.Fatal(err)
	}
	if err := lab.Fire("you", 2); err != nil {
		t.Fatal(err)
	}
	ev := func(ms_ int, c string) Event { return Event{At: Instant(ms_) * ms, Client: c, N: 1} }
	for _, tc := range []struct {
		client string
		until  Instant
		want   []Event
	}{
		{"", time.Second, []Event{ev(0, "s"), ev(500, "s"), ev(1000, "s"), ev(1000, "you"), ev(1000, "you")}},
		{"s", time.Second, []Event{ev(0, "s"), ev(500, "s"), ev(1000, "s")}},
		{"s", 600 * ms, []Event{ev(0, "s"), ev(500, "s")}},
		{"s", 500 * ms, []Event{ev(0, "s"), ev(500, "s")}},
		{"you", time.Second, []Event{ev(1000, "you"), ev(1000, "you")}},
		{"you", 999 * ms, nil},
		{"nobody", time.Second, nil},
	} {
		got, err := lab.EventsOf(tc.client, tc.until)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("EventsOf(%q, %v) = %v, %v; want %v", tc.client, tc.until, got, err, tc.want)
		}
	}
	// The history keeps only the last 2 decisions (both clicks).
	if h := lab.Lanes()[0].History(nil); len(h) != 2 || h[0].Client != "you" || h[1].Client != "you" {
		t.Fatalf("history %+v; want the two clicks", h)
	}
	// Replayed per client through a fresh limiter, the events give the
	// lane's counts: s 3 allowed (burst 2, +1 token by 1 s); you 2 allowed.
	for _, c := range []string{"s", "you"} {
		events, _ := lab.EventsOf(c, lab.Now())
		st, _ := limiter.New(tb)
		var got Counts
		for _, e := range events {
			d, err := st.AllowN(e.At, e.N)
			if err != nil {
				t.Fatal(err)
			}
			if d.Allowed {
				got.Allowed++
			} else {
				got.Denied++
			}
		}
		if want := lab.Lanes()[0].Client(c); got != want {
			t.Errorf("replayed %s: %+v; lane %+v", c, got, want)
		}
	}
	if c := lab.Lanes()[0].Client("you"); c != (Counts{Allowed: 2}) {
		t.Errorf("you: %+v; want 2 allowed", c)
	}
	if _, err := lab.EventsOf("s", 1001*ms); err == nil || err.Error() != "events: instant 1.001s is out of range; want 0 to 1s" {
		t.Errorf("EventsOf after now: %v", err)
	}
	if _, err := lab.EventsOf("s", -1); err == nil {
		t.Error("EventsOf(-1): no error")
	}

	// StepRequest decides one request of an instant: the others, due at
	// the same instant, are not in EventsOf yet.
	s2 := Setup{Lanes: []LaneSpec{{Config: tb}}, Clients: []Client{
		{Name: "a", Pattern: Pattern{Kind: PatternSteady, Rate: 1}},
		{Name: "b", Pattern: Pattern{Kind: PatternSteady, Rate: 1}},
	}, Seed: 1, Speed: 1, Worst: time.Second}
	lab2, err := New(s2, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := lab2.StepRequest(); err != nil {
		t.Fatal(err)
	}
	if got, err := lab2.EventsOf("", 0); err != nil || !reflect.DeepEqual(got, []Event{ev(0, "a")}) {
		t.Errorf("after one StepRequest: %v, %v; want [a at 0]", got, err)
	}
	// The scrubbed copy has its own past: the clicks at 1 s are not in it.
	lab.Fire("you", 1)
	past, err := lab.At(999 * ms)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := past.EventsOf("you", past.Now()); got != nil {
		t.Errorf("scrubbed to 0.999 s: you %v; want none", got)
	}
}

// TestTickBudget: at 100×, a client of 10,000 requests/s is due 250,000
// requests in a 250 ms frame. A tick decides at most MaxTickDecisions (on
// three lanes, a third as many requests), stops between two instants and
// says it is behind; later ticks decide the rest in order, and the
// decisions are those of a lab moved straight to the same instant.
func TestTickBudget(t *testing.T) {
	s := Setup{Lanes: allKinds(t, 100, time.Second)[:3], Clients: []Client{{Name: "a", Pattern: Pattern{Kind: PatternSteady, Rate: 10000}}}, Speed: 100, Worst: time.Second}
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []laneDecision
	lab.OnDecision = func(i int, r Record) { got = append(got, laneDecision{i, r}) }
	per := MaxTickDecisions / 3
	gap := 100 * time.Microsecond // steady 10,000/s: requests at 0, 100µs, 200µs, …
	behind, err := lab.Tick(250 * ms)
	// The clock stops 1 ns before the first request left for later.
	if err != nil || !behind || lab.Processed() != per || lab.Now() != time.Duration(per)*gap-1 {
		t.Fatalf("first tick: behind %v, %d decided, now %v, %v; want behind, %d, %v", behind, lab.Processed(), lab.Now(), err, per, time.Duration(per)*gap-1)
	}
	for range 11 {
		if behind, err = lab.Tick(250 * ms); err != nil || !behind {
			t.Fatalf("tick: behind %v, %v", behind, err)
		}
	}
	if lab.Processed() != 12*per || lab.Now() != time.Duration(12*per)*gap-1 {
		t.Fatalf("after 12 ticks: %d decided, now %v; want %d, %v", lab.Processed(), lab.Now(), 12*per, time.Duration(12*per)*gap-1)
	}
	// At 0.1×, 10 ms of real time is 1 ms: 10 requests, and the lab is no
	// longer behind.
	if err := lab.Clock().SetSpeed(0.1); err != nil {
		t.Fatal(err)
	}
	want := time.Duration(12*per)*gap - 1 + ms
	if behind, err = lab.Tick(10 * ms); err != nil || behind || lab.Processed() != 12*per+10 || lab.Now() != want {
		t.Fatalf("slow tick: behind %v, %d decided, now %v, %v; want not behind, %d, %v", behind, lab.Processed(), lab.Now(), err, 12*per+10, want)
	}
	straight, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var all []laneDecision
	straight.OnDecision = func(i int, r Record) { all = append(all, laneDecision{i, r}) }
	if err := straight.AdvanceTo(lab.Now()); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(all) || len(got) != 3*(12*per+10) {
		t.Fatalf("%d decisions, straight %d; want %d", len(got), len(all), 3*(12*per+10))
	}
	if !reflect.DeepEqual(got, all) {
		t.Error("the budgeted ticks decided otherwise than a lab moved straight to the same instant")
	}
	for i, ln := range lab.Lanes() {
		if a, b := ln.Total(), straight.Lanes()[i].Total(); a != b {
			t.Errorf("lane %d: totals %v, straight %v", i, a, b)
		}
	}
}

// TestAdvanceTowardSteps: AdvanceToward decides at most maxDecisions
// decisions per call (on two lanes, half as many requests), may stop within
// an instant (five requests at 0 ms, three decided), moves the clock to the
// last request decided, and to the target once everything due is decided.
func TestAdvanceTowardSteps(t *testing.T) {
	tr, err := ParseTrace("t.csv", []byte("t_ms,client\n0,a\n0,a\n0,b\n0,a\n0,b\n10,b\n20,a\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := Setup{Lanes: allKinds(t, 2, time.Second)[:2], Speed: 1, Worst: time.Second}
	lab, err := New(s, tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		processed int
		now       Instant
		done      bool
	}{{3, 0, false}, {6, 10 * ms, false}, {7, 30 * ms, true}, {7, 30 * ms, true}}
	for i, want := range steps {
		done, err := lab.AdvanceToward(30*ms, 6)
		if err != nil || done != want.done || lab.Processed() != want.processed || lab.Now() != want.now {
			t.Fatalf("call %d: done %v, %d decided, now %v, %v; want %v, %d, %v", i+1, done, lab.Processed(), lab.Now(), err, want.done, want.processed, want.now)
		}
	}
	// The first lane (fixed window, 2 per 1 s) admitted the first two of
	// a's requests and the first two of b's.
	if got := lab.Lanes()[0].Total(); got != (Counts{Allowed: 4, Denied: 3}) {
		t.Errorf("lane 1 totals %+v; want 4 allowed, 3 denied", got)
	}
	// An instant before the clock moves nothing; a budget below one request
	// still decides one.
	if done, err := lab.AdvanceToward(20*ms, 1); err != nil || !done || lab.Now() != 30*ms {
		t.Errorf("AdvanceToward(20 ms) at 30 ms: done %v, now %v, %v; want done, 30ms", done, lab.Now(), err)
	}
	lab2, _ := New(s, tr, Options{})
	if done, err := lab2.AdvanceToward(time.Second, 0); err != nil || done || lab2.Processed() != 1 || lab2.Now() != 0 {
		t.Errorf("budget 0: done %v, %d decided, now %v, %v; want not done, 1, 0", done, lab2.Processed(), lab2.Now(), err)
	}
}

// TestAdvanceTowardEqualsAdvanceTo: called until done, AdvanceToward leaves
// the lab exactly as one AdvanceTo to the same instant (RunTrace): the same
// decisions in order, history, totals, worst case, charts (buckets skipped
// over a long gap, the focus client's state sampled) and limiter states,
// for budgets from one request up to MaxTickDecisions, from instant 0 and
// from a clock already moved with manual requests.
func TestAdvanceTowardEqualsAdvanceTo(t *testing.T) {
	var b strings.Builder
	b.WriteString("t_ms,client\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "%d,u%d\n", i*7/10, i%37) // several requests per ms
	}
	for range 50 {
		b.WriteString("2500,burst\n") // one instant, more than a small budget
	}
	b.WriteString("20000,u1\n20000,late\n") // 17.5 s later: chart buckets skipped
	tr, err := ParseTrace("t.csv", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	s := mixedSetup(t)
	s.Focus = "u1"
	opts := Options{History: 256, ChartLen: 20}
	type result struct {
		snap      snapshot
		decisions []laneDecision
		calls     int
		left      int // requests due when the calls began
	}
	drive := func(budget int, pre bool) result {
		lab, err := New(s, tr, opts)
		if err != nil {
			t.Fatal(err)
		}
		var r result
		lab.OnDecision = func(i int, rec Record) { r.decisions = append(r.decisions, laneDecision{i, rec}) }
		if pre {
			if err := lab.AdvanceTo(1234 * ms); err != nil {
				t.Fatal(err)
			}
			if err := lab.Fire("dave", 7); err != nil {
				t.Fatal(err)
			}
		}
		end := lab.TraceEnd()
		r.left = -lab.Processed()
		if budget == 0 {
			if err := lab.RunTrace(); err != nil {
				t.Fatal(err)
			}
		} else {
			for done := false; !done; r.calls++ {
				if done, err = lab.AdvanceToward(end, budget); err != nil {
					t.Fatal(err)
				}
				if r.calls > 1e6 {
					t.Fatal("AdvanceToward never done")
				}
			}
		}
		if lab.Now() != 20*time.Second {
			t.Fatalf("budget %d: now %v; want 20s", budget, lab.Now())
		}
		r.left += lab.Processed()
		r.snap = snap(lab)
		return r
	}
	for _, pre := range []bool{false, true} {
		want := drive(0, pre)
		for _, budget := range []int{1, 7, 100, 6 * 51, MaxTickDecisions} {
			got := drive(budget, pre)
			if !reflect.DeepEqual(got.decisions, want.decisions) {
				t.Errorf("budget %d (clock moved first %v): %d decisions differ from RunTrace's %d", budget, pre, len(got.decisions), len(want.decisions))
			}
			if !reflect.DeepEqual(got.snap, want.snap) {
				t.Errorf("budget %d (clock moved first %v): the lab differs from RunTrace's", budget, pre)
			}
			// Six lanes: budget/6 requests a call (at least one); the last
			// call finds nothing more due and is done.
			if per := max(1, budget/6); got.calls != (got.left+per-1)/per {
				t.Errorf("budget %d: %d calls for %d requests; want %d", budget, got.calls, got.left, (got.left+per-1)/per)
			}
		}
	}
}

// "Run to end" on a trace whose last request is at MaxTraceSpan (158
// years) ends there with both requests decided. A trace at the largest
// instant (292 years, refused now) never ended: the charts' bucket arithmetic overflowed.
func TestRunTraceToMaxSpan(t *testing.T) {
	tr, err := ParseTrace("far.csv", []byte("0,a\n5000000000000,a\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := DefaultSetup()
	for i := range s.Clients {
		s.Clients[i].Pattern = Pattern{Kind: PatternNone}
	}
	lab, err := New(s, tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.RunTrace(); err != nil {
		t.Fatal(err)
	}
	if lab.Now() != MaxTraceSpan {
		t.Errorf("Now = %v, want %v", lab.Now(), MaxTraceSpan)
	}
	for i, ln := range lab.Lanes() {
		if got := ln.Client("a"); got.Allowed+got.Denied != 2 {
			t.Errorf("lane %d: a = %+v; want 2 decisions", i+1, got)
		}
	}
}
