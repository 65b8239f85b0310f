package sim

import (
	"fmt"
	"maps"
	"math"
	"net/url"
	"reflect"
	"slices"
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

func TestTiersPerClient(t *testing.T) {
	s := mixedSetup(t)
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.AdvanceTo(time.Second); err != nil {
		t.Fatal(err)
	}
	if got := lab.Lanes()[0].State(lab.Now(), "bob").Limit; got != 50 {
		t.Errorf("bob's (pro) limit in lane 1 = %d; want 50", got)
	}
	if got := lab.Lanes()[0].State(lab.Now(), "alice").Limit; got != 10 {
		t.Errorf("alice's limit in lane 1 = %d; want 10", got)
	}
	if got := lab.Lanes()[1].State(lab.Now(), "bob").Limit; got != 10 {
		t.Errorf("bob's limit in lane 2 (no tiers) = %d; want 10", got)
	}
}

func TestSameBudget(t *testing.T) {
	want := map[limiter.Kind]limiter.Config{
		limiter.KindTokenBucket:          {Kind: limiter.KindTokenBucket, Rate: 2.5, Burst: 25},
		limiter.KindGCRA:                 {Kind: limiter.KindGCRA, Rate: 2.5, Burst: 25},
		limiter.KindLeakyBucket:          {Kind: limiter.KindLeakyBucket, Capacity: 25, LeakInterval: 400 * ms},
		limiter.KindFixedWindow:          {Kind: limiter.KindFixedWindow, Limit: 25, Window: 10 * time.Second},
		limiter.KindSlidingWindowLog:     {Kind: limiter.KindSlidingWindowLog, Limit: 25, Window: 10 * time.Second},
		limiter.KindSlidingWindowCounter: {Kind: limiter.KindSlidingWindowCounter, Limit: 25, Window: 10 * time.Second},
	}
	for k, w := range want {
		got, err := SameBudget(k, 25, 10*time.Second)
		if err != nil || got != w {
			t.Errorf("SameBudget(%s, 25, 10s) = %+v, %v; want %+v", k, got, err, w)
		}
	}
	if c, _ := SameBudget(limiter.KindLeakyBucket, 3, time.Second); c.LeakInterval != 333333333 {
		t.Errorf("leak interval for 3 per 1s = %d; want 333333333 (truncated)", c.LeakInterval)
	}
	if _, err := SameBudget(limiter.KindFixedWindow, 0, time.Second); err == nil || err.Error() != "same budget: limit 0 is below 1; want >= 1" {
		t.Errorf("SameBudget limit 0 error = %v", err)
	}
}

// TestBudgetOf: each strategy on a same budget gives that budget back, and
// a config with none says so.
func TestBudgetOf(t *testing.T) {
	for _, k := range limiter.Kinds {
		for _, b := range []struct {
			l int
			w time.Duration
		}{{25, 10 * time.Second}, {12, time.Second}, {5000, time.Hour}} {
			c, err := SameBudget(k, b.l, b.w)
			if err != nil {
				t.Fatal(err)
			}
			l, w, ok := BudgetOf(c)
			if !ok || l != b.l || w != b.w {
				t.Errorf("BudgetOf(%v) = %d, %v, %v; want %d, %v, true", c, l, w, ok, b.l, b.w)
			}
		}
	}
	if l, w, ok := BudgetOf(limiter.Config{Kind: limiter.KindTokenBucket, Rate: 3, Burst: 10}); !ok || l != 10 || w != 3333333333 {
		t.Errorf("token bucket 3/s, burst 10: %d, %v, %v; want 10, 3.333333333s", l, w, ok)
	}
	// A leak interval that is not a truncated same budget: c·i itself.
	if l, w, ok := BudgetOf(limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 3, LeakInterval: 333333331}); !ok || l != 3 || w != 999999993 {
		t.Errorf("leaky bucket 3, 333333331 ns: %d, %v, %v; want 3, 999.999993ms", l, w, ok)
	}
	for _, c := range []limiter.Config{
		{Kind: limiter.KindTokenBucket, Rate: 0, Burst: 10},
		{Kind: limiter.KindGCRA, Rate: math.Inf(1), Burst: 10},
		{Kind: limiter.KindTokenBucket, Rate: 5, Burst: 0},
		{Kind: limiter.KindLeakyBucket, Capacity: 0, LeakInterval: time.Second},
		{Kind: limiter.KindFixedWindow, Limit: 0, Window: time.Second},
	} {
		if l, w, ok := BudgetOf(c); ok {
			t.Errorf("BudgetOf(%v) = %d, %v, true; want no budget", c, l, w)
		}
	}
}

