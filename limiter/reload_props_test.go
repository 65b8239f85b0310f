package limiter_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"pgregory.net/rapid"
)

// bucketModel is a token bucket in exact rational arithmetic, the reference
// for live reconfiguration: tokens refill at the rate in force, up to the
// burst in force; a reservation may take them below 0 (the debt queued
// callers hold); a reload brings the bucket up to its instant, keeps the
// tokens (rounded down to the new rate's grain of 1/unit, as the limiter
// keeps them in whole units of debt), clamps them to a smaller burst, and
// forgives nothing. A leaky bucket is the same model with tokens =
// capacity − level, except that a new capacity keeps the level, not the
// tokens. Stamps never run backwards here (stale stamps have properties of
// their own).
type bucketModel struct {
	leaky  bool
	inf    bool     // rate +Inf
	rate   *big.Rat // tokens per second
	unit   *big.Int // the grain of the tokens: one token is unit parts
	burst  int64
	tokens *big.Rat
	last   limiter.Instant
}

func (m *bucketModel) setRate(r frac) {
	m.inf = r.q == 0
	if !m.inf {
		m.rate = big.NewRat(r.p, r.q)
		m.unit = new(big.Int).Mul(m.rate.Denom(), big.NewInt(1e9))
		if m.leaky { // r is 1e9 / leak interval: the level's grain is 1 ns of water
			m.unit = big.NewInt(r.q)
		}
	}
}

// advance refills the bucket up to now.
func (m *bucketModel) advance(now limiter.Instant) {
	if now > m.last {
		if m.inf {
			m.tokens = big.NewRat(m.burst, 1)
		} else {
			m.tokens.Add(m.tokens, new(big.Rat).Mul(m.rate, big.NewRat(int64(now-m.last), 1e9)))
		}
		m.last = now
	}
	if b := big.NewRat(m.burst, 1); m.tokens.Cmp(b) > 0 {
		m.tokens = b
	}
}

// wait is the time for the bucket to reach want tokens: 0 when it holds
// them, Never at rate 0 or beyond the largest Duration.
func (m *bucketModel) wait(want *big.Rat) time.Duration {
	short := new(big.Rat).Sub(want, m.tokens)
	if short.Sign() <= 0 || m.inf {
		return 0
	}
	if m.rate.Sign() == 0 {
		return limiter.Never
	}
	ns := new(big.Rat).Quo(new(big.Rat).Mul(short, big.NewRat(1e9, 1)), m.rate)
	q, r := new(big.Int).QuoRem(ns.Num(), ns.Denom(), new(big.Int))
	if r.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() || q.Int64() >= int64(limiter.Never) {
		return limiter.Never
	}
	return time.Duration(q.Int64())
}

func (m *bucketModel) remaining() int {
	if m.inf {
		return int(m.burst)
	}
	f := new(big.Int).Quo(m.tokens.Num(), m.tokens.Denom()) // truncated: exact for ≥ 0
	if m.tokens.Sign() < 0 || f.Int64() < 0 {
		return 0
	}
	return int(min(f.Int64(), m.burst))
}

func (m *bucketModel) allow(now limiter.Instant, n int) limiter.Decision {
	m.advance(now)
	d := limiter.Decision{Limit: int(m.burst)}
	need := big.NewRat(int64(n), 1)
	switch {
	case m.inf:
		d.Allowed = true
	case int64(n) > m.burst:
		d.RetryAfter = limiter.Never
	case m.tokens.Cmp(need) >= 0:
		d.Allowed = true
		m.tokens.Sub(m.tokens, need)
	default:
		d.RetryAfter = m.wait(need)
	}
	d.Remaining = m.remaining()
	if !m.inf {
		d.ResetAfter = m.wait(big.NewRat(m.burst, 1))
	}
	if m.leaky && d.Allowed && n > 0 {
		// (level after − 1) × leak interval: the queue's Delay.
		level := new(big.Rat).Sub(big.NewRat(m.burst, 1), m.tokens)
		if ns := new(big.Rat).Quo(new(big.Rat).Mul(new(big.Rat).Sub(level, big.NewRat(1, 1)), big.NewRat(1e9, 1)), m.rate); ns.Sign() > 0 {
			d.Delay = time.Duration(new(big.Int).Quo(ns.Num(), ns.Denom()).Int64())
		}
	}
	return d
}

