package limiter_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// The scenario format of shared/cases/README.md.
type scenario struct {
	Name     string    `json:"name"`
	About    string    `json:"about"`
	Strategy strategy  `json:"strategy"`
	Keyed    *keyedCfg `json:"keyed"`
	Steps    []step    `json:"steps"`
}

type strategy struct {
	Kind           string  `json:"kind"`
	RatePerS       *number `json:"rate_per_s"`
	Burst          *int    `json:"burst"`
	Capacity       *int    `json:"capacity"`
	LeakIntervalMs *number `json:"leak_interval_ms"`
	Limit          *int    `json:"limit"`
	WindowMs       *number `json:"window_ms"`
}

type keyedCfg struct {
	IdleTTLMs number `json:"idle_ttl_ms"`
}

type step struct {
	Op               string  `json:"op"`
	TMs              number  `json:"t_ms"`
	Key              string  `json:"key"`
	N                *int    `json:"n"`
	Want             string  `json:"want"`
	WantRemaining    *int    `json:"want_remaining"`
	WantRetryAfterMs *number `json:"want_retry_after_ms"`
	WantResetAfterMs *number `json:"want_reset_after_ms"`
	WantDelayMs      *number `json:"want_delay_ms"`
	WantLen          *int    `json:"want_len"`
	RatePerS         *number `json:"rate_per_s"`
	Burst            *int    `json:"burst"`
}

// number is a JSON number, or one of the strings "inf" and "never" (+Inf).
type number float64

func (n *number) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		if s == "inf" || s == "never" {
			*n = number(math.Inf(1))
			return nil
		}
		return fmt.Errorf("number %q: want a number, \"inf\" or \"never\"", s)
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = number(f)
	return nil
}

func ms(n number) time.Duration { return time.Duration(math.Round(float64(n) * 1e6)) }

// caseDirs lists the folders of scenarios: the project's copy, the shared
// folder when it exists, and every folder named by LIMITER_CASES.
func caseDirs(t *testing.T) []string {
	dirs := []string{filepath.Join("testdata", "cases")}
	if fi, err := os.Stat(filepath.Join("..", "..", "shared", "cases")); err == nil && fi.IsDir() {
		dirs = append(dirs, filepath.Join("..", "..", "shared", "cases"))
	}
	if env := os.Getenv("LIMITER_CASES"); env != "" {
		for _, d := range filepath.SplitList(env) {
			if d != "" {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

func TestScenarios(t *testing.T) {
	total := 0
	for _, dir := range caseDirs(t) {
		files, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Errorf("%s: no scenario files", dir)
		}
		sort.Strings(files)
		for _, f := range files {
			total++
			t.Run(filepath.Base(dir)+"/"+strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
				sc, err := readScenario(f)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				runScenario(t, sc)
			})
		}
	}
	t.Logf("ran %d scenario files from %v", total, caseDirs(t))
}

func readScenario(path string) (*scenario, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var sc scenario
	if err := dec.Decode(&sc); err != nil {
		return nil, err
	}
	if sc.Name == "" || len(sc.Steps) == 0 {
		return nil, fmt.Errorf("scenario needs a name and steps")
	}
	return &sc, nil
}

// config turns the scenario's strategy into a limiter.Config, failing on a
// missing parameter.
func (s strategy) config() (limiter.Config, error) {
	c := limiter.Config{Kind: limiter.Kind(s.Kind)}
	need := func(name string, ok bool) error {
		if !ok {
			return fmt.Errorf("strategy %s: missing %s", s.Kind, name)
		}
		return nil
	}
	var err error
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		if err = need("rate_per_s", s.RatePerS != nil); err == nil {
			err = need("burst", s.Burst != nil)
		}
		if err == nil {
			c.Rate, c.Burst = float64(*s.RatePerS), *s.Burst
		}
	case limiter.KindLeakyBucket:
		if err = need("capacity", s.Capacity != nil); err == nil {
			err = need("leak_interval_ms", s.LeakIntervalMs != nil)
		}
		if err == nil {
			c.Capacity, c.LeakInterval = *s.Capacity, ms(*s.LeakIntervalMs)
		}
	case limiter.KindFixedWindow, limiter.KindSlidingWindowLog, limiter.KindSlidingWindowCounter:
		if err = need("limit", s.Limit != nil); err == nil {
			err = need("window_ms", s.WindowMs != nil)
		}
		if err == nil {
			c.Limit, c.Window = *s.Limit, ms(*s.WindowMs)
		}
	default:
		err = fmt.Errorf("strategy kind %q is unknown", s.Kind)
	}
	return c, err
}

type rateSetter interface {
	SetRate(now limiter.Instant, rate float64) error
	SetBurst(now limiter.Instant, burst int) error
}

func runScenario(t *testing.T, sc *scenario) {
	cfg, err := sc.Strategy.config()
	if err != nil {
		t.Fatal(err)
	}
	var single limiter.Strategy
	var keyed *limiter.Keyed
	if sc.Keyed != nil {
		keyed, err = limiter.NewKeyed(func(string) (limiter.Strategy, error) { return limiter.New(cfg) },
			limiter.KeyedOptions{IdleTTL: ms(sc.Keyed.IdleTTLMs), SweepEvery: -1})
	} else {
		single, err = limiter.New(cfg)
	}
	if err != nil {
		t.Fatalf("%s: %v", cfg, err)
	}
	for i, s := range sc.Steps {
		now := ms(s.TMs)
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
			checkDecision(t, where, s, d)
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

func checkDecision(t *testing.T, where string, s step, d limiter.Decision) {
	t.Helper()
	switch s.Want {
	case "allow", "deny":
		if d.Allowed != (s.Want == "allow") {
			t.Errorf("%s: allowed = %v, want %s (decision %+v)", where, d.Allowed, s.Want, d)
		}
	default:
		t.Errorf("%s: want %q: want \"allow\" or \"deny\"", where, s.Want)
	}
	if s.WantRemaining != nil && d.Remaining != *s.WantRemaining {
		t.Errorf("%s: Remaining = %d, want %d", where, d.Remaining, *s.WantRemaining)
	}
	checkDur := func(name string, got time.Duration, want *number) {
		if want == nil {
			return
		}
		if math.IsInf(float64(*want), 1) {
			if got != limiter.Never {
				t.Errorf("%s: %s = %v, want Never", where, name, got)
			}
			return
		}
		if diff := got - ms(*want); diff < -time.Microsecond || diff > time.Microsecond {
			t.Errorf("%s: %s = %v, want %v", where, name, got, ms(*want))
		}
	}
	checkDur("RetryAfter", d.RetryAfter, s.WantRetryAfterMs)
	checkDur("ResetAfter", d.ResetAfter, s.WantResetAfterMs)
	checkDur("Delay", d.Delay, s.WantDelayMs)
}