// TestWorstCaseWindowEdge runs the window-edge attack (bursts of 10 at
// 990 ms and 1 s, 2.99 s and 3 s, …) for 10 s through all six kinds on the
// same budget, 10 per second.
func TestWorstCaseWindowEdge(t *testing.T) {
	s := Setup{
		Lanes:   allKinds(t, 10, time.Second),
		Clients: []Client{{Name: "mallory", Pattern: Pattern{Kind: PatternEdge, Size: 10, Window: time.Second, Gap: 10 * ms}}},
		Speed:   1, Worst: time.Second,
	}
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.AdvanceTo(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	type result struct {
		allowed, denied int64
		worst           WorstCase
	}
	w := func(units int64, start Instant) WorstCase {
		return WorstCase{Units: units, Start: start, End: start + time.Second, Window: time.Second}
	}
	want := map[limiter.Kind]result{
		// Fixed window: 10 at the end of window 0, 10 at the start of
		// window 1: 20 within 10 ms.
		limiter.KindFixedWindow: {100, 0, w(20, 990*ms)},
		// The others admit the first burst of each pair only.
		limiter.KindSlidingWindowLog:     {50, 50, w(10, 990*ms)},
		limiter.KindSlidingWindowCounter: {50, 50, w(10, 990*ms)},
		limiter.KindTokenBucket:          {50, 50, w(10, 990*ms)},
		limiter.KindGCRA:                 {50, 50, w(10, 990*ms)},
		limiter.KindLeakyBucket:          {50, 50, w(10, 990*ms)},
	}
	for _, ln := range lab.Lanes() {
		k := ln.Spec().Config.Kind
		got := result{ln.Total().Allowed, ln.Total().Denied, ln.Worst()}
		if got != want[k] {
			t.Errorf("%s: got %+v; want %+v", k, got, want[k])
		}
		// The streaming worst case equals the two-pointer pass over the
		// admitted instants.
		var adm []Admission
		for _, r := range ln.History(nil) {
			if r.Allowed {
				adm = append(adm, Admission{r.At, int64(r.N)})
			}
		}
		if wc := WorstCaseOf(adm, time.Second); wc != got.worst {
			t.Errorf("%s: WorstCaseOf = %+v; streaming %+v", k, wc, got.worst)
		}
	}
}

func TestWorstCaseOf(t *testing.T) {
	adm := []Admission{{0, 3}, {500 * ms, 2}, {999 * ms, 4}, {1000 * ms, 5}, {1600 * ms, 1}, {3000 * ms, 9}}
	tests := []struct {
		w    time.Duration
		want WorstCase
	}{
		{time.Second, WorstCase{Units: 11, Start: 500 * ms, End: 1500 * ms, Window: time.Second}},
		{1001 * ms, WorstCase{Units: 14, Start: 0, End: 1001 * ms, Window: 1001 * ms}},
		{ms, WorstCase{Units: 9, Start: 3000 * ms, End: 3001 * ms, Window: ms}},
	}
	for _, tt := range tests {
		if got := WorstCaseOf(adm, tt.w); got != tt.want {
			t.Errorf("WorstCaseOf(w=%v) = %+v; want %+v", tt.w, got, tt.want)
		}
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

func TestLaneOperations(t *testing.T) {
	s := mixedSetup(t)
	s.Lanes = s.Lanes[:3] // token bucket (with tier), GCRA, leaky bucket
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lab.AdvanceTo(3 * time.Second)
	// The added lane (a fixed window of 10 per 1 s) gets the lab's tier pro
	// at its multiple, 5× (lane 1: token bucket 10/s, pro 50/s).
	fs := mixedSetup(t)
	pro := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 50, Window: time.Second}
	fs.Lanes[3].Tiers = map[string]limiter.Config{"pro": pro}
	full, _ := New(fs, nil, Options{})
	full.AdvanceTo(3 * time.Second)
	want := snap(full).Lanes

	// An added lane has seen exactly what the others have.
	if err := lab.AddLane(mixedSetup(t).Lanes[3]); err != nil {
		t.Fatal(err)
	}
	if got := lab.Setup().Lanes[3].Tiers; !reflect.DeepEqual(got, fs.Lanes[3].Tiers) {
		t.Errorf("added lane's tiers = %v; want %v", got, fs.Lanes[3].Tiers)
	}
	if got := snap(lab).Lanes[3]; !reflect.DeepEqual(got, want[3]) {
		t.Errorf("added lane = %+v; want %+v", got.Total, want[3].Total)
	}
	if err := lab.DuplicateLane(0); err != nil {
		t.Fatal(err)
	}
	if got := snap(lab).Lanes; !reflect.DeepEqual(got[0], got[1]) || len(got) != 5 {
		t.Error("duplicate lane differs from its original")
	}
	if err := lab.MoveLane(4, 0); err != nil { // fixed window first
		t.Fatal(err)
	}
	if err := lab.RemoveLane(1); err != nil { // one token bucket
		t.Fatal(err)
	}
	var kinds []limiter.Kind
	for _, ln := range lab.Lanes() {
		kinds = append(kinds, ln.Spec().Config.Kind)
	}
	if w := []limiter.Kind{limiter.KindFixedWindow, limiter.KindTokenBucket, limiter.KindGCRA, limiter.KindLeakyBucket}; !reflect.DeepEqual(kinds, w) {
		t.Errorf("kinds = %v; want %v", kinds, w)
	}
	if got := snap(lab).Lanes[0]; !reflect.DeepEqual(got, want[3]) {
		t.Error("moved lane changed")
	}
	lab.AddLane(s.Lanes[0])
	lab.AddLane(s.Lanes[0])
	if err := lab.AddLane(s.Lanes[0]); err == nil || err.Error() != "lanes: already 6 lanes; want at most 6" {
		t.Errorf("7th lane error = %v", err)
	}
	if err := lab.RemoveLane(6); err == nil || err.Error() != "lane 7 does not exist; want 1 to 6" {
		t.Errorf("RemoveLane(6) error = %v", err)
	}
	bad := LaneSpec{Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: -1}}
	if err := lab.SetLane(0, bad); err == nil || err.Error() != "lane 1: limiter: burst -1 is negative; want >= 0" {
		t.Errorf("SetLane bad error = %v", err)
	}
	// Same budget on every lane: 5 per 2 s.
	if err := lab.SetSameBudget(5, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if c := lab.Lanes()[3].Spec().Config; c.Capacity != 5 || c.LeakInterval != 400*ms {
		t.Errorf("leaky bucket after same budget = %v", c)
	}
	if lab.Now() != 3*time.Second {
		t.Errorf("now = %v after lane changes; want 3s", lab.Now())
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

func TestCharts(t *testing.T) {
	c, _ := SameBudget(limiter.KindTokenBucket, 4, time.Second)
	s := Setup{Lanes: []LaneSpec{{Config: c}}, Clients: []Client{{Name: "a", Pattern: Pattern{Kind: PatternSteady, Rate: 10}}}, Speed: 1, Worst: time.Second}
	lab, err := New(s, nil, Options{ChartBucket: 500 * ms, ChartLen: 3})
	if err != nil {
		t.Fatal(err)
	}
	lab.AdvanceTo(2100 * ms)
	got := lab.Lanes()[0].Buckets(nil)
	// 5 requests offered per 500 ms; a bucket of 4 refilling 4/s admits 4
	// at first, then 2 per 500 ms, and holds 1 token at each bucket's end
	// (before the request due then). Only the last 3 buckets are kept.
	want := []Bucket{
		{Start: 500 * ms, Offered: 5, Admitted: 2, State: 1, Closed: true},
		{Start: 1000 * ms, Offered: 5, Admitted: 2, State: 1, Closed: true},
		{Start: 1500 * ms, Offered: 5, Admitted: 2, State: 1, Closed: true},
	}
	for i := range got {
		got[i].State = float64(int(got[i].State*1e6+0.5)) / 1e6
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("buckets =\n%+v\nwant\n%+v", got, want)
	}
	if o, a := got[0].Rates(500 * ms); o != 10 || a != 4 {
		t.Errorf("rates = %v, %v; want 10, 4", o, a)
	}
	if cur := lab.Lanes()[0].Current(); cur.Start != 2000*ms || cur.Offered != 2 {
		t.Errorf("current bucket = %+v", cur)
	}
	// A long jump keeps only the last ChartLen buckets.
	lab.AdvanceTo(time.Hour)
	if b := lab.Lanes()[0].Buckets(nil); len(b) != 3 || b[2].Start != time.Hour-500*ms {
		t.Errorf("after a jump: %+v", b)
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

func TestPresets(t *testing.T) {
	ids := map[string]bool{}
	for _, p := range Presets() {
		if !strings.HasPrefix(p.Source, "https://") || p.Note == "" || p.Name == "" || ids[p.ID] {
			t.Errorf("preset %s: missing source, note, name, or duplicate id", p.ID)
		}
		ids[p.ID] = true
		if _, err := limiter.New(p.Config); err != nil {
			t.Errorf("preset %s: %v", p.ID, err)
		}
	}
	// nginx rate=10r/s burst=20: 21 requests pass at once, the 22nd is
	// rejected; without nodelay the 2nd waits 100 ms and the 21st 2 s.
	p, _ := PresetByID("nginx-delay")
	lb, _ := limiter.New(p.Config)
	var last limiter.Decision
	for i := 1; i <= 22; i++ {
		d, _ := lb.AllowN(0, 1)
		if i == 2 && d.Delay != 100*ms || i == 21 && (d.Delay != 2*time.Second || !d.Allowed) {
			t.Errorf("request %d: %+v", i, d)
		}
		last = d
	}
	if last.Allowed {
		t.Error("22nd request allowed; want nginx's 503")
	}
	if g, _ := PresetByID("github"); g.Config.Limit != 5000 || g.Config.Window != time.Hour {
		t.Errorf("github = %v", g.Config)
	}
	if s, _ := PresetByID("shopify"); s.Config.Capacity != 40 || s.Config.LeakInterval != 500*ms {
		t.Errorf("shopify = %v", s.Config)
	}
}

func TestScaleConfigAndSetTier(t *testing.T) {
	cases := []struct {
		in   limiter.Config
		k    float64
		want limiter.Config
	}{
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 2, Burst: 10}, 5, limiter.Config{Kind: limiter.KindTokenBucket, Rate: 10, Burst: 50}},
		{limiter.Config{Kind: limiter.KindGCRA, Rate: 2, Burst: 3}, 0.5, limiter.Config{Kind: limiter.KindGCRA, Rate: 1, Burst: 2}},
		{limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 40, LeakInterval: 500 * ms}, 2, limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 80, LeakInterval: 250 * ms}},
		{limiter.Config{Kind: limiter.KindFixedWindow, Limit: 10, Window: time.Second}, 0.01, limiter.Config{Kind: limiter.KindFixedWindow, Limit: 1, Window: time.Second}},
		{limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 10, Window: time.Minute}, 3, limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 30, Window: time.Minute}},
	}
	for _, c := range cases {
		got, err := ScaleConfig(c.in, c.k)
		if err != nil || got != c.want {
			t.Errorf("ScaleConfig(%v, %g) = %+v, %v; want %+v", c.in, c.k, got, err, c.want)
		}
	}
	for _, k := range []float64{0, -1, 101, math.NaN()} {
		_, err := ScaleConfig(cases[0].in, k)
		want := fmt.Sprintf("tier factor %g is out of range; want more than 0 and at most 100", k)
		if err == nil || err.Error() != want {
			t.Errorf("ScaleConfig(…, %g) error = %v; want %q", k, err, want)
		}
	}

	s := DefaultSetup()
	s.Lanes = []LaneSpec{{Config: limiter.Config{Kind: limiter.KindFixedWindow, Limit: 2, Window: time.Second}}, {Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 2, Burst: 2}}}
	s.Clients = []Client{{Name: "free", Weight: 1}, {Name: "paid", Weight: 1, Tier: "pro"}}
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lab.Clock().Pause()
	fire := func() (free, paid Counts) {
		for range 10 {
			if err := lab.Fire("free", 1); err != nil {
				t.Fatal(err)
			}
			if err := lab.Fire("paid", 1); err != nil {
				t.Fatal(err)
			}
		}
		return lab.Lanes()[0].Client("free"), lab.Lanes()[0].Client("paid")
	}
	if free, paid := fire(); free.Allowed != 2 || paid.Allowed != 2 {
		t.Fatalf("before tiers: free %+v paid %+v; want 2 allowed each", free, paid)
	}
	if err := lab.SetTier("pro", 3); err != nil {
		t.Fatal(err)
	}
	if got := lab.TierNames(); len(got) != 1 || got[0] != "pro" {
		t.Errorf("TierNames() = %v; want [pro]", got)
	}
	// The replay gives "paid" 3× the budget for the 10 requests already sent.
	if free, paid := lab.Lanes()[0].Client("free"), lab.Lanes()[0].Client("paid"); free.Allowed != 2 || paid.Allowed != 6 {
		t.Errorf("after SetTier(pro, 3): free %+v paid %+v; want 2 and 6 allowed", free, paid)
	}
	if got := lab.Lanes()[1].State(lab.Now(), "paid").Limit; got != 6 {
		t.Errorf("token bucket lane: paid's burst = %d; want 6", got)
	}
	if err := lab.SetTier("pro", 0); err != nil {
		t.Fatal(err)
	}
	if got := lab.TierNames(); len(got) != 0 {
		t.Errorf("TierNames() after removing = %v; want none", got)
	}
	if err := lab.SetTier("bad name", 2); err == nil || err.Error() != `tier name "bad name" is not a word; want letters, digits, '-' or '_'` {
		t.Errorf("SetTier(bad name) error = %v", err)
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

// TestLaneClientAt: ClientAt is Client by the index in Lab.Clients(), zero
// out of range.
func TestLaneClientAt(t *testing.T) {
	tr, err := ParseTrace("t.csv", []byte("t_ms,client\n0,a\n0,a\n0,b\n0,a\n"))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := SameBudget(limiter.KindFixedWindow, 2, time.Second)
	lab, err := New(Setup{Lanes: []LaneSpec{{Config: c}}, Speed: 1, Worst: time.Second}, tr, Options{})
	if err == nil {
		err = lab.RunTrace()
	}
	if err != nil {
		t.Fatal(err)
	}
	ln := lab.Lanes()[0]
	if got := lab.Clients(); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Fatalf("clients %v; want [a b]", got)
	}
	want := []Counts{{Allowed: 2, Denied: 1}, {Allowed: 1}}
	for i, name := range lab.Clients() {
		if got := ln.ClientAt(i); got != want[i] || got != ln.Client(name) {
			t.Errorf("ClientAt(%d) = %+v, Client(%s) = %+v; want %+v", i, got, name, ln.Client(name), want[i])
		}
	}
	if ln.ClientAt(2) != (Counts{}) || ln.ClientAt(-1) != (Counts{}) {
		t.Error("ClientAt out of range: counts")
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

func TestSetTierNames(t *testing.T) {
	lab, err := New(DefaultSetup(), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"":        "tier name is empty; want a word of letters, digits, '-' or '_'",
		"default": `tier name "default" reads as no tier (a client's own lane budget); want another word`,
		"a b":     `tier name "a b" is not a word; want letters, digits, '-' or '_'`,
	} {
		if err := lab.SetTier(name, 2); err == nil || err.Error() != want {
			t.Errorf("SetTier(%q): %v, want %q", name, err, want)
		}
	}
	if err := lab.SetTier("pro", 2); err != nil || !reflect.DeepEqual(lab.TierNames(), []string{"pro"}) {
		t.Errorf("SetTier(pro): %v, tiers %v", err, lab.TierNames())
	}
}

// A tier is a multiple of each lane's budget, and stays one: a lane added
// later gets it, and a lane whose strategy or budget changes gets it again
// at the same multiple (the tier of a lane switched from token bucket to
// leaky bucket is a leaky bucket). The multiple is SetTier's, or, for a
// tier that came with the setup (a link), the one its first lane shows.
func TestTiersFollowLanes(t *testing.T) {
	tb := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 10, Burst: 10}
	fw := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 10, Window: time.Second}
	s := Setup{Lanes: []LaneSpec{{Config: fw}, {Config: tb}},
		Clients: []Client{{Name: "free", Weight: 1}, {Name: "paid", Weight: 1, Tier: "pro"}}, Worst: time.Second, Speed: 1}
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.SetTier("pro", 5); err != nil {
		t.Fatal(err)
	}
	tiers := func(i int) string {
		var b []string
		for _, name := range slices.Sorted(maps.Keys(lab.Setup().Lanes[i].Tiers)) {
			b = append(b, name+"="+lab.Setup().Lanes[i].Tiers[name].String())
		}
		return strings.Join(b, " ")
	}
	check := func(what string, i int, want string) {
		t.Helper()
		if got := tiers(i); got != want {
			t.Errorf("%s: lane %d tiers %q, want %q", what, i+1, got, want)
		}
	}
	check("SetTier", 0, "pro=fixed window: 50 per 1s")
	if err := lab.AddLane(LaneSpec{Config: limiter.Config{Kind: limiter.KindGCRA, Rate: 2, Burst: 4}}); err != nil {
		t.Fatal(err)
	}
	check("AddLane", 2, "pro=GCRA: 10/s, burst 20")
	leaky := limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 10, LeakInterval: 100 * time.Millisecond}
	if err := lab.SetLane(1, LaneSpec{Config: leaky, Tiers: lab.Setup().Lanes[1].Tiers}); err != nil {
		t.Fatal(err)
	}
	check("SetLane to a leaky bucket", 1, "pro=leaky bucket: capacity 50, leaks 1 per 20ms")
	if err := lab.SetLane(0, LaneSpec{Config: limiter.Config{Kind: limiter.KindFixedWindow, Limit: 100, Window: time.Second}, Tiers: lab.Setup().Lanes[0].Tiers}); err != nil {
		t.Fatal(err)
	}
	check("SetLane limit 100", 0, "pro=fixed window: 500 per 1s")
	if err := lab.SetSameBudget(200, time.Second); err != nil {
		t.Fatal(err)
	}
	check("SetSameBudget", 0, "pro=fixed window: 1000 per 1s")
	check("SetSameBudget", 2, "pro=GCRA: 1000/s, burst 1000")
	// paid, in tier pro, now gets 1000 per 1 s in the fixed window lane.
	for range 10 {
		if err := lab.Fire("paid", 100); err != nil {
			t.Fatal(err)
		}
	}
	if got := lab.Lanes()[0].Client("paid"); got.Allowed != 1000 || got.Denied != 0 {
		t.Errorf("paid in lane 1 = %+v; want 1000 allowed, 0 denied", got)
	}

	// A tier that came with the setup: its multiple is read from lane 1.
	s.Lanes[0].Tiers = map[string]limiter.Config{"pro": {Kind: limiter.KindFixedWindow, Limit: 30, Window: time.Second}}
	lab2, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab2.AddLane(LaneSpec{Config: tb}); err != nil {
		t.Fatal(err)
	}
	if got := lab2.Setup().Lanes[2].Tiers["pro"].String(); got != "token bucket: 30/s, burst 30" {
		t.Errorf("tier from a link, added lane: %q, want token bucket: 30/s, burst 30", got)
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

// A link's tier ×0.25: the fixed window's 10 × 0.25 was rounded to 3, the
// token bucket's rate keeps 2.5/s; the multiple is read from the rate, so a
// lane added later gets 2.5/s, not 3/s. And a tier outlives its lanes: with
// every lane removed, a new lane gets it again.
func TestTierMultipleFromLink(t *testing.T) {
	fw := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 10, Window: time.Second}
	tb := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 10, Burst: 10}
	s := Setup{Lanes: []LaneSpec{
		{Config: fw, Tiers: map[string]limiter.Config{"lite": {Kind: limiter.KindFixedWindow, Limit: 3, Window: time.Second}}},
		{Config: tb, Tiers: map[string]limiter.Config{"lite": {Kind: limiter.KindTokenBucket, Rate: 2.5, Burst: 3}}},
	}, Clients: []Client{{Name: "a", Weight: 1}}, Worst: time.Second, Speed: 1}
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.AddLane(LaneSpec{Config: limiter.Config{Kind: limiter.KindGCRA, Rate: 10, Burst: 10}}); err != nil {
		t.Fatal(err)
	}
	if got := lab.Setup().Lanes[2].Tiers["lite"].String(); got != "GCRA: 2.5/s, burst 3" {
		t.Errorf("added lane's tier lite: %q, want GCRA: 2.5/s, burst 3", got)
	}
	for range 3 {
		if err := lab.RemoveLane(0); err != nil {
			t.Fatal(err)
		}
	}
	if got := lab.TierNames(); !slices.Equal(got, []string{"lite"}) {
		t.Errorf("tiers with no lane: %v, want [lite]", got)
	}
	if err := lab.AddLane(LaneSpec{Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 4, Burst: 8}}); err != nil {
		t.Fatal(err)
	}
	if got := lab.Setup().Lanes[0].Tiers["lite"].String(); got != "token bucket: 1/s, burst 2" {
		t.Errorf("lane added to an empty lab: tier lite %q, want token bucket: 1/s, burst 2", got)
	}
}

