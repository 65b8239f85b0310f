package redisstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter/internal/scenario"
	"github.com/ratelab/ratelab/limiter/redisstore"
)

// TestScenarios runs every scenario file against Redis, with each step's
// instant as that many ms after the Unix epoch (the scenarios' clock starts
// at 0 and their fixed windows are aligned to it). The store has no live
// reconfiguration, so a scenario's steps stop at its first set_rate or
// set_burst (the test logs how many steps each such file ran); a sweep is
// Redis's expiry, which the test does not wait for, so want_len is not
// checked.
func TestScenarios(t *testing.T) {
	client := srv.Client()
	defer client.Close()
	files, steps := 0, 0
	total := scenario.Run(t, "..", func(t *testing.T, file string, sc *scenario.Scenario) {
		files++
		cfg, err := sc.Strategy.Config()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		o := noExpiry
		o.Prefix = fmt.Sprintf("case:%d:", files)
		st, err := redisstore.New(client, cfg, o)
		if err != nil {
			t.Fatalf("%s: %v", cfg, err)
		}
		steps += runScenario(t, st, sc)
	})
	if total == 0 || steps == 0 {
		t.Fatalf("ran %d files, %d steps; want some", total, steps)
	}
	t.Logf("ran %d scenario files, %d steps, from %v", total, steps, scenario.Dirs(".."))
}

// runScenario runs sc's requests through st and returns how many it ran.
func runScenario(t *testing.T, st *redisstore.Store, sc *scenario.Scenario) int {
	ctx := context.Background()
	for i, s := range sc.Steps {
		where := fmt.Sprintf("step %d (%+v)", i, s)
		switch s.Op {
		case "":
		case "sweep":
			continue
		case "set_rate", "set_burst":
			t.Logf("%s: ran the %d requests before its %s (the store has no live reconfiguration)", sc.Name, i, s.Op)
			return i
		default:
			t.Fatalf("%s: unknown op %q", where, s.Op)
		}
		now := scenario.Ms(s.TMs)
		if now%time.Microsecond != 0 {
			t.Fatalf("%s: instant %v is not whole µs, which the store cannot see", where, now)
		}
		n := 1
		if s.N != nil {
			n = *s.N
		}
		if s.Key != "" && sc.Keyed == nil {
			t.Fatalf("%s: key on a scenario without keyed", where)
		}
		r, err := st.TakeAt(ctx, time.UnixMicro(int64(now/time.Microsecond)), s.Key, n)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		scenario.CheckDecision(t, where, s, r.Limits[0].Decision)
	}
	return len(sc.Steps)
}
