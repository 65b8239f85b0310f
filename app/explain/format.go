package explain

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// Tokens formats a fractional number of tokens (or a level, or an estimate)
// floored to 2 decimals, trailing zeros dropped: 2.379 → "2.37", 1.5 → "1.5",
// 3 → "3". Flooring never shows more than there is, so a shown "1" always
// means at least one whole token. Float noise below 1e-9 is ignored first
// (an exact 2.37 held as 2.3699999999 shows "2.37").
func Tokens(x float64) string {
	return strconv.FormatFloat(float64(Hundredths(x))/100, 'f', -1, 64)
}

// Hundredths returns x floored to hundredths, as an integer (2.379 → 237).
func Hundredths(x float64) int64 {
	return int64(math.Floor(x*100 + 1e-7))
}

// dur formats a duration or an instant in Go's notation ("1.25s", "250ms"),
// and Never as "never".
func dur(d time.Duration) string {
	if d == limiter.Never {
		return "never"
	}
	return d.String()
}

// instants formats a list of instants, "none" when empty.
func instants(ts []limiter.Instant) string {
	if len(ts) == 0 {
		return "none"
	}
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = dur(t)
	}
	return strings.Join(s, ", ")
}

// rate formats a rate in units per second: "3/s".
func rate(r float64) string {
	if math.IsInf(r, 1) {
		return "+Inf/s"
	}
	return strconv.FormatFloat(r, 'g', -1, 64) + "/s"
}

func itoa(i int) string { return strconv.Itoa(i) }

// holds renders the truth of a comparison.
func holds(ok bool) string {
	if ok {
		return "true"
	}
	return "false"
}

// Usage formats a level or an estimate (something used up) rounded up to 2
// decimals, trailing zeros dropped: 4.001 → "4.01". Rounding up never shows
// less used than there is, so "level + n ≤ capacity" shown true is true.
func Usage(x float64) string {
	return strconv.FormatFloat(math.Ceil(x*100-1e-7)/100, 'f', -1, 64)
}
