package limiter_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

func TestBucketUnits(t *testing.T) {
	for _, tc := range []struct {
		c    limiter.Config
		want limiter.BucketUnits
	}{
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 3, Burst: 5}, limiter.BucketUnits{PerNs: 3, Unit: 1e9, Burst: 5}},
		{limiter.Config{Kind: limiter.KindGCRA, Rate: 5000 / 3600.0, Burst: 2}, limiter.BucketUnits{PerNs: 25, Unit: 18e9, Burst: 2}},
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 0, Burst: 1}, limiter.BucketUnits{PerNs: 0, Unit: 1e9, Burst: 1}},
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: math.Inf(1), Burst: 4}, limiter.BucketUnits{PerNs: 0, Unit: 1, Burst: 4, Inf: true}},
		{limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 3, LeakInterval: 7 * time.Millisecond}, limiter.BucketUnits{PerNs: 1, Unit: 7e6, Burst: 3}},
		{limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 640511, LeakInterval: time.Hour}, limiter.BucketUnits{PerNs: 1, Unit: 36e11, Burst: 640511}},
		{limiter.Config{Kind: limiter.KindGCRA, Rate: 1.0 / 7, Burst: 329406144}, limiter.BucketUnits{PerNs: 1, Unit: 7e9, Burst: 329406144}},
	} {
		got, err := tc.c.BucketUnits()
		if err != nil || got != tc.want {
			t.Errorf("%v: BucketUnits() = %+v, %v; want %+v", tc.c, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		c    limiter.Config
		want string
	}{
		{limiter.Config{Kind: limiter.KindFixedWindow, Limit: 1, Window: time.Second},
			`limiter: kind "fixed_window" has no bucket; want token_bucket, gcra or leaky_bucket`},
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: -1}, "limiter: burst -1 is negative; want >= 0"},
		{limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 1e12, LeakInterval: time.Hour},
			"limiter: capacity 1000000000000 × leak interval 1h0m0s is over 2^61 ns, beyond the 64-bit arithmetic of BucketUnits (burst × unit <= 2^61); want capacity <= 640511 at this leak interval"},
		{limiter.Config{Kind: limiter.KindGCRA, Rate: 1.0 / 7, Burst: 1e12},
			"limiter: burst 1000000000000 at rate 0.14285714285714285 is beyond the 64-bit arithmetic of BucketUnits (burst × unit <= 2^61); want burst <= 329406144 at this rate"},
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1e-12, Burst: 1},
			"limiter: rate 1e-12 is below 1e-9, beyond the 64-bit arithmetic of BucketUnits (burst × unit <= 2^61); want 0 or tokens per second in [1e-9, 1e12] or +Inf"},
	} {
		_, err := tc.c.BucketUnits()
		if err == nil || err.Error() != tc.want || !errors.Is(err, limiter.ErrInvalid) {
			t.Errorf("%v: BucketUnits() error %v; want %q wrapping ErrInvalid", tc.c, err, tc.want)
		}
	}
}
