package redisstore_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"github.com/ratelab/ratelab/limiter/redisstore"
	"github.com/redis/go-redis/v9"
)

func TestNewRejects(t *testing.T) {
	c := srv.Client()
	defer c.Close()
	tb := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 5}
	for _, tc := range []struct {
		client redis.UniversalClient
		cfg    limiter.Config
		o      redisstore.Options
		want   string
	}{
		{c, limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: -1}, redisstore.Options{}, "limiter: burst -1 is negative; want >= 0"},
		{nil, tb, redisstore.Options{}, "redisstore: client is nil; want a redis.UniversalClient"},
		{c, limiter.Config{Kind: limiter.KindFixedWindow, Limit: 5, Window: 1500}, redisstore.Options{},
			"redisstore: window 1.5µs is not a whole number of microseconds; want a multiple of 1µs (Redis instants are microseconds)"},
		{c, limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 1 << 60, Window: time.Second}, redisstore.Options{},
			"redisstore: limit 1152921504606846976 is above 2^53 − 1; want at most 9007199254740991 (Redis scripts hold integers as doubles)"},
		{c, limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 10_000_000_000_000, LeakInterval: 1001}, redisstore.Options{},
			"redisstore: leaky bucket: capacity 10000000000000, leaks 1 per 1.001µs needs integers up to 10010000000001000 in Redis, above 2^53 (Redis scripts hold integers as doubles); want a smaller burst or capacity, or a rate that is a simpler fraction"},
		{c, limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 1e12, LeakInterval: time.Hour}, redisstore.Options{},
			"limiter: capacity 1000000000000 × leak interval 1h0m0s is over 2^61 ns, beyond the 64-bit arithmetic of BucketUnits (burst × unit <= 2^61); want capacity <= 640511 at this leak interval"},
		{c, limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1.0 / 7, Burst: 1e12}, redisstore.Options{},
			"limiter: burst 1000000000000 at rate 0.14285714285714285 is beyond the 64-bit arithmetic of BucketUnits (burst × unit <= 2^61); want burst <= 329406144 at this rate"},
		{c, tb, redisstore.Options{Prefix: "rl{x}:"}, "redisstore: prefix \"rl{x}:\" holds '{' or '}'; want none (the key's {hash tag} follows it)"},
		{c, tb, redisstore.Options{TTLSlack: -1}, "redisstore: TTL slack -1ns is negative; want >= 0"},
		{c, tb, redisstore.Options{Timeout: -time.Second}, "redisstore: timeout -1s is negative; want >= 0 (0: the client's own)"},
	} {
		_, err := redisstore.New(tc.client, tc.cfg, tc.o)
		if err == nil || err.Error() != tc.want || !errors.Is(err, limiter.ErrInvalid) {
			t.Errorf("New(%v, %+v) = %v; want %q wrapping limiter.ErrInvalid", tc.cfg, tc.o, err, tc.want)
		}
	}
	st, err := redisstore.New(c, tb, redisstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.TakeAt(context.Background(), time.UnixMicro(base), "neg", -1)
	if err == nil || err.Error() != "redisstore: n -1 is negative; want >= 0" || !errors.Is(err, limiter.ErrInvalid) {
		t.Errorf("TakeAt(n -1) = %v; want the n error wrapping limiter.ErrInvalid", err)
	}
}

