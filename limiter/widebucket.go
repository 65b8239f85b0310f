package limiter

import (
	"math"
	"math/big"
	"time"
)

// wideMath is the bucket arithmetic for a rate and burst whose debt does not
// fit the 64 bits of bucketMath: rates below 1e-9 tokens per second (one
// token is then over 1e18 units of debt) and bursts whose refill takes over
// 73 years (1e12 tokens at 1/7 per second: 7e21 units). The numbers are the
// same as bucketMath's (a debt paid back at perNs per nanosecond, unit per
// token), held as big integers, so decisions stay exact.
//
// A bucketMath with wide set is never interned: it belongs to one limiter,
// and debt is that limiter's state, read and written under its lock (the
// limiter's own debt field stays 0). Ordinary limiters so stay 48 bytes, and
// only these pay for the big integers. perNs, unit and full are never
// changed once built, and are shared with the snapshots a decision's
// outcome carries (see decideWide).
type wideMath struct {
	perNs, unit, full *big.Int // as bucketMath's; perNs is 0 for rate 0
	debt              *big.Int
}

// maxWideBits bounds burst × unit, so that a debt with reservations queued
// beyond it stays a small big integer.
const maxWideBits = 127

// minWideRate is the smallest positive rate, in tokens per second: a rate is
// read as a fraction with a denominator of at most 1e15.
const minWideRate = 1e-15

// newWideMath returns the wide arithmetic for a rate (finite, ≥ 0) and burst,
// or an error naming the largest burst it can hold at that rate.
func newWideMath(rate float64, burst int) (*bucketMath, error) {
	p, q := wideRational(rate)
	if p == 0 && rate > 0 {
		return nil, errorf("rate %g is below %g and would round to 0; want 0 or tokens per second in [%g, 1e12] or +Inf", rate, minWideRate, minWideRate)
	}
	// Not in lowest terms: rates of one q share a unit, as in fraction.
	w := &wideMath{perNs: big.NewInt(p), unit: new(big.Int).Mul(big.NewInt(q), big.NewInt(1e9)), debt: new(big.Int)}
	limit := new(big.Int).Lsh(big.NewInt(1), maxWideBits)
	limit.Quo(limit, w.unit)
	if big.NewInt(int64(burst)).Cmp(limit) > 0 {
		return nil, errorf("burst %d at rate %g overflows the exact arithmetic; want burst <= %s at this rate", burst, rate, limit)
	}
	w.full = new(big.Int).Mul(w.unit, big.NewInt(int64(burst)))
	return &bucketMath{burst: int64(burst), rate: rate, unit: 1, wide: w}, nil
}

// wideRational reads a rate as a fraction p/q: the one bucketMath reads it
// as when that one is within a relative 1e-12 (so that a burst too large
// for 64 bits leaves the rate as it was: 1/3.0 is one third), else the
// first convergent with q ≤ 1e15 within a relative 2⁻⁵⁰ of it, or the last
// before q passes 1e15, within 1e-15 (1e-15 itself is 1/1e15, not the
// convergent before it, 1/999999999999999, within 1e-12).
func wideRational(rate float64) (p, q int64) {
	if p, q := rational(rate, 1e-12, 1e9); p > 0 && math.Abs(float64(p)/float64(q)-rate) <= 1e-12*rate {
		return p, q
	}
	return rational(rate, 0x1p-50, 1e15)
}

// pay returns the instant a request stamped now is evaluated at (never
// before last) and the debt left then, in a new big integer: 0 for a
// limiter never used.
func (w *wideMath) pay(used bool, last, now Instant) (Instant, *big.Int) {
	if !used {
		return now, new(big.Int)
	}
	if now < last {
		now = last
	}
	debt := new(big.Int).Set(w.debt)
	if elapsed := now - last; elapsed > 0 && w.perNs.Sign() > 0 {
		debt.Sub(debt, new(big.Int).Mul(w.perNs, big.NewInt(int64(elapsed))))
		if debt.Sign() < 0 {
			debt.SetInt64(0)
		}
	}
	return now, debt
}

// times returns n tokens in units of debt.
func (w *wideMath) times(n int) *big.Int {
	return new(big.Int).Mul(w.unit, big.NewInt(int64(n)))
}

// decideWide decides a request of n ≥ 0 at now for a token bucket or GCRA
// whose used and last are given, and applies it, with the limiter's lock
// held. The outcome's m is a snapshot of b holding the debt after the
// request (for a denial, the debt it met), which fillWide reads once the
// lock is released, as fill does.
func (b *bucketMath) decideWide(used *bool, last *Instant, now Instant, n int) outcome {
	w := b.wide
	at, debt := w.pay(*used, *last, now)
	next := new(big.Int).Add(debt, w.times(n))
	ok := int64(n) <= b.burst && next.Cmp(w.full) <= 0
	if ok && n > 0 {
		*used, *last = true, at
		w.debt.Set(next)
	}
	if !ok {
		next = debt
	}
	snap := &bucketMath{burst: b.burst, rate: b.rate, unit: 1, wide: &wideMath{perNs: w.perNs, unit: w.unit, full: w.full, debt: next}}
	return outcome{m: snap, at: at, ok: ok}
}

