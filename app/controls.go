package main

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/limiter"
)

// controls is the left column: the strategy, its parameters, the request
// buttons and the clock. It changes the simulation; the view redraws it.
type controls struct {
	app.Compo
	Sim *Sim

	errs    map[string]string // parameter id → message shown next to it
	burstN  int
	sliders []sliderPos // rendered sliders, for syncSliders
	moved   sliderMemory
}

// sliderMemory is where the user last put each logarithmic slider. Its
// value keeps two significant digits, so neighbouring positions share a
// value; drawn back at that value's own position, the slider would undo
// each arrow-key step.
type sliderMemory map[string]float64

// pos is p's slider position for value v: where the user left the slider,
// while that still gives v, else v's own position.
func (m sliderMemory) pos(p Param, v float64) float64 {
	if at, ok := m[p.ID]; ok && p.FromSlider(at) == v {
		return at
	}
	return p.SliderPos(v)
}

// set records that the user put p's slider at x (logarithmic sliders only).
func (m *sliderMemory) set(p Param, x float64) {
	if !p.Log {
		return
	}
	if *m == nil {
		*m = sliderMemory{}
	}
	(*m)[p.ID] = x
}

type sliderPos struct {
	id    string
	pos   float64 // the slider's position
	value float64 // the parameter's value, for the number field
}

func (c *controls) OnInit() {
	c.errs = map[string]string{}
	c.burstN = 5
}

func (c *controls) OnMount(ctx app.Context) { c.syncSliders(ctx) }

// syncSliders sets each range input's value once its min, max and step are
// in place: go-app sets attributes in map order, and a value set before a
// larger max or finer step is clamped by the browser.
func (c *controls) syncSliders(ctx app.Context) {
	ctx.Defer(func(app.Context) {
		for _, s := range c.sliders {
			if el := app.Window().GetElementByID(s.id); el.Truthy() {
				el.Set("value", num(s.pos))
			}
			// The number field too: go-app reuses the element across a
			// strategy switch and leaves text typed into it in place.
			if el := app.Window().GetElementByID(s.id + "-num"); el.Truthy() {
				el.Set("value", num(s.value))
			}
		}
	})
}

func (c *controls) Render() app.UI {
	s := c.Sim
	c.sliders = c.sliders[:0]
	tb := s.Kind() == limiter.KindTokenBucket
	var params app.UI
	if tb {
		params = app.Elem("div").Class("params").Body(
			c.param("Capacity (burst)", ParamBurst, float64(s.Burst()), func(v float64) error { return s.SetBurst(int(v)) }),
			c.param("Refill rate", ParamRate, s.Rate(), s.SetRate),
		)
	} else {
		params = app.Elem("div").Class("params").Body(
			c.param("Limit", ParamLimit, float64(s.Limit()), func(v float64) error { return s.SetLimit(int(v)) }),
			c.param("Window", ParamWindow, s.Window().Seconds(), func(v float64) error { return s.SetWindow(Seconds(v)) }),
		)
	}
	pause := "Pause clock"
	if !s.Running() {
		pause = "Resume clock"
	}
	auto := "Auto-fire: off"
	if s.Autofire() {
		auto = "Auto-fire: on"
	}
	return app.Elem("section").Class("card controls").Attr("aria-label", "Controls").Body(
		app.Elem("h2").Text("Strategy"),
		app.Elem("div").ID("strategy").Class("segmented").Role("group").Attr("aria-label", "Strategy").Body(
			c.strategyButton(limiter.KindTokenBucket),
			c.strategyButton(limiter.KindSlidingWindowLog),
		),
		app.Elem("p").ID("explain").Class("explain").Text(explanation(s.Kind())),

		app.Elem("h2").Text("Parameters"),
		params,

		app.Elem("h2").Text("Requests"),
		app.Elem("div").Class("row").Body(
			app.Elem("button").ID("send").Class("btn primary").Text("Send request").OnClick(c.onSend),
			app.Elem("span").Class("hint").Body(app.Elem("kbd").Text("Space"), app.Text(" also sends")),
		),
		app.Elem("div").Class("row").Body(
			app.Elem("button").ID("burst").Class("btn").Text("Burst ×"+strconv.Itoa(c.burstN)).OnClick(c.onBurst),
			app.Elem("label").Attr("for", ParamBurstN.ID).Class("inline-label").Text("N ="),
			invalid(app.ElemSelfClosing("input").Attr("type", "number").ID(ParamBurstN.ID).Class("num").
				Attr("min", ParamBurstN.Min).Attr("max", ParamBurstN.Max).Attr("step", ParamBurstN.Step).
				Attr("value", c.burstN), c.errs[ParamBurstN.ID] != "", ParamBurstN.ID+"-error").OnChange(c.onBurstN),
		),
		c.errorLine(ParamBurstN.ID),
		app.Elem("div").Class("row").Body(
			app.Elem("button").ID("autofire").Class("btn toggle").Attr("aria-pressed", s.Autofire()).Text(auto).OnClick(c.onAutofire),
		),
		c.param("Auto-fire rate", ParamAutoRate, s.AutoRate(), func(v float64) error { s.SetAutoRate(v); return nil }),

		app.Elem("h2").Text("Clock"),
		app.Elem("div").Class("row").Body(
			app.Elem("button").ID("pause").Class("btn").Attr("aria-pressed", !s.Running()).Text(pause).OnClick(c.onPause),
			app.Elem("button").ID("step").Class("btn").Title("Move the clock forward by 100 ms").Text("+100 ms").OnClick(c.onStep(100)),
			app.Elem("button").ID("step-1s").Class("btn").Title("Move the clock forward by 1 s").Text("+1 s").OnClick(c.onStep(1000)),
			app.Elem("button").ID("reset").Class("btn danger").Title("A fresh limiter, totals to zero, clock to 0").Text("Reset").OnClick(c.onReset),
		),
		&goCode{ID: "playground-go", Setup: explain.GoSetup{From: "the playground", Config: s.Config()}},
	)
}

