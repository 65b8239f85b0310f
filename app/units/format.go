package units

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// Clean removes float noise such as 0.30000000000000004 (it keeps 12
// significant digits, so a rate of 1e-9 stays 1e-9 rather than becoming 0).
func Clean(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	return r
}

// Num formats v with no trailing zeros: 1, 0.5, 37.5, 0.000000001. A
// magnitude below 1e-9 or from 1e21 up (JavaScript's own limit) is written
// with an exponent, 1e-300 or 1e+300, rather than as hundreds of digits that
// no message can wrap.
func Num(v float64) string {
	v = Clean(v)
	if a := math.Abs(v); a != 0 && (a < 1e-9 || a >= 1e21) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// FormatTokens formats a fractional number of tokens with two decimals,
// rounded down, so that "1.00" is shown only once a whole token is there.
func FormatTokens(x float64) string {
	return strconv.FormatFloat(math.Floor(x*100+1e-6)/100, 'f', 2, 64)
}

// FormatRetry formats a retry-after with two decimals of a second, rounded
// up (waiting the time shown is always enough): "2.00 s", or "never".
func FormatRetry(d time.Duration) string {
	if d == limiter.Never {
		return "never"
	}
	cs := int64((d + 10*time.Millisecond - 1) / (10 * time.Millisecond))
	return fixed(cs, 100) + " s"
}

// FormatSeconds formats a duration d ≥ 0 that is a state, not a wait, with
// two decimals of a second, rounded to the nearest: 1/3 s is "0.33 s"
// (FormatRetry would say 0.34 s).
func FormatSeconds(d time.Duration) string {
	return fixed(int64((d+5*time.Millisecond)/(10*time.Millisecond)), 100) + " s"
}

// FormatClock formats a simulated instant in seconds with milliseconds,
// rounded down: "12.345 s".
func FormatClock(t limiter.Instant) string {
	return fixed(int64(t/time.Millisecond), 1000) + " s"
}

// fixed formats n/unit (unit a power of ten) with as many decimals as unit
// has zeros: fixed(1234, 1000) is "1.234", fixed(-5, 100) "-0.05". Written
// out, not with fmt: the clock and the states are formatted every frame, and
// fmt is a large function for V8 to compile and then optimise while the
// page starts.
func fixed(n, unit int64) string {
	var b [24]byte
	out := b[:0]
	if n < 0 {
		out, n = append(out, '-'), -n
	}
	out = strconv.AppendInt(out, n/unit, 10)
	out = append(out, '.')
	for u := unit / 10; u > 1 && n%unit < u; u /= 10 {
		out = append(out, '0')
	}
	return string(strconv.AppendInt(out, n%unit, 10))
}

// FormatDuration formats a duration or an instant exactly, in the largest
// of s, ms, µs and ns that it reaches, with a space before the unit and
// trailing zeros dropped: 95.473355645 s (Go's notation would say
// 1m35.473355645s), 1.25 s, 250 ms, 0.5 µs is 500 ns, 0 s; Never is "never".
// Exact, so the sums the explanations show add up to the nanosecond.
func FormatDuration(d time.Duration) string {
	if d == limiter.Never {
		return "never"
	}
	if d == 0 {
		return "0 s"
	}
	sign, u := "", uint64(d)
	if d < 0 {
		sign, u = "-", uint64(-(d+1))+1 // -(d+1)+1 holds math.MinInt64 too
	}
	unit, scale, digits := "ns", uint64(1), 0
	switch {
	case u >= uint64(time.Second):
		unit, scale, digits = "s", uint64(time.Second), 9
	case u >= uint64(time.Millisecond):
		unit, scale, digits = "ms", uint64(time.Millisecond), 6
	case u >= uint64(time.Microsecond):
		unit, scale, digits = "µs", uint64(time.Microsecond), 3
	}
	s := sign + strconv.FormatUint(u/scale, 10)
	if f := u % scale; f != 0 {
		fs := strconv.FormatUint(f, 10)
		fs = strings.Repeat("0", digits-len(fs)) + fs
		s += "." + strings.TrimRight(fs, "0")
	}
	return s + " " + unit
}

// FormatSpan formats the length of a window or a leak interval: whole hours
// in h, whole minutes in min, and anything else as FormatDuration writes it
// (90 s, 1.5 s, 250 ms).
func FormatSpan(d time.Duration) string {
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + " h"
	case d >= time.Minute && d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + " min"
	}
	return FormatDuration(d)
}

// FormatSecs formats an instant in seconds to the millisecond (rounded
// down), trailing zeros dropped, without the unit, so that a range can
// name it once: "0.99", "12" (as in "0.99–1.99 s").
func FormatSecs(t limiter.Instant) string {
	return strconv.FormatFloat(float64(t/time.Millisecond)/1000, 'f', -1, 64)
}

// FormatSecondsAgo formats a time axis' label s seconds before now, s > 0:
// "−6 s", "−0.5 s" (with a minus sign, U+2212).
func FormatSecondsAgo(s float64) string {
	return "−" + Num(s) + " s"
}

// FormatWindow formats a window length: "500 ms", "1 s", "2.5 s".
func FormatWindow(d time.Duration) string {
	if d < time.Second {
		return strconv.FormatInt(int64(d/time.Millisecond), 10) + " ms"
	}
	return Num(d.Seconds()) + " s"
}

// Seconds converts seconds to a duration, rounded to the millisecond (the
// window field takes at most three decimals).
func Seconds(s float64) time.Duration {
	return time.Duration(math.Round(s*1000)) * time.Millisecond
}

// Milliseconds converts whole milliseconds to a duration.
func Milliseconds(ms int) time.Duration { return time.Duration(ms) * time.Millisecond }

// Unreadable is what browser.FieldText returns for a number field whose text the
// browser cannot read as a number (it then reports an empty value, e.g. for
// 1e309): so the message does not claim the field is empty.
const Unreadable = "\x00unreadable"

// TwoDecimals formats an instant or duration in seconds with two decimals: "1.20 s".
func TwoDecimals(t time.Duration) string {
	return strconv.FormatFloat(t.Seconds(), 'f', 2, 64) + " s"
}

// FormatAxis formats instant t as a time axis label in seconds, with as
// many decimals as the tick step needs to tell ticks apart and no more:
// step 1 s gives "12 s", 200 ms "0.2 s", 5 ms "0.995 s", 20 µs
// "0.99002 s". Exact: t is written from its nanoseconds, never through a
// float, so that "1.000 s" is never "0.999 s".
func FormatAxis(t limiter.Instant, step time.Duration) string {
	unit := int64(time.Second)
	for unit > 1 && step%time.Duration(unit) != 0 {
		unit /= 10
	}
	if unit == int64(time.Second) {
		return strconv.FormatInt(int64(t/time.Second), 10) + " s"
	}
	// t in units of `unit` ns, rounded toward zero, over the units per second.
	return fixed(int64(t)/unit, int64(time.Second)/unit) + " s"
}