// reserve returns the Delay of a reservation of n at now, or false when no
// wait would do.
func (m *bucketModel) reserve(now limiter.Instant, n int) (time.Duration, bool) {
	m.advance(now)
	switch {
	case m.inf || n == 0:
		return 0, true
	case int64(n) > m.burst:
		return 0, false
	}
	need := big.NewRat(int64(n), 1)
	if m.tokens.Cmp(need) < 0 && m.rate.Sign() == 0 {
		return 0, false
	}
	m.tokens.Sub(m.tokens, need)
	wait := m.wait(new(big.Rat))
	if wait == limiter.Never { // no Duration would do: refused, nothing taken
		m.tokens.Add(m.tokens, need)
		return 0, false
	}
	return wait, true
}

// cancel gives back n at now (the caller checks that the reservation's
// time has not come).
func (m *bucketModel) cancel(now limiter.Instant, n int) {
	m.advance(now)
	if !m.inf {
		m.tokens.Add(m.tokens, big.NewRat(int64(n), 1))
	}
	m.advance(now) // clamp to the burst
}

// reload applies new parameters at now: the tokens are kept, rounded down
// to the new grain, and clamped to the new burst; for a leaky bucket's new
// capacity, the level is kept instead.
func (m *bucketModel) reload(now limiter.Instant, r *frac, burst int64) {
	m.advance(now)
	if m.leaky && burst != m.burst {
		level := new(big.Rat).Sub(big.NewRat(m.burst, 1), m.tokens)
		m.tokens.Sub(big.NewRat(burst, 1), level)
		m.burst = burst
		return
	}
	wasInf := m.inf
	if r != nil {
		m.setRate(*r)
	}
	m.burst = burst
	if wasInf || m.inf {
		m.tokens = big.NewRat(burst, 1)
		return
	}
	// floor(tokens × unit) / unit: towards fewer tokens.
	x := new(big.Rat).Mul(m.tokens, new(big.Rat).SetInt(m.unit))
	f := new(big.Int).Div(x.Num(), x.Denom()) // Euclidean: floor for a positive denominator
	m.tokens = new(big.Rat).SetFrac(f, m.unit)
	m.advance(now)
}

