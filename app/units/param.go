package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
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
	// One, when set, is how a value of exactly 1 is shown ("1 token").
	One string
	// InSeconds: the value is a window length in seconds, shown as
	// FormatWindow shows it ("100 ms", "2.5 s").
	InSeconds bool
}

// LogSteps is the number of positions of a logarithmic slider.
const LogSteps = 1000

// Parse reads the text of p's number field. It returns an error that names
// the parameter and the accepted range for an empty field, a value that is
// not a number, out of range, or not whole when p is Integer.
func (p Param) Parse(text string) (float64, error) {
	text = strings.TrimSpace(text)
	want := fmt.Sprintf("want %s to %s %s", Num(p.Min), Num(p.Max), p.Unit)
	if p.Gap > 0 {
		want = fmt.Sprintf("want 0 (no refill) or %s to %s %s", Num(p.Gap), Num(p.Max), p.Unit)
	}
	if text == Unreadable {
		return 0, fmt.Errorf("%s is not a number the browser can read (too large, or not a number); %s", p.Name, want)
	}
	if text == "" {
		return 0, fmt.Errorf("%s is empty; %s", p.Name, want)
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s %q is not a number; %s", p.Name, text, want)
	}
	if err := p.check(v, want); err != nil {
		return 0, err
	}
	return v, nil
}

// check checks a number against p's range (want says it), whole values and
// grain.
func (p Param) check(v float64, want string) error {
	switch {
	case v < p.Min || v > p.Max || p.Gap > 0 && v > 0 && v < p.Gap:
		return fmt.Errorf("%s %s is out of range; %s", p.Name, Num(v), want)
	case p.Integer && v != math.Trunc(v):
		return fmt.Errorf("%s %s is not a whole number; %s", p.Name, Num(v), want)
	case p.Grain > 0 && math.Abs(v/p.Grain-math.Round(v/p.Grain)) > 1e-6:
		return fmt.Errorf("%s %s is finer than %s %s; %s, in steps of %s", p.Name, Num(v), Num(p.Grain), p.Unit, want, Num(p.Grain))
	}
	return nil
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
	return Clean(v)
}

// FormatValue formats v with p's unit for the label next to a slider.
func (p Param) FormatValue(v float64) string {
	switch {
	case p.InSeconds:
		return FormatWindow(Seconds(v))
	case v == 1 && p.One != "":
		return p.One
	}
	return Num(v) + " " + p.Unit
}
