package explain

import (
	"math"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

func TestDur(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0 s"},
		{95473355645, "95.473355645 s"}, // Go's notation: 1m35.473355645s
		{time.Hour + 250*time.Millisecond, "3600.25 s"},
		{1250 * time.Millisecond, "1.25 s"},
		{time.Second, "1 s"},
		{250 * time.Millisecond, "250 ms"},
		{333333333, "333.333333 ms"},
		{1500 * time.Nanosecond, "1.5 µs"},
		{500, "500 ns"},
		{1, "1 ns"},
		{-9750 * time.Millisecond, "-9.75 s"},
		{math.MinInt64, "-9223372036.854775808 s"},
		{limiter.Never, "never"},
	} {
		if got := dur(c.d); got != c.want {
			t.Errorf("dur(%d) = %q, want %q", int64(c.d), got, c.want)
		}
	}
}
