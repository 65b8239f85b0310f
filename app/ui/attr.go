package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// BoolAttr sets the boolean attribute name (disabled, selected) only while
// on holds. go-app writes a false one into the pre-rendered page as
// name="false", which HTML reads as present: until the wasm ran, buttons
// showed disabled and every select its last option. Taken away, go-app
// removes the attribute, which clears the property too.
func BoolAttr(e app.HTMLElem, name string, on bool) app.HTMLElem {
	if on {
		return e.Attr(name, true)
	}
	return e
}
