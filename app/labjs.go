package main

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// fetchText GETs url from the page's own server and calls done with the
// body, off the UI goroutine (dispatch from done). Off the browser it fails.
func fetchText(url string, done func(string, error)) {
	if !app.IsClient {
		done("", errors.New("fetch: not in a browser"))
		return
	}
	var first, ok, fail app.Func
	release := func() { first.Release(); ok.Release(); fail.Release() }
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		defer release()
		done(args[0].String(), nil)
		return nil
	})
	fail = app.FuncOf(func(this app.Value, args []app.Value) any {
		defer release()
		done("", errors.New("could not load "+url+": "+args[0].Call("toString").String()))
		return nil
	})
	// Callbacks return nothing to JS: a Go app.Value cannot be returned.
	first = app.FuncOf(func(this app.Value, args []app.Value) any {
		r := args[0]
		if !r.Get("ok").Bool() {
			defer release()
			done("", errors.New("could not load "+url+": HTTP "+strconv.Itoa(r.Get("status").Int())))
			return nil
		}
		r.Call("text").Call("then", ok).Call("catch", fail)
		return nil
	})
	app.Window().Call("fetch", url).Call("then", first).Call("catch", fail)
}

// readFile reads the first file of an <input type=file> and calls done with
// its name and its bytes as they are (off the UI goroutine). Not File.text:
// it decodes as UTF-8 and replaces what is not with U+FFFD, so a Latin-1
// "José" and "Josè" would both arrive as "Jos\ufffd", one client.
func readFile(input app.Value, done func(name string, data []byte)) {
	files := input.Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	f := files.Index(0)
	name := f.Get("name").String()
	var ok app.Func
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		defer ok.Release()
		u8 := app.Window().Get("Uint8Array").New(args[0])
		data := make([]byte, u8.Length())
		app.CopyBytesToGo(data, u8)
		done(name, data)
		return nil
	})
	f.Call("arrayBuffer").Call("then", ok)
}

// download saves text as a file through a Blob URL and returns the URL
// (kept for the "download again" link).
func download(name, mime, text string) string {
	if !app.IsClient {
		return ""
	}
	w := app.Window()
	blob := w.Get("Blob").New([]any{text}, map[string]any{"type": mime})
	url := w.Get("URL").Call("createObjectURL", blob).String()
	a := w.Get("document").Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	w.Get("document").Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	return url
}

// copyText puts text on the clipboard and then calls done, outside the UI
// goroutine, with nil or the browser's refusal (a page without the
// Clipboard API, a denied permission).
func copyText(text string, done func(error)) {
	if !app.IsClient {
		done(errors.New("no browser"))
		return
	}
	cb := app.Window().Get("navigator").Get("clipboard")
	if !cb.Truthy() {
		done(errors.New("this page has no clipboard access"))
		return
	}
	var ok, fail app.Func
	release := func() { ok.Release(); fail.Release() }
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		release()
		done(nil)
		return nil
	})
	fail = app.FuncOf(func(this app.Value, args []app.Value) any {
		release()
		msg := "refused"
		if len(args) > 0 && args[0].Truthy() {
			msg = args[0].Get("name").String() // NotAllowedError: its message repeats the call
		}
		done(errors.New(msg))
		return nil
	})
	cb.Call("writeText", text).Call("then", ok, fail)
}

func plural(n int, what string) string {
	s := strconv.Itoa(n) + " " + what
	if n != 1 {
		s += "s"
	}
	return s
}

// keyGuard is the one listener installKeyGuard adds (kept for the page's
// life).
var keyGuard app.Func

// installKeyGuard stops the browser's own action for the keys an element
// lists in its data-keys attribute ("Enter", "ArrowLeft ArrowRight Home
// End"), for the elements whose handlers act on those keys themselves. It
// must be stopped while the browser dispatches the key: go-app runs event
// handlers after that dispatch, where PreventDefault comes too late. So
// the timeline moved 1 ms with each arrow besides the handler's 100 ms (a
// race that sometimes lost a step), an arrow on a lesson's mark scrolled
// the page, and Enter on "+ Add a lane…" opened its list, which then took
// the next keys. A function from app.FuncOf runs during the dispatch.
func installKeyGuard() {
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
