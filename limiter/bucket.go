package limiter

import (
	"math"
	"math/big"
	"math/bits"
	"sync"
	"time"
)

// bucketMath is the exact arithmetic shared by the token bucket, GCRA and the
// leaky bucket. A bucket's state is its debt: how far it is from full, in
// units where one token is `unit` and one nanosecond of elapsed time pays back
// `perNs`. For a rate of p/q tokens per second, unit = q·1e9 and perNs = p,
// so every refill is an exact integer and a rate of 3/s gives back exactly
// 3 tokens per second, with no emission interval rounded to whole
// nanoseconds.
//
// A bucketMath is immutable once built and interned (see params), so the
// limiters of one tier share one: a limiter holds a pointer to it and only
// its own state (last instant, debt). A wide one (see wideMath) is the
// exception: it belongs to one limiter and holds its debt.
type bucketMath struct {
	perNs int64 // debt paid back per nanosecond; 0 for rate 0
	unit  int64 // debt of one token
	burst int64 // bucket size in tokens
	inf   bool  // rate +Inf: everything is allowed

	// wide, when set, holds the arithmetic and the debt of a rate and burst
	// beyond 64 bits (see wideMath); perNs, unit (1) and the derived fields
	// are then unused.
	wide *wideMath

	rate     float64       // token bucket, GCRA: tokens per second as given
	interval time.Duration // leaky bucket: the leak interval as given

	// Derived, to keep divisions off the hot path (unset when wide).
	full       int64 // burst × unit: the debt of an empty bucket
	maxElapsed int64 // elapsed ≥ maxElapsed pays back any debt (perNs > 0)
	unitDiv    divisor
	perNsDiv   divisor
}

// divisor divides by a fixed d ≥ 1 with a multiplication: m = ⌈2⁶⁴/d⌉, and
// for 0 ≤ x < 2⁶³ the high word of x·m is ⌊x/d⌋ or one more (the error
// x·(m − 2⁶⁴/d)/2⁶⁴ is below 1/2), which one multiplication checks.
type divisor struct {
	d int64
	m uint64 // 0 for d = 1
}

func newDivisor(d int64) divisor {
	if d <= 1 {
		return divisor{d: d}
	}
	q, r := bits.Div64(1, 0, uint64(d))
	if r != 0 {
		q++
	}
	return divisor{d: d, m: q}
}

// ceil returns ⌈x/d⌉ for 0 ≤ x ≤ MaxInt64 − d (the bucket arithmetic keeps x
// and d ≤ maxUnits).
func (v divisor) ceil(x int64) int64 {
	if v.m == 0 {
		return x
	}
	hi, _ := bits.Mul64(uint64(x), v.m)
	q := int64(hi)
	p := q * v.d // ≤ x + d: no overflow
	if p > x {
		q--
		p -= v.d
	}
	if p < x {
		q++
	}
	return q
}

// pay returns the debt left after elapsed nanoseconds.
func (b *bucketMath) pay(debt int64, elapsed time.Duration) int64 {
	if debt == 0 || b.perNs == 0 || elapsed <= 0 {
		return debt
	}
	// elapsed·perNs ≥ debt ⇔ elapsed ≥ ⌈debt/perNs⌉; below maxElapsed the
	// product stays below full + perNs, far from overflowing.
	if debt > b.full {
		// Only a leaky bucket's level, kept above a lowered capacity, is
		// over full: rare enough for a division.
		if int64(elapsed) >= ceilDivPos(debt, b.perNs) {
			return 0
		}
		return debt - int64(elapsed)*b.perNs
	}
	if int64(elapsed) >= b.maxElapsed {
		return 0
	}
	if paid := int64(elapsed) * b.perNs; paid < debt {
		return debt - paid
	}
	return 0
}

// admit decides a request of n ≥ 0 at a debt already brought up to its
// instant: it returns whether the request is admitted and the debt after it
// (the same debt when it is denied).
func (b *bucketMath) admit(debt int64, n int) (bool, int64) {
	if b.inf {
		return true, 0
	}
	if int64(n) <= b.burst {
		if next := debt + int64(n)*b.unit; next <= b.full {
			return true, next
		}
	}
	return false, debt
}

// outcome is a bucket's decision as taken under its lock: the parameters
// (immutable), the instant it was evaluated at, the debt after it and the
// verdict. Its Decision, with the metadata, is worked out from it after the
// lock is released, which keeps the critical section as short as Admit's.
type outcome struct {
	m    *bucketMath
	at   Instant
	next int64 // debt after the request; for a denial, the debt it met
	ok   bool
}

