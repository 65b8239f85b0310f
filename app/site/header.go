package site

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Header is the top of every page: the logo, the page's heading and
// tagline, the links to the pages (current, a key of pages, marked as the
// one shown), the site tools and the notice of a new build.
func Header(current, heading, tagline string) app.UI {
	return app.Elem("header").Class("top").Body(
		app.ElemSelfClosing("img").Class("logo").Attr("src", "/web/icon.svg").Attr("alt", ""),
		app.Elem("div").Class("top-text").Body(
			app.Elem("h1").Text(heading),
			app.Elem("p").Class("tagline").Text(tagline),
		),
		navLinks(current),
		&Tools{},
		&UpdateNotice{},
	)
}

// navLinks links every page (see pages), current marked as the one shown.
func navLinks(current string) app.UI {
	links := make([]app.UI, len(Pages))
	for i, pg := range Pages {
		a := app.Elem("a").ID("nav-"+pg.Key).Class("nav-link").Attr("href", Href(pg.Path)).Text(pg.Name)
		if pg.Key == current {
			a = a.Class("nav-link on").Attr("aria-current", "page")
		}
		links[i] = a
	}
	return app.Elem("nav").Class("nav").Attr("aria-label", "Pages").Body(links...)
}
