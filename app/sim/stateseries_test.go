package sim

import (
	"reflect"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// stateSeriesLab is a fixed window of 3 per 1 s whose only client, "a",
// sent 3 requests at 0.5 s, one at 0.9 s (denied) and one at 1.2 s; "b"
// sent one at 0.7 s.
func stateSeriesLab(t *testing.T, history int) *Lab {
	t.Helper()
	s := Setup{
		Lanes:   []LaneSpec{{Config: limiter.Config{Kind: limiter.KindFixedWindow, Limit: 3, Window: time.Second}}},
		Clients: []Client{{Name: "a", Pattern: Pattern{Kind: PatternNone}}, {Name: "b", Pattern: Pattern{Kind: PatternNone}}},
		Speed:   1, Worst: time.Second,
	}
	lab, err := New(s, nil, Options{History: history})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		at     Instant
		client string
		n      int
	}{{500 * ms, "a", 3}, {700 * ms, "b", 1}, {900 * ms, "a", 1}, {1200 * ms, "a", 1}} {
		if err := lab.AdvanceTo(f.at); err != nil {
			t.Fatal(err)
		}
		if err := lab.Fire(f.client, f.n); err != nil {
			t.Fatal(err)
		}
	}
	if err := lab.AdvanceTo(1300 * ms); err != nil {
		t.Fatal(err)
	}
	return lab
}

// TestStateSeries: the window's count steps where it changes, at the
// requests and at the window boundary, not where the 100 ms chart buckets
// sample it; b's request does not count in a's state.
func TestStateSeries(t *testing.T) {
	ln := stateSeriesLab(t, 0).Lanes()[0]
	got, ok := ln.StateSeries(nil, "a", 800*ms, 1300*ms, 100*ms)
	if !ok {
		t.Fatal("StateSeries: not ok with the whole history")
	}
	want := []StatePoint{
		{800 * ms, 3},
		{900 * ms, 3}, {900 * ms, 3}, // the denied request changes nothing
		{900 * ms, 3}, {1000 * ms, 0}, {1100 * ms, 0},
		{1200 * ms, 0}, {1200 * ms, 1},
		{1200 * ms, 1}, {1300 * ms, 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("StateSeries =\n%v\nwant\n%v", got, want)
	}
	if got, ok := ln.StateSeries(nil, "a", 0, 600*ms, 0); ok || got != nil {
		t.Errorf("step 0: %v, %v; want nil, false", got, ok)
	}
}

// TestStateSeriesWrapped: once the history has dropped the lane's first
// decisions, the series cannot be replayed exactly, and says so.
func TestStateSeriesWrapped(t *testing.T) {
	ln := stateSeriesLab(t, 4).Lanes()[0] // 6 decisions in a ring of 4
	dst := []StatePoint{{1, 1}}
	if got, ok := ln.StateSeries(dst, "a", 800*ms, 1300*ms, 100*ms); ok || !reflect.DeepEqual(got, dst) {
		t.Errorf("wrapped history: %v, %v; want %v, false", got, ok, dst)
	}
}
