package limiter

import (
	"math/big"
	"math/bits"
	"time"
)

// u128 is an unsigned 128-bit integer, the wide bucket arithmetic's debt
// and units (see wideMath): math/bits on two words, so that a decision
// costs nanoseconds and allocates nothing.
type u128 struct{ hi, lo uint64 }

func u64(x uint64) u128 { return u128{lo: x} }

// mul64 returns a × b, exactly.
func mul64(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

func (a u128) isZero() bool { return a.hi == 0 && a.lo == 0 }

func (a u128) cmp(b u128) int {
	switch {
	case a.hi != b.hi:
		if a.hi < b.hi {
			return -1
		}
		return 1
	case a.lo != b.lo:
		if a.lo < b.lo {
			return -1
		}
		return 1
	}
	return 0
}

// add returns a + b; the callers keep the sum below 2¹²⁸.
func (a u128) add(b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	return u128{a.hi + b.hi + c, lo}
}

// sub returns a − b for a ≥ b.
func (a u128) sub(b u128) u128 {
	lo, c := bits.Sub64(a.lo, b.lo, 0)
	return u128{a.hi - b.hi - c, lo}
}

// subFloor returns a − b, or 0 when b ≥ a.
func (a u128) subFloor(b u128) u128 {
	if b.cmp(a) >= 0 {
		return u128{}
	}
	return a.sub(b)
}

// times returns a × n for 0 ≤ n; the callers keep it below 2¹²⁸.
func (a u128) times(n int64) u128 {
	hi, lo := bits.Mul64(a.lo, uint64(n))
	return u128{hi + a.hi*uint64(n), lo}
}

// div64 returns ⌊a/d⌋ and whether the remainder is non-zero, for d > 0.
func (a u128) div64(d uint64) (u128, bool) {
	qhi, r := a.hi/d, a.hi%d
	qlo, r := bits.Div64(r, a.lo, d)
	return u128{qhi, qlo}, r != 0
}

// ceilDiv returns ⌈a/d⌉ for d > 0. For d ≥ 2⁶⁴ the quotient is one word,
// estimated from the top words and corrected by at most one (Hacker's
// Delight, 2nd ed., 9–5, "unsigned doubleword division from long division").
func (a u128) ceilDiv(d u128) u128 {
	if d.hi == 0 {
		q, rem := a.div64(d.lo)
		if rem {
			q = q.add(u64(1))
		}
		return q
	}
	s := uint(bits.LeadingZeros64(d.hi))
	v1 := d.hi<<s | d.lo>>(64-s)                       // d's top 64 bits, normalised
	tq, _ := bits.Div64(a.hi>>1, a.hi<<63|a.lo>>1, v1) // a/2 fits: a.hi/2 < v1
	tq >>= 63 - s
	if tq != 0 {
		tq--
	}
	r := a.sub(mulWord(d, tq))
	if r.cmp(d) >= 0 {
		tq++
		r = r.sub(d)
	}
	q := u64(tq)
	if !r.isZero() {
		q = q.add(u64(1))
	}
	return q
}

// mulWord returns d × q for a product below 2¹²⁸.
func mulWord(d u128, q uint64) u128 {
	hi, lo := bits.Mul64(d.lo, q)
	return u128{hi + d.hi*q, lo}
}

// duration returns a as nanoseconds, Never from the largest Duration up.
func (a u128) duration() time.Duration {
	if a.hi != 0 || a.lo >= uint64(Never) {
		return Never
	}
	return time.Duration(a.lo)
}

func (a u128) big() *big.Int {
	x := new(big.Int).SetUint64(a.hi)
	return x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(a.lo))
}

// fromBig returns x, 0 ≤ x < 2¹²⁸, as a u128.
func fromBig(x *big.Int) u128 {
	lo := new(big.Int).And(x, new(big.Int).SetUint64(^uint64(0)))
	return u128{new(big.Int).Rsh(x, 64).Uint64(), lo.Uint64()}
}
