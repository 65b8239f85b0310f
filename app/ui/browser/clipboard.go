package browser

import (
	"errors"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// CopyText puts text on the clipboard and then calls done, outside the UI
// goroutine, with nil or the browser's refusal (a page without the
// Clipboard API, a denied permission).
func CopyText(text string, done func(error)) {
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
