package limiter_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/ratelab/ratelab/limiter"
)

const msec = time.Millisecond

func TestConstructorErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"tb NaN", err2(limiter.NewTokenBucket(math.NaN(), 1)), "limiter: rate NaN is not a number; want tokens per second in [0, 1e12] or +Inf"},
		{"tb negative rate", err2(limiter.NewTokenBucket(-1, 1)), "limiter: rate -1 is negative; want tokens per second in [0, 1e12] or +Inf"},
		{"tb -Inf", err2(limiter.NewTokenBucket(math.Inf(-1), 1)), "limiter: rate -Inf is negative; want tokens per second in [0, 1e12] or +Inf"},
		{"tb rate above 1e12", err2(limiter.NewTokenBucket(2e12, 1)), "limiter: rate 2e+12 is above 1e12 (1000 tokens per ns); want tokens per second in [0, 1e12] or +Inf"},
		{"tb rate below 1e-15", err2(limiter.NewTokenBucket(1e-16, 1)), "limiter: rate 1e-16 is below 1e-15 and would round to 0; want 0 or tokens per second in [1e-15, 1e12] or +Inf"},
		{"tb negative burst", err2(limiter.NewTokenBucket(1, -1)), "limiter: burst -1 is negative; want >= 0"},
		{"tb overflow", err2(limiter.NewTokenBucket(1e-15, math.MaxInt)), "limiter: burst 9223372036854775807 at rate 1e-15 overflows the exact arithmetic; want burst <= 170141183460469 at this rate"},
		{"gcra NaN", err2(limiter.NewGCRA(math.NaN(), 1)), "limiter: rate NaN is not a number; want tokens per second in [0, 1e12] or +Inf"},
		{"gcra rate above 1e12", err2(limiter.NewGCRA(1e12+1, 1)), "limiter: rate 1.000000000001e+12 is above 1e12 (1000 tokens per ns); want tokens per second in [0, 1e12] or +Inf"},
		{"gcra negative burst", err2(limiter.NewGCRA(1, -3)), "limiter: burst -3 is negative; want >= 0"},
		{"gcra overflow", err2(limiter.NewGCRA(1e-12, math.MaxInt/2)), "limiter: burst 4611686018427387903 at rate 1e-12 overflows the exact arithmetic; want burst <= 170141183460469231 at this rate"},
		{"leaky capacity 0", err2(limiter.NewLeakyBucket(0, time.Second)), "limiter: capacity 0 is below 1; want >= 1"},
		{"leaky interval 0", err2(limiter.NewLeakyBucket(1, 0)), "limiter: leak interval 0s is below 1ns; want >= 1ns"},
		{"fixed limit 0", err2(limiter.NewFixedWindow(0, time.Second)), "limiter: limit 0 is below 1; want >= 1"},
		{"fixed window 0", err2(limiter.NewFixedWindow(1, 0)), "limiter: window 0s is below 1ns; want >= 1ns"},
		{"log window negative", err2(limiter.NewSlidingWindowLog(1, -time.Second)), "limiter: window -1s is below 1ns; want >= 1ns"},
		{"log limit negative", err2(limiter.NewSlidingWindowLog(-2, time.Second)), "limiter: limit -2 is below 1; want >= 1"},
		{"counter window over 50 years", err2(limiter.NewSlidingWindowCounter(1, limiter.MaxWindow+1)), "limiter: window 438000h0m0.000000001s is above 438000h0m0s (50 years); want 1ns <= window <= 438000h0m0s"},
		{"fixed window over 50 years", err2(limiter.NewFixedWindow(1, 51*365*24*time.Hour)), "limiter: window 446760h0m0s is above 438000h0m0s (50 years); want 1ns <= window <= 438000h0m0s"},
		{"unknown kind", err2(limiter.New(limiter.Config{Kind: "x"})), `limiter: kind "x" is unknown; want one of [token_bucket gcra leaky_bucket fixed_window sliding_window_log sliding_window_counter]`},
		{"keyed nil factory", err2(limiter.NewKeyed(nil, limiter.KeyedOptions{})), "limiter: factory is nil; want a function that returns a strategy for a key"},
		{"keyed negative TTL", err2(limiter.NewKeyed(func(string) (limiter.Strategy, error) { return nil, nil }, limiter.KeyedOptions{IdleTTL: -1})), "limiter: idle TTL -1ns is negative; want >= 0"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.name, tc.err, tc.want)
		}
		if !errors.Is(tc.err, limiter.ErrInvalid) {
			t.Errorf("%s: errors.Is(%v, ErrInvalid) = false", tc.name, tc.err)
		}
	}
}

func err2[T any](_ T, err error) error { return err }

func allKinds(t *testing.T) []limiter.Strategy {
	t.Helper()
	var ss []limiter.Strategy
	for _, c := range []limiter.Config{
		{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 2},
		{Kind: limiter.KindGCRA, Rate: 1, Burst: 2},
		{Kind: limiter.KindLeakyBucket, Capacity: 2, LeakInterval: time.Second},
		{Kind: limiter.KindFixedWindow, Limit: 2, Window: time.Second},
		{Kind: limiter.KindSlidingWindowLog, Limit: 2, Window: time.Second},
		{Kind: limiter.KindSlidingWindowCounter, Limit: 2, Window: time.Second},
	} {
		s, err := limiter.New(c)
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, s)
	}
	return ss
}

func TestNegativeN(t *testing.T) {
	const want = "limiter: n -1 is negative; want >= 0"
	for _, s := range allKinds(t) {
		if _, err := s.AllowN(0, -1); err == nil || err.Error() != want || !errors.Is(err, limiter.ErrInvalid) {
			t.Errorf("%s: AllowN(0, -1) error %v, want %q", s.Kind(), err, want)
		}
		if !s.Fresh(0) {
			t.Errorf("%s: changed by a rejected request", s.Kind())
		}
	}
	k := newKeyed(t, func(string) (limiter.Strategy, error) { return limiter.NewTokenBucket(1, 1) }, limiter.KeyedOptions{})
	if _, err := k.AllowNAt(0, "a", -1); err == nil || err.Error() != want {
		t.Errorf("keyed: error %v, want %q", err, want)
	}
	if k.Len() != 0 {
		t.Errorf("keyed: Len %d after a rejected request, want 0", k.Len())
	}
}

