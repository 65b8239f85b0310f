// Command app is the rate limiter playground: a go-app v9 page that drives
// the real limiter package in the browser (GOOS=js GOARCH=wasm), and the
// server that serves it (native build).
package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

func main() {
	routes()
	app.RunWhenOnBrowser()
	// RunWhenOnBrowser never returns in the browser; IsServer is a constant,
	// so the wasm binary carries no server code.
	if !app.IsServer {
		return
	}
	serve()
}