// fill fills in d (which must be zero) with the Decision of a request of n
// stamped now. It writes through a pointer so that the 48-byte Decision is
// built once, in the caller's result, not copied back through each call.
func (o outcome) fill(d *Decision, now Instant, n int) {
	b := o.m
	if b.wide != nil {
		o.fillWide(d, now, n)
		return
	}
	d.Allowed, d.Limit = o.ok, int(b.burst)
	if b.inf {
		d.Remaining = int(b.burst)
		return
	}
	if !o.ok {
		switch {
		case int64(n) > b.burst:
			d.RetryAfter = Never
		case b.perNs == 0:
			d.RetryAfter = Never
		default:
			// The missing debt, paid back at perNs per nanosecond.
			d.RetryAfter = time.Duration(b.perNsDiv.ceil(o.next + int64(n)*b.unit - b.full))
		}
	}
	if o.next == 0 {
		d.Remaining = int(b.burst)
	} else {
		d.Remaining = int(max(b.burst-b.unitDiv.ceil(o.next), 0)) // a leaky bucket may be over a lowered capacity
		d.ResetAfter = Never
		if b.perNs > 0 {
			d.ResetAfter = time.Duration(b.perNsDiv.ceil(o.next))
		}
	}
	if o.at != now {
		*d = d.waitsFrom(now, o.at)
	}
}

func (b *bucketMath) remaining(debt int64) int {
	if debt == 0 {
		return int(b.burst)
	}
	return int(max(b.burst-ceilDivPos(debt, b.unit), 0))
}

func (b *bucketMath) resetAfter(debt int64) time.Duration {
	if debt == 0 {
		return 0
	}
	if b.perNs == 0 {
		return Never
	}
	return time.Duration(ceilDivPos(debt, b.perNs))
}

// ceilDivPos is ⌈a/b⌉ for a ≥ 0 and b > 0 (one division, no sign tests).
func ceilDivPos(a, b int64) int64 {
	q := a / b
	if q*b != a {
		q++
	}
	return q
}

// tokens converts a debt to the fractional number of tokens in the bucket.
func (b *bucketMath) tokens(debt int64) float64 {
	if b.inf {
		return float64(b.burst)
	}
	return float64(b.burst) - float64(debt)/float64(b.unit)
}

// params interns b (with its derived fields filled in), so that limiters with
// the same parameters share one immutable bucketMath. The table is bounded:
// past maxInterned distinct parameter sets (a slider dragged for hours), new
// ones are simply not shared.
func params(b bucketMath) *bucketMath {
	b.full = b.burst * b.unit
	b.maxElapsed = math.MaxInt64
	if b.perNs > 0 {
		b.maxElapsed = ceilDivPos(b.full, b.perNs)
	}
	b.unitDiv, b.perNsDiv = newDivisor(b.unit), newDivisor(b.perNs)
	key := internKey{b.perNs, b.unit, b.burst, b.inf, math.Float64bits(b.rate), b.interval}
	interned.Lock()
	defer interned.Unlock()
	if p := interned.m[key]; p != nil {
		return p
	}
	p := &b
	if len(interned.m) < maxInterned {
		if interned.m == nil {
			interned.m = make(map[internKey]*bucketMath)
		}
		interned.m[key] = p
	}
	return p
}

type internKey struct {
	perNs, unit, burst int64
	inf                bool
	rate               uint64
	interval           time.Duration
}

const maxInterned = 4096

var interned struct {
	sync.Mutex
	m map[internKey]*bucketMath
}

// rebase converts a debt to another unit, rounding up so that a change of
// rate never grants a fraction of a token that was not earned. A result
// above maxUnits (a leaky bucket's level kept above a lowered capacity, then
// a much longer leak interval) is maxUnits: over 70 years of leaking.
func rebase(debt, fromUnit, toUnit int64) int64 {
	if debt == 0 || fromUnit == toUnit {
		return debt
	}
	x := new(big.Int).Mul(big.NewInt(debt), big.NewInt(toUnit))
	q, r := x.QuoRem(x, big.NewInt(fromUnit), new(big.Int))
	if r.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() || q.Int64() > maxUnits {
		return maxUnits
	}
	return q.Int64()
}

// maxRate is the largest finite rate, in tokens per second: 1000 tokens per
// nanosecond, a terabyte per second with n in bytes.
const maxRate = 1e12

