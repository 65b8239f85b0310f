//go:build e2e

// Package e2e drives the app end to end: the real server binary
// (bin/server, built by `make build`) and Debian's headless Chromium. This
// file is the browser: Chromium, the server, and the generic helpers of a
// tab (page); each page of the app has its page object beside its tests
// (playgroundPage, labPage, learnPage).
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// repoRoot is where bin/server and web/ are, from app/e2e.
var repoRoot = filepath.Join("..", "..")

// page is one tab of the app, with the helpers every page's tests use.
// Each page has a page object that embeds it (playgroundPage, labPage,
// learnPage) and adds that page's own actions.
type page struct {
	t    *testing.T
	ctx  context.Context
	base string
}

// on is the same tab for the subtest t: its failures are t's.
func (p *page) on(t *testing.T) *page { return &page{t: t, ctx: p.ctx, base: p.base} }

func findChromium(t *testing.T) string {
	for _, name := range []string{"chromium", "/usr/bin/chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("chromium not found: the browser tests need Debian's Chromium; run `make deps` (apt-get install -y chromium)")
	return ""
}

// startServer runs bin/server on a free loopback port until the test ends.
func startServer(t *testing.T) string {
	base, _ := startStoppableServer(t)
	return base
}

// startStoppableServer is startServer, with a function that stops the
// server before the test ends (and may be called again).
func startStoppableServer(t *testing.T) (string, func()) {
	bin, err := filepath.Abs(filepath.Join(repoRoot, "bin", "server"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is missing: run `make build` (make e2e does)", bin)
	}
	return serve(t, bin, repoRoot)
}

// serve runs the server binary bin in dir on a free loopback port (its
// -addr) with the extra flags args, waits until it answers / with 200, and
// stops it when the test ends; stop stops it sooner (and may be called
// again).
func serve(t *testing.T, bin, dir string, args ...string) (base string, stop func()) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, append([]string{"-addr", addr}, args...)...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop = func() { once.Do(func() { cmd.Process.Kill(); cmd.Wait() }) }
	t.Cleanup(stop)
	base = "http://" + addr
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get(base + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return base, stop
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s at %s did not answer: %v", filepath.Base(bin), base, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// chromiumOptions are Debian's Chromium, headless, as root, with a fresh
// profile and nothing that reaches out to the internet.
func chromiumOptions(t *testing.T, chromium string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1360, 940),
	}
}

// openPage starts Chromium, opens the playground and waits for the wasm. It
// fails the test if the page requests anything outside its own server.
func openPage(t *testing.T, chromium, base string) *page {
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), chromiumOptions(t, chromium)...)
	t.Cleanup(cancelA)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)

	var mu sync.Mutex
	var outside, blocked []string
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			u := e.Request.URL
			if !strings.HasPrefix(u, base+"/") && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "blob:") {
				mu.Lock()
				outside = append(outside, u)
				mu.Unlock()
			}
		case *cdplog.EventEntryAdded:
			// The server's Content-Security-Policy must allow everything
			// the pages do: Chromium logs each thing it blocks.
			if strings.Contains(e.Entry.Text, "Content Security Policy") {
				mu.Lock()
				blocked = append(blocked, e.Entry.Text)
				mu.Unlock()
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		if len(outside) > 0 {
			t.Errorf("the page requested URLs outside its server: %v", outside)
		}
		if len(blocked) > 0 {
			t.Errorf("the Content-Security-Policy blocked %d things the page did: %q", len(blocked), blocked)
		}
	})

	p := &page{t: t, ctx: ctx, base: base}
	p.do(chromedp.Navigate(base + "/"))
	wctx, wcancel := context.WithTimeout(ctx, 60*time.Second)
	defer wcancel()
	if err := chromedp.Do(wctx, chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader"))); err != nil {
		t.Fatalf("the wasm did not load: %v", err)
	}
	p.waitText("h1", "Rate limiter playground")
	return p
}

