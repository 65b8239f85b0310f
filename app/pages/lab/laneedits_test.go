package lab

import (
	"math"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// TestLaneFieldsHoldSameBudget: every lane the same budget can make, at the
// corners of its fields (limit 1 and 10000, window 0.001 s and 86400 s),
// shows values its lane's fields accept when typed back, and typing them
// back gives the same values.
func TestLaneFieldsHoldSameBudget(t *testing.T) {
	for _, k := range limiter.Kinds {
		for _, l := range []int{1, 10000} {
			for _, w := range []time.Duration{time.Millisecond, 86400 * time.Second} {
				c, err := sim.SameBudget(k, l, w)
				if err != nil {
					t.Errorf("%s, %d per %v: %v", k, l, w, err)
					continue
				}
				for _, lp := range laneParams(0, k) {
					shown := units.Num(lp.get(c))
					v, err := lp.Parse(shown)
					if err != nil {
						t.Errorf("%s, %d per %v: %s %s refused: %v", k, l, w, lp.Name, shown, err)
						continue
					}
					// The field shows 12 significant digits.
					if want := lp.get(c); math.Abs(v-want) > 1e-11*want {
						t.Errorf("%s, %d per %v: %s %s typed back gives %g, want %g", k, l, w, lp.Name, shown, v, want)
					}
				}
			}
		}
	}
}

// A lane switched to another strategy keeps its own budget only when the
// new strategy's fields take it: a token bucket of 0.00001/s, burst 10, is
// 10 per 1,000,000 s, a window its field (and so a link) refuses; it takes
// the "Same budget" fields' instead, and the page's link opens as it is.
func TestLaneKindSwitchStaysInFields(t *testing.T) {
	m := newLabModel()
	m.loadSetup(map[string][]string{"lane": {"token_bucket,0.00001,10", "token_bucket,5,10"}})
	if len(m.linkErrs) != 0 {
		t.Fatal(m.linkErrs)
	}
	m.setLaneKind(0, limiter.KindFixedWindow)
	m.setLaneKind(1, limiter.KindFixedWindow)
	lanes := m.lab.Setup().Lanes
	if got, want := lanes[0].Config.String(), "fixed window: 10 per 1s"; got != want {
		t.Errorf("lane 1 switched: %s; want %s (the same budget)", got, want)
	}
	if got, want := lanes[1].Config.String(), "fixed window: 10 per 2s"; got != want {
		t.Errorf("lane 2 switched: %s; want %s (its own budget)", got, want)
	}
	if _, err := sim.DecodeSetup(m.lab.Setup().Values()); err != nil {
		t.Errorf("the page's link: %v", err)
	}
}
