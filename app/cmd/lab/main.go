// Command lab is the lab page's wasm (web/lab.wasm): it routes its own
// page and stands site.OtherPage in for the others.
package main

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/pages/lab"
	"github.com/ratelab/ratelab/app/site"
)

func main() {
	for _, pg := range site.Pages {
		if pg.Key == "lab" {
			app.Route(pg.Path, &lab.Page{})
		} else {
			app.Route(pg.Path, &site.OtherPage{})
		}
	}
	app.RunWhenOnBrowser()
}
