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
// token), held in 128 bits, so decisions stay exact.
//
// A bucketMath with wide set is never interned: it belongs to one limiter,
// and debt is that limiter's state, read and written under its lock (the
// limiter's own debt field stays 0). Ordinary limiters so stay 64 bytes, and
// only these pay for the wider state.
type wideMath struct {
	perNs      uint64 // as bucketMath's; 0 for rate 0
	unit, full u128
	debt       u128
}

// maxWide bounds burst × unit and a debt with reservations queued, 2¹²⁷, so
// that a debt plus a request of n ≤ burst stays below 2¹²⁸.
var maxWide = u128{hi: 1 << 63}

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
	w := &wideMath{perNs: uint64(p), unit: mul64(uint64(q), 1e9)}
	if limit := maxWide.big().Quo(maxWide.big(), w.unit.big()); big.NewInt(int64(burst)).Cmp(limit) > 0 {
		return nil, errorf("burst %d at rate %g overflows the exact arithmetic; want burst <= %s at this rate", burst, rate, limit)
	}
	w.full = w.unit.times(int64(burst))
	return &bucketMath{burst: int64(burst), rate: rate, unit: 1, wide: w}, nil
}

// newWideLeaky returns the wide arithmetic of a leaky bucket whose full
// level, capacity × leak interval nanoseconds, does not fit 64 bits: as in
// leakyMath, one unit of water is the leak interval in nanoseconds, and
// one nanosecond of it leaks per nanosecond. Every capacity and leak
// interval fits: their product is below 2¹²⁶.
func newWideLeaky(capacity int, interval time.Duration) *bucketMath {
	w := &wideMath{perNs: 1, unit: u64(uint64(interval))}
	w.full = w.unit.times(int64(capacity))
	return &bucketMath{burst: int64(capacity), interval: interval, unit: 1, wide: w}
}