// propReloadKeepsDebt: a token bucket, a GCRA and a leaky bucket under
// random requests, reservations, cancels and reconfigurations (the same
// parameters re-applied included) decide exactly as the exact model: every
// decision's Allowed, Remaining, RetryAfter, ResetAfter and Delay, and every
// reservation's Delay. So a reload never forgives the debt queued callers
// hold, and the units admitted in any interval never pass the tokens the
// bucket held at its start plus what the rates in force refilled since.
func propReloadKeepsDebt(t *rapid.T) {
	kind := rapid.SampledFrom([]limiter.Kind{limiter.KindTokenBucket, limiter.KindGCRA, limiter.KindLeakyBucket}).Draw(t, "kind")
	m := &bucketModel{leaky: kind == limiter.KindLeakyBucket, tokens: new(big.Rat)}
	var s reloadable
	if m.leaky {
		burst := rapid.IntRange(1, 5).Draw(t, "capacity")
		iv := rapid.SampledFrom(leakIntervals).Draw(t, "leak interval")
		lb, err := limiter.NewLeakyBucket(burst, iv)
		if err != nil {
			t.Fatal(err)
		}
		m.burst = int64(burst)
		m.setRate(frac{1e9, int64(iv)})
		s = lb
	} else {
		r := rapid.SampledFrom(bucketRates).Draw(t, "rate")
		burst := rapid.IntRange(0, 5).Draw(t, "burst")
		c := limiter.Config{Kind: kind, Rate: r.float(), Burst: burst}
		s = newStrategy(t, c).(reloadable)
		m.burst = int64(burst)
		m.setRate(r)
	}
	m.tokens.SetInt64(m.burst) // a full token bucket, an empty leaky bucket
	type held struct {
		r   *limiter.Reservation
		n   int
		act limiter.Instant
	}
	var reservations []held
	grain := rapid.SampledFrom([]time.Duration{1, time.Millisecond, 100 * time.Millisecond, 333333333, time.Second}).Draw(t, "grain")
	now := limiter.Instant(rapid.Int64Range(-5e9, 5e9).Draw(t, "start"))
	m.last = now
	for step := range rapid.IntRange(1, 40).Draw(t, "steps") {
		now += time.Duration(rapid.IntRange(0, 6).Draw(t, "delta")) * grain
		n := rapid.IntRange(0, int(m.burst)+1).Draw(t, "n")
		switch op := rapid.IntRange(0, 9).Draw(t, "op"); {
		case op <= 3:
			want := m.allow(now, n)
			if got, err := s.AllowN(now, n); err != nil || got != want {
				t.Fatalf("step %d: %s AllowN(%v, %d) = %+v, %v; the model says %+v", step, kind, now, n, got, err, want)
			}
		case op <= 5:
			want, ok := m.reserve(now, n)
			got, err := s.Reserve(now, n)
			if (err == nil) != ok || ok && got.Delay() != want {
				t.Fatalf("step %d: %s Reserve(%v, %d) = %v, %v; the model says %v, %v", step, kind, now, n, got, err, want, ok)
			}
			if ok && n > 0 {
				reservations = append(reservations, held{got, n, now + want})
			}
		case op == 6 && len(reservations) > 0:
			i := rapid.IntRange(0, len(reservations)-1).Draw(t, "which")
			h := reservations[i]
			reservations = append(reservations[:i], reservations[i+1:]...)
			want := now <= h.act
			if want {
				m.cancel(now, h.n)
			}
			if got := h.r.Cancel(now); got != want {
				t.Fatalf("step %d: %s Cancel(%v) of %d reserved to go at %v = %v, want %v", step, kind, now, h.n, h.act, got, want)
			}
		case op == 7 || op == 6:
			if m.leaky {
				iv := rapid.SampledFrom(leakIntervals).Draw(t, "new leak interval")
				if err := s.(*limiter.LeakyBucket).SetLeakInterval(now, iv); err != nil {
					t.Fatal(err)
				}
				r := frac{1e9, int64(iv)}
				m.reload(now, &r, m.burst)
				continue
			}
			r := rapid.SampledFrom(bucketRates).Draw(t, "new rate")
			if err := s.(rater).SetRate(now, r.float()); err != nil {
				t.Fatal(err)
			}
			m.reload(now, &r, m.burst)
		default:
			burst := rapid.IntRange(0, 5).Draw(t, "new burst")
			if m.leaky {
				burst = max(burst, 1)
				if err := s.(*limiter.LeakyBucket).SetCapacity(now, burst); err != nil {
					t.Fatal(err)
				}
			} else if err := s.(rater).SetBurst(now, burst); err != nil {
				t.Fatal(err)
			}
			m.reload(now, nil, int64(burst))
		}
	}
}

type reloadable interface {
	limiter.Reserver
}

type rater interface {
	SetRate(now limiter.Instant, rate float64) error
	SetBurst(now limiter.Instant, burst int) error
}

func TestReloadKeepsDebtProperty(t *testing.T) { rapid.Check(t, propReloadKeepsDebt) }

func FuzzReloadKeepsDebt(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propReloadKeepsDebt)) }
