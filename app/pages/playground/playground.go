package playground

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/site"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
)

// playground is the page: a header, the controls and the live view. It only
// owns the simulation and the Space key; the controls change the simulation
// and the view redraws it on its own animation loop.
type Page struct {
	app.Compo
	sim        *sim.Playground
	releaseKey func()
	note       string // what the link's query was, ignored (linkNote)
}

func (p *Page) OnInit() {
	if p.sim == nil {
		p.sim = sim.NewPlayground()
	}
}

func (p *Page) OnMount(ctx app.Context) {
	p.releaseKey = browser.Listen("keydown", p.onKeyDown)
	// A button is pressed on keyup: unless the key is the focused
	// element's (typing), Space is ours.
	release := browser.Listen("keyup", func(ctx app.Context, e app.Event) {
		if browser.IsSpace(e) && !browser.Typing(e) {
			e.PreventDefault()
		}
	})
	down, focus := p.releaseKey, browser.TrackFocus()
	p.releaseKey = func() { down(); release(); focus() }
}

func (p *Page) OnDismount() {
	if p.releaseKey != nil {
		p.releaseKey()
	}
}

// onKeyDown sends one request on Space, unless the user is typing in a field.
func (p *Page) onKeyDown(ctx app.Context, e app.Event) {
	if !browser.IsSpace(e) || browser.Typing(e) {
		return
	}
	e.PreventDefault()
	if e.Get("repeat").Bool() {
		return
	}
	p.sim.Send(1)
}

func (p *Page) Render() app.UI {
	return app.Elem("div").Class("page").Body(
		site.Header("playground", "Rate limiter playground", "Send requests to a real token bucket or sliding window log: see each decision, and when to retry."),
		linkNoteUI(p.note),
		app.Elem("main").Class("layout").Body(
			&controls{Sim: p.sim},
			&view{Sim: p.sim},
		),
		&ui.Announcer{Source: p.announce},
		app.Elem("footer").Class("foot").Body(
			app.Text("Decisions come from the ratelab limiter package compiled to WebAssembly; time is a simulated clock you can pause and step. Keyboard: Space sends a request."),
		),
	)
}
