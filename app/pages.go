package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// The pages build their HTML with app.Elem("div") and app.ElemSelfClosing("input")
// rather than go-app's typed constructors (app.Div, app.Input, ...): each typed
// element is its own Go type with its own copy of go-app's element methods
// (~5 KB of wasm each), while Elem's are shared by every tag. Setters only the
// typed elements have become .Attr("href", v), .Attr("step", 1.0) and so on,
// with the same value and Go type, so the rendered attributes are unchanged.
// Measured, gzip -9 (KB): playground 2088 → 2043, lab 2366 → 2295, learn
// 2286 → 2218, i.e. 45, 71 and 68 KB less per page.

// The three pages are three wasm binaries, so that a page downloads only its
// own code: the playground's binary has none of the lab's or the lessons'.
// `make build` builds the playground by default and the others with the tags
// page_lab and page_learn (routes_*.go); the server (built natively, with
// every route, for go-app's pre-rendering) puts in each page's head a script
// that picks the binary for the path it is on and starts compiling it (see
// startWasmJS in server.go).
var pages = []struct {
	key   string // the navigation link's id is "nav-" + key
	path  string // the route
	wasm  string // the binary that runs it, under web/
	name  string // as the navigation names it
	title string // the document's title (tabs, history, bookmarks)
	about string // its meta description
}{
	{"playground", "/", "/web/app.wasm", "Playground",
		"Rate limiter playground: token bucket and sliding window log",
		"Drive a real token bucket and sliding window log in the browser and watch them decide."},
	{"lab", "/lab", "/web/lab.wasm", "Comparison lab",
		"Comparison lab: rate-limiting strategies side by side",
		"Six rate-limiting strategies fed the same requests: fixed window, sliding window log and counter, token bucket, leaky bucket, GCRA."},
	{"learn", "/learn", "/web/learn.wasm", "Learn",
		"Learn rate limiting: lessons, inspector, quiz and drill cards",
		"Guided lessons on rate-limiting algorithms, an inspector that works out each decision, a quiz and interview drill cards."},
}

// otherPage stands, in one page's binary, for the routes of the other pages.
// go-app follows links within one binary; following one to another page
// reloads the new address, so its HTML and its own binary load instead.
type otherPage struct {
	app.Compo
	stuck bool   // the reload brought this binary back: do not loop
	path  string // the address's path
}

// reloadKey holds, in the tab's session storage, the address otherPage last
// reloaded. Finding it equal to the address to load means the reload came
// back to a binary that does not route it (app.js picked the wrong one), and
// a second reload would loop forever.
const reloadKey = "ratelab-reload"

// OnNav runs once the new address is in the history: load it afresh.
func (o *otherPage) OnNav(ctx app.Context) {
	u := ctx.Page().URL().String()
	o.path = ctx.Page().URL().Path
	var last string
	if err := ctx.SessionStorage().Get(reloadKey, &last); err == nil && last == u {
		ctx.SessionStorage().Del(reloadKey)
		o.stuck = true
		return
	}
	o.stuck = false
	if err := ctx.SessionStorage().Set(reloadKey, u); err != nil {
		// Without storage there is no loop guard: show the link instead.
		o.stuck = true
		return
	}
	app.Window().Get("location").Call("reload")
}

func (o *otherPage) Render() app.UI {
	if !o.stuck {
		return app.Elem("main").ID("other-page").Body(app.Elem("p").Text("Loading…"))
	}
	var links []app.UI
	for _, pg := range pages {
		if pg.path != o.path { // a link to this very address would do nothing
			links = append(links, app.Elem("li").Body(app.Elem("a").Attr("href", pg.path).Text(pg.name)))
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
