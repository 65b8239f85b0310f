package limiter_test

import (
	"fmt"
	"testing"

	"github.com/ratelab/ratelab/limiter"
	"github.com/ratelab/ratelab/limiter/internal/scenario"
)

// TestScenarios runs every scenario file (scenario.Dirs) through the
// in-memory strategies.
func TestScenarios(t *testing.T) {
	total := scenario.Run(t, ".", func(t *testing.T, _ string, sc *scenario.Scenario) { runScenario(t, sc) })
	t.Logf("ran %d scenario files from %v", total, scenario.Dirs("."))
}

type rateSetter interface {
	SetRate(now limiter.Instant, rate float64) error
	SetBurst(now limiter.Instant, burst int) error
}

func runScenario(t *testing.T, sc *scenario.Scenario) {
	cfg, err := sc.Strategy.Config()
	if err != nil {
		t.Fatal(err)
	}
	var single limiter.Strategy
	var keyed *limiter.Keyed
	if sc.Keyed != nil {
		keyed, err = limiter.NewKeyed(func(string) (limiter.Strategy, error) { return limiter.New(cfg) },
			limiter.KeyedOptions{IdleTTL: scenario.Ms(sc.Keyed.IdleTTLMs), SweepEvery: -1})
	} else {
		single, err = limiter.New(cfg)
	}
	if err != nil {
		t.Fatalf("%s: %v", cfg, err)
	}
	for i, s := range sc.Steps {
		now := scenario.Ms(s.TMs)
		where := fmt.Sprintf("step %d (%+v)", i, s)
		switch s.Op {
		case "":
			n := 1
			if s.N != nil {
				n = *s.N
			}
			var d limiter.Decision
			if keyed != nil {
				d, err = keyed.AllowNAt(now, s.Key, n)
			} else {
				if s.Key != "" {
					t.Fatalf("%s: key on a scenario without keyed", where)
				}
				d, err = single.AllowN(now, n)
			}
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			scenario.CheckDecision(t, where, s, d)
		case "sweep":
			if keyed == nil {
				t.Fatalf("%s: sweep needs keyed", where)
			}
			keyed.Sweep(now)
			if s.WantLen != nil && keyed.Len() != *s.WantLen {
				t.Errorf("%s: Len() = %d, want %d", where, keyed.Len(), *s.WantLen)
			}
		case "set_rate", "set_burst":
			if keyed != nil {
				t.Fatalf("%s: %s on a keyed scenario is not defined by the format", where, s.Op)
			}
			rs, ok := single.(rateSetter)
			if !ok {
				t.Fatalf("%s: %s cannot %s", where, single.Kind(), s.Op)
			}
			if s.Op == "set_rate" {
				if s.RatePerS == nil {
					t.Fatalf("%s: set_rate without rate_per_s", where)
				}
				err = rs.SetRate(now, float64(*s.RatePerS))
			} else {
				if s.Burst == nil {
					t.Fatalf("%s: set_burst without burst", where)
				}
				err = rs.SetBurst(now, *s.Burst)
			}
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
		default:
			t.Fatalf("%s: unknown op %q", where, s.Op)
		}
	}
}
