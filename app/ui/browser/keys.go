package browser

import (
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// keyGuard is the one listener InstallKeyGuard adds (kept for the page's
// life).
var keyGuard app.Func

// InstallKeyGuard stops the browser's own action for the keys an element
// lists in its data-keys attribute ("Enter", "ArrowLeft ArrowRight Home
// End"), for the elements whose handlers act on those keys themselves. It
// must be stopped while the browser dispatches the key: go-app runs event
// handlers after that dispatch, where PreventDefault comes too late (the
// timeline's arrows would also move its range input, an arrow on a
// lesson's mark would scroll the page, Enter on "+ Add a lane…" would open
// its list). A function from app.FuncOf runs during the dispatch.
func InstallKeyGuard() {
	if !app.IsClient || keyGuard != nil {
		return
	}
	keyGuard = app.FuncOf(func(this app.Value, args []app.Value) any {
		e := args[0]
		ks := e.Get("target").Get("dataset").Get("keys")
		if ks.Truthy() && slices.Contains(strings.Fields(ks.String()), e.Get("key").String()) {
			e.Call("preventDefault")
		}
		return nil
	})
	doc := app.Window().Get("document")
	doc.Call("addEventListener", "keydown", keyGuard, true)
	doc.Call("addEventListener", "keypress", keyGuard, true) // Enter on a select opens its list on keypress too
}

// IsSpace reports whether the key event is the Space bar.
func IsSpace(e app.Event) bool {
	return e.Get("code").String() == "Space" || e.Get("key").String() == " "
}

// Typing reports whether the key belongs to the focused element, so Space
// must not send a request: a text or number field, anything in a dialog (the
// shortcuts' help), or a button or check box reached with Tab, which
// Space presses as the help says. A button clicked with the mouse keeps the
// focus, but Space still sends a request after a click on Pause.
func Typing(e app.Event) bool {
	t := e.Get("target")
	if !t.Truthy() {
		return false
	}
	if t.Get("closest").Truthy() && t.Call("closest", "[role=dialog]").Truthy() {
		return true
	}
	if !focusByPointer && t.Get("matches").Truthy() && t.Call("matches", pressable).Bool() {
		return true
	}
	switch t.Get("tagName").String() {
	case "TEXTAREA", "SELECT":
		return true
	case "INPUT":
		typ := t.Get("type").String()
		return typ != "range" && typ != "checkbox" && typ != "button"
	}
	return false
}
