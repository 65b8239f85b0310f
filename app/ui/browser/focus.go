package browser

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// focusByPointer holds unless the focus was last moved with Tab: a mouse or
// touch press sets it, Tab clears it (see TrackFocus). :focus-visible cannot
// tell: Chromium makes a clicked button match it as soon as a key is pressed.
var focusByPointer = true

// TrackFocus keeps focusByPointer; it returns the function that stops it.
func TrackFocus() func() {
	down := app.Window().AddEventListener("pointerdown", func(ctx app.Context, e app.Event) { focusByPointer = true })
	tab := app.Window().AddEventListener("keydown", func(ctx app.Context, e app.Event) {
		if e.Get("key").String() == "Tab" {
			focusByPointer = false
		}
	})
	return func() { down(); tab() }
}

// pressable are the controls Space presses when they have the focus.
const pressable = "button, summary, [role=button], input[type=checkbox], input[type=radio], input[type=button]"

// FocusFirst focuses the first of the elements ids that is on the page and
// enabled.
func FocusFirst(ids ...string) {
	for _, id := range ids {
		if el := app.Window().GetElementByID(id); el.Truthy() && !el.Get("disabled").Truthy() {
			el.Call("focus")
			return
		}
	}
}
