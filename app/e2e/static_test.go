//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/limiter"
)

// TestStaticSite: the static build (make site PREFIX=/ratelab) on a plain
// static host under /ratelab/: every page, every kind of link (the
// navigation, a copied share link opened in a new tab, the quiz link, the
// inspector's source link) and the NASA trace. openPage fails the test on
// any request outside /ratelab/ and on anything the page's policy blocks.
func TestStaticSite(t *testing.T) {
	chromium := findChromium(t)
	base, _, _ := startStaticHost(t, staticSiteDir)
	p := openPage(t, chromium, base)

	t.Run("Files", func(t *testing.T) { testStaticFiles(t, base) })
	t.Run("ShippedSource", func(t *testing.T) { testShippedSource(t, base) })
	t.Run("PlaygroundSendDeny", func(t *testing.T) { testStaticPlayground(p.on(t).openPlayground().page) })
	t.Run("NavLinks", func(t *testing.T) { testStaticNav(p.on(t).openPlayground().page) })
	t.Run("LabPreset", func(t *testing.T) { testLabEdgeAttack(p.on(t).openLab(base + "/lab")) })
	t.Run("ShareLinkNewTab", func(t *testing.T) { testStaticShareLink(p.on(t)) })
	t.Run("QuizLink", func(t *testing.T) { testStaticQuizLink(p.on(t)) })
	t.Run("LessonAndSourceLink", func(t *testing.T) { testStaticLesson(p.on(t).openLearn(base + "/learn").page) })
	t.Run("NASATrace", func(t *testing.T) { testLabNASA(p.on(t).openLab(base + "/lab")) })
}

