package sim

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

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
