//go:build e2e

package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestOffline: once the service worker controls the lab and keeps the
// wasm, the lab opens with the server stopped, also from its address with
// the setup in the query, and so does a page never opened online.
func TestOffline(t *testing.T) {
	chromium := findChromium(t)
	base, stop := startStoppableServer(t)
	p := openPage(t, chromium, base)
	lab := func() {
		p.do(chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")))
		p.waitText("h1", "Comparison lab")
		p.waitText("#lab-clock-state", "running")
	}
	p.do(chromedp.Navigate(base + "/lab"))
	lab()
	p.eval(`navigator.serviceWorker.ready.then(() => "")`)
	p.do(chromedp.Reload())
	lab()
	p.workerKeeps("/web/app.wasm")
	p.poll("the lab's address keeps its setup", "true", func() string { return p.eval(`String(location.search.includes("lane="))`) })
	stop()
	p.do(chromedp.Reload())
	lab()
	// Every page runs the wasm the worker keeps, so a page never opened
	// online opens too.
	p.do(chromedp.Navigate(base + "/learn"))
	p.do(chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")))
	p.waitText("h1", "Learn rate limiting")
}
