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
	// A button is pressed on keyup: unless the key is the focused
	// element's (typing), Space is ours.
	release := app.Window().AddEventListener("keyup", func(ctx app.Context, e app.Event) {
		if isSpace(e) && !typing(e) {
			e.PreventDefault()
		}
	})
	down, focus := p.releaseKey, trackFocus()
	p.releaseKey = func() { down(); release(); focus() }
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

// typing reports whether the key belongs to the focused element, so Space
// must not send a request: a text or number field, anything in a dialog (the
// shortcuts' help), or a button or check box reached with Tab, which
// Space presses as the help says. A button clicked with the mouse keeps the
// focus, but Space still sends a request after a click on Pause.
func typing(e app.Event) bool {
	t := e.Get("target")
	if !t.Truthy() {
		return false
	}
	if t.Get("closest").Truthy() && t.Call("closest", "[role=dialog]").Truthy() {
		return true
	}
	if !focusByPointer && t.Get("matches").Truthy() && t.Call("matches", pressable).Bool() {
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

// focusByPointer holds unless the focus was last moved with Tab: a mouse or
// touch press sets it, Tab clears it (see trackFocus). :focus-visible cannot
// tell: Chromium makes a clicked button match it as soon as a key is pressed.
var focusByPointer = true

// trackFocus keeps focusByPointer; it returns the function that stops it.
func trackFocus() func() {
	down := app.Window().AddEventListener("pointerdown", func(ctx app.Context, e app.Event) { focusByPointer = true })
	tab := app.Window().AddEventListener("keydown", func(ctx app.Context, e app.Event) {
		if e.Get("key").String() == "Tab" {
			focusByPointer = false
		}
	})
	return func() { down(); tab() }
}

// pressable are the controls Space presses when they have the focus.
const pressable = "button, summary, [role=button], input[type=checkbox], input[type=radio], input[type=button]"

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