func (c *controls) strategyButton(k limiter.Kind) app.UI {
	on := c.Sim.Kind() == k
	cls := "seg"
	if on {
		cls = "seg on"
	}
	return app.Elem("button").ID("strategy-"+string(k)).Class(cls).Attr("aria-pressed", on).
		Text(k.Name()).OnClick(func(ctx app.Context, e app.Event) {
		c.Sim.SetKind(k)
		c.clearErrs(ctx)
	}, string(k)) // a string scope: go-app formats any other type with fmt's reflection, 24 KB of code to compile at start-up
}

func explanation(k limiter.Kind) string {
	if k == limiter.KindSlidingWindowLog {
		return "Sliding window log: the limiter keeps the time of every allowed request. A request is allowed while fewer than limit entries lie within the last window; each entry expires one window after it was made."
	}
	return "Token bucket: a bucket holds up to burst tokens and refills continuously at the refill rate. Each request takes one token; a request that finds less than one token is denied."
}

// param renders a slider with its value and unit, a number field for exact
// values, and the error of the last bad entry.
func (c *controls) param(label string, p Param, v float64, apply func(float64) error) app.UI {
	pos := c.moved.pos(p, v)
	c.sliders = append(c.sliders, sliderPos{id: p.ID, pos: pos, value: v})
	lo, hi, step := p.Min, p.Max, p.Step
	if p.Log {
		lo, hi, step = 0, LogSteps, 1
	}
	return app.Elem("div").Class("param").Body(
		app.Elem("div").Class("param-head").Body(
			app.Elem("label").Attr("for", p.ID).Text(label),
			app.Elem("span").ID(p.ID+"-value").Class("param-value").Text(p.FormatValue(v)),
		),
		app.Elem("div").Class("param-inputs").Body(
			app.ElemSelfClosing("input").Attr("type", "range").ID(p.ID).Attr("min", lo).Attr("max", hi).Attr("step", step).Attr("value", num(pos)).
				Attr("aria-label", label).
				OnInput(func(ctx app.Context, e app.Event) {
					x, err := strconv.ParseFloat(fieldText(ctx.JSSrc()), 64)
					if err != nil {
						return
					}
					c.moved.set(p, x)
					c.apply(ctx, p, p.FromSlider(x), apply)
				}, p.ID),
			followMessage(app.ElemSelfClosing("input").Attr("type", "number").ID(p.ID+"-num").Class("num").Attr("min", p.Min).Attr("max", p.Max).Attr("step", p.Step).
				Attr("value", num(v)).Attr("aria-label", label+" ("+p.Unit+")"), c.errs, p, func(err error) { c.errs[p.ID] = err.Error() }).
				OnChange(func(ctx app.Context, e app.Event) {
					x, err := p.Parse(fieldText(ctx.JSSrc()))
					if err != nil {
						c.errs[p.ID] = err.Error()
						return
					}
					c.apply(ctx, p, x, apply)
				}, p.ID),
			app.Elem("span").Class("unit").Text(p.Unit),
		),
		c.errorLine(p.ID),
	)
}

