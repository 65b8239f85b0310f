// Package pages routes each address to its page, for the server's
// pre-rendering and for go-app's routing in the browser.
package pages

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/pages/lab"
	"github.com/ratelab/ratelab/app/pages/learn"
	"github.com/ratelab/ratelab/app/pages/playground"
	"github.com/ratelab/ratelab/app/site"
)

// Routes registers every page (site.Pages) with go-app, and the gallery.
func Routes() {
	app.Route("/", &playground.Page{})
	app.Route("/lab", &lab.Page{})
	app.Route("/learn", &learn.Page{})
	app.Route(site.GalleryPath, &Gallery{})
}