// The link carries each tier's multiple (tier=name,multiple), so a lab with
// no lane left keeps its tiers through a link, and a multiple of 0.25 no
// longer comes back as a fixed window's rounded 3 of 10.
func TestTierMultiplesInLink(t *testing.T) {
	fw := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 10, Window: time.Second}
	s := Setup{Lanes: []LaneSpec{{Config: fw}}, Clients: []Client{{Name: "a", Weight: 1, Pattern: Pattern{Kind: PatternNone}}}, Worst: time.Second, Speed: 1}
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.SetTier("lite", 0.25); err != nil {
		t.Fatal(err)
	}
	v := lab.Setup().Values()
	if got := v["tier"]; !slices.Equal(got, []string{"lite,0.25"}) {
		t.Errorf("tier values %v, want [lite,0.25]", got)
	}
	if got := v.Get("lane"); got != "fixed_window,10,1s;lite=fixed_window,3,1s" {
		t.Errorf("lane value %q", got)
	}
	back, err := DecodeSetup(v)
	if err != nil {
		t.Fatal(err)
	}
	lab2, err := New(back, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab2.AddLane(LaneSpec{Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 10, Burst: 10}}); err != nil {
		t.Fatal(err)
	}
	if got := lab2.Setup().Lanes[1].Tiers["lite"].String(); got != "token bucket: 2.5/s, burst 3" {
		t.Errorf("from the link, an added lane's tier: %q, want token bucket: 2.5/s, burst 3", got)
	}
	// No lane left: the link still names the tier.
	lab2.RemoveLane(1)
	lab2.RemoveLane(0)
	v = lab2.Setup().Values()
	if got := v["tier"]; !slices.Equal(got, []string{"lite,0.25"}) || v.Get("lane") != "" {
		t.Errorf("no lanes: tier %v, lane %q; want [lite,0.25] and an empty lane", got, v.Get("lane"))
	}
	back, _ = DecodeSetup(v)
	lab3, _ := New(back, nil, Options{})
	lab3.AddLane(LaneSpec{Config: fw})
	if got := lab3.Setup().Lanes[0].Tiers["lite"].String(); got != "fixed window: 3 per 1s" {
		t.Errorf("from a link with no lanes: %q", got)
	}
	for _, c := range []struct{ v, want string }{
		{"lite", `"lite" is not name,multiple; want e.g. pro,5`},
		{"lite,0", `tier lite: multiple "0" is not a number above 0 and at most 100`},
		{"lite,x", `tier lite: multiple "x" is not a number above 0 and at most 100`},
		{"default,2", `tier name "default" reads as no tier (a client's own lane budget); want another word`},
		{"a b,2", `tier name "a b" is not a word; want letters, digits, '-' or '_'`},
	} {
		_, err := DecodeSetup(url.Values{"tier": {c.v}})
		if want := "link: tier: " + c.want + "; reading each tier's multiple from the lanes instead"; err == nil || err.Error() != want {
			t.Errorf("tier=%s: error %v, want %s", c.v, err, c.want)
		}
	}
	if _, err := DecodeSetup(url.Values{"tier": {"p,2", "p,3"}}); err == nil || err.Error() != "link: tier: tier p is given twice; want one multiple per tier; reading each tier's multiple from the lanes instead" {
		t.Errorf("tier twice: %v", err)
	}
}
