//go:build wasm && page_learn

package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// routes of web/learn.wasm: lessons, quiz and drill cards (see pages).
func routes() {
	app.Route("/", &otherPage{})
	app.Route("/lab", &otherPage{})
	app.Route("/learn", &learn{})
}
