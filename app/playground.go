package main

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// playground is the page: a header, the controls and the live view. It only
// owns the simulation and the Space key; the controls change the simulation
// and the view redraws it on its own animation loop.
type playground struct {
	app.Compo
	sim        *Sim
	releaseKey func()
}

func (p *playground) OnInit() {
	if p.sim == nil {
		p.sim = NewSim()
	}
}

func (p *playground) OnMount(ctx app.Context) {
	p.releaseKey = app.Window().AddEventListener("keydown", p.onKeyDown)
	// The button that Space would press is activated on keyup; Space is ours.
	release := app.Window().AddEventListener("keyup", func(ctx app.Context, e app.Event) {
		if isSpace(e) && !typing(e) {
			e.PreventDefault()
		}
	})
	down := p.releaseKey
	p.releaseKey = func() { down(); release() }
}

func (p *playground) OnDismount() {
	if p.releaseKey != nil {
		p.releaseKey()
	}
}

// onKeyDown sends one request on Space, unless the user is typing in a field.
func (p *playground) onKeyDown(ctx app.Context, e app.Event) {
	if !isSpace(e) || typing(e) {
		return
	}
	e.PreventDefault()
	if e.Get("repeat").Bool() {
		return
	}
	p.sim.Send(1)
}

func isSpace(e app.Event) bool {
	return e.Get("code").String() == "Space" || e.Get("key").String() == " "
}

// typing reports whether the key went to a text or number field, or into a
// dialog (the shortcuts' help), whose buttons Space and Enter press.
func typing(e app.Event) bool {
	t := e.Get("target")
	if !t.Truthy() {
		return false
	}
	if t.Get("closest").Truthy() && t.Call("closest", "[role=dialog]").Truthy() {
		return true
	}
	switch t.Get("tagName").String() {
	case "TEXTAREA", "SELECT":
		return true
	case "INPUT":
		typ := t.Get("type").String()
		return typ != "range" && typ != "checkbox" && typ != "button"
	}
	return false
}

func (p *playground) Render() app.UI {
	return app.Elem("div").Class("page").Body(
		pageHeader("playground", "Rate limiter playground", "Send requests to a real token bucket or sliding window log and watch each decision: allowed or denied, and when to retry."),
		app.Elem("main").Class("layout").Body(
			&controls{Sim: p.sim},
			&view{Sim: p.sim},
		),
		&announcer{Source: p.announce},
		app.Elem("footer").Class("foot").Body(
			app.Text("Decisions come from the ratelab limiter package compiled to WebAssembly; time is a simulated clock you can pause and step. Keyboard: Space sends a request."),
		),
	)
}