// testStaticFiles: the host resolves the pages as GitHub Pages does, and
// serves the wasm as it is, its compressed copies beside it.
func testStaticFiles(t *testing.T, base string) {
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct{ path, want string }{
		{"", "301 " + staticPrefix + "/"},
		{"/", "200 text/html; charset=utf-8"},
		{"/lab", "200 text/html; charset=utf-8"},
		{"/learn", "200 text/html; charset=utf-8"},
		{"/web/app.wasm", "200 application/wasm"},
		{"/web/data/nasa-1995-08-01.csv", "200 text/csv; charset=utf-8"},
		{"/nowhere", "404 text/plain; charset=utf-8"},
	} {
		resp, err := noRedirect.Get(base + c.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		got := resp.Status[:3] + " " + resp.Header.Get("Content-Type")
		if resp.StatusCode == http.StatusMovedPermanently {
			got = resp.Status[:3] + " " + resp.Header.Get("Location")
		}
		if got != c.want || resp.Header.Get("Content-Encoding") != "" {
			t.Errorf("GET %s%s: %s, Content-Encoding %q; want %s and none", staticPrefix, c.path, got, resp.Header.Get("Content-Encoding"), c.want)
		}
	}
	for _, name := range []string{"app.wasm", "app.wasm.br", "app.wasm.gz"} {
		site, web := fileSize(t, filepath.Join(staticSiteDir, "web", name)), fileSize(t, filepath.Join(repoRoot, "web", name))
		if site != web {
			t.Errorf("site's web/%s has %d bytes, web/%s %d", name, site, name, web)
		}
	}
}

// testStaticPlayground: a token bucket of 3, paused: four sends, 3
// allowed and 1 denied.
func testStaticPlayground(p *page) {
	p.click("#pause")
	p.waitText("#clock-state", "paused")
	p.setRange("capacity", "3")
	p.waitText("#capacity-value", "3 tokens")
	for range 4 {
		p.click("#send")
	}
	p.waitText("#allowed-count", "3")
	p.waitText("#denied-count", "1")
	p.waitText("#last-decision .verdict", "✕ denied")
}

// testStaticNav: the navigation's links carry the prefix, and go-app
// routes them in the same document.
func testStaticNav(p *page) {
	p.poll("navigation links", "/ratelab/ /ratelab/lab /ratelab/learn", func() string {
		return p.eval(`["nav-playground", "nav-lab", "nav-learn"].map((id) => new URL(document.getElementById(id).href).pathname).join(" ")`)
	})
	for _, c := range []struct{ sel, h1, path string }{
		{"#nav-lab", "Comparison lab", "/ratelab/lab"},
		{"#nav-learn", "Learn rate limiting", "/ratelab/learn"},
		{"#nav-playground", "Rate limiter playground", "/ratelab/"},
	} {
		if got := p.followLink(c.sel, c.h1); !slices.Equal(got, []string{"/ratelab/web/app.wasm"}) {
			p.t.Errorf("after %s the document loaded the wasm %q, want only /ratelab/web/app.wasm", c.sel, got)
		}
		p.poll("location after "+c.sel, c.path, func() string { return p.eval(`location.pathname`) })
	}
}

// testStaticShareLink: the lab's share link is the page under the prefix
// with the setup in its query; opened in a new tab, it gives that setup.
func testStaticShareLink(p *page) {
	f := p.openLab(p.base + "/lab").page
	f.click("#preset-edge")
	f.waitValue("#client-0-name", "mallory")
	f.waitValue("#client-0-pattern", "edge")
	config := f.text("#lane-0-config")
	link := f.eval(`document.getElementById("share-link").value`)
	u, err := url.Parse(link)
	if err != nil {
		p.t.Fatal(err)
	}
	if got := u.Scheme + "://" + u.Host + u.Path; got != p.base+"/lab" {
		p.t.Fatalf("share link %q: address %q, want %q", link, got, p.base+"/lab")
	}
	tab, cancel := chromedp.NewContext(p.ctx)
	defer cancel()
	// The first Run opens the tab, and closes it when its context ends: run
	// it on the tab's own context.
	if err := chromedp.Do(tab); err != nil {
		p.t.Fatal(err)
	}
	n := &page{t: p.t, ctx: tab, base: p.base}
	n.do(chromedp.Navigate(link))
	wctx, wcancel := context.WithTimeout(tab, 60*time.Second)
	defer wcancel()
	if err := chromedp.Do(wctx, chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader"))); err != nil {
		p.t.Fatalf("the wasm did not load in the new tab: %v", err)
	}
	n.waitText("h1", "Comparison lab")
	n.waitValue("#client-0-name", "mallory")
	n.waitValue("#client-0-pattern", "edge")
	n.waitText("#lane-0-config", config)
}

// testStaticQuizLink: "Quiz me on this setup", the quiz's link and the
// learn page's tabs carry the prefix.
func testStaticQuizLink(p *page) {
	s := sim.Setup{
		Lanes:   []sim.LaneSpec{{Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 3, Burst: 4}}},
		Clients: []sim.Client{{Name: "zoe", Pattern: sim.Pattern{Kind: sim.PatternPoisson, Rate: 6}, Weight: 1}},
		Seed:    77, Speed: 1, Worst: time.Second,
	}
	ref, err := explain.NewQuiz(s, 77)
	if err != nil {
		p.t.Fatal(err)
	}
	f := p.openLab(p.base + "/lab?" + s.Values().Encode()).page
	f.poll("quiz link's path", "/ratelab/learn", func() string { return f.eval(`new URL(document.getElementById("quiz-this").href).pathname`) })
	if got := f.followLink("#quiz-this", "Learn rate limiting"); !slices.Equal(got, []string{"/ratelab/web/app.wasm"}) {
		p.t.Errorf("the quiz loaded the wasm %q, want only /ratelab/web/app.wasm", got)
	}
	f.waitText("#quiz-seed", "seed 77")
	f.waitText("#quiz-prompt", ref.Questions[0].Prompt)
	link := f.eval(`document.getElementById("quiz-link").value`)
	if !strings.HasPrefix(link, p.base+"/learn?") || !strings.Contains(link, "seed=77") || !strings.Contains(link, "mode=quiz") {
		p.t.Errorf("quiz link %q: want %s/learn?… with seed 77 and mode=quiz", link, p.base)
	}
	f.poll("the learn page's tabs", "/ratelab/learn /ratelab/learn?mode=quiz /ratelab/learn?mode=cards", func() string {
		return f.eval(`["tab-lessons", "tab-quiz", "tab-cards"].map((id) => { const u = new URL(document.getElementById(id).href); return u.pathname + u.search; }).join(" ")`)
	})
}

