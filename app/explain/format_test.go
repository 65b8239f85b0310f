package explain

import (
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// ConfigText writes windows and leak intervals as the pages write durations;
// the buckets keep the library's text.
func TestConfigText(t *testing.T) {
	for _, c := range []struct {
		c    limiter.Config
		want string
	}{
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 2, Burst: 3}, "token bucket: 2/s, burst 3"},
		{limiter.Config{Kind: limiter.KindGCRA, Rate: 5000.0 / 3600, Burst: 10}, "GCRA: 1.38889/s, burst 10"},
		{limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 3, LeakInterval: 100 * time.Millisecond}, "leaky bucket: capacity 3, leaks 1 per 100 ms"},
		{limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 3, LeakInterval: 333333333}, "leaky bucket: capacity 3, leaks 1 per 333.333333 ms"},
		{limiter.Config{Kind: limiter.KindFixedWindow, Limit: 10, Window: time.Second}, "fixed window: 10 per 1 s"},
		{limiter.Config{Kind: limiter.KindSlidingWindowLog, Limit: 10, Window: 1500 * time.Millisecond}, "sliding window log: 10 per 1.5 s"},
		{limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 50, Window: time.Minute}, "sliding window counter: 50 per 1 min"},
		{limiter.Config{Kind: limiter.KindFixedWindow, Limit: 5, Window: 90 * time.Second}, "fixed window: 5 per 90 s"},
		{limiter.Config{Kind: limiter.KindFixedWindow, Limit: 5000, Window: time.Hour}, "fixed window: 5000 per 1 h"},
		{limiter.Config{Kind: limiter.KindFixedWindow, Limit: 5, Window: 90 * time.Minute}, "fixed window: 5 per 90 min"},
		{limiter.Config{Kind: limiter.KindFixedWindow, Limit: 5, Window: 48 * time.Hour}, "fixed window: 5 per 48 h"},
	} {
		if got := ConfigText(c.c); got != c.want {
			t.Errorf("ConfigText(%v) = %q, want %q", c.c, got, c.want)
		}
	}
}

// Usage rounds up to 2 decimals, and never shows "-0" (a new leaky bucket's
// level and an empty estimate showed "-0").
func TestUsage(t *testing.T) {
	for x, want := range map[float64]string{0: "0", 4.001: "4.01", 2.5: "2.5", 1e-12: "0", 3: "3", 0.1 + 0.2: "0.3"} {
		if got := Usage(x); got != want {
			t.Errorf("Usage(%v) = %q, want %q", x, got, want)
		}
	}
}