// rebaseLeaky moves a leaky bucket's water to the parameters to, where
// either side is wide or the level is above the capacity: the same level
// in units, rounded up, in to's unit, kept exactly even above the new
// capacity (a level that needs more than 64 bits there takes to's
// parameters on the wide arithmetic), up to 2¹²⁷ units (over 10²¹ years of
// leaking). water is the 64-bit level at the evaluation instant for now
// when from is not wide. It returns the parameters the bucket takes and
// its 64-bit water (0 when they are wide: the water is then theirs).
func rebaseLeaky(from, to *bucketMath, last Instant, water int64, now Instant) (*bucketMath, int64) {
	cur := u64(uint64(water))
	if w := from.wide; w != nil {
		_, cur = w.pay(true, last, now)
	}
	x, r := new(big.Int).QuoRem(new(big.Int).Mul(cur.big(), to.bigUnit()), from.bigUnit(), new(big.Int))
	if r.Sign() != 0 {
		x.Add(x, big.NewInt(1))
	}
	if to.wide == nil {
		if x.Cmp(big.NewInt(maxUnits)) <= 0 {
			return to, x.Int64()
		}
		to = newWideLeaky(int(to.burst), to.interval)
	}
	to.wide.debt = maxWide
	if x.Cmp(maxWide.big()) < 0 {
		to.wide.debt = fromBig(x)
	}
	return to, 0
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
// before last) and the debt left then: 0 for a limiter never used.
func (w *wideMath) pay(used bool, last, now Instant) (Instant, u128) {
	if !used {
		return now, u128{}
	}
	if now < last {
		now = last
	}
	if elapsed := now - last; elapsed > 0 && w.perNs > 0 {
		return now, w.debt.subFloor(mul64(uint64(elapsed), w.perNs))
	}
	return now, w.debt
}

// wideOutcome is what a wide decision's outcome points to: the parameters
// and the debt after the request (for a denial, the debt it met), a
// snapshot that fillWide reads once the lock is released, as fill does.
type wideOutcome struct {
	m bucketMath
	w wideMath
}

// decideWide decides a request of n ≥ 0 at now for a token bucket, GCRA
// or leaky bucket whose used and last are given, and applies it, with the limiter's lock
// held.
func (b *bucketMath) decideWide(used *bool, last *Instant, now Instant, n int) outcome {
	w := b.wide
	at, debt := w.pay(*used, *last, now)
	next, ok := debt, false
	if int64(n) <= b.burst {
		if sum := debt.add(w.unit.times(int64(n))); sum.cmp(w.full) <= 0 {
			next, ok = sum, true
		}
	}
	if ok && n > 0 {
		*used, *last, w.debt = true, at, next
	}
	s := &wideOutcome{m: bucketMath{burst: b.burst, rate: b.rate, interval: b.interval, unit: 1}, w: *w}
	s.m.wide, s.w.debt = &s.w, next
	return outcome{m: &s.m, at: at, ok: ok}
}

// fillWide is fill for an outcome of decideWide.
func (o outcome) fillWide(d *Decision, now Instant, n int) {
	b, w := o.m, o.m.wide
	d.Allowed, d.Limit = o.ok, int(b.burst)
	if !o.ok {
		d.RetryAfter = Never
		if int64(n) <= b.burst {
			d.RetryAfter = w.wait(w.debt.add(w.unit.times(int64(n))).subFloor(w.full))
		}
	}
	d.Remaining, d.ResetAfter = w.remaining(b.burst, w.debt), w.wait(w.debt)
	if o.at != now {
		*d = d.waitsFrom(now, o.at)
	}
}

// wait returns the time to pay back debt, rounded up: Never at rate 0 or
// beyond the largest Duration.
func (w *wideMath) wait(debt u128) time.Duration {
	if debt.isZero() {
		return 0
	}
	if w.perNs == 0 {
		return Never
	}
	return debt.ceilDiv(u64(w.perNs)).duration()
}

// queueDelay is a wide leaky bucket's Delay for a request admitted at the
// water w.debt: (level − 1) × leak interval, the water being nanoseconds
// of leaking, just below Never at most (Never means "not admitted").
func (w *wideMath) queueDelay() time.Duration {
	return min(w.debt.subFloor(w.unit).duration(), Never-1)
}

// units returns debt in units (a leaky bucket's level), the float64
// nearest to the exact fraction.
func (w *wideMath) units(debt u128) float64 {
	u, _ := new(big.Rat).SetFrac(debt.big(), w.unit.big()).Float64()
	return u
}

// remaining returns the whole tokens in the bucket at debt.
func (w *wideMath) remaining(burst int64, debt u128) int {
	if debt.isZero() {
		return int(burst)
	}
	owed := debt.ceilDiv(w.unit)
	if owed.cmp(u64(uint64(burst))) >= 0 {
		return 0
	}
	return int(burst - int64(owed.lo))
}

// tokens converts a debt to the number of tokens in the bucket, the float64
// nearest to the exact fraction (negative with reservations queued).
func (w *wideMath) tokens(debt u128) float64 {
	t, _ := new(big.Rat).SetFrac(new(big.Int).Sub(w.full.big(), debt.big()), w.unit.big()).Float64()
	return t
}

// bigUnit returns m's unit as a big integer.
func (b *bucketMath) bigUnit() *big.Int {
	if b.wide != nil {
		return b.wide.unit.big()
	}
	return big.NewInt(b.unit)
}

// keepDebt converts a token bucket's or GCRA's debt owed under from (in
// from's unit) to the parameters to: the same tokens held, rounded towards
// fewer in to's unit, clamped to to's burst, and a debt beyond an empty
// bucket kept whole. It returns the parameters the bucket takes, to or, when
// the debt needs more than 64 bits in to's unit (reservations queued, then a
// rate with a larger unit), a wide copy of to, and the narrow debt (0 when
// the parameters are wide: the debt is then theirs). A debt beyond 2¹²⁷
// units (over 10²¹ years of waiting) is kept as 2¹²⁷. A rate of +Inf on
// either side pays any debt at once.
func keepDebt(from, to *bucketMath, owed u128) (*bucketMath, int64) {
	if from.inf || to.inf {
		if to.wide != nil {
			to.wide.debt = u128{}
		}
		return to, 0
	}
	x := heldIn(from, to, owed)
	if to.wide == nil {
		if x.Cmp(big.NewInt(maxUnits)) <= 0 {
			return to, x.Int64()
		}
		w, err := newWideMath(to.rate, int(to.burst))
		if err != nil {
			// to fits 64 bits, so its burst fits the wide arithmetic.
			panic("limiter: " + err.Error())
		}
		to, x = w, heldIn(from, w, owed)
	}
	to.wide.debt = maxWide
	if x.Cmp(maxWide.big()) < 0 {
		to.wide.debt = fromBig(x)
	}
	return to, 0
}

// heldIn is keepDebt's debt in to's unit: ⌈owed × to.unit / from.unit⌉ +
// (to.burst − from.burst) × to.unit, at least 0. The first term is the
// same tokens missing, rounded up; the second keeps the tokens held when
// the bucket's size changes.
func heldIn(from, to *bucketMath, owed u128) *big.Int {
	unit := to.bigUnit()
	x, r := new(big.Int).QuoRem(new(big.Int).Mul(owed.big(), unit), from.bigUnit(), new(big.Int))
	if r.Sign() != 0 {
		x.Add(x, big.NewInt(1))
	}
	x.Add(x, new(big.Int).Mul(big.NewInt(to.burst-from.burst), unit))
	if x.Sign() < 0 {
		x.SetInt64(0)
	}
	return x
}

// gcraTimes returns a wide GCRA's TAT, emission interval and tolerance at
// the instant at with ahead (its debt then), each rounded down to whole
// nanoseconds and Never beyond the largest Instant.
func (w *wideMath) gcraTimes(at Instant, ahead u128) (tat Instant, t, tau time.Duration) {
	if w.perNs == 0 {
		if !ahead.isZero() {
			return Never, 0, 0
		}
		return at, 0, 0
	}
	floor := func(x u128) time.Duration {
		q, _ := x.div64(w.perNs)
		return q.duration()
	}
	lead := floor(ahead)
	tat = at + lead
	if at > Never-lead {
		tat = Never
	}
	return tat, floor(w.unit), floor(w.full)
}

// reserveWide is reserve for a wide bucket: it returns the debt after
// reserving n at debt and the wait until the request may proceed.
func (b *bucketMath) reserveWide(debt u128, n int) (u128, time.Duration, error) {
	w := b.wide
	switch {
	case n < 0:
		return u128{}, 0, checkN(n)
	case n == 0:
		return debt, 0, nil
	case int64(n) > b.burst:
		return u128{}, 0, errorf("n %d is above the %s %d, so no wait would do; want n <= %d", n, b.sizeName(), b.burst, b.burst)
	}
	next := debt.add(w.unit.times(int64(n)))
	if next.cmp(w.full) <= 0 {
		return next, 0, nil
	}
	if w.perNs == 0 {
		left := w.remaining(b.burst, debt)
		return u128{}, 0, errorf("n %d is above the %d units left at rate 0, which never refills; want n <= %d", n, left, left)
	}
	wait := w.wait(next.sub(w.full))
	if wait == Never || next.cmp(maxWide) > 0 {
		return u128{}, 0, errorf("n %d would queue behind reservations worth over %v of waiting; want fewer reservations outstanding", n, w.wait(debt.subFloor(w.full)))
	}
	return next, wait, nil
}

// giveBack gives back n tokens of a reservation at debt, exactly, down to a
// full bucket.
func (w *wideMath) giveBack(debt u128, n int) {
	w.debt = debt.subFloor(w.unit.times(int64(n)))
}
