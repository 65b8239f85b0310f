package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
)

// SliderMemory is where the user last put each logarithmic slider. Its
// value keeps two significant digits, so neighbouring positions share a
// value; drawn back at that value's own position, the slider would undo
// each arrow-key step.
type SliderMemory map[string]float64

// Pos is p's slider position for value v: where the user left the slider,
// while that still gives v, else v's own position.
func (m SliderMemory) Pos(p units.Param, v float64) float64 {
	if at, ok := m[p.ID]; ok && p.FromSlider(at) == v {
		return at
	}
	return p.SliderPos(v)
}

// Set records that the user put p's slider at x (logarithmic sliders only).
func (m *SliderMemory) Set(p units.Param, x float64) {
	if !p.Log {
		return
	}
	if *m == nil {
		*m = SliderMemory{}
	}
	(*m)[p.ID] = x
}

// SliderPos is a rendered slider's position, and the value its number field
// shows when Number is set.
type SliderPos struct {
	ID     string
	Pos    float64 // the slider's position
	Value  float64 // the parameter's value, for the number field
	Number bool    // the number field is synced too
}

// SyncSliders sets each range input's value once its min, max and step are
// in place: go-app sets attributes in map order, and a value set before a
// larger max or finer step is clamped by the browser. A number field too,
// where asked: go-app reuses the element across a strategy switch and
// leaves text typed into it in place.
func SyncSliders(ctx app.Context, sliders []SliderPos) {
	ctx.Defer(func(app.Context) {
		for _, s := range sliders {
			browser.SetValue(s.ID, units.Num(s.Pos))
			if s.Number {
				browser.SetValue(s.ID+"-num", units.Num(s.Value))
			}
		}
	})
}

// RangeValue keeps a range input's value where the page last drew it, for
// a range whose value moves on its own (a clock's timeline): go-app sets
// an element's attributes in map order, and a value set before a larger max
// is clamped by the browser (to 100, the default max, when the element is
// new). Sync, called from a frame after the element is drawn, sets the
// value when it differs from the one last set.
type RangeValue struct {
	set int
	ok  bool
}

// Sync sets the value of the range input id to v unless v is the value
// it last set there.
func (r *RangeValue) Sync(id string, v int) {
	if r.ok && r.set == v {
		return
	}
	if el := browser.ByID(id); el.Truthy() {
		el.Set("value", strconv.Itoa(v))
		r.set, r.ok = v, true
	}
}

// FollowMessage marks a number field whose message is shown (in errs) as
// invalid, described by that message, and gives it an input handler that
// keeps the message in step with the text: the browser sends no change
// event between two texts it cannot read (empty, then 1e309), which would
// leave a stale message. Only then: on every field it would redraw at each
// keystroke, and a redraw that lands between a typed value and its change
// event runs the sliders' deferred sync, which writes the old value back
// over the typed one.
func FollowMessage(in app.HTMLElemSelfClosing, errs map[string]string, p units.Param, set func(app.Context, error)) app.HTMLElemSelfClosing {
	if _, shown := errs[p.ID]; !shown {
		return in
	}
	return Invalid(in, true, p.ID+"-error").OnInput(func(ctx app.Context, e app.Event) {
		if _, err := p.Parse(browser.FieldText(ctx.JSSrc())); err != nil {
			set(ctx, err)
		}
	}, p.ID, p.Name)
}

// Invalid marks a field whose message (the element errID) is shown as
// invalid, described by that message, for screen readers.
func Invalid(in app.HTMLElemSelfClosing, shown bool, errID string) app.HTMLElemSelfClosing {
	if !shown {
		return in
	}
	return in.Attr("aria-invalid", "true").Attr("aria-describedby", errID)
}

// ErrorLine is the message shown under a field (errs[id]), if any.
func ErrorLine(errs map[string]string, id string) app.UI {
	msg, ok := errs[id]
	return app.If(ok, app.Elem("p").ID(id+"-error").Class("param-error").Role("alert").Text("⚠ "+msg))
}
