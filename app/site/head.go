package site

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// SetHead sets the document's title and description to those of the page
// at path (see Pages).
func SetHead(ctx app.Context, path string) {
	for _, pg := range Pages {
		if pg.Path == path {
			ctx.Page().SetTitle(pg.Title)
			ctx.Page().SetDescription(pg.About)
		}
	}
}