func TestSetterErrorsChangeNothing(t *testing.T) {
	tb, _ := limiter.NewTokenBucket(2, 3)
	g, _ := limiter.NewGCRA(2, 3)
	lb, _ := limiter.NewLeakyBucket(3, time.Second)
	fw, _ := limiter.NewFixedWindow(3, time.Second)
	sl, _ := limiter.NewSlidingWindowLog(3, time.Second)
	sc, _ := limiter.NewSlidingWindowCounter(3, time.Second)
	for _, tc := range []struct {
		err  error
		want string
	}{
		{tb.SetRate(0, math.NaN()), "limiter: rate NaN is not a number; want tokens per second in [0, 1e12] or +Inf"},
		{tb.SetBurst(0, -1), "limiter: burst -1 is negative; want >= 0"},
		{g.SetRate(0, -2), "limiter: rate -2 is negative; want tokens per second in [0, 1e12] or +Inf"},
		{g.SetBurst(0, -1), "limiter: burst -1 is negative; want >= 0"},
		{lb.SetCapacity(0, 0), "limiter: capacity 0 is below 1; want >= 1"},
		{lb.SetLeakInterval(0, 0), "limiter: leak interval 0s is below 1ns; want >= 1ns"},
		{fw.SetLimit(0, 0), "limiter: limit 0 is below 1; want >= 1"},
		{fw.SetWindow(0, -1), "limiter: window -1ns is below 1ns; want >= 1ns"},
		{sl.SetLimit(0, 0), "limiter: limit 0 is below 1; want >= 1"},
		{sl.SetWindow(0, 0), "limiter: window 0s is below 1ns; want >= 1ns"},
		{sc.SetLimit(0, -1), "limiter: limit -1 is below 1; want >= 1"},
		{sc.SetWindow(0, 0), "limiter: window 0s is below 1ns; want >= 1ns"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want || !errors.Is(tc.err, limiter.ErrInvalid) {
			t.Errorf("error %v, want %q", tc.err, tc.want)
		}
	}
	if tb.Rate() != 2 || tb.Burst() != 3 || g.Rate() != 2 || g.Burst() != 3 {
		t.Errorf("parameters changed by rejected setters: %v %v %v %v", tb.Rate(), tb.Burst(), g.Rate(), g.Burst())
	}
	for _, s := range []limiter.Strategy{lb, fw, sl, sc} {
		if st := s.State(0); st.Limit != 3 || (st.Window != 0 && st.Window != time.Second) {
			t.Errorf("%s: state %+v after rejected setters", s.Kind(), st)
		}
	}
}

func mustAllow(t *testing.T, s limiter.Strategy, now limiter.Instant, n int) limiter.Decision {
	t.Helper()
	d, err := s.AllowN(now, n)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func wantDecision(t *testing.T, what string, got, want limiter.Decision) {
	t.Helper()
	if got != want {
		t.Errorf("%s: %+v, want %+v", what, got, want)
	}
}

func TestTokenBucketReconfigure(t *testing.T) {
	tb, _ := limiter.NewTokenBucket(1, 4)
	wantDecision(t, "take 4", mustAllow(t, tb, 0, 4), limiter.Decision{Allowed: true, Limit: 4, Remaining: 0, ResetAfter: 4 * time.Second})
	// 1.5 tokens accrue at 1/s, then 2/s.
	if err := tb.SetRate(1500*msec, 2); err != nil {
		t.Fatal(err)
	}
	if got := tb.State(1500 * msec).Tokens; got != 1.5 {
		t.Errorf("tokens at 1.5 s = %v, want 1.5", got)
	}
	if got := tb.State(2 * time.Second).Tokens; got != 2.5 {
		t.Errorf("tokens at 2 s = %v, want 2.5", got)
	}
	wantDecision(t, "3 at 2 s", mustAllow(t, tb, 2*time.Second, 3), limiter.Decision{Limit: 4, Remaining: 2, RetryAfter: 250 * msec, ResetAfter: 750 * msec})
	wantDecision(t, "3 at 2.25 s", mustAllow(t, tb, 2250*msec, 3), limiter.Decision{Allowed: true, Limit: 4, Remaining: 0, ResetAfter: 2 * time.Second})
	// A smaller burst clamps the tokens held; a larger one adds none.
	tb2, _ := limiter.NewTokenBucket(1, 4)
	if err := tb2.SetBurst(0, 2); err != nil {
		t.Fatal(err)
	}
	wantDecision(t, "3 above new burst", mustAllow(t, tb2, 0, 3), limiter.Decision{Limit: 2, Remaining: 2, RetryAfter: limiter.Never})
	wantDecision(t, "2 of new burst", mustAllow(t, tb2, 0, 2), limiter.Decision{Allowed: true, Limit: 2, Remaining: 0, ResetAfter: 2 * time.Second})
	if err := tb2.SetBurst(500*msec, 4); err != nil {
		t.Fatal(err)
	}
	if got := tb2.State(500 * msec); got.Tokens != 0.5 || got.Limit != 4 || got.Rate != 1 || got.Kind != limiter.KindTokenBucket {
		t.Errorf("state after larger burst = %+v, want 0.5 tokens of 4", got)
	}
	if got := tb2.State(time.Second).Tokens; got != 1 {
		t.Errorf("tokens at 1 s = %v, want 1", got)
	}
}

func TestGCRAStateAndReconfigure(t *testing.T) {
	g, _ := limiter.NewGCRA(1, 4)
	mustAllow(t, g, 0, 4)
	want := limiter.State{Kind: limiter.KindGCRA, Limit: 4, Tokens: 0, Rate: 1, TAT: 4 * time.Second, EmissionInterval: time.Second, Tolerance: 4 * time.Second}
	if got := g.State(0); !reflect.DeepEqual(got, want) {
		t.Errorf("state at 0 = %+v, want %+v", got, want)
	}
	if err := g.SetRate(1500*msec, 2); err != nil {
		t.Fatal(err)
	}
	// 2.5 tokens missing at 2/s: TAT = 1.5 s + 1.25 s.
	want = limiter.State{Kind: limiter.KindGCRA, Limit: 4, Tokens: 1.5, Rate: 2, TAT: 2750 * msec, EmissionInterval: 500 * msec, Tolerance: 2 * time.Second}
	if got := g.State(1500 * msec); !reflect.DeepEqual(got, want) {
		t.Errorf("state at 1.5 s = %+v, want %+v", got, want)
	}
	wantDecision(t, "3 at 2 s", mustAllow(t, g, 2*time.Second, 3), limiter.Decision{Limit: 4, Remaining: 2, RetryAfter: 250 * msec, ResetAfter: 750 * msec})
	if err := g.SetBurst(2*time.Second, 1); err != nil {
		t.Fatal(err)
	}
	if got := g.State(2 * time.Second); got.Tokens != 1 || got.TAT != 2*time.Second || got.Tolerance != 500*msec {
		t.Errorf("state after burst 1 = %+v, want 1 token, TAT 2 s, tolerance 500ms", got)
	}
}

// Regressions found by propBucketsAgree: GCRA diverged from the token bucket
// after a change of rate.
func TestGCRAMatchesTokenBucketAfterReconfigure(t *testing.T) {
	// Rate 0 after 1/3: a third of a token missing was dropped by GCRA (it
	// counted whole tokens spent): before, GCRA reported a full bucket.
	tb, _ := limiter.NewTokenBucket(1.0/3, 2)
	g, _ := limiter.NewGCRA(1.0/3, 2)
	for _, s := range []interface {
		limiter.Strategy
		SetRate(limiter.Instant, float64) error
	}{tb, g} {
		mustAllow(t, s, 0, 1)
		if err := s.SetRate(2*time.Second, 0); err != nil {
			t.Fatal(err)
		}
		wantDecision(t, string(s.Kind())+" peek at rate 0", mustAllow(t, s, 2*time.Second, 0), limiter.Decision{Allowed: true, Limit: 2, Remaining: 1, ResetAfter: limiter.Never})
		if s.Fresh(time.Hour) {
			t.Errorf("%s: fresh at rate 0 with a third of a token missing", s.Kind())
		}
	}
	// +Inf then 1/s: GCRA forgot the instants admitted at +Inf, so a stale
	// request was evaluated at its own stamp: before, the last request was
	// allowed by GCRA and denied by the token bucket.
	tb, _ = limiter.NewTokenBucket(math.Inf(1), 2)
	g, _ = limiter.NewGCRA(math.Inf(1), 2)
	for _, s := range []interface {
		limiter.Strategy
		SetRate(limiter.Instant, float64) error
	}{tb, g} {
		mustAllow(t, s, 10*time.Second, 1)
		if err := s.SetRate(10*time.Second, 1); err != nil {
			t.Fatal(err)
		}
		wantDecision(t, string(s.Kind())+" stale 2", mustAllow(t, s, 5*time.Second, 2), limiter.Decision{Allowed: true, Limit: 2, Remaining: 0, ResetAfter: 7 * time.Second})
		wantDecision(t, string(s.Kind())+" 1 at 10 s", mustAllow(t, s, 10*time.Second, 1), limiter.Decision{Limit: 2, Remaining: 0, RetryAfter: time.Second, ResetAfter: 2 * time.Second})
	}
}

// Regression found by propWaitsAreExact / propStaleIsLatestAdmitted: the
// waits of a stale request counted from the latest instant admitted, not from
// its own stamp, so a retry at now + RetryAfter was denied again. Before:
// RetryAfter 1s, ResetAfter 1s.
func TestStaleWaitsCountFromNow(t *testing.T) {
	for _, s := range allKinds(t) {
		mustAllow(t, s, 10*time.Second, 2)
		d := mustAllow(t, s, 9*time.Second, 1)
		want := limiter.Decision{Limit: 2, Remaining: 0, RetryAfter: 2 * time.Second, ResetAfter: 3 * time.Second}
		switch s.Kind() {
		case limiter.KindFixedWindow, limiter.KindSlidingWindowLog:
			want.ResetAfter = 2 * time.Second
		case limiter.KindSlidingWindowCounter: // at 11.5 s the 2 of window 10 weigh 1
			want.RetryAfter = 2500 * msec
		}
		wantDecision(t, string(s.Kind())+" stale", d, want)
		if got := mustAllow(t, s, 9*time.Second+d.RetryAfter-1, 1); got.Allowed {
			t.Errorf("%s: allowed 1 ns before now + RetryAfter", s.Kind())
		}
		if got := mustAllow(t, s, 9*time.Second+d.RetryAfter, 1); !got.Allowed {
			t.Errorf("%s: denied at now + RetryAfter: %+v", s.Kind(), got)
		}
	}
}

func TestLeakyBucket(t *testing.T) {
	lb, _ := limiter.NewLeakyBucket(4, time.Second)
	wantDecision(t, "3", mustAllow(t, lb, 0, 3), limiter.Decision{Allowed: true, Limit: 4, Remaining: 1, ResetAfter: 3 * time.Second, Delay: 2 * time.Second})
	want := limiter.State{Kind: limiter.KindLeakyBucket, Limit: 4, Level: 2.5, Rate: 1}
	if got := lb.State(500 * msec); !reflect.DeepEqual(got, want) {
		t.Errorf("state at 0.5 s = %+v, want %+v", got, want)
	}
	if err := lb.SetLeakInterval(500*msec, 250*msec); err != nil {
		t.Fatal(err)
	}
	want = limiter.State{Kind: limiter.KindLeakyBucket, Limit: 4, Level: 1.5, Rate: 4}
	if got := lb.State(750 * msec); !reflect.DeepEqual(got, want) {
		t.Errorf("state at 0.75 s = %+v, want %+v", got, want)
	}
	if err := lb.SetCapacity(750*msec, 1); err != nil {
		t.Fatal(err)
	}
	// The level is kept above the lowered capacity: 1.5 units leak out in
	// 375 ms, and 1 more fits once the level is down to 0.
	if got := lb.State(750 * msec); got.Level != 1.5 || got.Limit != 1 {
		t.Errorf("state after capacity 1 = %+v, want level 1.5 of 1", got)
	}
	wantDecision(t, "1 at 0.75 s", mustAllow(t, lb, 750*msec, 1), limiter.Decision{Limit: 1, Remaining: 0, RetryAfter: 375 * msec, ResetAfter: 375 * msec})
	wantDecision(t, "1 at 1 s", mustAllow(t, lb, time.Second, 1), limiter.Decision{Limit: 1, Remaining: 0, RetryAfter: 125 * msec, ResetAfter: 125 * msec})
	wantDecision(t, "1 at 1.125 s", mustAllow(t, lb, 1125*msec, 1), limiter.Decision{Allowed: true, Limit: 1, Remaining: 0, ResetAfter: 250 * msec})
}

// Lowering a limit and raising it again forgets nothing that was admitted
// (semantics.md, "Live reconfiguration"): each strategy denies what the
// first limit alone would deny.
func TestLowerThenRaiseForgetsNothing(t *testing.T) {
	sl, _ := limiter.NewSlidingWindowLog(4, time.Minute)
	mustAllow(t, sl, 0, 4)
	_ = sl.SetLimit(time.Second, 1)
	_ = sl.SetLimit(2*time.Second, 4)
	wantDecision(t, "log: 3 more at 3 s", mustAllow(t, sl, 3*time.Second, 3), limiter.Decision{Limit: 4, Remaining: 0, RetryAfter: 57 * time.Second, ResetAfter: 57 * time.Second})

	lb, _ := limiter.NewLeakyBucket(10, time.Second)
	mustAllow(t, lb, 0, 10)
	_ = lb.SetCapacity(0, 2)
	_ = lb.SetCapacity(0, 10)
	wantDecision(t, "leaky: 8 more at once", mustAllow(t, lb, 0, 8), limiter.Decision{Limit: 10, Remaining: 0, RetryAfter: 8 * time.Second, ResetAfter: 10 * time.Second})
	// A larger capacity is free room at once (a token bucket's larger burst
	// adds no tokens: the two part here, as documented).
	lb2, _ := limiter.NewLeakyBucket(2, time.Second)
	_ = lb2.SetCapacity(0, 10)
	wantDecision(t, "leaky: 10 after 2 → 10", mustAllow(t, lb2, 0, 10), limiter.Decision{Allowed: true, Limit: 10, Remaining: 0, ResetAfter: 10 * time.Second, Delay: 9 * time.Second})

	// A level above the capacity survives a longer leak interval, capped at
	// over 70 years of leaking rather than wrapping around.
	lb3, _ := limiter.NewLeakyBucket(1_000_000, time.Nanosecond)
	mustAllow(t, lb3, 0, 1_000_000)
	_ = lb3.SetCapacity(0, 1)
	if err := lb3.SetLeakInterval(0, 1000*time.Hour); err != nil {
		t.Fatal(err)
	}
	if d := mustAllow(t, lb3, 0, 1); d.Allowed || d.RetryAfter <= 0 || d.ResetAfter <= 0 {
		t.Errorf("level far above capacity after a longer interval: %+v; want denied with positive waits", d)
	}
}

// A level that is not a whole number of nanoseconds of water under the new
// leak interval is rounded up (never granting a fraction not earned); the
// token bucket's debt stays exact. That is why propBucketsAgree stops
// comparing the leaky bucket at a reconfiguration.
func TestLeakyBucketSetLeakInterval(t *testing.T) {
	lb, _ := limiter.NewLeakyBucket(1, time.Second)
	tb, _ := limiter.NewTokenBucket(1, 1)
	mustAllow(t, lb, 0, 1)
	mustAllow(t, tb, 0, 1)
	_ = lb.SetLeakInterval(1, 500*msec) // 999 999 999 ns of water → 499 999 999.5, rounded up
	_ = tb.SetRate(1, 2)
	_ = lb.SetLeakInterval(1, time.Second)
	_ = tb.SetRate(1, 1)
	if got := mustAllow(t, lb, 1, 0).ResetAfter; got != time.Second {
		t.Errorf("leaky bucket ResetAfter = %v, want 1s", got)
	}
	if got := mustAllow(t, tb, 1, 0).ResetAfter; got != time.Second-1 {
		t.Errorf("token bucket ResetAfter = %v, want 999.999999ms", got)
	}
}

func TestFixedWindow(t *testing.T) {
	fw, _ := limiter.NewFixedWindow(3, time.Second)
	wantDecision(t, "2", mustAllow(t, fw, 100*msec, 2), limiter.Decision{Allowed: true, Limit: 3, Remaining: 1, ResetAfter: 900 * msec})
	_ = fw.SetLimit(200*msec, 1)
	// Before the fix this peek was denied (RetryAfter 800ms) with Remaining -1.
	wantDecision(t, "peek after lower limit", mustAllow(t, fw, 200*msec, 0), limiter.Decision{Allowed: true, Limit: 1, Remaining: 0, ResetAfter: 800 * msec})
	wantDecision(t, "1 after lower limit", mustAllow(t, fw, 200*msec, 1), limiter.Decision{Limit: 1, Remaining: 0, RetryAfter: 800 * msec, ResetAfter: 800 * msec})
	_ = fw.SetWindow(300*msec, 10*time.Second)
	_ = fw.SetLimit(300*msec, 5)
	want := limiter.State{Kind: limiter.KindFixedWindow, Limit: 5, Window: 10 * time.Second, WindowStart: 0, Count: 2}
	if got := fw.State(300 * msec); !reflect.DeepEqual(got, want) {
		t.Errorf("state = %+v, want %+v", got, want)
	}
	wantDecision(t, "3 in the longer window", mustAllow(t, fw, 9*time.Second, 3), limiter.Decision{Allowed: true, Limit: 5, Remaining: 0, ResetAfter: time.Second})
}

// A limit near the largest int: count + n overflowed, and a request past the
// limit was admitted with a negative count.
func TestFixedWindowHugeLimit(t *testing.T) {
	for _, limit := range []int{1 << 62, math.MaxInt} {
		fw, err := limiter.NewFixedWindow(limit, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		wantDecision(t, "the whole limit", mustAllow(t, fw, 0, limit), limiter.Decision{Allowed: true, Limit: limit, Remaining: 0, ResetAfter: time.Second})
		wantDecision(t, "one more", mustAllow(t, fw, 0, 1), limiter.Decision{Limit: limit, Remaining: 0, RetryAfter: time.Second, ResetAfter: time.Second})
		wantDecision(t, "the limit again", mustAllow(t, fw, 500*msec, limit), limiter.Decision{Limit: limit, Remaining: 0, RetryAfter: 500 * msec, ResetAfter: 500 * msec})
		if got := fw.State(0).Count; got != limit {
			t.Errorf("limit %d: count %d, want %d", limit, got, limit)
		}
	}
}

func TestSlidingWindowLog(t *testing.T) {
	sl, _ := limiter.NewSlidingWindowLog(3, time.Second)
	for _, at := range []time.Duration{0, 100 * msec, 200 * msec} {
		mustAllow(t, sl, at, 1)
	}
	wantDecision(t, "full", mustAllow(t, sl, 300*msec, 2), limiter.Decision{Limit: 3, Remaining: 0, RetryAfter: 800 * msec, ResetAfter: 900 * msec})
	_ = sl.SetLimit(300*msec, 2) // keeps all 3, above the new limit
	want := limiter.State{Kind: limiter.KindSlidingWindowLog, Limit: 2, Window: time.Second, Count: 3, Log: []limiter.Instant{0, 100 * msec, 200 * msec}}
	if got := sl.State(300 * msec); !reflect.DeepEqual(got, want) {
		t.Errorf("state = %+v, want %+v", got, want)
	}
	// The two oldest must expire before 1 more fits under 2: 100 ms + 1 s.
	wantDecision(t, "1 above the lowered limit", mustAllow(t, sl, 300*msec, 1), limiter.Decision{Limit: 2, Remaining: 0, RetryAfter: 800 * msec, ResetAfter: 900 * msec})
	_ = sl.SetWindow(300*msec, 150*msec) // 100 ms has expired by 300 ms under 150 ms
	want = limiter.State{Kind: limiter.KindSlidingWindowLog, Limit: 2, Window: 150 * msec, Count: 1, Log: []limiter.Instant{200 * msec}}
	if got := sl.State(300 * msec); !reflect.DeepEqual(got, want) {
		t.Errorf("state = %+v, want %+v", got, want)
	}
	wantDecision(t, "2 at 300 ms", mustAllow(t, sl, 300*msec, 2), limiter.Decision{Limit: 2, Remaining: 1, RetryAfter: 50 * msec, ResetAfter: 50 * msec})
}

func TestSlidingWindowCounter(t *testing.T) {
	sc, _ := limiter.NewSlidingWindowCounter(4, time.Second)
	mustAllow(t, sc, 500*msec, 4)
	want := limiter.State{Kind: limiter.KindSlidingWindowCounter, Limit: 4, Window: time.Second, WindowStart: time.Second, Count: 0, Previous: 4, Weighted: 3}
	if got := sc.State(1250 * msec); !reflect.DeepEqual(got, want) {
		t.Errorf("state = %+v, want %+v", got, want)
	}
	wantDecision(t, "peek", mustAllow(t, sc, 1250*msec, 0), limiter.Decision{Allowed: true, Limit: 4, Remaining: 1, ResetAfter: 750 * msec})
	// 4·(1000 − e) + 2·1000 ≤ 4000 from e = 500 ms.
	wantDecision(t, "2", mustAllow(t, sc, 1250*msec, 2), limiter.Decision{Limit: 4, Remaining: 1, RetryAfter: 250 * msec, ResetAfter: 750 * msec})
	_ = sc.SetLimit(1250*msec, 8)
	wantDecision(t, "peek at limit 8", mustAllow(t, sc, 1250*msec, 0), limiter.Decision{Allowed: true, Limit: 8, Remaining: 5, ResetAfter: 750 * msec})
	_ = sc.SetWindow(1250*msec, 500*msec) // windows of 500 ms: now 250 ms into [1000, 1500)
	want = limiter.State{Kind: limiter.KindSlidingWindowCounter, Limit: 8, Window: 500 * msec, WindowStart: time.Second, Count: 0, Previous: 4, Weighted: 2}
	if got := sc.State(1250 * msec); !reflect.DeepEqual(got, want) {
		t.Errorf("state = %+v, want %+v", got, want)
	}
}

// Regression: with a window much shorter than the limit (1 ns, limit 5),
// RetryAfter was negative (−2ns); the request fits at the next window.
func TestSlidingWindowCounterTinyWindow(t *testing.T) {
	sc, _ := limiter.NewSlidingWindowCounter(5, 1)
	mustAllow(t, sc, 0, 4)
	wantDecision(t, "1 at 1 ns", mustAllow(t, sc, 1, 1), limiter.Decision{Allowed: true, Limit: 5, Remaining: 0, ResetAfter: 2})
	wantDecision(t, "1 more", mustAllow(t, sc, 1, 1), limiter.Decision{Limit: 5, Remaining: 0, RetryAfter: 1, ResetAfter: 2})
	wantDecision(t, "retry", mustAllow(t, sc, 2, 1), limiter.Decision{Allowed: true, Limit: 5, Remaining: 3, ResetAfter: 2})
}

func TestHTTPHeaders(t *testing.T) {
	for _, tc := range []struct {
		d    limiter.Decision
		want string
	}{
		{limiter.Decision{Allowed: true}, ""},
		{limiter.Decision{RetryAfter: limiter.Never}, ""},
		{limiter.Decision{RetryAfter: 1}, "1"},
		{limiter.Decision{RetryAfter: time.Second}, "1"},
		{limiter.Decision{RetryAfter: time.Second + 1}, "2"},
		{limiter.Decision{RetryAfter: 90 * time.Second}, "90"},
	} {
		if got := limiter.RetryAfterSeconds(tc.d); got != tc.want {
			t.Errorf("RetryAfterSeconds(%+v) = %q, want %q", tc.d, got, tc.want)
		}
	}
	for _, tc := range []struct {
		d    limiter.Decision
		want string
	}{
		{limiter.Decision{Allowed: true, Limit: 10, Remaining: 3, ResetAfter: 1500 * msec}, "10 3 2"},
		{limiter.Decision{Allowed: true, Limit: 10, Remaining: 10, ResetAfter: 0}, "10 10 1"},
		{limiter.Decision{Allowed: true, Limit: 5, Remaining: -1, ResetAfter: 2 * time.Second}, "5 0 2"},
		{limiter.Decision{Allowed: true, Limit: 1, Remaining: 0, ResetAfter: time.Nanosecond}, "1 0 1"},
		// A denial's reset is its Retry-After (the draft: both name the same
		// point in time), not the time until the bucket is full again.
		{limiter.Decision{Limit: 5, Remaining: 0, RetryAfter: time.Second, ResetAfter: 5 * time.Second}, "5 0 1"},
		{limiter.Decision{Limit: 5, Remaining: 0, RetryAfter: 2500 * msec, ResetAfter: 5 * time.Second}, "5 0 3"},
		// n above the limit: no Retry-After, so the reset is ResetAfter.
		{limiter.Decision{Limit: 5, Remaining: 2, RetryAfter: limiter.Never, ResetAfter: 3 * time.Second}, "5 2 3"},
		// Rate 0: the quota never comes back, so no reset field.
		{limiter.Decision{Allowed: true, Limit: 5, Remaining: 4, ResetAfter: limiter.Never}, "5 4 "},
		{limiter.Decision{Limit: 5, Remaining: 0, RetryAfter: limiter.Never, ResetAfter: limiter.Never}, "5 0 "},
	} {
		l, r, reset := limiter.RateLimitHeaders(tc.d)
		if got := strings.Join([]string{l, r, reset}, " "); got != tc.want {
			t.Errorf("RateLimitHeaders(%+v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func newKeyed(t *testing.T, f limiter.Factory, o limiter.KeyedOptions) *limiter.Keyed {
	t.Helper()
	k, err := limiter.NewKeyed(f, o)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func keyedAllow(t *testing.T, k *limiter.Keyed, now limiter.Instant, key string, n int) limiter.Decision {
	t.Helper()
	d, err := k.AllowNAt(now, key, n)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestKeyedTiersAndCompositeKeys(t *testing.T) {
	var seen []string
	k := newKeyed(t, func(key string) (limiter.Strategy, error) {
		seen = append(seen, key)
		tier, _, _ := strings.Cut(key, ":")
		if tier == "pro" {
			return limiter.NewTokenBucket(10, 10)
		}
		return limiter.NewTokenBucket(1, 2)
	}, limiter.KeyedOptions{SweepEvery: -1})
	if k.Len() != 0 {
		t.Fatalf("Len = %d before any request", k.Len())
	}
	if _, ok := k.State(0, "free:alice|GET /search"); ok {
		t.Fatal("State reports a key never used")
	}
	wantDecision(t, "free", keyedAllow(t, k, 0, "free:alice|GET /search", 3), limiter.Decision{Limit: 2, Remaining: 2, RetryAfter: limiter.Never})
	wantDecision(t, "pro", keyedAllow(t, k, 0, "pro:bob|GET /search", 3), limiter.Decision{Allowed: true, Limit: 10, Remaining: 7, ResetAfter: 300 * msec})
	wantDecision(t, "free, other endpoint", keyedAllow(t, k, 0, "free:alice|POST /upload", 2), limiter.Decision{Allowed: true, Limit: 2, Remaining: 0, ResetAfter: 2 * time.Second})
	wantDecision(t, "free, same endpoint", keyedAllow(t, k, 0, "free:alice|GET /search", 2), limiter.Decision{Allowed: true, Limit: 2, Remaining: 0, ResetAfter: 2 * time.Second})
	keyedAllow(t, k, 0, "pro:bob|GET /search", 1)
	if want := []string{"free:alice|GET /search", "pro:bob|GET /search", "free:alice|POST /upload"}; !reflect.DeepEqual(seen, want) {
		t.Errorf("factory called with %q, want %q", seen, want)
	}
	if k.Len() != 3 {
		t.Errorf("Len = %d, want 3", k.Len())
	}
	if st, ok := k.State(500*msec, "pro:bob|GET /search"); !ok || st.Tokens != 10 {
		t.Errorf("State = %+v, %v; want 10 tokens", st, ok)
	}
}

func TestKeyedFactoryErrors(t *testing.T) {
	sentinel := errors.New("no such tier")
	k := newKeyed(t, func(key string) (limiter.Strategy, error) {
		switch key {
		case "bad":
			return nil, sentinel
		case "nil":
			return nil, nil
		}
		return limiter.NewFixedWindow(1, time.Second)
	}, limiter.KeyedOptions{})
	if _, err := k.AllowNAt(0, "bad", 1); !errors.Is(err, sentinel) {
		t.Errorf("error %v, want the factory's", err)
	}
	const want = `limiter: factory returned no strategy for key "nil"; want a strategy or an error`
	if _, err := k.AllowNAt(0, "nil", 1); err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if k.Len() != 0 {
		t.Errorf("Len = %d after failed creations, want 0", k.Len())
	}
}

func TestKeyedSweep(t *testing.T) {
	k := newKeyed(t, func(string) (limiter.Strategy, error) { return limiter.NewTokenBucket(0.1, 2) },
		limiter.KeyedOptions{IdleTTL: 5 * time.Second, SweepEvery: -1})
	keyedAllow(t, k, 0, "debtor", 2)
	keyedAllow(t, k, 0, "peeker", 0)
	if n := k.Sweep(time.Second); n != 0 || k.Len() != 2 {
		t.Errorf("Sweep(1s) evicted %d, Len %d; want 0, 2 (not idle yet)", n, k.Len())
	}
	if n := k.Sweep(6 * time.Second); n != 1 || k.Len() != 1 {
		t.Errorf("Sweep(6s) evicted %d, Len %d; want 1 (the fresh peeker), 1", n, k.Len())
	}
	// Eviction keeps debt: "debtor" is still held and still owes.
	wantDecision(t, "debtor at 6 s", keyedAllow(t, k, 6*time.Second, "debtor", 1), limiter.Decision{Limit: 2, Remaining: 0, RetryAfter: 4 * time.Second, ResetAfter: 14 * time.Second})
	if n := k.Sweep(20 * time.Second); n != 1 || k.Len() != 0 {
		t.Errorf("Sweep(20s) evicted %d, Len %d; want 1, 0", n, k.Len())
	}
	wantDecision(t, "debtor back", keyedAllow(t, k, 20*time.Second, "debtor", 2), limiter.Decision{Allowed: true, Limit: 2, Remaining: 0, ResetAfter: 20 * time.Second})
}

func TestKeyedAmortisedSweep(t *testing.T) {
	factory := func(string) (limiter.Strategy, error) { return limiter.NewTokenBucket(1, 1) }
	for _, tc := range []struct {
		every, wantLen int
	}{{1, 1}, {-1, 101}} {
		k := newKeyed(t, factory, limiter.KeyedOptions{IdleTTL: time.Second, SweepEvery: tc.every})
		for i := range 100 {
			keyedAllow(t, k, 0, fmt.Sprint("client-", i), 1)
		}
		// 64 requests sweep each of the 64 shards once, at 10 s − TTL: every
		// client is full again by then.
		for range 64 {
			keyedAllow(t, k, 10*time.Second, "x", 0)
		}
		keyedAllow(t, k, 10*time.Second, "x", 1)
		if k.Len() != tc.wantLen {
			t.Errorf("SweepEvery %d: Len = %d, want %d", tc.every, k.Len(), tc.wantLen)
		}
	}
	// The amortised sweep evicts only keys fresh IdleTTL before the sweeping
	// request: "late" (debt paid at 2 s) survives a sweep at 2.5 s, so its
	// request stamped 1.8 s still finds its debt.
	k := newKeyed(t, factory, limiter.KeyedOptions{IdleTTL: time.Second, SweepEvery: 1})
	keyedAllow(t, k, time.Second, "late", 1)
	for range 64 {
		keyedAllow(t, k, 2500*msec, "other", 0)
	}
	wantDecision(t, "late at 1.8 s", keyedAllow(t, k, 1800*msec, "late", 1), limiter.Decision{Limit: 1, Remaining: 0, RetryAfter: 200 * msec, ResetAfter: 200 * msec})
}

// With IdleTTL 0 (the zero options) the amortised sweep still keeps a key
// until it has been fresh for EvictionSlack (1 s): "debtor" (fresh again at
// 1 s) survives sweeps at 1.5 s, so its request stamped 0.9 s, late on its
// way, keeps its debt (denied; evicted, it would have found a full bucket);
// sweeps at 2.5 s evict it.
func TestKeyedAmortisedSweepSlack(t *testing.T) {
	if limiter.EvictionSlack != time.Second {
		t.Fatalf("EvictionSlack = %v; this test is written for 1 s", limiter.EvictionSlack)
	}
	k := newKeyed(t, func(string) (limiter.Strategy, error) { return limiter.NewTokenBucket(1, 1) },
		limiter.KeyedOptions{SweepEvery: 1})
	keyedAllow(t, k, 0, "debtor", 1)
	for range 64 { // one step per shard
		keyedAllow(t, k, 1500*msec, "other", 0)
	}
	// (Len would count "other", fresh after its peeks: whether the last
	// sweep took it depends on its shard.)
	if _, held := k.State(1500*msec, "debtor"); !held {
		t.Error("after sweeps at 1.5 s: debtor evicted; want held (fresh only since 1 s)")
	}
	wantDecision(t, "debtor at 0.9 s", keyedAllow(t, k, 900*msec, "debtor", 1), limiter.Decision{Limit: 1, Remaining: 0, RetryAfter: 100 * msec, ResetAfter: 100 * msec})
	for range 64 {
		keyedAllow(t, k, 2500*msec, "other", 0)
	}
	if _, held := k.State(2500*msec, "debtor"); held {
		t.Error("after sweeps at 2.5 s: debtor held; want evicted")
	}
}

// The factory runs with no lock held: while it is busy with one key, other
// keys of every shard decide, and the factory may call the Keyed itself.
func TestKeyedFactoryHoldsNoLock(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var k *limiter.Keyed
	k = newKeyed(t, func(key string) (limiter.Strategy, error) {
		if key == "slow" {
			close(entered)
			<-release
		}
		_ = k.Len() // would deadlock if the factory ran under a shard lock
		return limiter.NewTokenBucket(1, 2)
	}, limiter.KeyedOptions{SweepEvery: -1})
	for i := range 200 {
		keyedAllow(t, k, 0, fmt.Sprint("client-", i), 1)
	}
	done := make(chan limiter.Decision)
	go func() {
		d, _ := k.AllowNAt(0, "slow", 1)
		done <- d
	}()
	<-entered
	// 200 keys over 64 shards: "slow"'s shard is among them. Each decides
	// while the factory waits (a hang here is the bug).
	for i := range 200 {
		wantDecision(t, "client during the slow factory", keyedAllow(t, k, 0, fmt.Sprint("client-", i), 1),
			limiter.Decision{Allowed: true, Limit: 2, Remaining: 0, ResetAfter: 2 * time.Second})
	}
	close(release)
	wantDecision(t, "slow", <-done, limiter.Decision{Allowed: true, Limit: 2, Remaining: 1, ResetAfter: time.Second})
	if k.Len() != 201 {
		t.Errorf("Len = %d, want 201", k.Len())
	}
}

// A leaky bucket's queue Delay counts from the request's own instant, like
// its other waits: b, stamped 1 s but evaluated at 2 s (after a, admitted at
// 2 s and served then), is served one leak interval after a, at 3 s: 2 s
// after its stamp.
func TestLeakyDelayStale(t *testing.T) {
	lb, _ := limiter.NewLeakyBucket(3, time.Second)
	wantDecision(t, "a at 2 s", mustAllow(t, lb, 2*time.Second, 1), limiter.Decision{Allowed: true, Limit: 3, Remaining: 2, ResetAfter: time.Second})
	wantDecision(t, "b stamped 1 s", mustAllow(t, lb, time.Second, 1), limiter.Decision{Allowed: true, Limit: 3, Remaining: 1, ResetAfter: 3 * time.Second, Delay: 2 * time.Second})
}

// Regression: a peek (n = 0) was denied, with Remaining below 0 for the fixed
// window, once a lowered limit left more counted than allowed.
func TestPeekAfterLoweredLimit(t *testing.T) {
	fw, _ := limiter.NewFixedWindow(4, time.Second)
	sc, _ := limiter.NewSlidingWindowCounter(4, time.Second)
	for _, s := range []interface {
		limiter.Strategy
		SetLimit(limiter.Instant, int) error
	}{fw, sc} {
		mustAllow(t, s, 0, 4)
		if err := s.SetLimit(0, 1); err != nil {
			t.Fatal(err)
		}
		reset := time.Second
		if s.Kind() == limiter.KindSlidingWindowCounter {
			reset = 2 * time.Second
		}
		wantDecision(t, string(s.Kind())+" peek", mustAllow(t, s, 0, 0), limiter.Decision{Allowed: true, Limit: 1, Remaining: 0, ResetAfter: reset})
	}
}

// A larger burst adds no tokens, whether or not the bucket was ever used:
// a fresh bucket of 5 raised to 10 holds 5 and refills to 10 at the rate,
// exactly like a used bucket that had refilled to full.
func TestLargerBurstAddsNoTokensToUnusedBucket(t *testing.T) {
	for _, kind := range []limiter.Kind{limiter.KindTokenBucket, limiter.KindGCRA} {
		fresh, _ := limiter.New(limiter.Config{Kind: kind, Rate: 1, Burst: 5})
		used, _ := limiter.New(limiter.Config{Kind: kind, Rate: 1, Burst: 5})
		if d, _ := used.AllowN(0, 1); !d.Allowed {
			t.Fatalf("%s: first request denied", kind)
		}
		for _, s := range []limiter.Strategy{fresh, used} {
			if err := s.(rateSetter).SetBurst(10*time.Second, 10); err != nil {
				t.Fatal(err)
			}
		}
		for _, s := range []limiter.Strategy{fresh, used} {
			if got := s.State(10 * time.Second).Tokens; got != 5 {
				t.Errorf("%s: tokens after SetBurst(10) = %v, want 5", kind, got)
			}
			if s.Fresh(10 * time.Second) {
				t.Errorf("%s: Fresh right after a larger burst, want not fresh (5 of 10)", kind)
			}
			if got := s.State(13 * time.Second).Tokens; got != 8 {
				t.Errorf("%s: tokens 3 s later = %v, want 8", kind, got)
			}
			if !s.Fresh(15 * time.Second) {
				t.Errorf("%s: not fresh 5 s later, want full", kind)
			}
		}
		smaller, _ := limiter.New(limiter.Config{Kind: kind, Rate: 1, Burst: 5})
		if err := smaller.(rateSetter).SetBurst(0, 2); err != nil {
			t.Fatal(err)
		}
		if got := smaller.State(0).Tokens; got != 2 || !smaller.Fresh(0) {
			t.Errorf("%s: smaller burst: tokens %v fresh %v, want 2 and fresh", kind, got, smaller.Fresh(0))
		}
	}
}

// A rate whose numerator is far above 2³¹ (7.000000003e8/s = 7000000003/10
// per second) keeps GCRA's TAT exact (its lead over the latest instant is
// counted in 1/7000000003 ns, which a 32-bit field could not hold): the
// same decisions and waits as the token bucket, at every nanosecond.
func TestGCRALargeRateNumerator(t *testing.T) {
	const rate = 7.000000003e8
	for burst := 1; burst <= 3; burst++ {
		g, _ := limiter.NewGCRA(rate, burst)
		tb, _ := limiter.NewTokenBucket(rate, burst)
		for i := range 2000 {
			now := time.Duration(i / 3) // three requests per nanosecond
			dg, _ := g.AllowN(now, 1)
			dt, _ := tb.AllowN(now, 1)
			if dg != dt {
				t.Fatalf("burst %d, request %d at %v: GCRA %+v, token bucket %+v", burst, i, now, dg, dt)
			}
		}
	}
	g, _ := limiter.NewGCRA(rate, 1)
	if d, _ := g.AllowN(0, 1); !d.Allowed {
		t.Fatal("first request denied")
	}
	if d, _ := g.AllowN(1, 1); d.Allowed || d.RetryAfter != 1 {
		t.Errorf("1 ns later (0.7 of a token back): %+v; want denied, RetryAfter 1ns", d)
	}
}

// The bucket strategies stay within 64 bytes. A Keyed holds each key's
// strategy as its own heap object, and Go allocates small objects in size
// classes (…, 48, 64, 80, …): at 64 bytes a key's state costs 64 and fills
// one cache line, at 65 to 80 it costs 80 and spans two. 64 is 48 bytes of
// state (lock, latest instant, two words) and the key the Keyed finds it by
// (a string header, 16 bytes). GCRA keeps its exact TAT in the token
// bucket's two words (latest instant, lead) for that reason; a third word
// (TAT as whole nanoseconds plus a remainder) would cost 72 → 80.
func TestBucketStateSizes(t *testing.T) {
	for _, c := range []struct {
		name string
		size uintptr
	}{
		{"TokenBucket", unsafe.Sizeof(limiter.TokenBucket{})},
		{"GCRA", unsafe.Sizeof(limiter.GCRA{})},
		{"LeakyBucket", unsafe.Sizeof(limiter.LeakyBucket{})},
	} {
		if c.size > 64 {
			t.Errorf("unsafe.Sizeof(%s{}) = %d bytes; want ≤ 64 (Go's 64-byte size class; above it a Keyed pays 80 bytes per key)", c.name, c.size)
		}
	}
}

// Inputs that once crashed, hung or overflowed (found by trying to break the
// package): each now gives an error or the right decision.
func TestBreakerRegressions(t *testing.T) {
	// A factory that ignores its constructor's error returns a typed nil.
	k, _ := limiter.NewKeyed(func(string) (limiter.Strategy, error) {
		tb, _ := limiter.NewTokenBucket(-1, 1)
		return tb, nil
	}, limiter.KeyedOptions{})
	for range 2 { // the second call must not hang on a lock left held
		if _, err := k.AllowNAt(0, "a", 1); err == nil || err.Error() != `limiter: factory returned no strategy for key "a"; want a strategy or an error` {
			t.Fatalf("typed nil from the factory: err = %v", err)
		}
	}
	// A sliding window log limit that would need gigabytes.
	if _, err := limiter.NewSlidingWindowLog(1<<55, 1); err == nil || err.Error() != "limiter: limit 36028797018963968 is above 16777216; want at most 16777216 (the log holds one instant per unit: use a sliding window counter for large limits)" {
		t.Errorf("huge log limit: err = %v", err)
	}
	sl, _ := limiter.NewSlidingWindowLog(2, time.Second)
	if err := sl.SetLimit(0, 1<<30); err == nil {
		t.Error("SetLimit(1<<30) on a log: no error")
	}
	// Entries expired under the old window stay expired after SetWindow.
	sl.AllowN(0, 1)
	sl.AllowN(500*time.Millisecond, 1)
	if err := sl.SetWindow(1200*time.Millisecond, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if d, _ := sl.AllowN(1200*time.Millisecond, 1); !d.Allowed {
		t.Errorf("after SetWindow: %+v; want allowed (the entry at 0 had expired at 1.2 s)", d)
	}
	if got := sl.State(1200 * time.Millisecond).Log; len(got) != 2 || got[0] != 500*time.Millisecond {
		t.Errorf("log after SetWindow and a request = %v; want [500ms 1.2s]", got)
	}
	// Counts kept above a lowered limit must not overflow a longer window.
	sc, _ := limiter.NewSlidingWindowCounter(1000, time.Second)
	sc.AllowN(0, 1000)
	if err := sc.SetLimit(0, 1); err != nil {
		t.Fatal(err)
	}
	// The products are 128-bit: a year's window with 1000 counted at limit 1
	// is taken, and the count waits out this window and the next.
	year := 365 * 24 * time.Hour
	if err := sc.SetWindow(0, year); err != nil {
		t.Fatal(err)
	}
	wantDecision(t, "1000 counted, limit 1", mustAllow(t, sc, 1, 1), limiter.Decision{Limit: 1, Remaining: 0, RetryAfter: 2*year - 1, ResetAfter: 2*year - 1})
}

// Config.String writes durations without zero trailing units and rates in
// plain digits to 6 significant digits, as the playground shows them.
func TestConfigString(t *testing.T) {
	for _, c := range []struct {
		c    limiter.Config
		want string
	}{
		{limiter.Config{Kind: limiter.KindFixedWindow, Limit: 5000, Window: time.Hour}, "fixed window: 5000 per 1h"},
		{limiter.Config{Kind: limiter.KindSlidingWindowLog, Limit: 50, Window: time.Minute}, "sliding window log: 50 per 1m"},
		{limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 10, Window: 90 * time.Minute}, "sliding window counter: 10 per 1h30m"},
		{limiter.Config{Kind: limiter.KindFixedWindow, Limit: 10, Window: 61 * time.Second}, "fixed window: 10 per 1m1s"},
		{limiter.Config{Kind: limiter.KindFixedWindow, Limit: 10, Window: time.Second}, "fixed window: 10 per 1s"},
		{limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 40, LeakInterval: 500 * time.Millisecond}, "leaky bucket: capacity 40, leaks 1 per 500ms"},
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1e7, Burst: 10000}, "token bucket: 10000000/s, burst 10000"},
		{limiter.Config{Kind: limiter.KindGCRA, Rate: 0.5, Burst: 5}, "GCRA: 0.5/s, burst 5"},
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 5000.0 / 3600, Burst: 5000}, "token bucket: 1.38889/s, burst 5000"},
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1.25e-5, Burst: 1}, "token bucket: 1.25e-05/s, burst 1"},
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: math.Inf(1), Burst: 1}, "token bucket: +Inf/s, burst 1"},
	} {
		if got := c.c.String(); got != c.want {
			t.Errorf("%#v: %q, want %q", c.c, got, c.want)
		}
	}
}

