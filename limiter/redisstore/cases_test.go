package redisstore_test

import (
	"bytes"
	"context"
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
	"github.com/ratelab/ratelab/limiter/redisstore"
)

// The scenario format of limiter/testdata/cases/README.md, read as
// limiter/cases_test.go reads it.
type scenario struct {
	Name     string          `json:"name"`
	About    string          `json:"about"`
	Strategy json.RawMessage `json:"strategy"`
	Keyed    *struct {
		IdleTTLMs number `json:"idle_ttl_ms"`
	} `json:"keyed"`
	Steps []caseStep `json:"steps"`
}

type caseStrategy struct {
	Kind           string  `json:"kind"`
	RatePerS       *number `json:"rate_per_s"`
	Burst          *int    `json:"burst"`
	Capacity       *int    `json:"capacity"`
	LeakIntervalMs *number `json:"leak_interval_ms"`
	Limit          *int    `json:"limit"`
	WindowMs       *number `json:"window_ms"`
}

type caseStep struct {
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

// number is a JSON number, or "inf" / "never" (+Inf).
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

// caseDirs is limiter/cases_test.go's list, from this folder: the project's
// scenarios, the shared folder when it exists, and LIMITER_CASES.
func caseDirs() []string {
	dirs := []string{filepath.Join("..", "testdata", "cases")}
	if fi, err := os.Stat(filepath.Join("..", "..", "..", "shared", "cases")); err == nil && fi.IsDir() {
		dirs = append(dirs, filepath.Join("..", "..", "..", "shared", "cases"))
	}
	for _, d := range filepath.SplitList(os.Getenv("LIMITER_CASES")) {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

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
	total, steps := 0, 0
	for _, dir := range caseDirs() {
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
			name := filepath.Base(dir) + "/" + strings.TrimSuffix(filepath.Base(f), ".json")
			t.Run(name, func(t *testing.T) {
				sc, cfg, err := readScenario(f)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				o := noExpiry
				o.Prefix = fmt.Sprintf("case:%d:", total)
				st, err := redisstore.New(client, cfg, o)
				if err != nil {
					t.Fatalf("%s: %v", cfg, err)
				}
				steps += runScenario(t, st, sc)
			})
		}
	}
	if total == 0 || steps == 0 {
		t.Fatalf("ran %d files, %d steps; want some", total, steps)
	}
	t.Logf("ran %d scenario files, %d steps, from %v", total, steps, caseDirs())
}

func readScenario(path string) (*scenario, limiter.Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, limiter.Config{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var sc scenario
	if err := dec.Decode(&sc); err != nil {
		return nil, limiter.Config{}, err
	}
	var s caseStrategy
	dec = json.NewDecoder(bytes.NewReader(sc.Strategy))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, limiter.Config{}, err
	}
	if sc.Name == "" || len(sc.Steps) == 0 {
		return nil, limiter.Config{}, fmt.Errorf("scenario needs a name and steps")
	}
	c := limiter.Config{Kind: limiter.Kind(s.Kind)}
	get := func(p *number) float64 {
		if p == nil {
			return math.NaN() // limiter.New names the parameter
		}
		return float64(*p)
	}
	geti := func(p *int) int {
		if p == nil {
			return -1
		}
		return *p
	}
	c.Rate, c.Burst, c.Capacity, c.Limit = get(s.RatePerS), geti(s.Burst), geti(s.Capacity), geti(s.Limit)
	if s.LeakIntervalMs != nil {
		c.LeakInterval = ms(*s.LeakIntervalMs)
	}
	if s.WindowMs != nil {
		c.Window = ms(*s.WindowMs)
	}
	return &sc, c, nil
}

// runScenario runs sc's requests through st and returns how many it ran.
func runScenario(t *testing.T, st *redisstore.Store, sc *scenario) int {
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
		now := ms(s.TMs)
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
		checkDecision(t, where, s, r.Limits[0].Decision)
	}
	return len(sc.Steps)
}

func checkDecision(t *testing.T, where string, s caseStep, d limiter.Decision) {
	t.Helper()
	if s.Want != "allow" && s.Want != "deny" {
		t.Errorf("%s: want %q: want \"allow\" or \"deny\"", where, s.Want)
	}
	if d.Allowed != (s.Want == "allow") {
		t.Errorf("%s: allowed = %v, want %s (decision %+v)", where, d.Allowed, s.Want, d)
	}
	if s.WantRemaining != nil && d.Remaining != *s.WantRemaining {
		t.Errorf("%s: Remaining = %d, want %d", where, d.Remaining, *s.WantRemaining)
	}
	checkDur := func(name string, got time.Duration, want *number) {
		switch {
		case want == nil:
		case math.IsInf(float64(*want), 1):
			if got != limiter.Never {
				t.Errorf("%s: %s = %v, want Never", where, name, got)
			}
		case got-ms(*want) < -time.Microsecond || got-ms(*want) > time.Microsecond:
			t.Errorf("%s: %s = %v, want %v", where, name, got, ms(*want))
		}
	}
	checkDur("RetryAfter", d.RetryAfter, s.WantRetryAfterMs)
	checkDur("ResetAfter", d.ResetAfter, s.WantResetAfterMs)
	checkDur("Delay", d.Delay, s.WantDelayMs)
}
