package site

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/ui/browser"
)

// themeKey is the local-storage key of the chosen theme ("light", "dark").
const themeKey = "ratelab-theme"

// Tools is the header's theme toggle and keyboard-help button, and the
// help overlay: `?` opens it, Escape closes it. Every page mounts one.
type Tools struct {
	app.Compo

	open    bool
	dark    bool
	present bool // presenting mode (see setPresent)
	release func()
	opener  app.Value   // focused element when the overlay opened
	mctx    app.Context // this component's context, from OnMount
}

func (t *Tools) OnMount(ctx app.Context) {
	if !app.IsClient {
		return
	}
	var theme string
	ctx.LocalStorage().Get(themeKey, &theme)
	switch theme {
	case "dark", "light":
		t.dark = theme == "dark"
	default:
		t.dark = browser.Matches("(prefers-color-scheme: dark)")
	}
	applyTheme(theme)
	// Presenting mode lasts as long as the document: a page reached by a
	// link keeps it.
	t.present = browser.Document().Get("documentElement").Call("hasAttribute", presentAttr).Bool()
	t.mctx = ctx
	t.release = browser.Listen("keydown", t.onKey)
}

func (t *Tools) OnDismount() {
	if t.release != nil {
		t.release()
	}
}

// applyTheme sets data-theme on <html>; "" follows prefers-color-scheme.
func applyTheme(theme string) {
	if !app.IsClient {
		return
	}
	root := browser.Document().Get("documentElement")
	if theme == "" {
		root.Call("removeAttribute", "data-theme")
		return
	}
	root.Call("setAttribute", "data-theme", theme)
}

func (t *Tools) onKey(ctx app.Context, e app.Event) {
	key := e.Get("key").String()
	// The window listener's context belongs to the page, which skips this
	// component when it re-renders; dispatch on this component's own
	// context so that it re-renders and then runs the focus change. (No
	// ctx.PreventUpdate here: in a window listener go-app v9.8.0 records it
	// for a nil component and the next frame panics.)
	switch {
	case key == "Escape" && t.open:
		e.PreventDefault()
		t.mctx.Dispatch(t.close)
	case key == "Tab" && t.open:
		// The dialog is modal and Close is its only control: Tab and
		// Shift+Tab stay on it rather than reach the page behind.
		e.PreventDefault()
		if el := browser.ByID("help-close"); el.Truthy() {
			el.Call("focus")
		}
	case (key == "p" || key == "P") && !typingLetters(e) && plainKey(e):
		e.PreventDefault()
		t.mctx.Dispatch(func(ctx app.Context) { t.setPresent(!t.present) })
	case key == "?" && !browser.Typing(e) && plainKey(e):
		e.PreventDefault()
		if t.open {
			t.mctx.Dispatch(t.close)
		} else {
			t.mctx.Dispatch(t.show)
		}
	}
}

func (t *Tools) show(ctx app.Context) {
	t.open = true
	t.opener = browser.Document().Get("activeElement")
	ctx.Defer(func(app.Context) {
		if el := browser.ByID("help-close"); el.Truthy() {
			el.Call("focus")
		}
	})
}

func (t *Tools) close(ctx app.Context) {
	t.open = false
	opener := t.opener
	ctx.Defer(func(app.Context) {
		if opener != nil && opener.Truthy() {
			opener.Call("focus")
		}
	})
}

func (t *Tools) onTheme(ctx app.Context, e app.Event) {
	t.dark = !t.dark
	theme := "light"
	if t.dark {
		theme = "dark"
	}
	ctx.LocalStorage().Set(themeKey, theme)
	applyTheme(theme)
}

// plainKey reports whether the key came without Ctrl, Meta or Alt (a
// browser's or the system's shortcut).
func plainKey(e app.Event) bool {
	return !e.Get("ctrlKey").Bool() && !e.Get("metaKey").Bool() && !e.Get("altKey").Bool()
}

// typingLetters reports whether a letter key belongs to the focused element:
// a field that takes text, a menu (which jumps to an option by its first
// letter), or anything in a dialog. A focused button does not take letters
// (browser.Typing, for Space, counts it).
func typingLetters(e app.Event) bool {
	t := e.Get("target")
	if !t.Truthy() || !t.Get("closest").Truthy() {
		return false
	}
	if t.Call("closest", "[role=dialog]").Truthy() || t.Get("isContentEditable").Bool() {
		return true
	}
	switch t.Get("tagName").String() {
	case "TEXTAREA", "SELECT":
		return true
	case "INPUT":
		switch t.Get("type").String() {
		case "range", "checkbox", "radio", "button", "submit", "reset", "file", "color":
			return false
		}
		return true
	}
	return false
}

