// Command web is the site's wasm (web/app.wasm): every page, routed by
// go-app in the browser, so that moving between pages loads nothing more.
package main

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/pages"
)

func main() {
	pages.Routes()
	app.RunWhenOnBrowser()
}
