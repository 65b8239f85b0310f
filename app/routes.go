//go:build !wasm

package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// routes: the server pre-renders every page.
func routes() {
	app.Route("/", &playground{})
	app.Route("/lab", &lab{})
	app.Route("/learn", &learn{})
}
