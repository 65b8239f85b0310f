package explain

import (
	"math"
	"strconv"
	"strings"

	"github.com/ratelab/ratelab/app/units"
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

// ConfigText is limiter.Config.String in the pages' notation: a window or a
// leak interval is written as every other duration on the pages
// (units.FormatSpan: "1 s", "100 ms", "1.5 s"), or in whole minutes or hours
// when it is one ("1 min",
// "1 h"), where the library, for Go programs, writes Go's "1s", "100ms",
// "1h". "fixed window: 10 per 1 s", "leaky bucket: capacity 3, leaks 1 per
// 100 ms", "token bucket: 2/s, burst 3" (a bucket's text has no duration, so
// it is the library's).
func ConfigText(c limiter.Config) string {
	switch c.Kind {
	case limiter.KindLeakyBucket:
		return c.Kind.Name() + ": capacity " + strconv.Itoa(c.Capacity) + ", leaks 1 per " + units.FormatSpan(c.LeakInterval)
	case limiter.KindFixedWindow, limiter.KindSlidingWindowLog, limiter.KindSlidingWindowCounter:
		return c.Kind.Name() + ": " + strconv.Itoa(c.Limit) + " per " + units.FormatSpan(c.Window)
	}
	return c.String()
}

// instants formats a list of instants, "none" when empty.
func instants(ts []limiter.Instant) string {
	if len(ts) == 0 {
		return "none"
	}
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = units.FormatDuration(t)
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
	v := math.Ceil(x*100-1e-7) / 100
	if v == 0 {
		v = 0 // not -0: Ceil of a tiny negative is -0, shown as "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
