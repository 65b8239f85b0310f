package limiter_test

import (
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// TestSlidingWindowCounts: the counts a store keeps outside this package
// decide as the strategy does at the same instant. A counter of 10 per 1 s
// has 6 requests in [0, 1 s) and 3 in [1 s, 2 s); at 1.5 s the previous
// window weighs 3, so 4 more fit.
func TestSlidingWindowCounts(t *testing.T) {
	counts := limiter.SlidingWindowCounts{Limit: 10, Window: time.Second, Elapsed: 500 * time.Millisecond, Curr: 3, Prev: 6}
	for _, c := range []struct {
		n       int
		allowed bool
		retry   time.Duration
	}{
		{0, true, 0},
		{1, true, 0},
		{4, true, 0},
		{5, false, 166666667}, // 6 × (1 s − e) ≤ (10 − 3 − 5) × 1 s from e = 1 s − ⌊2 s / 6⌋ ns
		{11, false, limiter.Never},
	} {
		sc, err := limiter.NewSlidingWindowCounter(10, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		for range 6 {
			sc.AllowN(100*time.Millisecond, 1)
		}
		sc.AllowN(1200*time.Millisecond, 3)
		want, _ := sc.AllowN(1500*time.Millisecond, c.n)
		got := counts.Decide(c.n)
		if got != want {
			t.Errorf("n=%d: Decide = %+v; the strategy decided %+v", c.n, got, want)
		}
		if got.RetryAfter != c.retry {
			t.Errorf("n=%d: RetryAfter = %v; want %v", c.n, got.RetryAfter, c.retry)
		}
		if got.Allowed != c.allowed || counts.Fits(c.n) != (c.allowed && c.n <= 10) {
			t.Errorf("n=%d: Allowed = %v, Fits = %v; want %v", c.n, got.Allowed, counts.Fits(c.n), c.allowed)
		}
		if !c.allowed && c.n <= 10 && counts.RetryAfter(c.n) != got.RetryAfter {
			t.Errorf("n=%d: RetryAfter() = %v; Decide's %v", c.n, counts.RetryAfter(c.n), got.RetryAfter)
		}
	}
}
