package limiter

import (
	"math"
	"math/big"
	"time"
)

// bucketMath is the exact arithmetic shared by the token bucket, GCRA and the
// leaky bucket. A bucket's state is its debt: how far it is from full, in
// units where one token is `unit` and one nanosecond of elapsed time pays back
// `perNs`. For a rate of p/q tokens per second, unit = q·1e9 and perNs = p,
// so every refill is an exact integer and a rate of 3/s gives back exactly
// 3 tokens per second, with no emission interval rounded to whole
// nanoseconds.
type bucketMath struct {
	perNs int64 // debt paid back per nanosecond; 0 for rate 0
	unit  int64 // debt of one token
	burst int64 // bucket size in tokens
	inf   bool  // rate +Inf: everything is allowed
}

// full is the debt of an empty bucket.
func (b bucketMath) full() int64 { return b.burst * b.unit }

// pay returns the debt left after elapsed nanoseconds.
func (b bucketMath) pay(debt int64, elapsed time.Duration) int64 {
	if debt == 0 || b.perNs == 0 || elapsed <= 0 {
		return debt
	}
	if int64(elapsed) >= ceilDiv(debt, b.perNs) {
		return 0
	}
	return debt - int64(elapsed)*b.perNs
}

// decide decides a request of n at a debt already brought up to the request's
// instant; it returns the decision and the debt after it.
func (b bucketMath) decide(debt int64, n int) (Decision, int64) {
	d := Decision{Limit: int(b.burst)}
	if b.inf {
		d.Allowed = true
		d.Remaining = int(b.burst)
		return d, 0
	}
	if int64(n) > b.burst {
		d.RetryAfter = Never
		d.Remaining = b.remaining(debt)
		d.ResetAfter = b.resetAfter(debt)
		return d, debt
	}
	need := debt + int64(n)*b.unit
	if need <= b.full() {
		d.Allowed = true
		debt = need
	} else if b.perNs == 0 {
		d.RetryAfter = Never
	} else {
		d.RetryAfter = time.Duration(ceilDiv(need-b.full(), b.perNs))
	}
	d.Remaining = b.remaining(debt)
	d.ResetAfter = b.resetAfter(debt)
	return d, debt
}

func (b bucketMath) remaining(debt int64) int {
	return int(b.burst - ceilDiv(debt, b.unit))
}

func (b bucketMath) resetAfter(debt int64) time.Duration {
	if debt == 0 {
		return 0
	}
	if b.perNs == 0 {
		return Never
	}
	return time.Duration(ceilDiv(debt, b.perNs))
}

// tokens converts a debt to the fractional number of tokens in the bucket.
func (b bucketMath) tokens(debt int64) float64 {
	if b.inf {
		return float64(b.burst)
	}
	return float64(b.burst) - float64(debt)/float64(b.unit)
}

// rebase converts a debt to another unit, rounding up so that a change of
// rate never grants a fraction of a token that was not earned.
func rebase(debt, fromUnit, toUnit int64) int64 {
	if debt == 0 || fromUnit == toUnit {
		return debt
	}
	x := new(big.Int).Mul(big.NewInt(debt), big.NewInt(toUnit))
	q, r := x.QuoRem(x, big.NewInt(fromUnit), new(big.Int))
	v := q.Int64()
	if r.Sign() != 0 {
		v++
	}
	return v
}

// newBucketMath validates a rate in tokens per second and a burst and returns
// their exact arithmetic. The rate is read as the simplest fraction p/q
// within 1e-12 of it (0.1 is one tenth, 1/3.0 is one third), q ≤ 1e9.
func newBucketMath(rate float64, burst int) (bucketMath, error) {
	switch {
	case math.IsNaN(rate):
		return bucketMath{}, errorf("rate NaN is not a number; want tokens per second in [0, 1e9] or +Inf")
	case rate < 0:
		return bucketMath{}, errorf("rate %g is negative; want tokens per second in [0, 1e9] or +Inf", rate)
	case !math.IsInf(rate, 1) && rate > 1e9:
		return bucketMath{}, errorf("rate %g gives an emission interval below 1 ns; want tokens per second in [0, 1e9] or +Inf", rate)
	case burst < 0:
		return bucketMath{}, errorf("burst %d is negative; want >= 0", burst)
	}
	if math.IsInf(rate, 1) {
		return bucketMath{perNs: 0, unit: 1, burst: int64(burst), inf: true}, nil
	}
	p, q := rational(rate)
	if p == 0 && rate > 0 {
		// Below one token per 1e9 s the fraction's denominator would pass
		// 1e9: such a rate used to become 0 silently.
		return bucketMath{}, errorf("rate %g is below 1e-9 and would round to 0; want 0 or tokens per second in [1e-9, 1e9] or +Inf", rate)
	}
	if q > maxUnits/int64(time.Second) {
		return bucketMath{}, errorf("rate %g needs a denominator above 1e9; want a rate with at most 9 significant decimals", rate)
	}
	b := bucketMath{perNs: p, unit: q * 1e9, burst: int64(burst)}
	if p == 0 {
		b.unit = 1e9
	}
	if b.burst > maxUnits/b.unit {
		return bucketMath{}, errorf("burst %d at rate %g overflows the exact arithmetic; want burst <= %d at this rate", burst, rate, maxUnits/b.unit)
	}
	return b, nil
}

// rational returns the simplest fraction p/q (continued fractions) within a
// relative 1e-12 of x ≥ 0, with q ≤ 1e9.
func rational(x float64) (p, q int64) {
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
		ai := int64(a)
		h2, k2 := ai*h1+h0, ai*k1+k0
		if k2 > 1e9 || h2 < 0 {
			break
		}
		h0, h1, k0, k1 = h1, h2, k1, k2
		if math.Abs(float64(h1)/float64(k1)-x) <= 1e-12*x {
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
