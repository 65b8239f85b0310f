package limiter_test

import (
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"golang.org/x/time/rate"
)

// reloader is a token bucket or GCRA: what a config reload calls.
type reloader interface {
	limiter.Reserver
	SetRate(now limiter.Instant, rate float64) error
	SetBurst(now limiter.Instant, burst int) error
}

func newReloaders(t *testing.T, rate float64, burst int) map[string]reloader {
	t.Helper()
	tb, err := limiter.NewTokenBucket(rate, burst)
	if err != nil {
		t.Fatal(err)
	}
	g, err := limiter.NewGCRA(rate, burst)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]reloader{"token bucket": tb, "GCRA": g}
}

// TestReloadKeepsReservedDebt: rate 5/s, burst 2. Two tokens are taken at
// t0 and two more reserved (they proceed at t0 + 400 ms). Re-applying the
// same rate or burst at t0 + 200 ms must not forgive the reservation: at
// t0 + 400 ms the bucket is back at 0 tokens, so a request of 1 is denied
// and may go 200 ms later. (The reload used to clamp the debt to an empty
// bucket, admitting 5 units in 0.4 s against a bound of 2 + 5 × 0.4 = 4.)
func TestReloadKeepsReservedDebt(t *testing.T) {
	const t0 = 3 * time.Second
	reloads := map[string]func(r reloader, at limiter.Instant) error{
		"SetRate(5)":  func(r reloader, at limiter.Instant) error { return r.SetRate(at, 5) },
		"SetBurst(2)": func(r reloader, at limiter.Instant) error { return r.SetBurst(at, 2) },
		"SetRate(5) twice": func(r reloader, at limiter.Instant) error {
			if err := r.SetRate(at-50*time.Millisecond, 5); err != nil {
				return err
			}
			return r.SetRate(at, 5)
		},
	}
	for rname, reload := range reloads {
		for name, r := range newReloaders(t, 5, 2) {
			if d, _ := r.AllowN(t0, 2); !d.Allowed {
				t.Fatalf("%s: AllowN(t0, 2) denied", name)
			}
			res, err := r.Reserve(t0, 2)
			if err != nil || res.Delay() != 400*time.Millisecond {
				t.Fatalf("%s: Reserve(t0, 2) = %v, %v; want a delay of 400ms", name, res, err)
			}
			if err := reload(r, t0+200*time.Millisecond); err != nil {
				t.Fatal(err)
			}
			want := limiter.Decision{Limit: 2, RetryAfter: 200 * time.Millisecond, ResetAfter: 400 * time.Millisecond}
			if d, _ := r.AllowN(t0+400*time.Millisecond, 1); d != want {
				t.Errorf("%s after %s: AllowN(t0+400ms, 1) = %+v, want %+v", name, rname, d, want)
			}
			if st := r.State(t0 + 200*time.Millisecond); st.Tokens != -1 {
				t.Errorf("%s after %s: %v tokens at t0+200ms, want -1", name, rname, st.Tokens)
			}
		}
	}
}

// TestReloadKeepsQueuedWaiters: rate 10/s, burst 1, 100 callers 10 ms apart
// each reserving 1 (as Wait does), with the same rate re-applied every
// 100 ms, as a config watcher would. Only the burst and one per 100 ms may
// proceed within the first second: 10, as golang.org/x/time/rate gives on
// the same schedule. (Forgiving the debt at each reload let 50 proceed.)
func TestReloadKeepsQueuedWaiters(t *testing.T) {
	const second = time.Second
	xlim := rate.NewLimiter(10, 1)
	base := time.Unix(1_700_000_000, 0)
	xcount := 0
	for i := range 100 {
		at := time.Duration(i) * 10 * time.Millisecond
		if i%10 == 0 && i > 0 {
			xlim.SetLimitAt(base.Add(at), 10)
		}
		if d := xlim.ReserveN(base.Add(at), 1).DelayFrom(base.Add(at)); at+d < second {
			xcount++
		}
	}
	if xcount != 10 {
		t.Fatalf("x/time/rate: %d proceed within 1 s, want 10", xcount)
	}
	for name, r := range newReloaders(t, 10, 1) {
		count := 0
		for i := range 100 {
			at := time.Duration(i) * 10 * time.Millisecond
			if i%10 == 0 && i > 0 {
				if err := r.SetRate(at, 10); err != nil {
					t.Fatal(err)
				}
			}
			res, err := r.Reserve(at, 1)
			if err != nil {
				t.Fatalf("%s: Reserve at %v: %v", name, at, err)
			}
			if at+res.Delay() < second {
				count++
			}
		}
		if count != xcount {
			t.Errorf("%s: %d proceed within 1 s, want %d (x/time/rate)", name, count, xcount)
		}
	}
}

// TestReloadKeepsDebtAcrossUnits: a debt that needs more than 64 bits in
// the new rate's unit is kept whole (the bucket takes the wide
// arithmetic), not capped. Rate 1/s, burst 5e8: three reservations of 5e8
// leave 1e9 tokens owed (1.5e18 units of 1e9 per token); a rate of 1/3 per
// second has a unit three times larger, where the debt passes 2⁶¹.
func TestReloadKeepsDebtAcrossUnits(t *testing.T) {
	const burst = 5e8
	for name, r := range newReloaders(t, 1, burst) {
		for i, want := range []time.Duration{0, burst * time.Second, 2 * burst * time.Second} {
			res, err := r.Reserve(0, burst)
			if err != nil || res.Delay() != want {
				t.Fatalf("%s: reservation %d: %v, %v; want a delay of %v", name, i, res, err, want)
			}
		}
		if err := r.SetRate(0, 1.0/3); err != nil {
			t.Fatal(err)
		}
		// -1e9 tokens: 1e9 + 1 to go for one more, 1.5e9 for a full
		// bucket, at 1/3 per second.
		want := limiter.Decision{Limit: burst, RetryAfter: 3 * (1e9 + 1) * time.Second, ResetAfter: 3 * 1.5e9 * time.Second}
		if d, _ := r.AllowN(0, 1); d != want {
			t.Errorf("%s: after SetRate(1/3) AllowN(0, 1) = %+v, want %+v", name, d, want)
		}
		if st := r.State(0); st.Tokens != -1e9 {
			t.Errorf("%s: %v tokens, want -1e9", name, st.Tokens)
		}
	}
}
