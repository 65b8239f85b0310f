package limiter_test

import (
	"errors"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// Bandwidth-sized rates and bursts (n in bytes), exact: the rate of whole
// tokens per nanosecond has a unit of 1, and 125e6/s one of 8.
func TestBandwidthRates(t *testing.T) {
	for _, tc := range []struct {
		rate     float64
		burst    int
		refill   time.Duration // for the whole burst
		perMilli int           // tokens back after 1 ms
	}{
		{2e9, 10_000_000_000, 5 * time.Second, 2_000_000},          // 16 Gbit/s, a 10 GB burst
		{125e6, 10_000_000_000, 80 * time.Second, 125_000},         // 1 Gbit/s, 10 GB
		{1e12, 1_000_000_000_000, time.Second, 1_000_000_000},      // 1 TB/s, 1 TB
		{1e9 / 3.0, 3_000_000_000, 9 * time.Second, 333_333},       // 1/3 token per ns: unit 3
		{3e11, 300_000_000_000_000, 1000 * time.Second, 300000000}, // 3e14 tokens
	} {
		for _, kind := range []limiter.Kind{limiter.KindTokenBucket, limiter.KindGCRA} {
			s, err := limiter.New(limiter.Config{Kind: kind, Rate: tc.rate, Burst: tc.burst})
			if err != nil {
				t.Fatalf("%s %g burst %d: %v", kind, tc.rate, tc.burst, err)
			}
			all, _ := s.AllowN(0, tc.burst)
			again, _ := s.AllowN(0, tc.burst)
			milli, _ := s.AllowN(time.Millisecond, 0)
			if !all.Allowed || all.ResetAfter != tc.refill || again.Allowed || again.RetryAfter != tc.refill || milli.Remaining != tc.perMilli {
				t.Errorf("%s %g burst %d: %+v, then %+v, after 1 ms %d tokens; want refill in %v, %d tokens", kind, tc.rate, tc.burst,
					all, again, milli.Remaining, tc.refill, tc.perMilli)
			}
			if d, _ := s.AllowN(tc.refill-1, tc.burst); d.Allowed || d.RetryAfter != 1 {
				t.Errorf("%s %g: 1 ns before the refill %+v, want denied with retry-after 1ns", kind, tc.rate, d)
			}
			if d, _ := s.AllowN(tc.refill, tc.burst); !d.Allowed {
				t.Errorf("%s %g: at the refill %+v, want allowed", kind, tc.rate, d)
			}
		}
	}
}

// Where the exact arithmetic cannot hold a burst, the error names the
// largest burst it can at that rate.
func TestRateLimitsOfTheArithmetic(t *testing.T) {
	for _, tc := range []struct {
		rate  float64
		burst int
		want  string
	}{
		{1.0 / 7, 1_000_000_000_000, "limiter: burst 1000000000000 at rate 0.14285714285714285 overflows the exact arithmetic; want burst <= 329406144 at this rate"},
		{1, 1_000_000_000_000, "limiter: burst 1000000000000 at rate 1 overflows the exact arithmetic; want burst <= 2305843009 at this rate"},
		{1e12 + 1e6, 1, "limiter: rate 1.000001e+12 is above 1e12 (1000 tokens per ns); want tokens per second in [0, 1e12] or +Inf"},
		{1e-12, 1, "limiter: rate 1e-12 is below 1e-9 and would round to 0; want 0 or tokens per second in [1e-9, 1e12] or +Inf"},
	} {
		_, err := limiter.NewTokenBucket(tc.rate, tc.burst)
		if err == nil || err.Error() != tc.want || !errors.Is(err, limiter.ErrInvalid) {
			t.Errorf("NewTokenBucket(%g, %d): %v, want %q", tc.rate, tc.burst, err, tc.want)
		}
	}
	// Changing between rates of one denominator keeps the debt exact, with
	// or without lowest terms: 2e9 and 3e9 per second are 2 and 3 per ns.
	tb, _ := limiter.NewTokenBucket(2e9, 10_000_000_000)
	tb.AllowN(0, 10_000_000_000)
	_ = tb.SetRate(time.Second, 3e9) // 2e9 back, 8e9 missing
	if d, _ := tb.AllowN(time.Second, 0); d.Remaining != 2_000_000_000 || d.ResetAfter != 2666666667 {
		t.Errorf("after SetRate: %+v, want 2e9 remaining, full in 2.666666667s", d)
	}
}
