package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// Param describes one tunable value: its slider, its number field and the
// range the playground offers.
type Param struct {
	ID      string  // element id of the slider; the number field is ID+"-num"
	Name    string  // the field's term, e.g. "refill rate"
	Unit    string  // shown after the value, e.g. "tokens/s"
	Min     float64 // in the number field's unit
	Max     float64
	Step    float64 // number field and linear slider step
	Integer bool    // only whole values
	Log     bool    // the slider is logarithmic (positions 0..LogSteps)
	// Gap, when > 0, refuses values between 0 and Gap (0 itself stays):
	// the limiter's exact arithmetic cannot hold a tiny refill rate with a
	// large burst, and its own message named the burst instead.
	Gap float64
	// Grain, when > 0, refuses values that are not whole multiples of it:
	// a window in seconds is taken to the millisecond (Seconds), and 0.0015
	// became 2 ms with no word.
	Grain float64
}

// LogSteps is the number of positions of a logarithmic slider.
const LogSteps = 1000

// The parameters of the playground.
var (
	ParamBurst    = Param{ID: "capacity", Name: "burst", Unit: "tokens", Min: 1, Max: 100, Step: 1, Integer: true}
	ParamRate     = Param{ID: "rate", Name: "refill rate", Unit: "tokens/s", Min: 0, Max: 50, Step: 0.1, Gap: 0.001}
	ParamLimit    = Param{ID: "limit", Name: "limit", Unit: "requests", Min: 1, Max: 100, Step: 1, Integer: true}
	ParamWindow   = Param{ID: "window", Name: "window", Unit: "s", Min: 0.1, Max: 60, Step: 0.1, Grain: 0.001}
	ParamAutoRate = Param{ID: "autofire-rate", Name: "auto-fire rate", Unit: "requests/s", Min: 0.1, Max: 200, Step: 0.1, Log: true}
	ParamBurstN   = Param{ID: "burst-n", Name: "N", Unit: "requests", Min: 1, Max: 100, Step: 1, Integer: true}
)

// Parse reads the text of p's number field. It returns an error that names
// the parameter and the accepted range for an empty field, a value that is
// not a number, out of range, or not whole when p is Integer.
func (p Param) Parse(text string) (float64, error) {
	text = strings.TrimSpace(text)
	want := fmt.Sprintf("want %s to %s %s", num(p.Min), num(p.Max), p.Unit)
	if p.Gap > 0 {
		want = fmt.Sprintf("want 0 (no refill) or %s to %s %s", num(p.Gap), num(p.Max), p.Unit)
	}
	if text == unreadable {
		return 0, fmt.Errorf("%s is not a number the browser can read (too large, or not a number); %s", p.Name, want)
	}
	if text == "" {
		return 0, fmt.Errorf("%s is empty; %s", p.Name, want)
	}
	v, err := strconv.ParseFloat(text, 64)
	switch {
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Errorf("%s %q is not a number; %s", p.Name, text, want)
	case v < p.Min || v > p.Max || p.Gap > 0 && v > 0 && v < p.Gap:
		return 0, fmt.Errorf("%s %s is out of range; %s", p.Name, num(v), want)
	case p.Integer && v != math.Trunc(v):
		return 0, fmt.Errorf("%s %s is not a whole number; %s", p.Name, num(v), want)
	case p.Grain > 0 && math.Abs(v/p.Grain-math.Round(v/p.Grain)) > 1e-6:
		return 0, fmt.Errorf("%s %s is finer than %s %s; %s, in steps of %s", p.Name, num(v), num(p.Grain), p.Unit, want, num(p.Grain))
	}
	return v, nil
}

// SliderPos returns the slider position for value v.
func (p Param) SliderPos(v float64) float64 {
	if !p.Log {
		return v
	}
	v = min(max(v, p.Min), p.Max)
	return math.Round(math.Log(v/p.Min) / math.Log(p.Max/p.Min) * LogSteps)
}

// FromSlider returns the value at slider position pos, rounded to p.Step (a
// logarithmic slider keeps two significant digits).
func (p Param) FromSlider(pos float64) float64 {
	v := pos
	if p.Log {
		v = p.Min * math.Pow(p.Max/p.Min, pos/LogSteps)
		// Two significant digits: 0.1, 0.15, 2.4, 37, 180.
		mag := math.Pow(10, math.Floor(math.Log10(v))-1)
		v = math.Round(v/mag) * mag
		v = math.Round(v/p.Step) * p.Step
	} else if p.Step > 0 {
		v = math.Round(v/p.Step) * p.Step
	}
	v = min(max(v, p.Min), p.Max)
	return clean(v)
}

// clean removes float noise such as 0.30000000000000004 (it keeps 12
// significant digits, so a rate of 1e-9 stays 1e-9 rather than becoming 0).
func clean(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	return r
}

// num formats v with no trailing zeros: 1, 0.5, 37.5, 0.000000001. A
// magnitude below 1e-9 or from 1e21 up (JavaScript's own limit) is written
// with an exponent, 1e-300 or 1e+300, rather than as hundreds of digits that
// no message can wrap.
func num(v float64) string {
	v = clean(v)
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

// FormatWindow formats a window length: "500 ms", "1 s", "2.5 s".
func FormatWindow(d time.Duration) string {
	if d < time.Second {
		return strconv.FormatInt(int64(d/time.Millisecond), 10) + " ms"
	}
	return num(d.Seconds()) + " s"
}

// FormatValue formats v with p's unit for the label next to a slider.
func (p Param) FormatValue(v float64) string {
	switch p.ID {
	case ParamWindow.ID:
		return FormatWindow(Seconds(v))
	case ParamBurst.ID:
		if v == 1 {
			return "1 token"
		}
	case ParamLimit.ID:
		if v == 1 {
			return "1 request"
		}
	case ParamRate.ID:
		if v == 1 {
			return "1 token/s"
		}
	}
	return num(v) + " " + p.Unit
}

// Seconds converts seconds to a duration, rounded to the millisecond (the
// window field takes at most three decimals).
func Seconds(s float64) time.Duration {
	return time.Duration(math.Round(s*1000)) * time.Millisecond
}

// Milliseconds converts whole milliseconds to a duration.
func Milliseconds(ms int) time.Duration { return time.Duration(ms) * time.Millisecond }

// unreadable is what fieldText returns for a number field whose text the
// browser cannot read as a number (it then reports an empty value, e.g. for
// 1e309): so the message does not claim the field is empty.
const unreadable = "\x00unreadable"
