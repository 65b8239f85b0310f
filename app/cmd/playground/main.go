// Command playground is the playground page's wasm (web/app.wasm): it routes its own
// page and stands site.OtherPage in for the others.
package main

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/pages/playground"
	"github.com/ratelab/ratelab/app/site"
)

func main() {
	for _, pg := range site.Pages {
		if pg.Key == "playground" {
			app.Route(pg.Path, &playground.Page{})
		} else {
			app.Route(pg.Path, &site.OtherPage{})
		}
	}
	app.RunWhenOnBrowser()
}
