package browser

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ReadFile reads the first file of an <input type=file> and calls done with
// its name and its bytes as they are (off the UI goroutine). Not File.text:
// it decodes as UTF-8 and replaces what is not with U+FFFD, so a Latin-1
// "José" and "Josè" would both arrive as "Jos\ufffd", one client.
func ReadFile(input app.Value, done func(name string, data []byte)) {
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

// Download saves text as a file through a Blob URL and returns the URL
// (kept for the "download again" link).
func Download(name, mime, text string) string {
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
