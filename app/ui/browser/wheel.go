package browser

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// wheelGuard is the one wheel listener InstallWheelGuard adds (kept for
// the page's life).
var wheelGuard app.Func

// InstallWheelGuard stops the page's scroll (and the browser's own zoom on
// Ctrl+wheel or a trackpad's pinch) for a wheel event over an element with
// a data-zoom attribute (a zoomable chart) when the chart takes it: with
// Ctrl, ⌘ or Shift held, or while the chart has the focus (see
// ui.WheelZooms; a plain wheel elsewhere still scrolls the page). It must
// be stopped while the browser dispatches the event, in a listener that is
// not passive: go-app's handlers run after the dispatch.
func InstallWheelGuard() {
	if !app.IsClient || wheelGuard != nil {
		return
	}
	wheelGuard = app.FuncOf(func(this app.Value, args []app.Value) any {
		e := args[0]
		t := e.Get("target")
		if !t.Truthy() || !t.Get("closest").Truthy() {
			return nil
		}
		chart := t.Call("closest", "[data-zoom]")
		if !chart.Truthy() {
			return nil
		}
		a := Document().Get("activeElement")
		focused := a.Truthy() && chart.Call("contains", a).Bool()
		if e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() || e.Get("shiftKey").Bool() || focused {
			e.Call("preventDefault")
		}
		return nil
	})
	Document().Call("addEventListener", "wheel", wheelGuard, map[string]any{"capture": true, "passive": false})
}
