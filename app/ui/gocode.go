package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/ui/browser"
)

// GoCode is "Copy as Go" for one limit (a lab lane, the playground's
// limiter): a button that copies a complete main.go serving a hello handler
// behind limiter/httplimit with exactly that limit, and the code itself
// under a disclosure, to read or select by hand.
type GoCode struct {
	app.Compo
	// ID prefixes the element ids: ID, ID-copy, ID-code, ID-err.
	ID    string
	Setup explain.GoSetup

	copied string // the program last copied ("" when none)
	err    string // why copying failed
}

func (g *GoCode) Render() app.UI {
	code := explain.GoProgram(g.Setup)
	label := "Copy as Go"
	if g.copied == code {
		label = "Copied main.go ✓"
	}
	about := "A complete main.go: a hello handler behind limiter/httplimit with exactly this limit, one limiter per client IP address."
	if len(g.Setup.Tiers) > 0 {
		about = "A complete main.go: a hello handler behind limiter/httplimit with exactly this limit, one limiter per API key (header X-API-Key), each tier's limit from the factory."
	}
	return app.Elem("details").ID(g.ID).Class("go-code").Body(
		app.Elem("summary").Text("Go code"),
		app.Elem("p").Class("small").Text(about),
		app.Elem("button").ID(g.ID+"-copy").Class("btn").Text(label).OnClick(g.onCopy),
		app.If(g.err != "", app.Elem("p").ID(g.ID+"-err").Class("error").Attr("role", "alert").Text(g.err)),
		app.Elem("pre").ID(g.ID+"-code").Class("code small").Text(code),
	)
}

// onCopy puts the program on the clipboard, or says why it could not.
func (g *GoCode) onCopy(ctx app.Context, e app.Event) {
	code := explain.GoProgram(g.Setup)
	browser.CopyText(code, func(err error) {
		ctx.Dispatch(func(app.Context) {
			if err != nil {
				g.copied, g.err = "", "The browser did not let the page copy ("+err.Error()+"); select the code below and copy it."
				return
			}
			g.copied, g.err = code, ""
		})
	})
}
