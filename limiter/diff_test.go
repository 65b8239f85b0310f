package limiter_test

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"golang.org/x/time/rate"
	"pgregory.net/rapid"
)

// dyadicStep is 1/512 s, a whole number of nanoseconds whose length in
// seconds is exact in float64.
const dyadicStep = time.Second / 512

// propMatchesXTimeRate: on in-order traces, our token bucket makes the same
// decisions as golang.org/x/time/rate's Limiter.AllowN at explicit instants.
//
// x/time/rate counts tokens in float64, so the two can differ where the
// exact answer is on a boundary and float rounding falls on the other side.
// The traces avoid that honestly rather than excusing differences: rates are
// dyadic (0.25, 0.5 and whole numbers up to 100) and instants are multiples of
// 1/512 s, so every token count x/time/rate computes (a multiple of 1/2048
// below 2^20) is exact in float64, and both libraries do exact arithmetic.
func propMatchesXTimeRate(t *rapid.T) {
	r := rapid.SampledFrom([]float64{0, 0.25, 0.5, 1, 2, 3, 10, 100, math.Inf(1)}).Draw(t, "rate")
	burst := rapid.IntRange(0, 5).Draw(t, "burst")
	ours, err := limiter.NewTokenBucket(r, burst)
	if err != nil {
		t.Fatal(err)
	}
	lim := rate.Limit(r)
	if math.IsInf(r, 1) {
		lim = rate.Inf // math.MaxFloat64 there, not +Inf
	}
	theirs := rate.NewLimiter(lim, burst)
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	now := limiter.Instant(rapid.Int64Range(-1000, 1000).Draw(t, "start")) * dyadicStep
	for i := range rapid.IntRange(1, 40).Draw(t, "steps") {
		now += limiter.Instant(rapid.IntRange(0, 600).Draw(t, "delta")) * dyadicStep
		n := rapid.IntRange(0, burst+1).Draw(t, "n")
		d, err := ours.AllowN(now, n)
		if err != nil {
			t.Fatal(err)
		}
		if want := theirs.AllowN(base.Add(now), n); d.Allowed != want {
			t.Fatalf("rate %v burst %d step %d (%v, n=%d): ours allowed=%v, x/time/rate %v", r, burst, i, now, n, d.Allowed, want)
		}
	}
}

// TestConcurrentFirstRequests: N goroutines sending at one instant to one
// fresh key get exactly min(N, limit) allowed, while other goroutines sweep
// (run with -race).
func TestConcurrentFirstRequests(t *testing.T) {
	for _, c := range []limiter.Config{
		{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 5},
		{Kind: limiter.KindTokenBucket, Rate: 3, Burst: 0},
		{Kind: limiter.KindGCRA, Rate: 1.0 / 3, Burst: 7},
		{Kind: limiter.KindLeakyBucket, Capacity: 4, LeakInterval: time.Second},
		{Kind: limiter.KindFixedWindow, Limit: 6, Window: time.Second},
		{Kind: limiter.KindSlidingWindowLog, Limit: 3, Window: time.Second},
		{Kind: limiter.KindSlidingWindowCounter, Limit: 9, Window: time.Second},
	} {
		for _, n := range []int{1, 2, 5, 8, 32} {
			t.Run(fmt.Sprintf("%v/N=%d", c, n), func(t *testing.T) {
				k, err := limiter.NewKeyed(func(string) (limiter.Strategy, error) { return limiter.New(c) },
					limiter.KeyedOptions{SweepEvery: 1})
				if err != nil {
					t.Fatal(err)
				}
				const now = 42 * time.Second
				var wg sync.WaitGroup
				start := make(chan struct{})
				allowed := make(chan bool, n)
				// Sweepers run a bounded number of sweeps and yield between
				// them: js/wasm has one thread and no preemption, so a
				// spinning sweeper would starve the requests.
				for range 2 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						for range 2 * n {
							k.Sweep(now)
							runtime.Gosched()
						}
					}()
				}
				for range n {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						d, err := k.AllowNAt(now, "client", 1)
						if err != nil {
							t.Error(err)
						}
						allowed <- d.Allowed
					}()
				}
				close(start)
				wg.Wait()
				close(allowed)
				got := 0
				for a := range allowed {
					if a {
						got++
					}
				}
				limit := max(c.Burst, c.Capacity, c.Limit)
				if want := min(n, limit); got != want {
					t.Fatalf("%d allowed, want %d", got, want)
				}
				k.Sweep(now)
				if want := min(1, limit); k.Len() != want {
					t.Fatalf("Len after sweep = %d, want %d", k.Len(), want)
				}
			})
		}
	}
}

// TestStaleVersusLatestSeen shows why property 5 compares a stale request
// with the latest instant *admitted*: compared with the same trace stamped
// monotonically (each stamp raised to the latest seen), a trace with a stale
// stamp can admit more, for every strategy. The denied request at 1 s changes
// no state (a denial is not counted anywhere), so the limiter cannot know
// that 0 s is "stale"; the request at 0 s is simply its first.
func TestStaleVersusLatestSeen(t *testing.T) {
	for _, tc := range []struct {
		c    limiter.Config
		last time.Duration // the third request's stamp
	}{
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 1}, time.Second},
		{limiter.Config{Kind: limiter.KindGCRA, Rate: 1, Burst: 1}, time.Second},
		{limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 1, LeakInterval: time.Second}, time.Second},
		{limiter.Config{Kind: limiter.KindFixedWindow, Limit: 1, Window: time.Second}, time.Second},
		{limiter.Config{Kind: limiter.KindSlidingWindowLog, Limit: 1, Window: time.Second}, time.Second},
		{limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 1, Window: time.Second}, 2 * time.Second},
	} {
		c := tc.c
		admitted := func(stamps ...time.Duration) []bool {
			s, err := limiter.New(c)
			if err != nil {
				t.Fatal(err)
			}
			var got []bool
			for i, at := range stamps {
				n := 1
				if i == 0 {
					n = 2 // above the limit: denied, RetryAfter Never
				}
				d, err := s.AllowN(at, n)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, d.Allowed)
			}
			return got
		}
		stale := admitted(time.Second, 0, tc.last)
		monotonic := admitted(time.Second, time.Second, tc.last)
		if fmt.Sprint(stale) != "[false true true]" || fmt.Sprint(monotonic) != "[false true false]" {
			t.Errorf("%v: stale trace %v, monotonic %v; want [false true true] and [false true false]", c, stale, monotonic)
		}
	}
}
