package browser

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// CacheNames calls done, off the UI goroutine (dispatch from done), with
// the names of the origin's Cache Storage caches (the service worker's).
// Off the browser, or where the page has no Cache Storage (not a secure
// context), done is not called.
func CacheNames(done func([]string)) {
	if !app.IsClient || !app.Window().Get("caches").Truthy() {
		return
	}
	var ok app.Func
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		defer ok.Release()
		names := make([]string, args[0].Length())
		for i := range names {
			names[i] = args[0].Index(i).String()
		}
		done(names)
		return nil
	})
	app.Window().Get("caches").Call("keys").Call("then", ok)
}

// OnWorkerChange calls f, off the UI goroutine, each time another service
// worker takes control of the page (a new build's worker claiming it),
// until release is called. Off the browser, or without service workers,
// it does nothing.
func OnWorkerChange(f func()) (release func()) {
	if !app.IsClient {
		return func() {}
	}
	sw := app.Window().Get("navigator").Get("serviceWorker")
	if !sw.Truthy() {
		return func() {}
	}
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		f()
		return nil
	})
	sw.Call("addEventListener", "controllerchange", fn)
	return func() {
		sw.Call("removeEventListener", "controllerchange", fn)
		fn.Release()
	}
}
