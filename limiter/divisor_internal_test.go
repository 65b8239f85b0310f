package limiter

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDivisorCeil checks the multiplication-based ⌈x/d⌉ of the bucket
// arithmetic against the hardware division, at the edges and at random.
func TestDivisorCeil(t *testing.T) {
	ds := []int64{1, 2, 3, 7, 1e6, 1e9, 3e9, 333333333, 1<<31 - 1, 1 << 40, maxUnits, math.MaxInt64}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		ds = append(ds, r.Int64N(1<<20)+1, r.Int64N(math.MaxInt64)+1)
	}
	for _, d := range ds {
		v := newDivisor(d)
		xs := []int64{0, 1, d - 1, d, d + 1, 2*d - 1, maxUnits, maxUnits - 1, math.MaxInt64, math.MaxInt64 - 1}
		for range 200 {
			xs = append(xs, r.Int64N(math.MaxInt64), r.Int64N(1<<40))
		}
		for _, x := range xs {
			if x < 0 || x > math.MaxInt64-d { // outside ceil's domain
				continue
			}
			want := x / d
			if want*d != x {
				want++
			}
			if got := v.ceil(x); got != want {
				t.Fatalf("ceil(%d/%d) = %d, want %d", x, d, got, want)
			}
		}
	}
}
