package limiter

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// TestU128 checks the 128-bit arithmetic against math/big, at the word
// edges and at random.
func TestU128(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	edges := []u128{{}, {lo: 1}, {lo: math.MaxUint64}, {hi: 1}, {hi: 1, lo: math.MaxUint64}, {hi: 1 << 62}, {hi: 1<<63 - 1, lo: math.MaxUint64}, maxWide}
	draw := func() u128 {
		switch r.IntN(5) {
		case 4:
			return u128{hi: r.Uint64(), lo: r.Uint64()}
		case 0:
			return edges[r.IntN(len(edges))]
		case 1:
			return u128{lo: r.Uint64()}
		case 2:
			return u128{hi: r.Uint64N(1 << 20), lo: r.Uint64()}
		}
		return u128{hi: r.Uint64() >> 1, lo: r.Uint64()} // below 2¹²⁷
	}
	mod := new(big.Int).Lsh(big.NewInt(1), 128)
	for range 100000 {
		a, b := draw(), draw()
		A, B := a.big(), b.big()
		if fromBig(A) != a {
			t.Fatalf("fromBig(%v) = %v", A, fromBig(A))
		}
		if got, want := a.cmp(b), A.Cmp(B); got != want {
			t.Fatalf("cmp(%v, %v) = %d, want %d", A, B, got, want)
		}
		if got, want := a.add(b).big(), new(big.Int).Add(A, B); want.Cmp(mod) < 0 && got.Cmp(want) != 0 {
			t.Fatalf("%v + %v = %v, want %v", A, B, got, want)
		}
		want := new(big.Int).Sub(A, B)
		if want.Sign() < 0 {
			want.SetInt64(0)
		}
		if got := a.subFloor(b).big(); got.Cmp(want) != 0 {
			t.Fatalf("%v - %v floored = %v, want %v", A, B, got, want)
		}
		n := r.Int64N(1 << 40)
		if want := new(big.Int).Mul(A, big.NewInt(n)); want.Cmp(mod) < 0 && a.times(n).big().Cmp(want) != 0 {
			t.Fatalf("%v × %d = %v, want %v", A, n, a.times(n).big(), want)
		}
		x, y := r.Uint64(), r.Uint64()
		if got, want := mul64(x, y).big(), new(big.Int).Mul(new(big.Int).SetUint64(x), new(big.Int).SetUint64(y)); got.Cmp(want) != 0 {
			t.Fatalf("%d × %d = %v, want %v", x, y, got, want)
		}
		if b.isZero() {
			continue
		}
		q, rem := new(big.Int).QuoRem(A, B, new(big.Int))
		if rem.Sign() != 0 {
			q.Add(q, big.NewInt(1))
		}
		if got := a.ceilDiv(b).big(); got.Cmp(q) != 0 {
			t.Fatalf("⌈%v / %v⌉ = %v, want %v", A, B, got, q)
		}
		if b.hi == 0 {
			q, rem := new(big.Int).QuoRem(A, B, new(big.Int))
			if got, inexact := a.div64(b.lo); got.big().Cmp(q) != 0 || inexact != (rem.Sign() != 0) {
				t.Fatalf("%v / %v = %v %v, want %v rem %v", A, B, got.big(), inexact, q, rem)
			}
		}
	}
	for _, c := range []struct {
		a    u128
		want time.Duration
	}{{u128{}, 0}, {u128{lo: 5}, 5}, {u128{lo: math.MaxInt64 - 1}, Never - 1}, {u128{lo: math.MaxInt64}, Never}, {u128{lo: math.MaxUint64}, Never}, {u128{hi: 1}, Never}} {
		if got := c.a.duration(); got != c.want {
			t.Errorf("%v.duration() = %v, want %v", c.a.big(), got, c.want)
		}
	}
}
