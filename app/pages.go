package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// The three pages are three wasm binaries, so that a page downloads only its
// own code: the playground's binary has none of the lab's or the lessons'.
// `make build` builds each with its tag (routes_*.go); the server (built
// natively, with every route, for go-app's pre-rendering) tells app.js which
// binary to fetch for the path it is on (see pageWasmJS in server.go).
var pages = []struct {
	path string // the route
	wasm string // the binary that runs it, under web/
	tag  string // the build tag that selects its routes_*.go
}{
	{"/", "/web/app.wasm", ""},
	{"/lab", "/web/lab.wasm", "page_lab"},
	{"/learn", "/web/learn.wasm", "page_learn"},
}

// otherPage stands, in one page's binary, for the routes of the other pages.
// go-app follows links within one binary; following one to another page
// reloads the new address, so its HTML and its own binary load instead.
type otherPage struct{ app.Compo }

// OnNav runs once the new address is in the history: load it afresh.
func (o *otherPage) OnNav(app.Context) {
	app.Window().Get("location").Call("reload")
}

func (o *otherPage) Render() app.UI {
	return app.Main().ID("other-page").Body(app.P().Text("Loading…"))
}
