package playground

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// controls is the left column: the strategy, its parameters, the request
// buttons and the clock. It changes the simulation; the view redraws it.
type controls struct {
	app.Compo
	Sim *sim.Playground

	errs    map[string]string // parameter id → message shown next to it
	burstN  int
	sliders []ui.SliderPos // rendered sliders, for ui.SyncSliders
	moved   ui.SliderMemory
}

func (c *controls) OnInit() {
	c.errs = map[string]string{}
	c.burstN = 5
}

func (c *controls) OnMount(ctx app.Context) { ui.SyncSliders(ctx, c.sliders) }

func (c *controls) Render() app.UI {
	s := c.Sim
	c.sliders = c.sliders[:0]
	body := []app.UI{
		app.Elem("h2").Text("Strategy"),
		app.Elem("div").ID("strategy").Class("segmented").Role("group").Attr("aria-label", "Strategy").Body(
			c.strategyButton(limiter.KindTokenBucket),
			c.strategyButton(limiter.KindSlidingWindowLog),
		),
		app.Elem("p").ID("explain").Class("explain").Text(explanation(s.Kind())),

		app.Elem("h2").Text("Parameters"),
		c.params(),

		app.Elem("h2").Text("Requests"),
	}
	body = append(body, c.requests()...)
	body = append(body,
		app.Elem("h2").Text("Clock"),
		c.clockButtons(),
		&ui.GoCode{ID: "playground-go", Setup: explain.GoSetup{From: "the playground", Config: s.Config()}},
	)
	return app.Elem("section").Class("card controls").Attr("aria-label", "Controls").Body(body...)
}

// params are the fields of the strategy's parameters.
func (c *controls) params() app.UI {
	s := c.Sim
	if s.Kind() == limiter.KindTokenBucket {
		return app.Elem("div").Class("params").Body(
			c.param("Capacity (burst)", ParamBurst, float64(s.Burst()), func(v float64) error { return s.SetBurst(int(v)) }),
			c.param("Refill rate", ParamRate, s.Rate(), s.SetRate),
		)
	}
	return app.Elem("div").Class("params").Body(
		c.param("Limit", ParamLimit, float64(s.Limit()), func(v float64) error { return s.SetLimit(int(v)) }),
		c.param("Window", ParamWindow, s.Window().Seconds(), func(v float64) error { return s.SetWindow(units.Seconds(v)) }),
	)
}

// requests are the ways to send: one request, Burst ×N, auto-fire and its
// rate.
func (c *controls) requests() []app.UI {
	s := c.Sim
	auto := "Auto-fire: off"
	if s.Autofire() {
		auto = "Auto-fire: on"
	}
	return []app.UI{
		app.Elem("div").Class("row send-row").Body(
			app.Elem("button").ID("send").Class("btn primary").Text("Send request").OnClick(c.onSend),
			app.Elem("span").Class("hint").Body(app.Elem("kbd").Text("Space"), app.Text(" also sends")),
		),
		// On a line of its own, so that its text changing (one line when
		// idle, longer when denied) never moves the buttons below it.
		&sendVerdict{Sim: s},
		app.Elem("div").Class("row").Body(
			app.Elem("button").ID("burst").Class("btn").Text("Burst ×"+strconv.Itoa(c.burstN)).OnClick(c.onBurst),
			app.Elem("label").Attr("for", ParamBurstN.ID).Class("inline-label").Text("N ="),
			ui.Invalid(app.ElemSelfClosing("input").Attr("type", "number").ID(ParamBurstN.ID).Class("num").
				Attr("min", ParamBurstN.Min).Attr("max", ParamBurstN.Max).Attr("step", ParamBurstN.Step).
				Attr("value", c.burstN), c.errs[ParamBurstN.ID] != "", ParamBurstN.ID+"-error").OnChange(c.onBurstN),
		),
		ui.ErrorLine(c.errs, ParamBurstN.ID),
		app.Elem("div").Class("row").Body(
			app.Elem("button").ID("autofire").Class("btn toggle").Attr("aria-pressed", s.Autofire()).Text(auto).OnClick(c.onAutofire),
		),
		c.param("Auto-fire rate", ParamAutoRate, s.AutoRate(), func(v float64) error { s.SetAutoRate(v); return nil }),
	}
}

// clockButtons pause or resume the clock, step it and reset.
func (c *controls) clockButtons() app.UI {
	pause := "Pause clock"
	if !c.Sim.Running() {
		pause = "Resume clock"
	}
	return app.Elem("div").Class("row").Body(
		app.Elem("button").ID("pause").Class("btn").Attr("aria-pressed", !c.Sim.Running()).Text(pause).OnClick(c.onPause),
		app.Elem("button").ID("step").Class("btn").Title("Move the clock forward by 100 ms").Text("+100 ms").OnClick(c.onStep(100)),
		app.Elem("button").ID("step-1s").Class("btn").Title("Move the clock forward by 1 s").Text("+1 s").OnClick(c.onStep(1000)),
		app.Elem("button").ID("reset").Class("btn danger").Title("A fresh limiter, totals to zero, clock to 0").Text("Reset").OnClick(c.onReset),
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

func (c *controls) apply(ctx app.Context, p units.Param, v float64, apply func(float64) error) {
	if err := apply(v); err != nil {
		c.errs[p.ID] = err.Error() // the limiter's own message
		return
	}
	delete(c.errs, p.ID)
	ui.SyncSliders(ctx, c.sliders)
}

// param is the field of parameter p, labelled label, at value v; a good
// value goes to set.
func (c *controls) param(label string, p units.Param, v float64, set func(float64) error) app.UI {
	return ui.ParamField{P: p, Label: label, Value: v, Errs: c.errs, Moved: &c.moved, Sliders: &c.sliders,
		OnValue: func(ctx app.Context, x float64) { c.apply(ctx, p, x, set) },
		OnError: func(ctx app.Context, err error) { c.errs[p.ID] = err.Error() },
	}.UI()
}

func (c *controls) onSend(ctx app.Context, e app.Event) { c.Sim.Send(1) }

func (c *controls) onBurst(ctx app.Context, e app.Event) { c.Sim.Send(c.burstN) }

func (c *controls) onBurstN(ctx app.Context, e app.Event) {
	x, err := ParamBurstN.Parse(browser.FieldText(ctx.JSSrc()))
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
	return func(ctx app.Context, e app.Event) { c.Sim.Step(units.Milliseconds(ms)) }
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
	ui.SyncSliders(ctx, c.sliders)
	browser.SetValue(ParamBurstN.ID, strconv.Itoa(c.burstN))
}