// Quotas over long windows (a day, a year) with large limits: the window
// strategies take any limit with any window up to MaxWindow, and the sliding
// window counter's weighting stays exact.
func TestLongWindowQuotas(t *testing.T) {
	day, year := 24*time.Hour, 365*24*time.Hour
	fw, err := limiter.NewFixedWindow(30000, day)
	if err != nil {
		t.Fatal(err)
	}
	mustAllow(t, fw, 0, 30000)
	wantDecision(t, "fixed, 1 more at 1 h", mustAllow(t, fw, time.Hour, 1), limiter.Decision{Limit: 30000, Remaining: 0, RetryAfter: 23 * time.Hour, ResetAfter: 23 * time.Hour})

	sl, err := limiter.NewSlidingWindowLog(30000, day)
	if err != nil {
		t.Fatal(err)
	}
	mustAllow(t, sl, 0, 30000)
	wantDecision(t, "log, 1 more at 1 h", mustAllow(t, sl, time.Hour, 1), limiter.Decision{Limit: 30000, Remaining: 0, RetryAfter: 23 * time.Hour, ResetAfter: 23 * time.Hour})

	// 10^12 per year: at 1.5 years the previous window weighs half, so
	// 5·10^11 remain; one more fits once the weight has dropped by 10^-12 of
	// the year, 31 536 ns later.
	sc, err := limiter.NewSlidingWindowCounter(1e12, year)
	if err != nil {
		t.Fatal(err)
	}
	mustAllow(t, sc, 0, 1e12)
	at := year + year/2
	wantDecision(t, "counter, 5e11 at 1.5 years", mustAllow(t, sc, at, 5e11), limiter.Decision{Allowed: true, Limit: 1e12, Remaining: 0, ResetAfter: year + year/2})
	wantDecision(t, "counter, 1 more", mustAllow(t, sc, at, 1), limiter.Decision{Limit: 1e12, Remaining: 0, RetryAfter: 31536, ResetAfter: year + year/2})
	wantDecision(t, "counter, 1 more 31536 ns later", mustAllow(t, sc, at+31536, 1), limiter.Decision{Allowed: true, Limit: 1e12, Remaining: 0, ResetAfter: year + year/2 - 31536})
}