// testStaticLesson: the first lesson runs and passes its check; the
// inspector explains a denial and shows the Go source fetched from under
// the prefix, and its link to the file is there too.
func testStaticLesson(p *page) {
	p.click("#lesson-link-" + lessonChecks[0].id)
	p.waitAttrOf("#lesson", "data-lesson", lessonChecks[0].id)
	p.click("#lesson-run")
	p.pollFor(20*time.Second, "#lesson-check-msg", lessonChecks[0].msg, func() string { return p.text("#lesson-check-msg") })
	p.do(chromedp.Focus(chromedp.CSS("#mark-0-14")))
	p.do(chromedp.KeyEvent("\r"))
	p.waitText("#insp-verdict", "✕ denied: retry after 100 ms (HTTP 429, Retry-After: 1)")
	p.click("#insp-source-toggle")
	p.waitCount(".src[data-file='tokenbucket.go']", 1)
	lim, err := explain.LimiterDir()
	if err != nil {
		p.t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(lim, "tokenbucket.go"))
	if err != nil {
		p.t.Fatal(err)
	}
	p.poll("tokenbucket.go as the page shows it", string(want), func() string {
		return p.eval(`Array.from(document.querySelectorAll(".src[data-file='tokenbucket.go'] .code")).map((c) => c.textContent).join("")`)
	})
	href := p.eval(`[...document.querySelectorAll(".src-name a")].find((a) => a.textContent === "limiter/tokenbucket.go").href`)
	if want := p.base + explain.ShippedDir + "tokenbucket.go"; href != want {
		p.t.Fatalf("source link %q, want %q", href, want)
	}
	resp, err := http.Get(href)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || string(got) != string(want) {
		p.t.Errorf("GET %s: HTTP %d, %d bytes; want 200 and limiter/tokenbucket.go's %d", href, resp.StatusCode, len(got), len(want))
	}
}

// TestStaticOffline: after one visit to one page online, the host goes
// away: every page opens from the worker's cache and works (a request on
// the playground, the NASA trace in the lab, a lesson, a share link with
// its setup), and a page it never saved says so.
func TestStaticOffline(t *testing.T) {
	chromium := findChromium(t)
	base, _, stop := startStaticHost(t, staticSiteDir)
	p := openPage(t, chromium, base)
	p.waitSaved()
	stop()

	p.freshAt(base+"/", "Rate limiter playground")
	p.click("#pause")
	p.waitText("#clock-state", "paused")
	p.click("#send")
	p.waitText("#allowed-count", "1")
	p.waitText("#denied-count", "0")

	lab := p.openLab(base + "/lab").page
	lab.click("#load-nasa")
	lab.waitNASATrace()

	learn := p.openLearn(base + "/learn").page
	learn.click("#lesson-link-" + lessonChecks[0].id)
	learn.click("#lesson-run")
	learn.pollFor(20*time.Second, "#lesson-check-msg", lessonChecks[0].msg, func() string { return learn.text("#lesson-check-msg") })

	s := sim.Setup{
		Lanes:   []sim.LaneSpec{{Config: limiter.Config{Kind: limiter.KindGCRA, Rate: 2, Burst: 3}}},
		Clients: []sim.Client{{Name: "ada", Pattern: sim.Pattern{Kind: sim.PatternSteady, Rate: 4}, Weight: 1}},
		Seed:    5, Speed: 1, Worst: time.Second,
	}
	shared := p.openLab(base + "/lab?" + s.Values().Encode()).page
	shared.waitValue("#client-0-name", "ada")
	shared.waitText("#lane-0-config", "GCRA: 2/s, burst 3")

	p.do(chromedp.Navigate("about:blank"))
	p.do(chromedp.Navigate(base + "/gallery"))
	p.waitText("h1", "You are offline")
	p.waitText("#offline-message", "This page (/ratelab/gallery) was not saved on this device, so it cannot open until you are back online.")
	p.poll("the offline page's link", "/ratelab/", func() string { return p.eval(`new URL(document.getElementById("offline-home").href).pathname`) })
}

