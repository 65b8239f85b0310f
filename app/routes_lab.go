//go:build wasm && page_lab

package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// routes of web/lab.wasm: the comparison lab (see pages).
func routes() {
	app.Route("/", &otherPage{})
	app.Route("/lab", &lab{})
	app.Route("/learn", &otherPage{})
}
