package site

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// otherPage stands, in one page's binary, for the routes of the other pages.
// go-app follows links within one binary; following one to another page
// reloads the new address, so its HTML and its own binary load instead.
type OtherPage struct {
	app.Compo
	stuck bool   // the reload brought this binary back: do not loop
	path  string // the address's path
}

// reloadKey holds, in the tab's session storage, the address otherPage last
// reloaded. Finding it equal to the address to load means the reload came
// back to a binary that does not route it (app.js picked the wrong one), and
// a second reload would loop forever.
const ReloadKey = "ratelab-reload"

// OnNav runs once the new address is in the history: load it afresh.
func (o *OtherPage) OnNav(ctx app.Context) {
	u := ctx.Page().URL().String()
	o.path = ctx.Page().URL().Path
	var last string
	if err := ctx.SessionStorage().Get(ReloadKey, &last); err == nil && last == u {
		ctx.SessionStorage().Del(ReloadKey)
		o.stuck = true
		return
	}
	o.stuck = false
	if err := ctx.SessionStorage().Set(ReloadKey, u); err != nil {
		// Without storage there is no loop guard: show the link instead.
		o.stuck = true
		return
	}
	app.Window().Get("location").Call("reload")
}

func (o *OtherPage) Render() app.UI {
	if !o.stuck {
		return app.Elem("main").ID("other-page").Body(app.Elem("p").Text("Loading…"))
	}
	var links []app.UI
	for _, pg := range Pages {
		if pg.Path != o.path { // a link to this very address would do nothing
			links = append(links, app.Elem("li").Body(app.Elem("a").Attr("href", pg.Path).Text(pg.Name)))
		}
	}
	return app.Elem("main").ID("other-page").Class("other-page").Body(
		app.Elem("h1").Text("This page did not load"),
		app.Elem("p").Text("This address is served by another part of the playground, which did not load here."),
		app.Elem("p").Body(app.Elem("button").ID("other-page-retry").Class("btn primary").Text("Load this page again").
			OnClick(func(app.Context, app.Event) { app.Window().Get("location").Call("reload") })),
		app.Elem("p").Text("Or open another page:"),
		app.Elem("ul").Body(links...),
	)
}
