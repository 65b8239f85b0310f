package lab

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/site"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
)

// lab is the comparison lab page (/lab): many strategies, one stream of
// requests. It only owns the model, the link and the Space key; the
// controls change the model and the lanes view redraws it on its own
// animation loop.
type Page struct {
	app.Compo
	m          *labModel
	releaseKey func()
	navigated  bool // OnNav has run
	// setupOpen shows the setup column on a narrow screen, where the lab
	// opens on its lanes with the setup behind its button; a wide screen
	// shows it beside the lanes whatever this says.
	setupOpen bool
}

// narrowLab is the widths at which the setup column goes above the lanes
// (web/app.css's .lab-layout) and so starts closed.
const narrowLab = "(max-width: 1000px)"

func (p *Page) OnInit() {
	if p.m == nil {
		p.m = newLabModel()
	}
}

// OnNav restores the setup from the link: every part that is wrong falls
// back to its default and is listed in the banner.
func (p *Page) OnNav(ctx app.Context) {
	headOnNav(ctx)
	first := !p.navigated
	p.navigated = true
	if first && ctx.Page().URL().RawQuery == "" {
		// The default setup, which OnInit built and the page was first
		// drawn from: building it again would redraw the controls for
		// nothing while the page starts.
		return
	}
	q, err := sim.ParseLink(ctx.Page().URL().RawQuery)
	p.m.loadSetup(q)
	if err != nil {
		// ParseLink skips what it cannot read (a bad %-escape) and keeps
		// the rest: say so rather than drop it silently.
		p.m.linkErrs = append(p.m.linkErrs, "link: "+err.Error()+"; that part was ignored")
	}
	nasa := p.m.lab.Setup().Trace == "" && q.Get("trace") == "nasa"
	p.m.openClock(q, nasa)
	if nasa {
		loadNASA(ctx, p.m, false) // the link's clients stay as they are
	}
}

func (p *Page) OnMount(ctx app.Context) {
	down := browser.Listen("keydown", func(ctx app.Context, e app.Event) {
		if !browser.IsSpace(e) || browser.Typing(e) {
			return
		}
		e.PreventDefault()
		if !e.Get("repeat").Bool() {
			p.m.fire(1)
		}
	})
	up := browser.Listen("keyup", func(ctx app.Context, e app.Event) {
		if browser.IsSpace(e) && !browser.Typing(e) {
			e.PreventDefault()
		}
	})
	focus := browser.TrackFocus()
	p.releaseKey = func() { down(); up(); focus() }
	// Opened wide, the setup stays open when the window narrows.
	p.setupOpen = !browser.Matches(narrowLab)
}

func (p *Page) OnDismount() {
	if p.releaseKey != nil {
		p.releaseKey()
	}
}

func (p *Page) Render() app.UI {
	return app.Elem("div").Class("page lab-page").Body(
		site.Header("lab", "Comparison lab", "Line up rate-limiting strategies, send them the identical stream of requests, and see every difference."),
		app.If(len(p.m.linkErrs) > 0,
			app.Elem("div").ID("link-errors").Class("banner").Role("alert").Body(
				app.Elem("strong").Text("This link had problems; those parts use their defaults:"),
				app.Elem("ul").Body(app.Range(p.m.linkErrs).Slice(func(i int) app.UI {
					return app.Elem("li").Text(p.m.linkErrs[i])
				})),
			),
		),
		p.setupButton(),
		app.Elem("main").Class(layoutClass(p.setupOpen)).Body(
			app.Elem("div").ID("lab-setup").Class("lab-setup").Body(&labControls{M: p.m, Loads: p.m.loads}),
			&labLanes{M: p.m},
		),
		app.Elem("footer").Class("foot").Body(
			app.Text("Every lane is a real strategy from the ratelab limiter package, compiled to WebAssembly, fed exactly the same requests on a simulated clock. Keyboard: Space sends a request."),
		),
	)
}

// loadNASA fetches the built-in trace from this server and replays it with
// the clients' traffic (the run starts over); with quiet, clients with
// generated traffic then send only on clicks (see quietClients).
func loadNASA(ctx app.Context, m *labModel, quiet bool) {
	m.traceLabel = "loading " + nasaLabel + "…"
	m.changed()
	browser.FetchText(ctx.ResolveStaticResource(nasaURL), func(text string, err error) {
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				m.setErr("trace", err)
				m.traceLabel = ""
				m.openAt()
				m.changed()
				return
			}
			t, err := sim.ParseTrace("nasa", []byte(text))
			if err == nil {
				m.live()
				if err = m.lab.SetTrace("nasa", t); err == nil && quiet {
					m.quietClients()
				}
			}
			if m.setErr("trace", err) {
				m.traceLabel, m.traceInfo = nasaLabel+" ("+units.Plural(len(t.Events), "request")+", "+units.Plural(len(t.Clients), "client")+")", nasaSource
			} else {
				m.traceLabel = ""
			}
			m.openAt() // the instant the link asked for, now that its trace is here
			m.changed()
		})
	})
}

// setupButton opens and closes the setup column on a narrow screen (web/layout.css
// shows it there only), so that the lab opens on its lanes.
func (p *Page) setupButton() app.UI {
	text := "▸ Setup: lanes, traffic, presets, share"
	if p.setupOpen {
		text = "▾ Hide the setup"
	}
	return app.Elem("button").ID("setup-toggle").Class("btn setup-toggle").
		Attr("aria-expanded", p.setupOpen).Attr("aria-controls", "lab-setup").Text(text).
		OnClick(func(ctx app.Context, e app.Event) { p.setupOpen = !p.setupOpen })
}

// layoutClass is the lab's columns' class: with the setup open or not.
func layoutClass(setupOpen bool) string {
	if setupOpen {
		return "lab-layout setup-open"
	}
	return "lab-layout"
}
