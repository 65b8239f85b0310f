package lab

import (
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// TestGCRAStateLine: the lab's GCRA line rounds TAT − now and the tolerance
// to the nearest hundredth of a second (a state, not a wait): rate 3/s,
// burst 1 has a tolerance of 1/3 s, shown 0.33 s, not 0.34 s.
func TestGCRAStateLine(t *testing.T) {
	g, err := limiter.NewGCRA(3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.AllowN(0, 1); err != nil {
		t.Fatal(err)
	}
	if got, _ := stateLine(g.State(0), 0); got != "TAT − now = 0.33 s of tolerance 0.33 s → 0.00 tokens" {
		t.Errorf("after one request: %q", got)
	}
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{0, "0.00 s"}, {time.Second / 3, "0.33 s"}, {4999999, "0.00 s"}, {5 * time.Millisecond, "0.01 s"}, {2 * time.Second / 3, "0.67 s"}} {
		if got := units.FormatSeconds(c.d); got != c.want {
			t.Errorf("units.FormatSeconds(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

// The lab's window fields, in seconds, are taken to the millisecond: 0.0015
// became 2 ms with no word.
func TestLaneFieldGrain(t *testing.T) {
	for _, c := range []struct {
		p       units.Param
		in      string
		want    float64
		wantErr string
	}{
		{fieldOf(sim.LaneRanges(limiter.KindFixedWindow)[1], "w", 0.001, true), "0.0015", 0, "window 0.0015 is finer than 0.001 s; want 0.001 to 86400 s, in steps of 0.001"},
		{fieldOf(sim.LaneRanges(limiter.KindFixedWindow)[1], "w", 0.001, true), "0.003", 0.003, ""},
		{fieldOf(sim.LaneRanges(limiter.KindLeakyBucket)[1], "l", 0.001, true), "0.0015", 0.0015, ""}, // a leak interval in ms is taken to the ns
	} {
		got, err := c.p.Parse(c.in)
		switch {
		case c.wantErr == "" && (err != nil || got != c.want):
			t.Errorf("%s.Parse(%q) = %v, %v; want %v", c.p.ID, c.in, got, err, c.want)
		case c.wantErr != "" && (err == nil || err.Error() != c.wantErr):
			t.Errorf("%s.Parse(%q) error = %v; want %q", c.p.ID, c.in, err, c.wantErr)
		}
	}
}
