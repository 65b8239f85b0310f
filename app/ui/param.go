package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
)

// ParamField is one parameter's slider, its number field with the unit,
// and its error line: the playground's parameters, every lab lane's and
// the lessons'. A text the parameter refuses goes to OnError and is shown
// beside the field (Errs); only good values reach OnValue, so the last good
// value stays in force. The slider keeps where the user left it (Moved).
type ParamField struct {
	P       units.Param
	Label   string            // the visible label ("Capacity (burst)"); P.Name when empty
	Value   float64           // the value in force
	Errs    map[string]string // messages by field id; Errs[P.ID] is this field's
	Moved   *SliderMemory
	Sliders *[]SliderPos // each render appends this slider, for SyncSliders
	// Compact is a lab lane's layout: the name beside the inputs, no value
	// line, a number field that takes any step.
	Compact bool
	OnValue func(ctx app.Context, v float64)
	OnError func(ctx app.Context, err error)
}

// UI renders the field.
func (f ParamField) UI() app.UI {
	p, label := f.P, f.Label
	if label == "" {
		label = p.Name
	}
	pos := f.Moved.Pos(p, f.Value)
	*f.Sliders = append(*f.Sliders, SliderPos{ID: p.ID, Pos: pos, Value: f.Value, Number: !f.Compact})
	inputs := app.Elem("div").Class("param-inputs")
	if f.Compact {
		return app.Elem("div").Class("lane-param").Body(
			inputs.Body(app.Elem("label").Attr("for", p.ID+"-num").Class("pname").Text(label), f.slider(label, pos), f.number(label), f.unit()),
			ErrorLine(f.Errs, p.ID),
		)
	}
	return app.Elem("div").Class("param").Body(
		app.Elem("div").Class("param-head").Body(
			app.Elem("label").Attr("for", p.ID).Text(label),
			app.Elem("span").ID(p.ID+"-value").Class("param-value").Text(p.FormatValue(f.Value)),
		),
		inputs.Body(f.slider(label, pos), f.number(label), f.unit()),
		ErrorLine(f.Errs, p.ID),
	)
}

func (f ParamField) slider(label string, pos float64) app.UI {
	p := f.P
	lo, hi, step := p.Min, p.Max, p.Step
	if p.Log {
		lo, hi, step = 0, units.LogSteps, 1
	}
	return app.ElemSelfClosing("input").Attr("type", "range").ID(p.ID).Attr("min", lo).Attr("max", hi).Attr("step", step).
		Attr("value", units.Num(pos)).Attr("aria-label", label).
		OnInput(f.onSlide, p.ID, p.Name) // a new strategy brings other parameters under the same ids
}

func (f ParamField) number(label string) app.UI {
	p := f.P
	in := app.ElemSelfClosing("input").Attr("type", "number").ID(p.ID + "-num")
	if f.Compact {
		in = in.Class("num small").Attr("step", "any")
	} else {
		in = in.Class("num").Attr("min", p.Min).Attr("max", p.Max).Attr("step", p.Step)
	}
	in = in.Attr("value", units.Num(f.Value)).Attr("aria-label", label+" ("+p.Unit+")")
	return FollowMessage(in, f.Errs, p, f.OnError).OnChange(f.onNumber, p.ID, p.Name)
}

func (f ParamField) unit() app.UI { return app.Elem("span").Class("unit").Text(f.P.Unit) }

// onSlide takes the slider's position: where the user left it, and its value.
func (f ParamField) onSlide(ctx app.Context, e app.Event) {
	x, err := strconv.ParseFloat(browser.FieldText(ctx.JSSrc()), 64)
	if err != nil {
		return
	}
	f.Moved.Set(f.P, x)
	f.OnValue(ctx, f.P.FromSlider(x))
}

// onNumber takes the number field's text: a good value, or the error.
func (f ParamField) onNumber(ctx app.Context, e app.Event) {
	x, err := f.P.Parse(browser.FieldText(ctx.JSSrc()))
	if err != nil {
		f.OnError(ctx, err)
		return
	}
	f.OnValue(ctx, x)
}