// fillWide is fill for an outcome of decideWide.
func (o outcome) fillWide(d *Decision, now Instant, n int) {
	b, w := o.m, o.m.wide
	d.Allowed, d.Limit = o.ok, int(b.burst)
	if !o.ok {
		d.RetryAfter = Never
		if int64(n) <= b.burst {
			over := new(big.Int).Add(w.debt, w.times(n))
			d.RetryAfter = w.wait(over.Sub(over, w.full))
		}
	}
	d.Remaining, d.ResetAfter = w.remaining(b.burst, w.debt), w.wait(w.debt)
	if o.at != now {
		*d = d.waitsFrom(now, o.at)
	}
}

// wait returns the time to pay back debt, rounded up: Never at rate 0 or
// beyond the largest Duration.
func (w *wideMath) wait(debt *big.Int) time.Duration {
	if debt.Sign() <= 0 {
		return 0
	}
	if w.perNs.Sign() == 0 {
		return Never
	}
	return clampDuration(ceilQuo(debt, w.perNs))
}

// remaining returns the whole tokens in the bucket at debt.
func (w *wideMath) remaining(burst int64, debt *big.Int) int {
	if debt.Sign() == 0 {
		return int(burst)
	}
	owed := ceilQuo(debt, w.unit)
	if !owed.IsInt64() || owed.Int64() >= burst {
		return 0
	}
	return int(burst - owed.Int64())
}

// tokens converts a debt to the number of tokens in the bucket, the float64
// nearest to the exact fraction (negative with reservations queued).
func (w *wideMath) tokens(debt *big.Int) float64 {
	t, _ := new(big.Rat).SetFrac(new(big.Int).Sub(w.full, debt), w.unit).Float64()
	return t
}

// ceilQuo returns ⌈a/b⌉ for a ≥ 0 and b > 0.
func ceilQuo(a, b *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(a, b, new(big.Int))
	if r.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

func clampDuration(x *big.Int) time.Duration {
	if !x.IsInt64() || x.Int64() >= int64(Never) {
		return Never
	}
	return time.Duration(x.Int64())
}

// bigUnit returns m's unit as a big integer.
func (b *bucketMath) bigUnit() *big.Int {
	if b.wide != nil {
		return b.wide.unit
	}
	return big.NewInt(b.unit)
}

// convertDebtWide is convertDebt where either side is wide: the same tokens
// missing in the new unit (rounded towards fewer tokens), clamped to the new
// burst. It returns the narrow debt, or sets the new wide debt and returns 0.
func convertDebtWide(from, to *bucketMath, debt *big.Int) int64 {
	if from.inf || to.inf {
		return 0
	}
	x := ceilQuo(new(big.Int).Mul(debt, to.bigUnit()), from.bigUnit())
	x.Add(x, new(big.Int).Mul(big.NewInt(to.burst-from.burst), to.bigUnit()))
	if x.Sign() < 0 {
		x.SetInt64(0)
	}
	if to.wide != nil {
		if x.Cmp(to.wide.full) > 0 {
			x.Set(to.wide.full)
		}
		to.wide.debt.Set(x)
		return 0
	}
	if x.Cmp(big.NewInt(to.full)) > 0 {
		return to.full
	}
	return x.Int64()
}

// gcraTimes returns a wide GCRA's TAT, emission interval and tolerance at
// the instant at with ahead (its debt then), each rounded down to whole
// nanoseconds and Never beyond the largest Instant.
func (w *wideMath) gcraTimes(at Instant, ahead *big.Int) (tat Instant, t, tau time.Duration) {
	if w.perNs.Sign() == 0 {
		if ahead.Sign() > 0 {
			return Never, 0, 0
		}
		return at, 0, 0
	}
	lead := clampDuration(new(big.Int).Quo(ahead, w.perNs))
	tat = at + lead
	if at > Never-lead {
		tat = Never
	}
	t = clampDuration(new(big.Int).Quo(w.unit, w.perNs))
	tau = clampDuration(new(big.Int).Quo(w.full, w.perNs))
	return tat, t, tau
}

// reserveWide is reserve for a wide bucket: it returns the debt after
// reserving n at debt and the wait until the request may proceed.
func (b *bucketMath) reserveWide(debt *big.Int, n int) (*big.Int, time.Duration, error) {
	w := b.wide
	switch {
	case n < 0:
		return nil, 0, checkN(n)
	case n == 0:
		return debt, 0, nil
	case int64(n) > b.burst:
		return nil, 0, errorf("n %d is above the burst %d, so no wait would do; want n <= %d", n, b.burst, b.burst)
	}
	next := new(big.Int).Add(debt, w.times(n))
	over := new(big.Int).Sub(next, w.full)
	if over.Sign() <= 0 {
		return next, 0, nil
	}
	if w.perNs.Sign() == 0 {
		left := w.remaining(b.burst, debt)
		return nil, 0, errorf("n %d is above the %d units left at rate 0, which never refills; want n <= %d", n, left, left)
	}
	wait := w.wait(over)
	if wait == Never || next.BitLen() > maxWideBits+1 {
		return nil, 0, errorf("n %d would queue behind reservations worth over %v of waiting; want fewer reservations outstanding", n, w.wait(new(big.Int).Sub(debt, w.full)))
	}
	return next, wait, nil
}

// giveBackWide gives back n tokens of a reservation, exactly, down to a full
// bucket.
func (w *wideMath) giveBack(debt *big.Int, n int) {
	debt.Sub(debt, w.times(n))
	if debt.Sign() < 0 {
		debt.SetInt64(0)
	}
	w.debt.Set(debt)
}
