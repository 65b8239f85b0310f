package benchmarks

import (
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"golang.org/x/time/rate"
)

// BenchmarkWideParameters: one token bucket, one goroutine, as OneKey, with
// parameters beyond the 64-bit debt (a 1e12 burst at 1/7 per second, a
// rate of 1e-12 per second: the wide, 128-bit arithmetic) beside the
// ordinary ones and x/time/rate at the same 1/7 per second and 1e12 burst.
func BenchmarkWideParameters(b *testing.B) {
	for _, c := range []struct {
		name  string
		rate  float64
		burst int
	}{
		{"ours-ordinary", benchRate, benchBurst},
		{"ours-1-7th-burst-1e12", 1.0 / 7, 1e12},
		{"ours-1e-12-burst-1e12", 1e-12, 1e12},
	} {
		b.Run(c.name, func(b *testing.B) {
			tb, err := limiter.NewTokenBucket(c.rate, c.burst)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				tb.AllowN(time.Duration(i)*step, 1)
			}
		})
	}
	b.Run("x-time-rate-1-7th-burst-1e12", func(b *testing.B) {
		l := rate.NewLimiter(1.0/7, 1e12)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			l.AllowN(base.Add(time.Duration(i)*step), 1)
		}
	})
}
