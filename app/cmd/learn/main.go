// Command learn is the learn page's wasm (web/learn.wasm): it routes its own
// page and stands site.OtherPage in for the others.
package main

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/pages/learn"
	"github.com/ratelab/ratelab/app/site"
)

func main() {
	for _, pg := range site.Pages {
		if pg.Key == "learn" {
			app.Route(pg.Path, &learn.Page{})
		} else {
			app.Route(pg.Path, &site.OtherPage{})
		}
	}
	app.RunWhenOnBrowser()
}
