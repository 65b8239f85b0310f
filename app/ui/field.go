package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
)

// sliderMemory is where the user last put each logarithmic slider. Its
// value keeps two significant digits, so neighbouring positions share a
// value; drawn back at that value's own position, the slider would undo
// each arrow-key step.
type SliderMemory map[string]float64

// pos is p's slider position for value v: where the user left the slider,
// while that still gives v, else v's own position.
func (m SliderMemory) Pos(p units.Param, v float64) float64 {
	if at, ok := m[p.ID]; ok && p.FromSlider(at) == v {
		return at
	}
	return p.SliderPos(v)
}

// set records that the user put p's slider at x (logarithmic sliders only).
func (m *SliderMemory) Set(p units.Param, x float64) {
	if !p.Log {
		return
	}
	if *m == nil {
		*m = SliderMemory{}
	}
	(*m)[p.ID] = x
}

type SliderPos struct {
	ID    string
	Pos   float64 // the slider's position
	Value float64 // the parameter's value, for the number field
}

// followMessage marks a number field whose message is shown (in errs) as
// invalid, described by that message, and gives it an input handler that
// keeps the message in step with the text: the browser sends no change
// event between two texts it cannot read (empty, then 1e309), which would
// leave a stale message. Only then: on every field it
// would redraw at each keystroke, and a redraw that lands between a typed
// value and its change event runs the sliders' deferred sync, which writes
// the old value back over the typed one.
func FollowMessage(in app.HTMLElemSelfClosing, errs map[string]string, p units.Param, set func(error)) app.HTMLElemSelfClosing {
	if _, shown := errs[p.ID]; !shown {
		return in
	}
	return Invalid(in, true, p.ID+"-error").OnInput(func(ctx app.Context, e app.Event) {
		if _, err := p.Parse(browser.FieldText(ctx.JSSrc())); err != nil {
			set(err)
		}
	}, p.ID, p.Name)
}

// invalid marks a field whose message (the element errID) is shown as
// invalid, described by that message, for screen readers.
func Invalid(in app.HTMLElemSelfClosing, shown bool, errID string) app.HTMLElemSelfClosing {
	if !shown {
		return in
	}
	return in.Attr("aria-invalid", "true").Attr("aria-describedby", errID)
}
