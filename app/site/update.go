package site

import (
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/ui/browser"
)

// UpdateNotice says that a new build of the site has been downloaded, with a
// button that reloads the page into it. The service worker serves the page
// from its cache first and meanwhile checks the host for a newer build;
// go-app reports one it has installed (OnAppUpdate, AppUpdateAvailable),
// and the page keeps running the old build until it reloads. Every page
// mounts one (Header).
type UpdateNotice struct {
	app.Compo

	available bool
	release   func()
}

// OnMount catches an update that came before the page could hear of it:
// reported to an earlier page of the same document (AppUpdateAvailable),
// or installed while app.js or the wasm was still loading, when go-app's
// report goes nowhere; and it watches for a new worker taking control
// later, which go-app misses when the update started before app.js
// listened. A new build's worker has replaced this build's cache: no
// cache is named after this build's version (the workers name theirs
// PREFIX+VERSION) while another is.
func (u *UpdateNotice) OnMount(ctx app.Context) {
	u.available = ctx.AppUpdateAvailable()
	version := app.Getenv("GOAPP_VERSION")
	if version == "" {
		return
	}
	check := func() {
		browser.CacheNames(func(names []string) {
			ctx.Dispatch(func(ctx app.Context) {
				if replaced(names, version) {
					u.available = true
				}
			})
		})
	}
	check()
	u.release = browser.OnWorkerChange(check)
}

func (u *UpdateNotice) OnDismount() {
	if u.release != nil {
		u.release()
	}
}

// replaced reports whether names has caches but none of version.
func replaced(names []string, version string) bool {
	for _, n := range names {
		if strings.HasSuffix(n, version) {
			return false
		}
	}
	return len(names) > 0
}

func (u *UpdateNotice) OnAppUpdate(ctx app.Context) { u.available = ctx.AppUpdateAvailable() }

func (u *UpdateNotice) Render() app.UI {
	// The live region is always there, so that a screen reader announces
	// the notice when it fills.
	var body []app.UI
	if u.available {
		body = []app.UI{
			app.Elem("span").ID("update-text").Text("A new version of ratelab has been downloaded. Reload to use it."),
			app.Elem("button").ID("update-reload").Class("btn primary").Text("Reload").
				OnClick(func(ctx app.Context, e app.Event) { ctx.Reload() }),
		}
	}
	return app.Elem("div").ID("update-notice").Class("update-notice").Role("status").Body(body...)
}
