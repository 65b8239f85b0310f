//go:build e2e && benchui

package e2e

// Helpers of the page benchmark (`make bench-ui`, issue 6 "Page"): the
// go-app hello-world floor (testdata/hello, built here), the figures and
// their bounds, fresh browsers with the instruments the measurements need.

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// benchMinutes is the length of the memory run (the 10 minutes by
// default; BENCH_UI_MINUTES=2 for a quick run).
var benchMinutes = flag.Float64("bench-ui-minutes", envFloat("BENCH_UI_MINUTES", 10), "length of the memory run in real minutes (env BENCH_UI_MINUTES)")

// benchLoads is how many times each page is loaded for the start-up figure.
var benchLoads = flag.Int("bench-ui-loads", int(envFloat("BENCH_UI_LOADS", 5)), "fresh loads of each page for the start-up figure (env BENCH_UI_LOADS)")

func envFloat(name string, def float64) float64 {
	if v, err := strconv.ParseFloat(os.Getenv(name), 64); err == nil && v > 0 {
		return v
	}
	return def
}

// figure is one printed measurement with its bound.
type figure struct {
	name, value, bound string
	ok                 bool
}

var (
	figuresMu sync.Mutex
	figures   []figure
)

func (f figure) String() string {
	verdict := "ok"
	if !f.ok {
		verdict = "MISSED"
	}
	return fmt.Sprintf("%s: %s (bound %s) %s", f.name, f.value, f.bound, verdict)
}

// report prints a figure at once and keeps it for the summary; a missed
// bound fails t.
func report(t *testing.T, name, value, bound string, ok bool) {
	t.Helper()
	f := figure{name, value, bound, ok}
	figuresMu.Lock()
	figures = append(figures, f)
	figuresMu.Unlock()
	fmt.Println(f)
	if !ok {
		t.Errorf("bound missed: %s", f)
	}
}

// machine names what the figures were measured on.
func machine() string {
	out, _ := exec.Command("go", "version").Output()
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "model name") {
				if _, v, ok := strings.Cut(line, ":"); ok {
					cpu = strings.TrimSpace(v)
				}
				break
			}
		}
	}
	chromium := ""
	if p, err := exec.LookPath("chromium"); err == nil {
		if v, err := exec.Command(p, "--version").Output(); err == nil {
			chromium = "; " + strings.TrimSpace(string(v))
		}
	}
	return fmt.Sprintf("%s; %s; %d cores%s", strings.TrimSpace(string(out)), cpu, runtime.NumCPU(), chromium)
}

// startHello builds testdata/hello (wasm with the playground's flags, its
// brotli and gzip -9 copies as `make build` makes them, and its native server) into a temporary folder and serves it
// on a free loopback port until the test ends.
func startHello(t *testing.T) (base, dir string) {
	t.Helper()
	dir = t.TempDir()
	web := filepath.Join(dir, "web")
	if err := os.MkdirAll(web, 0o755); err != nil {
		t.Fatal(err)
	}
	wasm := filepath.Join(web, "app.wasm")
	build := func(env []string, args ...string) {
		cmd := exec.Command("go", append([]string{"build"}, args...)...)
		cmd.Dir = "." // app/e2e: ./testdata/hello
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", args, err, out)
		}
	}
	build([]string{"GOOS=js", "GOARCH=wasm"}, "-trimpath", "-ldflags=-s -w", "-o", wasm, "./testdata/hello")
	build(nil, "-trimpath", "-o", filepath.Join(dir, "hello-server"), "./testdata/hello")
	// The same compressed copies as `make build` makes of ours.
	if out, err := exec.Command("gzip", "-9", "-k", "-f", wasm).CombinedOutput(); err != nil {
		t.Fatalf("gzip -9 %s: %v\n%s", wasm, err, out)
	}
	build(nil, "-o", filepath.Join(dir, "precompress"), "../cmd/precompress")
	if out, err := exec.Command(filepath.Join(dir, "precompress"), wasm).CombinedOutput(); err != nil {
		t.Fatalf("precompress %s: %v\n%s", wasm, err, out)
	}
	// The same icon as the playground, so that neither page fetches
	// anything from outside.
	if icon, err := os.ReadFile(filepath.Join(repoRoot, "web", "icon.svg")); err == nil {
		_ = os.WriteFile(filepath.Join(web, "icon.svg"), icon, 0o644)
	}
	return serveHello(t, dir), dir
}

// serveHello runs the hello-world server built by startHello in dir, with
// the extra flags args, on a free loopback port until the test ends.
func serveHello(t *testing.T, dir string, args ...string) (base string) {
	t.Helper()
	base, _ = serve(t, filepath.Join(dir, "hello-server"), dir, args...)
	return base
}

