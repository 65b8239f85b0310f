// Command hello is the go-app v9 hello-world page that `make bench-ui`
// builds as the framework's floor: the same program shape as the
// playground (routes, RunWhenOnBrowser, then `if !app.IsServer { return }`
// so the wasm carries no server code), one component, one element.
//
// It lives under testdata/ so that `go build ./...`, `go vet ./...` and
// `go test ./...` skip it; the benchmark builds it by path.
package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

type hello struct {
	app.Compo
}

func (h *hello) Render() app.UI {
	return app.H1().ID("hello").Text("Hello, world!")
}

func main() {
	app.Route("/", &hello{})
	app.RunWhenOnBrowser()
	if !app.IsServer {
		return
	}
	serve()
}