// New returns a nil Strategy with an error, never a typed nil pointer, so
// that s != nil means a usable strategy.
func TestNewReturnsNilOnError(t *testing.T) {
	for _, c := range []limiter.Config{
		{Kind: limiter.KindTokenBucket, Rate: -1, Burst: 1},
		{Kind: limiter.KindGCRA, Rate: 1, Burst: -1},
		{Kind: limiter.KindLeakyBucket},
		{Kind: limiter.KindFixedWindow},
		{Kind: limiter.KindSlidingWindowLog},
		{Kind: limiter.KindSlidingWindowCounter},
		{Kind: "x"},
	} {
		s, err := limiter.New(c)
		if err == nil || s != nil {
			t.Errorf("New(%+v) = %#v, %v; want nil and an error", c, s, err)
		}
	}
}

// panicky is a strategy from outside the package whose Fresh panics.
type panicky struct{ limiter.Strategy }

func (panicky) Fresh(limiter.Instant) bool { panic("boom") }

// A strategy that panics in Fresh during a sweep leaves no shard locked:
// the panic reaches the caller, and the Keyed keeps working.
func TestSweepReleasesLocksOnPanic(t *testing.T) {
	k, err := limiter.NewKeyed(func(string) (limiter.Strategy, error) {
		tb, err := limiter.NewTokenBucket(1, 1)
		return panicky{tb}, err
	}, limiter.KeyedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mustAllowKeyed := func(key string) {
		t.Helper()
		if _, err := k.AllowNAt(0, key, 1); err != nil {
			t.Fatal(err)
		}
	}
	mustAllowKeyed("a")
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("Sweep: recovered %v; want the strategy's panic", r)
			}
		}()
		k.Sweep(time.Hour)
	}()
	done := make(chan int)
	go func() { mustAllowKeyed("a"); done <- k.Len() }()
	select {
	case n := <-done:
		if n != 1 {
			t.Errorf("Len after the panic = %d; want 1", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the Keyed hangs after a panicking Sweep: a shard lock was left held")
	}
}

// GCRA's TAT is never before now while a token is missing: Never at rate 0
// (the token never comes back) and when it would pass the largest Instant.
func TestGCRAStateTAT(t *testing.T) {
	g, _ := limiter.NewGCRA(0, 2)
	mustAllow(t, g, 0, 1)
	if got := g.State(5 * time.Second); got.TAT != limiter.Never || got.Tokens != 1 {
		t.Errorf("rate 0, one of two spent: TAT %v, tokens %v; want Never, 1", got.TAT, got.Tokens)
	}
	g2, _ := limiter.NewGCRA(0, 2)
	if got := g2.State(5 * time.Second); got.TAT != 5*time.Second {
		t.Errorf("rate 0, full: TAT %v; want now, 5s", got.TAT)
	}
	g3, _ := limiter.NewGCRA(1, 10)
	end := limiter.Instant(math.MaxInt64 - 5)
	mustAllow(t, g3, end, 10)
	if got := g3.State(end); got.TAT != limiter.Never {
		t.Errorf("TAT past the largest instant: %v; want Never", got.TAT)
	}
	g4, _ := limiter.NewGCRA(1, 10)
	mustAllow(t, g4, time.Second, 3)
	if got := g4.State(time.Second); got.TAT != 4*time.Second {
		t.Errorf("3 of 10 spent at 1 s, 1/s: TAT %v; want 4s", got.TAT)
	}
}

// A float rate whose closest fraction has a large denominator (reached by
// scaling a rate down, as adaptive limits do) still takes an ordinary burst:
// the rate is then held within a relative 1e-9.
func TestRateFractionFitsBurst(t *testing.T) {
	tb, err := limiter.NewTokenBucket(1000, 5000)
	if err != nil {
		t.Fatal(err)
	}
	r := 1000.0
	for i := range 100 {
		r *= 0.9
		if err := tb.SetRate(0, r); err != nil {
			t.Fatalf("step %d: SetRate(%v) with burst 5000: %v", i, r, err)
		}
		if got := tb.Rate(); got != r {
			t.Fatalf("step %d: Rate() = %v; want %v as given", i, got, r)
		}
	}
	// 5000 tokens at the last rate come back in 5000/r seconds, within 1e-9.
	tb2, _ := limiter.NewTokenBucket(r, 5000)
	mustAllow(t, tb2, 0, 5000)
	d := mustAllow(t, tb2, 0, 1)
	want := float64(time.Second) / r
	if got := float64(d.RetryAfter); math.Abs(got-want) > 1e-9*want+1 {
		t.Errorf("retry after one token at %v/s: %v; want %v within 1e-9", r, d.RetryAfter, time.Duration(want))
	}
}

// ManualClock.Advance saturates at the ends of the Instant range instead of
// wrapping around (MaxInt64 + 1 would be 292 years before the origin).
func TestManualClockSaturates(t *testing.T) {
	var c limiter.ManualClock
	for _, step := range []struct {
		d, want time.Duration
	}{
		{math.MaxInt64, math.MaxInt64},
		{1, math.MaxInt64},
		{math.MaxInt64, math.MaxInt64},
		{-time.Second, math.MaxInt64 - time.Second},
		{2 * time.Second, math.MaxInt64},
		{math.MinInt64, -1},
		{math.MinInt64, math.MinInt64},
		{-1, math.MinInt64},
		{time.Second, math.MinInt64 + time.Second},
		{-2 * time.Second, math.MinInt64},
		{math.MaxInt64, -1},
	} {
		if got := c.Advance(step.d); got != step.want {
			t.Fatalf("Advance(%d) = %d; want %d", int64(step.d), int64(got), int64(step.want))
		}
		if got := c.Now(); got != step.want {
			t.Fatalf("Now() after Advance(%d) = %d; want %d", int64(step.d), int64(got), int64(step.want))
		}
	}
}