// wireBytes fetches base+path (a wasm) with the Accept-Encoding header
// accept and returns the bytes sent over the wire, the Content-Encoding and
// the decoded size.
func wireBytes(t *testing.T, base, path, accept string) (wire int64, encoding string, raw int64) {
	t.Helper()
	req, _ := http.NewRequest("GET", base+path, nil)
	req.Header.Set("Accept-Encoding", accept)
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s%s: status %d, %v", base, path, resp.StatusCode, err)
	}
	encoding = resp.Header.Get("Content-Encoding")
	var dec io.Reader
	switch encoding {
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		dec = zr
	case "br":
		dec = brotli.NewReader(bytes.NewReader(body))
	case "":
		dec = bytes.NewReader(body)
	default:
		t.Fatalf("GET %s%s: Content-Encoding %q", base, path, encoding)
	}
	raw, err = io.Copy(io.Discard, dec)
	if err != nil {
		t.Fatalf("GET %s%s: decoding %s: %v", base, path, encoding, err)
	}
	return int64(len(body)), encoding, raw
}

// browser is one headless Chromium with a fresh profile (so an empty cache
// and no service worker), like openPage's.
type browser struct {
	ctx    context.Context
	cancel func()
}

func newBrowser(t *testing.T, chromium string, extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	opts := chromiumOptions(t, chromium)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), append(opts, extra...)...)
	ctx, cancel := chromedp.NewContext(actx)
	// Start the browser now, on a blank page, so that its start-up is not
	// part of any measurement.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		cancel()
		cancelA()
		t.Fatalf("start chromium: %v", err)
	}
	b := &browser{ctx: ctx, cancel: func() { cancel(); cancelA() }}
	t.Cleanup(b.cancel)
	return b
}

// onNewDocument makes every document of the tab run js before its own
// scripts.
func (b *browser) onNewDocument(t *testing.T, js string) {
	t.Helper()
	err := chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: js})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
}

// page returns the harness's page on this browser's tab.
func (b *browser) page(t *testing.T, base string) *page { return &page{t: t, ctx: b.ctx, base: base} }

// collectGarbage runs a full JS garbage collection in the tab.
func (b *browser) collectGarbage() error {
	return chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, heapprofiler.CollectGarbage, cdp.Empty{})
		return err
	}))
}

// evalFor is the harness's eval with a longer timeout.
func (p *page) evalFor(js string, timeout time.Duration) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// readyScript records, in window.__benchReady, performance.now() (time
// since navigation) at the first DOM change after which the wasm has run
// and ready (a JS expression) holds; it also keeps the Go wasm instance in window.__benchWasm (go-app's app.js
// keeps it in a local variable).
func readyScript(ready string) string {
	return `(() => {
	const keep = (r) => { const inst = r && (r.instance || r); if (inst && inst.exports && inst.exports.mem) window.__benchWasm = inst; return r; };
	const is = WebAssembly.instantiateStreaming;
	if (is) WebAssembly.instantiateStreaming = function (...a) { return is.apply(this, a).then(keep); };
	const i = WebAssembly.instantiate;
	WebAssembly.instantiate = function (...a) { return i.apply(this, a).then(keep); };
	// The wasm has run once its instance exists and the loader is gone
	// (app.js removes it when the Go program first yields, after
	// RunWhenOnBrowser has mounted the page). go-app pre-renders the page on
	// the server, and the loader comes after that HTML, so "element present,
	// loader absent" alone would hold while the HTML is still being parsed.
	const ran = () => !!window.__benchWasm && !document.getElementById("app-wasm-loader");
	const ready = () => { try { return ran() && (` + ready + `); } catch (e) { return false; } };
	const mo = new MutationObserver(() => {
		if (window.__benchReady === undefined && ready()) { window.__benchReady = performance.now(); mo.disconnect(); }
	});
	mo.observe(document, {subtree: true, childList: true, attributes: true});
})();`
}

// loadTiming is one fresh load of a page.
type loadTiming struct {
	Ready   float64  `json:"ready"`   // ms from navigation to ready
	WasmEnd float64  `json:"wasmEnd"` // ms from navigation until the wasm is downloaded
	Wire    float64  `json:"wire"`    // wasm bytes received (Resource Timing's encodedBodySize)
	Names   []string `json:"names"`   // every resource the page loaded, with its end (ms)
}

// timeLoad opens url in a fresh browser and measures, in the page, the time
// from navigation until ready (a JS expression) holds.
func timeLoad(t *testing.T, chromium, url, ready string) loadTiming {
	t.Helper()
	b := newBrowser(t, chromium)
	defer b.cancel()
	b.onNewDocument(t, readyScript(ready))
	p := b.page(t, url)
	p.do(chromedp.Navigate(url))
	res := p.evalFor(`new Promise((done, fail) => { const t0 = Date.now();
		const poll = () => {
			if (window.__benchReady !== undefined) {
				const rs = performance.getEntriesByType("resource");
				const w = rs.find(e => new URL(e.name).pathname.endsWith(".wasm"));
				done(JSON.stringify({ready: window.__benchReady, wasmEnd: w ? w.responseEnd : 0, wire: w ? w.encodedBodySize : 0,
					names: rs.map(e => e.name + " " + e.responseEnd.toFixed(0))}));
			} else if (Date.now() - t0 > 60000) fail(new Error("not ready after 60 s"));
			else setTimeout(poll, 10);
		}; poll(); })`, 70*time.Second)
	var lt loadTiming
	if err := json.Unmarshal([]byte(res), &lt); err != nil {
		t.Fatalf("%s: %v", res, err)
	}
	return lt
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func mib(b float64) string { return fmt.Sprintf("%.1f MiB", b/(1<<20)) }
