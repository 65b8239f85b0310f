// Package scenario reads the shared scenario files (the format of
// limiter/testdata/cases/README.md) for the tests of limiter and of
// limiter/redisstore, which run the same files through the in-memory
// strategies and through Redis.
package scenario

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

// Scenario is one scenario file.
type Scenario struct {
	Name     string   `json:"name"`
	About    string   `json:"about"`
	Strategy Strategy `json:"strategy"`
	Keyed    *Keyed   `json:"keyed"`
	Steps    []Step   `json:"steps"`
}

type Strategy struct {
	Kind           string  `json:"kind"`
	RatePerS       *Number `json:"rate_per_s"`
	Burst          *int    `json:"burst"`
	Capacity       *int    `json:"capacity"`
	LeakIntervalMs *Number `json:"leak_interval_ms"`
	Limit          *int    `json:"limit"`
	WindowMs       *Number `json:"window_ms"`
}

type Keyed struct {
	IdleTTLMs Number `json:"idle_ttl_ms"`
}

type Step struct {
	Op               string  `json:"op"`
	TMs              Number  `json:"t_ms"`
	Key              string  `json:"key"`
	N                *int    `json:"n"`
	Want             string  `json:"want"`
	WantRemaining    *int    `json:"want_remaining"`
	WantRetryAfterMs *Number `json:"want_retry_after_ms"`
	WantResetAfterMs *Number `json:"want_reset_after_ms"`
	WantDelayMs      *Number `json:"want_delay_ms"`
	WantLen          *int    `json:"want_len"`
	RatePerS         *Number `json:"rate_per_s"`
	Burst            *int    `json:"burst"`
}

// Number is a JSON number, or one of the strings "inf" and "never" (+Inf).
type Number float64

func (n *Number) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		if s == "inf" || s == "never" {
			*n = Number(math.Inf(1))
			return nil
		}
		return fmt.Errorf("number %q: want a number, \"inf\" or \"never\"", s)
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = Number(f)
	return nil
}

// Ms is n milliseconds, to the nearest nanosecond.
func Ms(n Number) time.Duration { return time.Duration(math.Round(float64(n) * 1e6)) }

// Config turns the scenario's strategy into a limiter.Config, failing on a
// missing parameter.
func (s Strategy) Config() (limiter.Config, error) {
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
			c.Capacity, c.LeakInterval = *s.Capacity, Ms(*s.LeakIntervalMs)
		}
	case limiter.KindFixedWindow, limiter.KindSlidingWindowLog, limiter.KindSlidingWindowCounter:
		if err = need("limit", s.Limit != nil); err == nil {
			err = need("window_ms", s.WindowMs != nil)
		}
		if err == nil {
			c.Limit, c.Window = *s.Limit, Ms(*s.WindowMs)
		}
	default:
		err = fmt.Errorf("strategy kind %q is unknown", s.Kind)
	}
	return c, err
}

// CheckDecision checks d against the step's want fields: the verdict
// exactly, Remaining exactly, and each duration within 1 µs of the file's
// milliseconds (or Never for "never").
func CheckDecision(t testing.TB, where string, s Step, d limiter.Decision) {
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
	checkDur := func(name string, got time.Duration, want *Number) {
		if want == nil {
			return
		}
		if math.IsInf(float64(*want), 1) {
			if got != limiter.Never {
				t.Errorf("%s: %s = %v, want Never", where, name, got)
			}
			return
		}
		if diff := got - Ms(*want); diff < -time.Microsecond || diff > time.Microsecond {
			t.Errorf("%s: %s = %v, want %v", where, name, got, Ms(*want))
		}
	}
	checkDur("RetryAfter", d.RetryAfter, s.WantRetryAfterMs)
	checkDur("ResetAfter", d.ResetAfter, s.WantResetAfterMs)
	checkDur("Delay", d.Delay, s.WantDelayMs)
}

// Dirs lists the folders of scenarios, from limiterDir (the path of the
// limiter folder from the test's own): the project's copy, the shared
// folder beside the repository when it exists, and every folder named by
// LIMITER_CASES.
func Dirs(limiterDir string) []string {
	dirs := []string{filepath.Join(limiterDir, "testdata", "cases")}
	shared := filepath.Join(limiterDir, "..", "..", "shared", "cases")
	if fi, err := os.Stat(shared); err == nil && fi.IsDir() {
		dirs = append(dirs, shared)
	}
	for _, d := range filepath.SplitList(os.Getenv("LIMITER_CASES")) {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// Files returns dir's scenario files, sorted.
func Files(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Strings(files)
	return files, err
}

// Run runs f on every scenario file of Dirs(limiterDir), each in a subtest
// named by its folder and file, and returns how many files it read. A folder
// without scenario files, or a file that does not parse, is a test error.
func Run(t *testing.T, limiterDir string, f func(t *testing.T, file string, sc *Scenario)) int {
	total := 0
	for _, dir := range Dirs(limiterDir) {
		files, err := Files(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Errorf("%s: no scenario files", dir)
		}
		for _, file := range files {
			total++
			t.Run(filepath.Base(dir)+"/"+strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
				sc, err := Read(file)
				if err != nil {
					t.Fatalf("%s: %v", file, err)
				}
				f(t, file, sc)
			})
		}
	}
	return total
}

// Read reads one scenario file; unknown fields are errors.
func Read(path string) (*Scenario, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var sc Scenario
	if err := dec.Decode(&sc); err != nil {
		return nil, err
	}
	if sc.Name == "" || len(sc.Steps) == 0 {
		return nil, fmt.Errorf("scenario needs a name and steps")
	}
	return &sc, nil
}