// freshAt loads link as a new document (from a blank page) and waits for
// the wasm and the page's heading.
func (p *page) freshAt(link, h1 string) *page {
	f := &page{t: p.t, ctx: p.ctx, base: p.base}
	f.do(chromedp.Navigate("about:blank"))
	f.do(chromedp.Navigate(link))
	wctx, wcancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer wcancel()
	if err := chromedp.Do(wctx, chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader"))); err != nil {
		p.t.Fatalf("the wasm did not load: %v", err)
	}
	f.waitText("h1", h1)
	return f
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

func (p *page) eval(js string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// followLink clicks a link to another page. One wasm runs every page and
// go-app routes the link in the same document: followLink fails the test if
// the document was replaced, waits until the h1 reads h1, and returns the
// paths of the wasm binaries the document has fetched, in order.
func (p *page) followLink(sel, h1 string) []string {
	p.t.Helper()
	p.eval(`(() => { window.__followLink = true; return ""; })()`)
	p.click(sel)
	p.waitText("h1", h1)
	if got := p.eval(`String(window.__followLink === true)`); got != "true" {
		p.t.Errorf("%s loaded a new document; want go-app's routing in the same one", sel)
	}
	return p.wasmLoaded()
}

// wasmLoaded returns the paths of the wasm binaries the current document
// fetched, in order (Resource Timing).
func (p *page) wasmLoaded() []string {
	p.t.Helper()
	var wasm []string
	js := p.eval(`JSON.stringify(performance.getEntriesByType("resource").map(e => new URL(e.name).pathname).filter(n => n.endsWith(".wasm")))`)
	if err := json.Unmarshal([]byte(js), &wasm); err != nil {
		p.t.Fatalf("wasm resources %s: %v", js, err)
	}
	return wasm
}

// typeKeys focuses the field id, selects its text and types keys over it,
// as a user does (the browser, not a script, parses what is typed).
func (p *page) typeKeys(id, keys string) {
	p.t.Helper()
	p.eval(fmt.Sprintf(`(() => { const el = document.getElementById(%q); el.focus(); el.select(); return el.value; })()`, id))
	p.do(chromedp.SendKeys(chromedp.ID(id), keys))
}

// uploadFile writes data to a temporary file called name and gives it to
// the file field sel, as a user picking it does.
func (p *page) uploadFile(sel, name string, data []byte) {
	p.t.Helper()
	path := filepath.Join(p.t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		p.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(sel, []string{path})); err != nil {
		p.t.Fatal(err)
	}
}

// inspectorSteps is the inspector's worked steps (the lab's and the
// lessons' share the widget), one a line.
func (p *page) inspectorSteps() string {
	p.t.Helper()
	return p.eval(`Array.from(document.querySelectorAll("#insp-steps li")).map(li => li.textContent).join("\n")`)
}

// pauseClock presses the button pause if the clock's state, the text of
// state, is "running", and waits until it is "paused".
func (p *page) pauseClock(state, pause string) {
	p.t.Helper()
	if p.text(state) == "running" {
		p.click(pause)
	}
	p.waitText(state, "paused")
}

func (p *page) click(sel string) {
	p.t.Helper()
	p.settle(sel)
	p.do(chromedp.Click(chromedp.CSS(sel)))
}

// settle waits until sel's box has stayed put for three animation frames
// (at most two seconds). A click is a mouse press at the box's centre, and
// some components redraw on their own frame loop, a frame or two after the
// render a test waited for: one that changes size there moves what is below
// it, and a click pressed at the old place lands beside its target.
func (p *page) settle(sel string) {
	p.t.Helper()
	p.eval(fmt.Sprintf(`new Promise((resolve) => {
		let last = "", same = 0, n = 0;
		const tick = () => {
			const el = document.querySelector(%q);
			const r = el ? el.getBoundingClientRect() : null;
			const k = r ? [r.left, r.top, r.width, r.height].join() : "";
			same = k === last ? same + 1 : 0;
			last = k;
			if (same >= 3 || ++n > 120) resolve(""); else requestAnimationFrame(tick);
		};
		requestAnimationFrame(tick);
	})`, sel))
}

// setRange sets a slider and dispatches the input event the browser fires
// when a user drags it (setting .value fires nothing).
func (p *page) setRange(id, value string) {
	p.t.Helper()
	p.eval(fmt.Sprintf(`(() => { const el = document.getElementById(%q); el.value = %q;
		el.dispatchEvent(new Event("input", {bubbles: true})); return el.value; })()`, id, value))
}

// setNumber types into a number field and dispatches change (as on Enter).
func (p *page) setNumber(id, value string) {
	p.t.Helper()
	p.eval(fmt.Sprintf(`(() => { const el = document.getElementById(%q); el.focus(); el.value = %q;
		el.dispatchEvent(new Event("input", {bubbles: true}));
		el.dispatchEvent(new Event("change", {bubbles: true})); el.blur(); return el.value; })()`, id, value))
}

// setSelect chooses an option and dispatches change (as a user's pick).
func (p *page) setSelect(id, value string) {
	p.t.Helper()
	p.eval(fmt.Sprintf(`(() => { const el = document.getElementById(%q); el.value = %q;
		el.dispatchEvent(new Event("change", {bubbles: true})); return el.value; })()`, id, value))
	p.waitValue("#"+id, value)
}

func (p *page) text(sel string) string {
	p.t.Helper()
	return p.eval(fmt.Sprintf(`(() => { const el = document.querySelector(%q); return el ? el.textContent : "<missing>"; })()`, sel))
}

// poll waits until f() returns want, or fails with the last value.
func (p *page) poll(what, want string, f func() string) {
	p.t.Helper()
	p.pollFor(5*time.Second, what, want, f)
}

// pollFor is poll with its own deadline, for waits whose length is the
// page's own (a lesson plays for 2.5 s of real time).
func (p *page) pollFor(timeout time.Duration, what, want string, f func() string) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := f()
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			p.screenshot("failed-" + strings.NewReplacer("#", "", " ", "_", "'", "", "[", "", "]", "", "=", "", "/", "").Replace(what) + ".png")
			p.t.Fatalf("%s = %q, want %q", what, got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (p *page) waitText(sel, want string) {
	p.t.Helper()
	p.poll(sel, want, func() string { return p.text(sel) })
}

func (p *page) waitValue(sel, want string) {
	p.t.Helper()
	p.poll(sel+".value", want, func() string {
		return p.eval(fmt.Sprintf(`document.querySelector(%q).value`, sel))
	})
}

func (p *page) waitAttr(sel, attr, want string) {
	p.t.Helper()
	p.poll(sel+"["+attr+"]", want, func() string {
		return p.eval(fmt.Sprintf(`String(document.querySelector(%q).getAttribute(%q))`, sel, attr))
	})
}

// waitAttrOf waits until the element exists and its attribute equals want
// (waitAttr needs the element to exist already).
func (p *page) waitAttrOf(sel, attr, want string) {
	p.t.Helper()
	p.poll(sel+"["+attr+"]", want, func() string {
		return p.eval(fmt.Sprintf(`(() => { const el = document.querySelector(%q); return el ? String(el.getAttribute(%q)) : "<missing>"; })()`, sel, attr))
	})
}

func (p *page) waitCount(sel string, want int) {
	p.t.Helper()
	p.poll("count of "+sel, strconv.Itoa(want), func() string {
		return p.eval(fmt.Sprintf(`String(document.querySelectorAll(%q).length)`, sel))
	})
}

func (p *page) waitGone(sel string) {
	p.t.Helper()
	p.waitCount(sel, 0)
}

// screenshot saves the viewport as testout/<name>.
func (p *page) screenshot(name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Errorf("screenshot %s: %v", name, err)
		return
	}
	dir := filepath.Join(repoRoot, "testout")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// viewport captures the viewport as an image.
func (p *page) viewport() image.Image {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		p.t.Fatal(err)
	}
	return img
}

// pixel is the colour of img at CSS pixel (x, y) (device pixel ratio 1).
func pixel(img image.Image, x, y float64) string {
	r, g, b, _ := img.At(int(x), int(y)).RGBA()
	return fmt.Sprintf("rgb(%d, %d, %d)", r>>8, g>>8, b>>8)
}

// noHorizontalScroll fails when the page is wider than the viewport.
func (p *page) noHorizontalScroll() {
	p.t.Helper()
	got := p.eval(`String(document.documentElement.scrollWidth <= window.innerWidth + 1) + " " + document.documentElement.scrollWidth + " " + window.innerWidth`)
	if !strings.HasPrefix(got, "true") {
		p.t.Errorf("the page scrolls sideways (scrollWidth, innerWidth: %s)", strings.TrimPrefix(got, "false "))
	}
}

// setPermission overrides a permission for the page's origin.
func (p *page) setPermission(name string, setting cdpbrowser.PermissionSetting) {
	p.t.Helper()
	c := chromedp.FromContext(p.ctx)
	if _, err := cdp.Call(p.ctx, c.Browser, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
		Permission: &cdpbrowser.PermissionDescriptor{Name: name}, Setting: setting, Origin: p.base,
	}); err != nil {
		p.t.Fatal(err)
	}
}

// workerKeeps waits until the service worker controls the page and its
// cache holds wasm, the only binary there.
func (p *page) workerKeeps(wasm string) {
	p.t.Helper()
	p.poll("controller, wasm kept", "/app-worker.js "+wasm, func() string {
		return p.eval(`(async () => {
			const c = navigator.serviceWorker.controller;
			const keys = await (await caches.open((await caches.keys())[0])).keys();
			return (c ? new URL(c.scriptURL).pathname : "none") + " " + keys.map((q) => new URL(q.url).pathname).filter((x) => x.endsWith(".wasm")).join(",");
		})()`)
	})
}

// fileSize is the size of the file name, which must exist.
func fileSize(t *testing.T, name string) int64 {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// axeScript returns axe-core's axe.min.js, installed from the npm registry
// into testout/npm (git-ignored) when missing.
func axeScript(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join(repoRoot, "testout", "npm"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")
	if _, err := os.Stat(path); err != nil {
		cmd := exec.Command("npm", "install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, "axe-core@4")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm install axe-core@4 (needed for the accessibility checks): %v\n%s", err, out)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("axe-core: %v", err)
	}
	return string(b)
}

// axe injects axe-core into the page, runs it, and fails on any serious or
// critical violation, printing them.
func (p *page) axe(script, state string) {
	p.t.Helper()
	p.eval(script + "\n;'injected'")
	out := p.eval(`axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(
		r.violations.filter(v => v.impact === "serious" || v.impact === "critical").map(v => ({
			id: v.id, impact: v.impact, help: v.help,
			nodes: v.nodes.slice(0, 6).map(n => n.target.join(" ") + " — " + n.failureSummary.replace(/\s+/g, " "))}))))`)
	var vs []struct {
		ID, Impact, Help string
		Nodes            []string
	}
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		p.t.Fatalf("axe output %q: %v", out, err)
	}
	for _, v := range vs {
		p.t.Errorf("axe (%s): %s %s: %s\n    %s", state, v.Impact, v.ID, v.Help, strings.Join(v.Nodes, "\n    "))
	}
	if len(vs) == 0 {
		p.t.Logf("axe (%s): no serious or critical violations", state)
	}
}

const kbEscape = "\u001b"
