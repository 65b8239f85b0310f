package units

import (
	"math"
	"strconv"
	"time"
)

// perUnits are the spans a rate is said per, shortest first.
var perUnits = []struct {
	span time.Duration
	name string
}{{time.Second, "second"}, {time.Minute, "minute"}, {time.Hour, "hour"}, {24 * time.Hour, "day"}}

// FormatRate says a rate of r per second as a person would, exactly: a
// whole number per second, minute, hour or day, the shortest that is whole
// ("5 per second", "5 per minute" for 5/60, "5000 per hour" for 5000/3600);
// else one every whole span ("1 every 7 s" for 1/7, "1 every 1.5 s"); else
// a whole number every whole number of seconds up to 1000 ("3 every 7 s");
// else the rate per second in digits ("0.123 per second"). 0 is "none" and
// +Inf "unlimited". Whole is within float noise (Clean).
func FormatRate(r float64) string {
	switch {
	case math.IsInf(r, 1):
		return "unlimited"
	case !(r > 0):
		return "none"
	}
	for _, u := range perUnits {
		if n := Clean(r * u.span.Seconds()); n >= 1 && n == math.Trunc(n) && n < 1e15 {
			return strconv.FormatFloat(n, 'f', -1, 64) + " per " + u.name
		}
	}
	if ns := Clean(1e9 / r); ns == math.Trunc(ns) && ns < math.MaxInt64/2 {
		return "1 every " + FormatSpan(time.Duration(ns))
	}
	for q := 2.0; q <= 1000; q++ {
		if n := Clean(r * q); n >= 1 && n == math.Trunc(n) {
			return strconv.FormatFloat(n, 'f', -1, 64) + " every " + strconv.FormatFloat(q, 'f', -1, 64) + " s"
		}
	}
	return Num(r) + " per second"
}

// FormatBudget says limit per window as a person would: "5 per second", "50
// per minute" when the window is one second, minute, hour or day, else "10
// per 1.5 s", "10 per 2 min" (FormatSpan).
func FormatBudget(limit int, window time.Duration) string {
	for _, u := range perUnits {
		if window == u.span {
			return strconv.Itoa(limit) + " per " + u.name
		}
	}
	return strconv.Itoa(limit) + " per " + FormatSpan(window)
}
