package limiter

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Config describes one strategy and its parameters, so that strategies can
// be chosen at run time (from a file, a URL, a slider). Only the fields of
// Kind are read.
type Config struct {
	Kind Kind
	// Rate in tokens per second and Burst in tokens: token bucket, GCRA.
	Rate  float64
	Burst int
	// Capacity in units and LeakInterval per unit: leaky bucket.
	Capacity     int
	LeakInterval time.Duration
	// Limit per Window: fixed window, sliding window log and counter.
	Limit  int
	Window time.Duration
}

// New returns a new strategy for c, or nil and the constructor's error for a
// parameter out of range, or nil and an error for an unknown Kind.
func New(c Config) (Strategy, error) {
	switch c.Kind {
	case KindTokenBucket:
		return strategy(NewTokenBucket(c.Rate, c.Burst))
	case KindGCRA:
		return strategy(NewGCRA(c.Rate, c.Burst))
	case KindLeakyBucket:
		return strategy(NewLeakyBucket(c.Capacity, c.LeakInterval))
	case KindFixedWindow:
		return strategy(NewFixedWindow(c.Limit, c.Window))
	case KindSlidingWindowLog:
		return strategy(NewSlidingWindowLog(c.Limit, c.Window))
	case KindSlidingWindowCounter:
		return strategy(NewSlidingWindowCounter(c.Limit, c.Window))
	}
	return nil, errorf("kind %q is unknown; want one of %v", string(c.Kind), Kinds)
}

// strategy returns a constructor's result as a Strategy: nil, not a typed nil
// pointer, with an error, so that s != nil means a usable strategy.
func strategy[S Strategy](s S, err error) (Strategy, error) {
	if err != nil {
		return nil, err
	}
	return s, nil
}

// String describes c in the field's terms, e.g. "token bucket: 10/s, burst 5".
func (c Config) String() string {
	switch c.Kind {
	case KindTokenBucket, KindGCRA:
		return fmt.Sprintf("%s: %s/s, burst %d", c.Kind.Name(), rateString(c.Rate), c.Burst)
	case KindLeakyBucket:
		return fmt.Sprintf("%s: capacity %d, leaks 1 per %s", c.Kind.Name(), c.Capacity, durString(c.LeakInterval))
	default:
		return fmt.Sprintf("%s: %d per %s", c.Kind.Name(), c.Limit, durString(c.Window))
	}
}

// rateString writes a rate to 6 significant digits (5000 per hour is
// 1.38889/s), in plain digits (10000000, not 1e+07) between 0.0001 and
// 10^15, and as %g outside (1.2e-05, +Inf).
func rateString(r float64) string {
	r6, _ := strconv.ParseFloat(strconv.FormatFloat(r, 'g', 6, 64), 64)
	if a := math.Abs(r6); a == 0 || a >= 1e-4 && a < 1e15 {
		return strconv.FormatFloat(r6, 'f', -1, 64)
	}
	return strconv.FormatFloat(r6, 'g', -1, 64)
}

// durString is time.Duration's text without zero trailing units: 1h, not
// 1h0m0s; 1m, not 1m0s; 1h30m; 500ms.
func durString(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Name returns the kind's name in the field's terms: "token bucket",
// "GCRA", "leaky bucket", "fixed window", "sliding window log", "sliding
// window counter".
func (k Kind) Name() string {
	switch k {
	case KindTokenBucket:
		return "token bucket"
	case KindGCRA:
		return "GCRA"
	case KindLeakyBucket:
		return "leaky bucket"
	case KindFixedWindow:
		return "fixed window"
	case KindSlidingWindowLog:
		return "sliding window log"
	case KindSlidingWindowCounter:
		return "sliding window counter"
	}
	return string(k)
}
