//go:build !wasm

package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// routes: the server pre-renders every page.
func routes() {
	app.Route("/", &playground{})
	app.Route("/lab", &lab{})
	app.Route("/learn", &learn{})
}

// Each page sets the document's title and description of its entry in pages
// in the HTML the server pre-renders (go-app calls OnPreRender on the server
// only, so the wasm carries none of this).
func (p *playground) OnPreRender(ctx app.Context) { pageHead(ctx, "/") }
func (p *lab) OnPreRender(ctx app.Context)        { pageHead(ctx, "/lab") }
func (p *learn) OnPreRender(ctx app.Context)      { pageHead(ctx, "/learn") }

func pageHead(ctx app.Context, path string) {
	for _, pg := range pages {
		if pg.path == path {
			ctx.Page().SetTitle(pg.title)
			ctx.Page().SetDescription(pg.about)
		}
	}
}