// waitSaved waits until the service worker controls the page and its one
// cache holds the pages, the wasm, the trace and the sources.
func (p *page) waitSaved() {
	p.t.Helper()
	want := []string{"/ratelab/", "/ratelab/lab", "/ratelab/learn", "/ratelab/web/app.wasm",
		"/ratelab/web/data/nasa-1995-08-01.csv", "/ratelab/web/src/tokenbucket.go", "/ratelab/app.js"}
	list, err := json.Marshal(want)
	if err != nil {
		p.t.Fatal(err)
	}
	p.pollFor(60*time.Second, "worker and cache", "/ratelab/app-worker.js 1 "+strings.Join(want, ","), func() string {
		return p.eval(fmt.Sprintf(`(async () => {
			const c = navigator.serviceWorker.controller, names = await caches.keys();
			const paths = [];
			for (const n of names) for (const q of await (await caches.open(n)).keys()) paths.push(new URL(q.url).pathname);
			return (c ? new URL(c.scriptURL).pathname : "none") + " " + names.length + " " + %s.filter((x) => paths.includes(x)).join(",");
		})()`, list))
	})
}

// TestStaticUpdate: a visit, then a new deploy (another build id): the
// next visit starts from the cache, still the old build, and says that a
// new one is there; its Reload button opens the new build.
func TestStaticUpdate(t *testing.T) {
	chromium := findChromium(t)
	a, b := buildStaticSite(t, "e2e-a"), buildStaticSite(t, "e2e-b")
	// A deploy comes later than the one it replaces. Both builds here take
	// about a second, and a host's Last-Modified has whole seconds: with
	// equal times the browser's update check gets 304 for the new worker
	// and keeps the old. So b's files are dated a minute later.
	later := time.Now().Add(time.Minute)
	if err := filepath.WalkDir(b, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(path, later, later)
	}); err != nil {
		t.Fatal(err)
	}
	base, host, _ := startStaticHost(t, a)
	p := openPage(t, chromium, base)
	p.waitSaved()
	p.waitCount("#update-text", 0)
	p.buildShown("e2e-a")

	host.setDir(b)
	f := p.openLab(base + "/lab").page
	f.buildShown("e2e-a")
	// The browser checks for a new worker after the navigation; asking the
	// registration to update does the same check at once, so a busy machine
	// does not postpone it. The new worker downloads every file before it
	// replaces the old cache.
	// (Not awaited: the update's promise settles once the new worker has
	// installed, which the poll below waits for.)
	f.eval(`(navigator.serviceWorker.getRegistration().then((r) => r.update()).catch(() => {}), "")`)
	f.pollFor(120*time.Second, "caches after the deploy", "1 e2e-b", func() string {
		return f.eval(`caches.keys().then((names) => names.length + " " + names.map((n) => (n.endsWith("-e2e-b") ? "e2e-b" : n)).join(","))`)
	})
	f.waitText("#update-text", "A new version of ratelab has been downloaded. Reload to use it.")
	f.screenshot("static-update-notice.png")

	f.eval(`(() => { window.__before = true; return ""; })()`)
	f.click("#update-reload")
	// While the page reloads, evaluating fails ("target navigated"): poll
	// until the new document answers.
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(f.ctx, 5*time.Second)
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`String(window.__before === true)`))
		cancel()
		if err == nil && v == "false" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Reload: the old document stayed (%q, %v)", v, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	wctx, wcancel := context.WithTimeout(f.ctx, 60*time.Second)
	defer wcancel()
	if err := chromedp.Do(wctx, chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader"))); err != nil {
		t.Fatalf("the wasm did not load after Reload: %v", err)
	}
	f.waitText("h1", "Comparison lab")
	f.buildShown("e2e-b")
	f.waitCount("#update-text", 0)
}

// buildShown opens the keyboard help, checks the build id it shows, and
// closes it.
func (p *page) buildShown(build string) {
	p.t.Helper()
	p.click("#help-open")
	p.waitText("#build-id", "Build "+build)
	p.click("#help-close")
	p.waitGone("#help")
}
