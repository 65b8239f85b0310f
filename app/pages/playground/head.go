package playground

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/site"
)

// OnPreRender gives the pre-rendered page its own title and description
// (go-app calls it on the server only); headOnNav does it on every
// navigation in the browser, where go-app keeps the previous page's.
func (p *Page) OnPreRender(ctx app.Context) { site.SetHead(ctx, "/") }

func headOnNav(ctx app.Context) { site.SetHead(ctx, "/") }

// OnNav sets the document's head for this page, and reads its link: the
// playground takes nothing from it, and says so (linkNote).
func (p *Page) OnNav(ctx app.Context) {
	headOnNav(ctx)
	p.note = linkNote(ctx.Page().URL().RawQuery)
}
