package limiter_test

import (
	"errors"
	"fmt"
	"math"
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

// Where the exact arithmetic cannot hold a rate or burst, the error names
// the smallest rate or the largest burst it can.
func TestRateLimitsOfTheArithmetic(t *testing.T) {
	for _, tc := range []struct {
		rate  float64
		burst int
		want  string
	}{
		{1e-15, 1e15, "limiter: burst 1000000000000000 at rate 1e-15 overflows the exact arithmetic; want burst <= 170141183460469 at this rate"},
		{1e-12, 1e18, "limiter: burst 1000000000000000000 at rate 1e-12 overflows the exact arithmetic; want burst <= 170141183460469231 at this rate"},
		{1e12 + 1e6, 1, "limiter: rate 1.000001e+12 is above 1e12 (1000 tokens per ns); want tokens per second in [0, 1e12] or +Inf"},
		{6e-16, 1, "limiter: rate 6e-16 is below 1e-15 and would round to 0; want 0 or tokens per second in [1e-15, 1e12] or +Inf"},
	} {
		_, err := limiter.NewTokenBucket(tc.rate, tc.burst)
		if err == nil || err.Error() != tc.want || !errors.Is(err, limiter.ErrInvalid) {
			t.Errorf("NewTokenBucket(%g, %d): %v, want %q", tc.rate, tc.burst, err, tc.want)
		}
	}
	// The largest burst named is accepted.
	for _, tc := range []struct {
		rate  float64
		burst int
	}{{1e-15, 170141183460469}, {1e-12, 170141183460469231}} {
		if _, err := limiter.NewGCRA(tc.rate, tc.burst); err != nil {
			t.Errorf("NewGCRA(%g, %d): %v", tc.rate, tc.burst, err)
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

// Every rate from 1e-12 to 1e12 tokens per second takes bursts up to 1e12,
// exactly: the whole burst spent at 0, then the tokens back at an instant,
// one more than that denied with its exact retry-after, and exactly that
// many admitted. A wait beyond the largest Duration (one token at 1e-12 per
// second takes 1e21 ns) is Never.
func TestEveryRateAndBurst(t *testing.T) {
	const never = limiter.Never
	for _, tc := range []struct {
		rate  float64
		burst int
		reset time.Duration // after the whole burst is spent at 0
		at    time.Duration
		back  int           // tokens back at at
		retry time.Duration // for back+1 at at
	}{
		{1e-12, 1, never, 1e18, 0, never},
		{1e-12, 1e9, never, 1e18, 0, never},
		{1e-12, 1e10, never, 1e18, 0, never},
		{1e-12, 1e12, never, 1e18, 0, never},
		{1e-10, 1, never, 9e18, 0, 1e18}, // 0.9 token back: 0.1 more takes 1e9 s
		{1e-10, 1e12, never, 9e18, 0, 1e18},
		{1.0 / 7, 1, 7 * time.Second, 7 * time.Second, 1, never}, // n = 2 is above the burst
		{1.0 / 7, 1e9, 7e18, 70 * time.Second, 10, 7 * time.Second},
		{1.0 / 7, 1e10, never, 70 * time.Second, 10, 7 * time.Second},
		{1.0 / 7, 1e12, never, 70*time.Second + 1, 10, 7*time.Second - 1},
		{2e9, 1, 1, 1, 1, never},
		{2e9, 1e9, 500 * time.Millisecond, 100 * time.Millisecond, 2e8, 1},
		{2e9, 1e10, 5 * time.Second, time.Second, 2e9, 1}, // 16 Gbit/s, a 10 GB burst
		{2e9, 1e12, 500 * time.Second, time.Second, 2e9, 1},
		{1e12, 1, 1, 1, 1, never},
		{1e12, 1e9, time.Millisecond, 500 * time.Microsecond, 5e8, 1},
		{1e12, 1e10, 10 * time.Millisecond, time.Millisecond, 1e9, 1},
		{1e12, 1e12, time.Second, time.Millisecond, 1e9, 1},
	} {
		for _, kind := range []limiter.Kind{limiter.KindTokenBucket, limiter.KindGCRA} {
			name := fmt.Sprintf("%s %g burst %d", kind, tc.rate, tc.burst)
			s, err := limiter.New(limiter.Config{Kind: kind, Rate: tc.rate, Burst: tc.burst})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			all, look, over, got := refillAt(s, tc.burst, tc.at, tc.back)
			if !all.Allowed || all.ResetAfter != tc.reset || look.Remaining != tc.back ||
				over.Allowed || over.RetryAfter != tc.retry || !got.Allowed || got.Remaining != 0 {
				t.Errorf("%s: spent %+v; at %v: %+v, n=%d %+v, n=%d %+v; want reset in %v, %d back, retry-after %v",
					name, all, tc.at, look, tc.back+1, over, tc.back, got, tc.reset, tc.back, tc.retry)
			}
		}
	}
}

// refillAt spends fill of s at 0, then at at peeks (n = 0), asks for back+1
// and then for back, and returns the four decisions.
func refillAt(s limiter.Strategy, fill int, at time.Duration, back int) (all, look, over, got limiter.Decision) {
	all, _ = s.AllowN(0, fill)
	look, _ = s.AllowN(at, 0)
	over, _ = s.AllowN(at, back+1)
	got, _ = s.AllowN(at, back)
	return all, look, over, got
}

// Below 1e-9 tokens per second the debt is still exact in fractions of a
// token: at 1e-12/s, 1e9 s give back exactly 0.001 token, and at 1 per
// second the other 0.999 token takes exactly 999 ms.
func TestTinyRatesAreExact(t *testing.T) {
	for _, tc := range []struct {
		rate   float64
		burst  int
		tokens float64       // held after 1e9 s
		retry  time.Duration // for the next token at 1/s
	}{
		{1e-12, 1, 0.001, 999 * time.Millisecond},
		{1e-12, 1e12, 0.001, 999 * time.Millisecond},
		{1e-10, 1, 0.1, 900 * time.Millisecond},
		{1e-15, 1e12, 1e-6, 999999 * time.Microsecond},
	} {
		tb, err := limiter.NewTokenBucket(tc.rate, tc.burst)
		if err != nil {
			t.Fatal(err)
		}
		tb.AllowN(0, tc.burst)
		const at = 1e18
		if got := tb.State(at).Tokens; got != tc.tokens {
			t.Errorf("%g burst %d: %v tokens after 1e9 s, want %v", tc.rate, tc.burst, got, tc.tokens)
		}
		if err := tb.SetRate(at, 1); err != nil {
			t.Fatal(err)
		}
		if d, _ := tb.AllowN(at, 1); d.Allowed || d.RetryAfter != tc.retry {
			t.Errorf("%g burst %d: at 1/s %+v, want denied with retry-after %v", tc.rate, tc.burst, d, tc.retry)
		}
		if d, _ := tb.AllowN(at+tc.retry, 1); !d.Allowed {
			t.Errorf("%g burst %d: at 1/s after %v %+v, want allowed", tc.rate, tc.burst, tc.retry, d)
		}
	}
	// A GCRA's times beyond the largest Instant are Never; those within
	// it exact.
	g, _ := limiter.NewGCRA(1.0/7, 1e12)
	g.AllowN(0, 1)
	if s := g.State(0); s.TAT != 7*time.Second || s.EmissionInterval != 7*time.Second || s.Tolerance != limiter.Never {
		t.Errorf("GCRA 1/7 burst 1e12: %+v, want TAT 7s, emission interval 7s, tolerance Never", s)
	}
	g, _ = limiter.NewGCRA(1e-12, 1)
	g.AllowN(0, 1)
	if s := g.State(0); s.TAT != limiter.Never || s.EmissionInterval != limiter.Never || s.Tolerance != limiter.Never {
		t.Errorf("GCRA 1e-12: %+v, want TAT, emission interval and tolerance Never", s)
	}
}

// A Keyed holds wide limiters like any other: each key its own debt, exact
// (1e12 tokens at 1/7 per second: 1 token back after exactly 7 s), and a
// key in debt is not swept.
func TestKeyedWideBuckets(t *testing.T) {
	for _, kind := range []limiter.Kind{limiter.KindTokenBucket, limiter.KindGCRA} {
		k := newKeyed(t, func(string) (limiter.Strategy, error) {
			return limiter.New(limiter.Config{Kind: kind, Rate: 1.0 / 7, Burst: 1e12})
		}, limiter.KeyedOptions{})
		if d := keyedAllow(t, k, 0, "a", 1e12); !d.Allowed || d.ResetAfter != limiter.Never {
			t.Errorf("%s: a spends the burst: %+v", kind, d)
		}
		if d := keyedAllow(t, k, 0, "b", 1); !d.Allowed || d.Remaining != 1e12-1 || d.ResetAfter != 7*time.Second {
			t.Errorf("%s: b spends 1: %+v, want 999999999999 remaining, full in 7s", kind, d)
		}
		if d := keyedAllow(t, k, 7*time.Second-1, "a", 1); d.Allowed || d.RetryAfter != 1 {
			t.Errorf("%s: a 1 ns early: %+v, want retry-after 1ns", kind, d)
		}
		if n := k.Sweep(7 * time.Second); n != 1 || k.Len() != 1 {
			t.Errorf("%s: sweep at 7 s removed %d keys, %d left; want b removed, a kept", kind, n, k.Len())
		}
		if d := keyedAllow(t, k, 7*time.Second, "a", 1); !d.Allowed || d.Remaining != 0 {
			t.Errorf("%s: a at 7 s: %+v, want allowed, 0 remaining", kind, d)
		}
	}
}

// Reservations on the wide arithmetic are exact too: behind a spent burst of
// 1e12 at 1/7 per second, one more token waits exactly 7 s, and cancelling
// it gives it back.
func TestWideReservations(t *testing.T) {
	for _, kind := range []limiter.Kind{limiter.KindTokenBucket, limiter.KindGCRA} {
		s, _ := limiter.New(limiter.Config{Kind: kind, Rate: 1.0 / 7, Burst: 1e12})
		r := s.(interface {
			Reserve(limiter.Instant, int) (*limiter.Reservation, error)
		})
		all, err := r.Reserve(0, 1e12)
		if err != nil || all.Delay() != 0 {
			t.Fatalf("%s: reserve the burst: %v, %v", kind, all, err)
		}
		one, err := r.Reserve(time.Second, 2)
		if err != nil || one.Delay() != 13*time.Second {
			t.Fatalf("%s: reserve 2 more at 1 s: %v, %v; want a delay of 13s", kind, one, err)
		}
		if !one.Cancel(time.Second) {
			t.Fatalf("%s: cancel refused", kind)
		}
		if d, _ := s.AllowN(time.Second, 1); d.Allowed || d.RetryAfter != 6*time.Second {
			t.Errorf("%s: after the cancel %+v, want retry-after 6s", kind, d)
		}
		if _, err := r.Reserve(0, 1e12+1); err == nil || err.Error() != "limiter: n 1000000000001 is above the burst 1000000000000, so no wait would do; want n <= 1000000000000" {
			t.Errorf("%s: reserve above the burst: %v", kind, err)
		}
	}
}

// Every leak interval from 1 ns to the largest Duration takes capacities up
// to the largest int, exactly: the whole capacity filled at 0, then the
// units leaked by an instant, one more than that denied with its exact
// retry-after, and exactly that many admitted with their exact queue
// Delay. A full bucket that drains in over 73 years (capacity × leak
// interval above 2⁶¹ ns: 1e12 units at 10 ms) is held in 128 bits; a wait
// beyond the largest Duration is Never, a Delay just below it.
func TestEveryLeakIntervalAndCapacity(t *testing.T) {
	const never, year = limiter.Never, 365 * 24 * time.Hour
	for _, tc := range []struct {
		capacity  int
		interval  time.Duration
		reset     time.Duration // after the whole capacity is filled at 0
		delay     time.Duration // of that fill
		at        time.Duration
		back      int           // units leaked by at
		retry     time.Duration // for back+1 at at
		backDelay time.Duration // of back admitted at at
	}{
		{1, 1, 1, 0, 1, 1, never, 0},
		{1e12, 1, 1000 * time.Second, 1e12 - 1, time.Millisecond, 1e6, 1, 1e12 - 1},
		{1e12, time.Microsecond, 1e15, 1e15 - 1000, time.Second, 1e6, time.Microsecond, 1e15 - 1000},
		{1e12, time.Millisecond, 1e18, 1e18 - 1e6, time.Second, 1000, time.Millisecond, 1e18 - 1e6}, // 64 bits up to 2.3 ms
		{2305843009, time.Second, 2305843009 * time.Second, 2305843008 * time.Second, 1500 * time.Millisecond, 1, 500 * time.Millisecond, 2305843007500 * time.Millisecond},
		{2305843010, time.Second, 2305843010 * time.Second, 2305843009 * time.Second, 1500 * time.Millisecond, 1, 500 * time.Millisecond, 2305843008500 * time.Millisecond}, // the first wide capacity at 1 s
		{1e12, 10 * time.Millisecond, never, never - 1, time.Second, 100, 10 * time.Millisecond, never - 1},
		{1e9, time.Hour, never, never - 1, 90 * time.Minute, 1, 30 * time.Minute, never - 1},
		{1e12, time.Hour, never, never - 1, 90 * time.Minute, 1, 30 * time.Minute, never - 1},
		{1e12, year, never, never - 1, 1e18, 31, 32*year - 1e18, never - 1},
		{math.MaxInt, 1, never, never - 1, time.Second, 1e9, 1, never - 1},
		{math.MaxInt, never, never, never - 1, 1e18, 0, never - 1e18, 0},
	} {
		name := fmt.Sprintf("capacity %d, leak interval %v", tc.capacity, tc.interval)
		s, err := limiter.NewLeakyBucket(tc.capacity, tc.interval)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		all, look, over, got := refillAt(s, tc.capacity, tc.at, tc.back)
		if !all.Allowed || all.ResetAfter != tc.reset || all.Delay != tc.delay || look.Remaining != tc.back ||
			over.Allowed || over.RetryAfter != tc.retry || !got.Allowed || got.Remaining != 0 || got.Delay != tc.backDelay {
			t.Errorf("%s: filled %+v; at %v: %+v, n=%d %+v, n=%d %+v; want reset in %v, delay %v, %d back, retry-after %v, delay %v",
				name, all, tc.at, look, tc.back+1, over, tc.back, got, tc.reset, tc.delay, tc.back, tc.retry, tc.backDelay)
		}
		if c := s.Config(); c.Capacity != tc.capacity || c.LeakInterval != tc.interval {
			t.Errorf("%s: Config() %+v", name, c)
		}
	}
}

// A wide leaky bucket (1e12 units, one leaking per hour) at chosen
// instants: its level, its queue Delay, its retry-after and reset, exact.
func TestWideLeakyBucketAtInstants(t *testing.T) {
	const h = time.Hour
	lb, err := limiter.NewLeakyBucket(1e12, h)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		at   time.Duration
		n    int
		want limiter.Decision
	}{
		{0, 3, limiter.Decision{Allowed: true, Limit: 1e12, Remaining: 1e12 - 3, ResetAfter: 3 * h, Delay: 2 * h}},
		{30 * time.Minute, 2, limiter.Decision{Allowed: true, Limit: 1e12, Remaining: 1e12 - 5, ResetAfter: 4*h + 30*time.Minute, Delay: 3*h + 30*time.Minute}},
		{h, 1e12 - 3, limiter.Decision{Allowed: false, Limit: 1e12, Remaining: 1e12 - 4, RetryAfter: h, ResetAfter: 4 * h}},
		{90 * time.Minute, 1e12 - 4, limiter.Decision{Allowed: true, Limit: 1e12, Remaining: 0, ResetAfter: limiter.Never, Delay: limiter.Never - 1}},
		{2 * h, 2, limiter.Decision{Allowed: false, Limit: 1e12, Remaining: 1, RetryAfter: h, ResetAfter: limiter.Never}},
		{2 * h, 1, limiter.Decision{Allowed: true, Limit: 1e12, Remaining: 0, ResetAfter: limiter.Never, Delay: limiter.Never - 1}},
	}
	for _, st := range steps {
		if d, _ := lb.AllowN(st.at, st.n); d != st.want {
			t.Errorf("at %v, n=%d: %+v, want %+v", st.at, st.n, d, st.want)
		}
	}
	if s := lb.State(4*h + 30*time.Minute); s.Level != 1e12-2.5 || s.Limit != 1e12 || s.Rate != 1.0/3600 {
		t.Errorf("State at 4.5 h: %+v, want level 999999999997.5", s)
	}
	if lb.Fresh(1e18) {
		t.Error("fresh after 1e18 ns, want 1e12 hours of water left")
	}
}

// A leaky bucket keeps its level, in units, across a change between 64-bit
// and 128-bit parameters, exactly, and above a lowered capacity too.
func TestLeakyBucketAcrossWideAndNarrow(t *testing.T) {
	lb, _ := limiter.NewLeakyBucket(1e12, time.Millisecond) // 1e21 ns full: wide
	lb.AllowN(0, 1e12)
	if err := lb.SetLeakInterval(time.Second, 1); err != nil { // 1e12 ns full: 64 bits, 1e12 − 1000 units
		t.Fatal(err)
	}
	if d, _ := lb.AllowN(time.Second, 1001); d.Allowed || d.RetryAfter != 1 {
		t.Errorf("at 1 ns a unit: n=1001 %+v, want denied, retry-after 1ns", d)
	}
	if err := lb.SetLeakInterval(time.Second+1, time.Hour); err != nil { // wide again, 1e12 − 1001 units
		t.Fatal(err)
	}
	if d, _ := lb.AllowN(time.Second+1, 1002); d.Allowed || d.RetryAfter != time.Hour {
		t.Errorf("at 1 h a unit: n=1002 %+v, want denied, retry-after 1h", d)
	}
	// A level above a lowered capacity, then a leak interval that puts it
	// beyond 64 bits (1e6 units of 1e13 ns): kept exactly, where a 64-bit
	// level would stop at 2⁶¹ ns.
	lb, _ = limiter.NewLeakyBucket(1e6, 1)
	lb.AllowN(0, 1e6)
	if err := lb.SetCapacity(0, 1); err != nil {
		t.Fatal(err)
	}
	if err := lb.SetLeakInterval(0, 1e13); err != nil {
		t.Fatal(err)
	}
	if s := lb.State(1e18); s.Level != 900000 {
		t.Errorf("level after 1e18 ns at 1e13 ns a unit: %v, want 900000", s.Level)
	}
	if d, _ := lb.AllowN(1e18, 1); d.Allowed || d.Remaining != 0 || d.RetryAfter != 9e18 {
		t.Errorf("over the capacity: %+v, want denied, retry-after 9e18 ns", d)
	}
}

// Reservations on a wide leaky bucket are exact: behind a full bucket of
// 1e12 units leaking one per ms, 1002 more at 1 s wait exactly 2 ms, and
// cancelling them gives them back.
func TestWideLeakyReservations(t *testing.T) {
	lb, _ := limiter.NewLeakyBucket(1e12, time.Millisecond)
	if r, err := lb.Reserve(0, 1e12); err != nil || r.Delay() != 0 {
		t.Fatalf("reserve the capacity: %v, %v", r, err)
	}
	r, err := lb.Reserve(time.Second, 1002)
	if err != nil || r.Delay() != 2*time.Millisecond {
		t.Fatalf("reserve 1002 at 1 s: %v, %v; want a delay of 2ms", r, err)
	}
	if !r.Cancel(time.Second) {
		t.Fatal("cancel refused")
	}
	if d, _ := lb.AllowN(time.Second, 1001); d.Allowed || d.RetryAfter != time.Millisecond {
		t.Errorf("after the cancel %+v, want retry-after 1ms", d)
	}
	if _, err := lb.Reserve(0, 1e12+1); err == nil || err.Error() != "limiter: n 1000000000001 is above the capacity 1000000000000, so no wait would do; want n <= 1000000000000" {
		t.Errorf("reserve above the capacity: %v", err)
	}
}