// newBucketMath validates a rate in tokens per second and a burst and returns
// their exact arithmetic. The rate is read as a fraction p/q with q ≤ 1e9
// (see rational): 0.1 as one tenth, 1/3.0 as one third, and any rate within
// a relative 1e-12, or within 1e-9 when the closer fraction's denominator
// would overflow burst × unit (a float rate such as 121.57665459056938,
// reached by scaling 1000 down by 0.9 nineteen times, with a burst of 5000).
// Where burst × q × 1e9 would overflow, p/(q × 1e9) tokens per nanosecond
// is taken in lowest terms (see fraction), so that a rate of whole tokens
// per nanosecond (2e9 per second: 2 per ns) has unit 1 and takes any burst,
// and 125e6 per second (1/8 per ns) bursts of up to 2.9e17. A rate below
// 1e-9, or a burst still too large (a refill of over 73 years: 1e12 tokens
// at 1/7 per second), takes the wide arithmetic (see wideMath).
func newBucketMath(rate float64, burst int) (*bucketMath, error) {
	switch {
	case math.IsNaN(rate):
		return nil, errorf("rate NaN is not a number; want tokens per second in [0, 1e12] or +Inf")
	case rate < 0:
		return nil, errorf("rate %g is negative; want tokens per second in [0, 1e12] or +Inf", rate)
	case !math.IsInf(rate, 1) && rate > maxRate:
		return nil, errorf("rate %g is above 1e12 (1000 tokens per ns); want tokens per second in [0, 1e12] or +Inf", rate)
	case burst < 0:
		return nil, errorf("burst %d is negative; want >= 0", burst)
	}
	if math.IsInf(rate, 1) {
		return params(bucketMath{perNs: 0, unit: 1, burst: int64(burst), inf: true, rate: rate}), nil
	}
	perNs, unit := fraction(rate, burst)
	if perNs == 0 && rate > 0 || int64(burst) > maxUnits/unit {
		// Below one token per 1e9 s, or a burst whose refill takes over 73
		// years: the debt needs more than 64 bits.
		return newWideMath(rate, burst)
	}
	return params(bucketMath{perNs: perNs, unit: unit, burst: int64(burst), rate: rate}), nil
}

// fraction returns the rate as perNs/unit tokens per nanosecond with burst ×
// unit within the arithmetic's range if it can: p/(q × 1e9) for the
// fraction p/q within a relative 1e-12 of rate, else in lowest terms, else
// the same for the fraction within 1e-9 (the last, when none fits, for the
// caller's error). The form with q × 1e9 is kept whenever it fits, so that
// rates with the same q share a unit and changing between them (SetRate)
// keeps the debt exact.
func fraction(rate float64, burst int) (perNs, unit int64) {
	for _, tol := range []float64{1e-12, 1e-9} {
		p, q := rational(rate, tol, 1e9)
		if p == 0 {
			return 0, 1e9
		}
		perNs, unit = p, q*1e9
		if int64(burst) <= maxUnits/unit {
			return perNs, unit
		}
		g := gcd(p, unit)
		perNs, unit = p/g, unit/g
		if int64(burst) <= maxUnits/unit {
			return perNs, unit
		}
	}
	return perNs, unit
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// rational returns the fraction p/q, q ≤ maxQ, for x ≥ 0: the first
// convergent of x's continued fraction within a relative tol of x (the
// simplest such fraction: 0.1 is 1/10, 1/3.0 is 1/3), or, when none with q ≤
// maxQ is, the last convergent with q ≤ maxQ, which is within 1/(q × maxQ)
// of x, a relative error below 1/maxQ (with maxQ 1e9, 1.5e-9 becomes
// 1/666666667); 0/1 when x is below 1/maxQ.
func rational(x, tol, maxQ float64) (p, q int64) {
	if x == 0 {
		return 0, 1
	}
	// Convergents h/k of the continued fraction of x.
	h0, h1 := int64(0), int64(1)
	k0, k1 := int64(1), int64(0)
	r := x
	for i := 0; i < 64; i++ {
		a := math.Floor(r)
		if a > 1e18 {
			break
		}
		if a*float64(h1)+float64(h0) > maxUnits || a*float64(k1)+float64(k0) > maxQ {
			break // the numerator would pass the arithmetic's range, or q maxQ
		}
		ai := int64(a)
		h2, k2 := ai*h1+h0, ai*k1+k0
		h0, h1, k0, k1 = h1, h2, k1, k2
		if math.Abs(float64(h1)/float64(k1)-x) <= tol*x {
			break
		}
		frac := r - a
		if frac == 0 {
			break
		}
		r = 1 / frac
	}
	if k1 == 0 {
		return int64(math.Round(x)), 1
	}
	return h1, k1
}