// presentAttr is the attribute on <html> that turns presenting mode on
// (web/layout.css): the clock, the lanes, the counters and the decisions
// drawn large for a room, a projector of 1024 × 768 at the back.
const presentAttr = "data-present"

// setPresent turns presenting mode on or off.
func (t *Tools) setPresent(on bool) {
	t.present = on
	if !app.IsClient {
		return
	}
	root := browser.Document().Get("documentElement")
	if on {
		root.Call("setAttribute", presentAttr, "")
	} else {
		root.Call("removeAttribute", presentAttr)
	}
}

func (t *Tools) Render() app.UI {
	themeText := "☾ Dark theme"
	if t.dark {
		themeText = "☀ Light theme"
	}
	var overlay app.UI // built only when open: app.If would build it on every render
	if t.open {
		overlay = t.overlay()
	}
	return app.Elem("div").Class("tools").Body(
		app.Elem("button").ID("theme-toggle").Class("btn icon").Attr("aria-pressed", t.dark).
			Title("Switch between the light and dark themes (remembered on this device)").Text(themeText).OnClick(t.onTheme),
		app.Elem("button").ID("present-toggle").Class("btn icon toggle").Attr("aria-pressed", t.present).
			Title("Presenting mode: the clock, lanes and counters large, for a room (press P)").Text("Present").
			OnClick(func(ctx app.Context, e app.Event) { t.setPresent(!t.present) }),
		app.Elem("button").ID("help-open").Class("btn icon").Attr("aria-haspopup", "dialog").Title("Keyboard shortcuts (press ?)").
			Text("? Shortcuts").OnClick(func(ctx app.Context, e app.Event) { t.show(ctx) }),
		overlay,
	)
}

// shortcuts are the keys the help overlay lists.
var shortcuts = [][2]string{
	{"?", "open or close this help"},
	{"Esc", "close this help, or the inspector"},
	{"Space", "send one request (playground and comparison lab), unless a button you reached with Tab has the focus"},
	{"Tab / Shift+Tab", "move between controls; a lesson lane's marks, or a lab lane's chart, is one stop"},
	{"Enter", "on a focused request mark (✓ / ✕): open the inspector that explains it"},
	{"Enter / Space", "press the button you reached with Tab"},
	{"← →", "change the focused slider; move between request marks (lessons, lab charts); move the lab's timeline by 100 ms; in the quiz, pick allowed or denied"},
	{"Home / End", "first or last request mark of a lesson lane or a lab chart"},
	{"PgUp / PgDn", "Page Up / Page Down: move the lab's timeline by 1 s"},
	{"P", "presenting mode on or off: the clock, the lab's lanes, the counters and the decisions large, for a room"},
	{"+ / − / 0", "on a focused time axis or chart (lab lanes, playground timeline): zoom in, zoom out, fit the whole axis (down to 1 ms = 20 px; the lab's lanes zoom together)"},
	{"Shift+← → / Ctrl+wheel", "pan a zoomed lab lane (← → alone on the lab's axis and the playground's timeline); Ctrl+wheel or a pinch zooms about the pointer, Shift+wheel pans"},
}

func (t *Tools) overlay() app.UI {
	return app.Elem("div").ID("help").Class("overlay").Body(
		app.Elem("div").Class("dialog card").Role("dialog").Attr("aria-modal", true).Attr("aria-labelledby", "help-title").Body(
			app.Elem("div").Class("insp-head").Body(
				app.Elem("h2").ID("help-title").Text("Keyboard shortcuts"),
				app.Elem("button").ID("help-close").Class("btn icon").Text("✕ Close (Esc)").
					OnClick(func(ctx app.Context, e app.Event) { t.close(ctx) }),
			),
			app.Elem("dl").ID("help-keys").Class("keys").Body(
				app.Range(shortcuts).Slice(func(i int) app.UI {
					return app.Elem("div").Class("key-row").Body(
						app.Elem("dt").Body(app.Elem("kbd").Text(shortcuts[i][0])),
						app.Elem("dd").Text(shortcuts[i][1]),
					)
				}),
			),
			app.Elem("p").Class("hint").Text("Decisions are told by shape and text as well as colour: ✓ allowed, ✕ denied. A screen reader hears the latest decision, at most once a second."),
			app.If(Build() != "", app.Elem("p").ID("build-id").Class("hint").Text("Build "+Build())),
		),
	)
}