// TestResult: one limit named "default" whose Config holds only its Kind's
// fields, the shape limiter/httplimit reads.
func TestResult(t *testing.T) {
	c := srv.Client()
	defer c.Close()
	cfg := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 2, Window: time.Second, Rate: 9, Burst: 9}
	st, err := redisstore.New(c, cfg, redisstore.Options{Prefix: "result:"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.TakeAt(context.Background(), time.UnixMicro(base+250_000), "a", 1)
	want := limiter.Result{Allowed: true, Limits: []limiter.Outcome{{Name: "default",
		Config:   limiter.Config{Kind: limiter.KindFixedWindow, Limit: 2, Window: time.Second},
		Decision: limiter.Decision{Allowed: true, Limit: 2, Remaining: 1, ResetAfter: 750 * time.Millisecond}}}}
	if err != nil || len(r.Limits) != 1 || r.Allowed != want.Allowed || r.Limits[0] != want.Limits[0] {
		t.Errorf("TakeAt = %+v, %v; want %+v", r, err, want)
	}
}

// TestExpiry: a key expires when its state is fresh again plus the TTL
// slack (PTTL counts down on the server's clock while the test runs, hence
// the 1 s span); a key that never refills never expires; a peek and a denial
// write nothing.
func TestExpiry(t *testing.T) {
	c := srv.Client()
	defer c.Close()
	ctx := context.Background()
	o := redisstore.Options{Prefix: "expiry:", TTLSlack: 1500 * time.Millisecond}
	for _, tc := range []struct {
		cfg  limiter.Config
		n    int
		pttl time.Duration // -1: no expiry
	}{
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 5}, 2, 3500 * time.Millisecond},
		{limiter.Config{Kind: limiter.KindGCRA, Rate: 3, Burst: 5}, 1, 1834 * time.Millisecond}, // ⌈333.33 ms⌉ + 1.5 s
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 0, Burst: 5}, 1, -1},
		{limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 5, LeakInterval: 10 * time.Second}, 2, 21500 * time.Millisecond},
		{limiter.Config{Kind: limiter.KindFixedWindow, Limit: 5, Window: 10 * time.Second}, 1, 7500 * time.Millisecond}, // 4 s into the window
		{limiter.Config{Kind: limiter.KindSlidingWindowLog, Limit: 5, Window: 10 * time.Second}, 1, 11500 * time.Millisecond},
		{limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 5, Window: 10 * time.Second}, 1, 17500 * time.Millisecond},
	} {
		st, err := redisstore.New(c, tc.cfg, o)
		if err != nil {
			t.Fatal(err)
		}
		at := time.UnixMicro(base + 4_000_000)
		for _, n := range []int{0, 6} { // a peek, a denial
			if _, err := st.TakeAt(ctx, at, "x", n); err != nil {
				t.Fatal(err)
			}
			if got := c.Exists(ctx, st.Keys("x")...).Val(); got != 0 {
				t.Errorf("%s: n %d: %d keys exist; want none written", tc.cfg, n, got)
			}
		}
		if _, err := st.TakeAt(ctx, at, "x", tc.n); err != nil {
			t.Fatal(err)
		}
		for _, k := range st.Keys("x") {
			got := c.PTTL(ctx, k).Val()
			if tc.pttl < 0 && got != -1 || tc.pttl >= 0 && (got > tc.pttl || got <= tc.pttl-time.Second) {
				t.Errorf("%s: PTTL %s = %v; want %v (less the test's own time)", tc.cfg, k, got, tc.pttl)
			}
		}
	}
}

// TestServerClock: Take reads the server's TIME. Two requests on a bucket of
// 1 token refilled at 1/s: the second is denied with RetryAfter = 1 s less
// the time between them on the server's clock, which lies between the two
// TIME readings around them.
func TestServerClock(t *testing.T) {
	c := srv.Client()
	defer c.Close()
	ctx := context.Background()
	st, err := redisstore.New(c, limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 1}, redisstore.Options{Prefix: "clock:"})
	if err != nil {
		t.Fatal(err)
	}
	before := c.Time(ctx).Val()
	r1, err1 := st.Take(ctx, "a", 1)
	r2, err2 := st.Take(ctx, "a", 1)
	after := c.Time(ctx).Val()
	if err1 != nil || err2 != nil || !r1.Allowed || r2.Allowed {
		t.Fatalf("Take, Take = %+v %v, %+v %v; want allowed, denied", r1, err1, r2, err2)
	}
	span := after.Sub(before).Truncate(time.Microsecond) + time.Microsecond
	if ra := r2.RetryAfter(); ra > time.Second || ra < time.Second-span {
		t.Errorf("RetryAfter = %v; want within %v of 1s", ra, span)
	}
}

