// Package browser is the pages' only way to the browser's JavaScript
// APIs and the DOM: fetch, file read, download, clipboard, keys, focus and
// fields. Off the browser (native tests) each call does nothing or fails.
package browser

import (
	"errors"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// FetchText GETs url from the page's own server and calls done with the
// body, off the UI goroutine (dispatch from done). Off the browser it fails.
func FetchText(url string, done func(string, error)) {
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