// followMessage marks a number field whose message is shown (in errs) as
// invalid, described by that message, and gives it an input handler that
// keeps the message in step with the text: the browser sends no change
// event between two texts it cannot read (empty, then 1e309), which would
// leave a stale message. Only then: on every field it
// would redraw at each keystroke, and a redraw that lands between a typed
// value and its change event runs the sliders' deferred sync, which writes
// the old value back over the typed one.
func followMessage(in app.HTMLElemSelfClosing, errs map[string]string, p Param, set func(error)) app.HTMLElemSelfClosing {
	if _, shown := errs[p.ID]; !shown {
		return in
	}
	return invalid(in, true, p.ID+"-error").OnInput(func(ctx app.Context, e app.Event) {
		if _, err := p.Parse(fieldText(ctx.JSSrc())); err != nil {
			set(err)
		}
	}, p.ID, p.Name)
}

// invalid marks a field whose message (the element errID) is shown as
// invalid, described by that message, for screen readers.
func invalid(in app.HTMLElemSelfClosing, shown bool, errID string) app.HTMLElemSelfClosing {
	if !shown {
		return in
	}
	return in.Attr("aria-invalid", "true").Attr("aria-describedby", errID)
}

func (c *controls) apply(ctx app.Context, p Param, v float64, apply func(float64) error) {
	if err := apply(v); err != nil {
		c.errs[p.ID] = err.Error() // the limiter's own message
		return
	}
	delete(c.errs, p.ID)
	c.syncSliders(ctx)
}

func (c *controls) errorLine(id string) app.UI {
	msg, ok := c.errs[id]
	return app.If(ok, app.Elem("p").ID(id+"-error").Class("param-error").Role("alert").Text("⚠ "+msg))
}

func (c *controls) onSend(ctx app.Context, e app.Event) { c.Sim.Send(1) }

func (c *controls) onBurst(ctx app.Context, e app.Event) { c.Sim.Send(c.burstN) }

func (c *controls) onBurstN(ctx app.Context, e app.Event) {
	x, err := ParamBurstN.Parse(fieldText(ctx.JSSrc()))
	if err != nil {
		c.errs[ParamBurstN.ID] = err.Error()
		return
	}
	delete(c.errs, ParamBurstN.ID)
	c.burstN = int(x)
}

func (c *controls) onAutofire(ctx app.Context, e app.Event) { c.Sim.SetAutofire(!c.Sim.Autofire()) }

func (c *controls) onPause(ctx app.Context, e app.Event) { c.Sim.SetRunning(!c.Sim.Running()) }

func (c *controls) onStep(ms int) app.EventHandler {
	return func(ctx app.Context, e app.Event) { c.Sim.Step(Milliseconds(ms)) }
}

func (c *controls) onReset(ctx app.Context, e app.Event) {
	c.Sim.Reset()
	c.clearErrs(ctx)
}

// clearErrs drops every message and puts each field back to the value in
// use: the parameters' and N's (Burst ×N), rather than leave refused text
// in a field whose message is gone.
func (c *controls) clearErrs(ctx app.Context) {
	clear(c.errs)
	c.syncSliders(ctx)
	if el := app.Window().GetElementByID(ParamBurstN.ID); el.Truthy() {
		el.Set("value", strconv.Itoa(c.burstN))
	}
}
