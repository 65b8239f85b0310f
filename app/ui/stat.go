package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

func Stat(label string, value app.UI) app.UI {
	return app.Elem("div").Class("stat").Body(app.Elem("div").Class("stat-label").Text(label), app.Elem("div").Class("stat-value").Body(value))
}
