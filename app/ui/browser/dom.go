package browser

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// ByID is the element with the given id, or a value that is not Truthy
// when the page has none.
func ByID(id string) app.Value { return app.Window().GetElementByID(id) }

// Document is the page's document.
func Document() app.Value { return app.Window().Get("document") }

// Origin is the page's origin ("http://127.0.0.1:8000").
func Origin() string { return app.Window().Get("location").Get("origin").String() }

// Listen adds h as a listener of the window's event, until the returned
// function is called.
func Listen(event string, h app.EventHandler) func() {
	return app.Window().AddEventListener(event, h)
}

// Matches reports whether the media query holds ("(prefers-color-scheme: dark)").
func Matches(query string) bool {
	return app.Window().Call("matchMedia", query).Get("matches").Bool()
}

// InnerHeight is the window's height in CSS pixels.
func InnerHeight() float64 { return app.Window().Get("innerHeight").Float() }

// ScrollWithin scrolls the first element matching box (an element that
// scrolls its own content, such as a pre with overflow: auto) so that its
// descendant matching target starts margin pixels below the box's top; the
// page itself does not move. It reports whether both were found.
func ScrollWithin(box, target string, margin float64) bool {
	b := Document().Call("querySelector", box)
	if !b.Truthy() {
		return false
	}
	t := b.Call("querySelector", target)
	if !t.Truthy() {
		return false
	}
	top := t.Call("getBoundingClientRect").Get("top").Float() - b.Call("getBoundingClientRect").Get("top").Float()
	b.Set("scrollTop", b.Get("scrollTop").Float()+top-margin)
	return true
}

// Box is the top and bottom of the element with this id in the window, in
// CSS px; ok is false when there is no such element (not drawn yet).
func Box(id string) (top, bottom float64, ok bool) {
	el := ByID(id)
	if !el.Truthy() {
		return 0, 0, false
	}
	r := el.Call("getBoundingClientRect")
	return r.Get("top").Float(), r.Get("bottom").Float(), true
}

// ScrollToTop scrolls the page so that the element with this id starts at
// the window's top, or as near as the page's length allows.
func ScrollToTop(id string) {
	if el := ByID(id); el.Truthy() {
		el.Call("scrollIntoView", map[string]any{"block": "start"})
	}
}