// TestNoScript: after SCRIPT FLUSH the store loads the script again.
func TestNoScript(t *testing.T) {
	c := srv.Client()
	defer c.Close()
	ctx := context.Background()
	st, _ := redisstore.New(c, limiter.Config{Kind: limiter.KindFixedWindow, Limit: 1, Window: time.Second}, redisstore.Options{Prefix: "noscript:"})
	for i, want := range []bool{true, false} {
		if err := c.ScriptFlush(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		r, err := st.TakeAt(ctx, time.UnixMicro(base), "a", 1)
		if err != nil || r.Allowed != want {
			t.Errorf("request %d after SCRIPT FLUSH: %+v, %v; want allowed %v", i, r, err, want)
		}
	}
}

type fallback struct{ keys []string }

func (f *fallback) Take(_ context.Context, key string, n int) (limiter.Result, error) {
	f.keys = append(f.keys, key)
	return limiter.Result{Allowed: n <= 1, Limits: []limiter.Outcome{{Name: "local"}}}, nil
}

// TestFailure: a Redis that cannot be reached (a closed port) is an error,
// unless the store fails open or has a fallback; OnError sees each error. A
// server that accepts and never answers is a timeout after Options.Timeout.
func TestFailure(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	dead := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer dead.Close()
	ctx := context.Background()
	cfg := limiter.Config{Kind: limiter.KindSlidingWindowLog, Limit: 3, Window: time.Second}

	closed, _ := redisstore.New(dead, cfg, redisstore.Options{})
	if r, err := closed.Take(ctx, "a", 1); err == nil || r.Allowed || errors.Is(err, limiter.ErrInvalid) {
		t.Errorf("fail closed: %+v, %v; want a connection error", r, err)
	}

	var seen []string
	onError := func(key string, err error) { seen = append(seen, key) }
	open, _ := redisstore.New(dead, cfg, redisstore.Options{FailOpen: true, OnError: onError})
	r, err := open.Take(ctx, "b", 2)
	want := limiter.Decision{Allowed: true, Limit: 3, Remaining: 3}
	if err != nil || !r.Allowed || r.Limits[0].Decision != want {
		t.Errorf("fail open: %+v, %v; want %+v", r, err, want)
	}
	fb := &fallback{}
	withFallback, _ := redisstore.New(dead, cfg, redisstore.Options{Fallback: fb, OnError: onError})
	r1, err1 := withFallback.Take(ctx, "c", 1)
	r2, err2 := withFallback.Take(ctx, "c", 2)
	if err1 != nil || err2 != nil || !r1.Allowed || r2.Allowed || r1.Limits[0].Name != "local" || len(fb.keys) != 2 {
		t.Errorf("fallback: %+v %v, %+v %v (fallback saw %v); want the fallback's allowed, denied", r1, err1, r2, err2, fb.keys)
	}
	if len(seen) != 3 || seen[0] != "b" || seen[1] != "c" || seen[2] != "c" {
		t.Errorf("OnError saw keys %v; want [b c c]", seen)
	}

	silent, err := net.Listen("tcp", "127.0.0.1:0") // accepts, never answers
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	mute := redis.NewClient(&redis.Options{Addr: silent.Addr().String(), MaxRetries: -1, ContextTimeoutEnabled: true})
	defer mute.Close()
	slow, _ := redisstore.New(mute, cfg, redisstore.Options{Timeout: 50 * time.Millisecond})
	start := time.Now()
	_, err = slow.Take(ctx, "d", 1)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) && !isTimeout(err) || time.Since(start) > 5*time.Second {
		t.Errorf("silent server: %v after %v; want a timeout after 50ms", err, time.Since(start))
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// TestExpiryKeptInWindow: the fixed window and the sliding window counter
// set a key's expiry at the window's first write only (the instant its state
// is fresh again does not move within a window), so a later admission in
// the same window sends no PEXPIRE and leaves the TTL as it was.
func TestExpiryKeptInWindow(t *testing.T) {
	c := srv.Client()
	defer c.Close()
	ctx := context.Background()
	o := redisstore.Options{Prefix: "expirykept:", TTLSlack: 1500 * time.Millisecond}
	for _, cfg := range []limiter.Config{
		{Kind: limiter.KindFixedWindow, Limit: 5, Window: 10 * time.Second},
		{Kind: limiter.KindSlidingWindowCounter, Limit: 5, Window: 10 * time.Second},
	} {
		st, _ := redisstore.New(c, cfg, o)
		var pttl []time.Duration
		for _, at := range []int64{base + 4_000_000, base + 9_000_000} {
			if _, err := st.TakeAt(ctx, time.UnixMicro(at), "x", 1); err != nil {
				t.Fatal(err)
			}
			pttl = append(pttl, c.PTTL(ctx, st.Keys("x")[0]).Val())
		}
		if pttl[1] > pttl[0] || pttl[1] <= pttl[0]-time.Second {
			t.Errorf("%s: PTTL %v after the first write, %v after the second; want it unchanged", cfg, pttl[0], pttl[1])
		}
	}
}
