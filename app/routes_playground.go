//go:build wasm && !page_lab && !page_learn

package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// routes of web/app.wasm: the playground (see pages).
func routes() {
	app.Route("/", &playground{})
	app.Route("/lab", &otherPage{})
	app.Route("/learn", &otherPage{})
}
