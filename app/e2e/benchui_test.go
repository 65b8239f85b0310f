//go:build e2e && benchui

package e2e

// The page benchmark of issue 6 ("Page"), in headless Chromium, against a
// go-app v9.8.0 hello-world page built here as the framework's floor
// (testdata/hello). These are timed measurements, so they are not part of
// `make test` (a shared, loaded machine would make them flaky); `make
// bench-ui` runs them on purpose, prints every figure as
// `name: value (bound …) ok|MISSED`, and fails when a bound is missed.

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/limiter"
)

// TestPageBench: wasm bytes and start-up against the hello-world, the
// playground under its heaviest auto-fire, the lab's frames with six lanes,
// ten clients and 200 requests/s, and memory over a long run at 10×.
func TestPageBench(t *testing.T) {
	fmt.Println("machine:", machine())
	chromium := findChromium(t)
	base := startServer(t)
	hello, dir := startHello(t)
	helloGzip := serveHello(t, dir, "-brotli=false")

	t.Run("WasmBytes", func(t *testing.T) { testWasmBytes(t, base, hello) })
	t.Run("FirstRequest", func(t *testing.T) { testFirstRequest(t, chromium, base, hello, helloGzip) })
	p := openPage(t, chromium, base)
	t.Run("PlaygroundHeavyLoad", func(t *testing.T) { testHeavyLoad(p.on(t).openPlayground()) })
	t.Run("LabAnimation", func(t *testing.T) { testLabFrames(p.on(t)) })
	t.Run("TraceImport", func(t *testing.T) { testTraceImport(p.on(t)) })
	t.Run("RunToEndLargeTrace", func(t *testing.T) {
		ms := testLabRunToEndLarge(p.on(t))
		report(t, "lab: longest task during Run to end (199,990 requests, 3 lanes)", fmt.Sprintf("%.0f ms", ms), "≤ 1000 ms", ms <= 1000)
	})
	t.Run("Memory", func(t *testing.T) { testMemory(t, chromium, base) })

	fmt.Println("\nsummary (machine:", machine()+")")
	figuresMu.Lock()
	defer figuresMu.Unlock()
	for _, f := range figures {
		fmt.Println("  " + f.String())
	}
}

// benchPages are the pages, all run by the one wasm, with the JS
// expression that holds once a user can act: the playground's Send button
// enabled, the lab's clock running, the lessons listed.
var benchPages = []struct{ name, path, wasm, ready string }{
	{"playground", "/", "/web/app.wasm", `(() => { const b = document.getElementById("send"); return !!b && !b.disabled; })()`},
	{"lab", "/lab", "/web/app.wasm", `(() => { const c = document.getElementById("lab-clock-state"); return !!c && c.textContent === "running"; })()`},
	{"learn", "/learn", "/web/app.wasm", `document.querySelectorAll("#lesson-list li").length > 0`},
}

// testWasmBytes: bytes of wasm over the wire as each server sends them to
// Chromium (brotli), each page's ≤ 1.10× the hello-world's; and, for a
// browser without brotli, the gzip copies' ratio (printed, no bound).
func testWasmBytes(t *testing.T, base, hello string) {
	const chromium, noBrotli = "gzip, deflate, br, zstd", "gzip, deflate"
	floor, floorEnc, floorRaw := wireBytes(t, hello, "/web/app.wasm", chromium)
	floorGz, _, _ := wireBytes(t, hello, "/web/app.wasm", noBrotli)
	for _, pg := range benchPages {
		ours, oursEnc, oursRaw := wireBytes(t, base, pg.wasm, chromium)
		oursGz, gzEnc, _ := wireBytes(t, base, pg.wasm, noBrotli)
		t.Logf("wasm: %s %d bytes (%s; %d decoded; gzip %d), hello-world %d bytes (%s; %d decoded; gzip %d)", pg.wasm, ours, oursEnc, oursRaw, oursGz, floor, floorEnc, floorRaw, floorGz)
		if oursEnc != "br" || floorEnc != "br" || gzEnc != "gzip" {
			t.Errorf("Content-Encoding: ours %q, hello-world %q, want br for both; without br, ours %q, want gzip", oursEnc, floorEnc, gzEnc)
		}
		if oursRaw != fileSize(t, filepath.Join(repoRoot, pg.wasm)) {
			t.Errorf("%s decodes to %d bytes, not the %s built", pg.wasm, oursRaw, pg.wasm)
		}
		r := float64(ours) / float64(floor)
		report(t, "wasm over the wire, "+pg.name+" ("+pg.wasm+")", fmt.Sprintf("%.2f× hello-world (%d vs %d bytes brotli; %.1f vs %.1f MB decoded; gzip %.2f×, %d vs %d bytes)",
			r, ours, floor, float64(oursRaw)/1e6, float64(floorRaw)/1e6, float64(oursGz)/float64(floorGz), oursGz, floorGz),
			"≤ 1.10×", r <= 1.10)
	}
}

// testFirstRequest: time from navigation until the first request can be
// sent (see benchPages; the wasm loader gone) against the hello-world's
// first render (its element present); each page loaded benchLoads times,
// alternating with the hello-world, each in a fresh browser profile;
// medians. The hello-world is loaded twice each round: served like ours
// (brotli), and served gzip, which starts go-app's own loader sooner on
// loopback (it decodes less before it compiles); the bound holds against
// the faster of the two.
func testFirstRequest(t *testing.T, chromium, base, hello, helloGzip string) {
	// All also wait for the wasm to have run (see readyScript): go-app
	// pre-renders every page on the server.
	const helloReady = `!!document.getElementById("hello")`
	for _, pg := range benchPages {
		var ours, floor, floorGz, oursWasm, floorWasm []float64
		for i := range *benchLoads {
			// Each load's browser is new, and the previous one is still
			// winding down while it starts; a load that always came after
			// the heaviest page would always pay for it. So the three take
			// turns going first.
			var h, g, o loadTiming
			loads := []func(){
				func() { h = timeLoad(t, chromium, hello+"/", helloReady) },
				func() { g = timeLoad(t, chromium, helloGzip+"/", helloReady) },
				func() { o = timeLoad(t, chromium, base+pg.path, pg.ready) },
			}
			for k := range loads {
				loads[(i+k)%len(loads)]()
			}
			t.Logf("%s load %d: hello-world first render %.0f ms (brotli; wasm downloaded at %.0f ms, %.0f bytes), %.0f ms (gzip; %.0f ms, %.0f bytes); ours first request possible %.0f ms (wasm downloaded at %.0f ms, %.0f bytes)",
				pg.name, i+1, h.Ready, h.WasmEnd, h.Wire, g.Ready, g.WasmEnd, g.Wire, o.Ready, o.WasmEnd, o.Wire)
			if i == 0 {
				t.Logf("resources of the first loads: hello-world %v; ours %v", h.Names, o.Names)
			}
			floor, floorGz, floorWasm = append(floor, h.Ready), append(floorGz, g.Ready), append(floorWasm, h.WasmEnd)
			ours, oursWasm = append(ours, o.Ready), append(oursWasm, o.WasmEnd)
		}
		mo, mf, mg := median(ours), median(floor), median(floorGz)
		r := mo / min(mf, mg)
		report(t, "navigation to first request, "+pg.name+" ("+pg.path+")", fmt.Sprintf("%.2f× the faster hello-world (median of %d fresh loads each: ours %.0f ms; hello-world's first render %.0f ms served gzip, %.0f ms served brotli like ours (%.2f×); wasm downloaded at %.0f vs %.0f ms, both brotli)",
			r, len(ours), mo, mg, mf, mo/mf, median(oursWasm), median(floorWasm)), "≤ 1.25× the faster", r <= 1.25)
	}
}

// testHeavyLoad: a sliding window log of limit 100 per 60 s under auto-fire
// at 200 requests/s (the most marks the view draws). The simulated clock
// must keep up with real time (frames under MaxFrame), and the page must
// keep painting; it logs the frame rate measured in the page.
func testHeavyLoad(p *playgroundPage) {
	p.click("#strategy-sliding_window_log")
	p.waitAttr("#strategy-sliding_window_log", "aria-pressed", "true")
	p.set("limit", "100", "100 requests")
	p.set("window", "60", "60 s")
	p.set("autofire-rate", "200", "200 requests/s")
	p.click("#autofire")
	p.waitText("#autofire", "Auto-fire: on")
	p.waitText("#clock-state", "running")
	p.waitText("#window-count", "100")
	before := p.text("#clock")
	start := time.Now()
	frames := p.eval(`new Promise(done => { let n = 0; const t0 = performance.now();
		const f = () => { n++; if (performance.now() - t0 < 3000) requestAnimationFrame(f); else done(String(n)); };
		requestAnimationFrame(f); })`)
	real := time.Since(start)
	after := p.text("#clock")
	var s0, m0, s1, m1 int
	fmt.Sscanf(before, "t = %d.%d s", &s0, &m0)
	fmt.Sscanf(after, "t = %d.%d s", &s1, &m1)
	sim := time.Duration((s1-s0)*1000+(m1-m0)) * time.Millisecond
	n, _ := strconv.Atoi(frames)
	p.t.Logf("heavy load: %s browser frames in 3 s (%.0f fps); simulated clock moved %v in %v real",
		frames, float64(n)/3, sim, real.Round(time.Millisecond))
	if sim < real*6/10 {
		p.t.Errorf("simulated clock moved %v in %v real: the page cannot keep up", sim, real)
	}
	p.screenshot("8-sliding-window-log-heavy.png")
	p.click("#autofire")
	p.waitText("#autofire", "Auto-fire: off")
}

// testLabFrames: six lanes (every strategy), ten clients at 20 requests/s
// each (200/s), speed 1×, for 20 s of real time: the frame interval from
// requestAnimationFrame timestamps, p95 ≤ 20 ms and p99 ≤ 33 ms; no long
// task over 100 ms once the lab runs; the simulated clock keeps up.
func testLabFrames(p *page) {
	f := p.openLab(p.base + "/lab?" + labSetup(1).Values().Encode())
	f.waitCount(".lane[id^=lane-]", 6)
	f.waitText("#lab-clock-state", "running")
	time.Sleep(2 * time.Second) // start-up done; the strip fills up
	startClock := f.clockMs()
	start := time.Now()
	res := f.evalFor(`new Promise(done => {
		const long = [];
		let obs = null;
		try { obs = new PerformanceObserver(l => { for (const e of l.getEntries()) long.push(e.duration); });
			obs.observe({type: "longtask"}); } catch (e) { obs = null; }
		const ts = []; const t0 = performance.now();
		const f = (t) => { ts.push(t); if (t - t0 < 20000) requestAnimationFrame(f); else {
			if (obs) { for (const e of obs.takeRecords()) long.push(e.duration); obs.disconnect(); }
			const d = []; for (let i = 1; i < ts.length; i++) d.push(ts[i] - ts[i-1]);
			d.sort((a, b) => a - b);
			const q = (x) => d[Math.min(d.length - 1, Math.floor(d.length * x))];
			done([d.length, q(0.5), q(0.95), q(0.99), d[d.length-1], obs ? long.length : -1,
				long.length ? Math.max(...long) : 0, long.filter(x => x > 100).length].join(" ")); } };
		requestAnimationFrame(f); })`, 40*time.Second)
	real := time.Since(start)
	simMoved := time.Duration(f.clockMs()-startClock) * time.Millisecond
	var n, nLong, nOver int
	var p50, p95, p99, worst, maxLong float64
	fmt.Sscanf(res, "%d %g %g %g %g %d %g %d", &n, &p50, &p95, &p99, &worst, &nLong, &maxLong, &nOver)
	f.t.Logf("lab under load (6 lanes, 10 clients, 200 requests/s, 1×): %d frames in 20 s, interval p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms; %d long tasks (> 50 ms), longest %.0f ms; simulated clock moved %v in %v real; lane 1 allowed %s",
		n, p50, p95, p99, worst, nLong, maxLong, simMoved, real.Round(time.Millisecond), f.text("#lane-0-allowed"))
	report(f.t, "lab frame interval p95", fmt.Sprintf("%.2f ms (p50 %.2f ms, %d frames in 20 s)", p95, p50, n), "≤ 20 ms", p95 <= 20)
	report(f.t, "lab frame interval p99", fmt.Sprintf("%.2f ms (max %.2f ms)", p99, worst), "≤ 33 ms", p99 <= 33)
	if nLong < 0 {
		report(f.t, "lab long tasks over 100 ms", "not measurable (no PerformanceObserver longtask)", "0", false)
	} else {
		report(f.t, "lab long tasks over 100 ms", fmt.Sprintf("%d (%d over 50 ms, longest %.0f ms)", nOver, nLong, maxLong), "0", nOver == 0)
	}
	if simMoved < real*8/10 {
		f.t.Errorf("simulated clock moved %v in %v real: the lab cannot keep up", simMoved, real)
	}
	f.screenshot("lab-7-six-lanes-under-load.png")
}

// labSetup is the load: six lanes (every strategy, same budget),
// ten Poisson clients at 20 requests/s each, at the given speed.
func labSetup(speed float64) sim.Setup {
	var lanes []sim.LaneSpec
	for _, k := range limiter.Kinds {
		c, _ := sim.SameBudget(k, 50, time.Second)
		lanes = append(lanes, sim.LaneSpec{Config: c})
	}
	var clients []sim.Client
	for i := range 10 {
		clients = append(clients, sim.Client{Name: fmt.Sprintf("c%d", i+1), Pattern: sim.Pattern{Kind: sim.PatternPoisson, Rate: 20}, Weight: 1})
	}
	return sim.Setup{Lanes: lanes, Clients: clients, Seed: 7, Speed: speed, Worst: time.Second}
}

// testMemory: the lab under the same load at 10× for benchMinutes of real
// time, in a fresh browser with precise memory figures: the Go instance's
// linear memory (WebAssembly.Memory byteLength) and the JS heap
// (performance.memory.usedJSHeapSize after a full GC) at the end, within
// 10 % of their size after the first minute.
func testMemory(t *testing.T, chromium, base string) {
	total := time.Duration(*benchMinutes * float64(time.Minute))
	fmt.Printf("memory run: %v of real time at 10× speed (BENCH_UI_MINUTES=%g)\n", total, *benchMinutes)
	b := newBrowser(t, chromium, chromedp.Flag("enable-precise-memory-info", true), chromedp.Flag("js-flags", "--expose-gc"))
	b.onNewDocument(t, readyScript(`false`))
	p := b.page(t, base).openLab(base + "/lab?" + labSetup(10).Values().Encode())
	p.waitCount(".lane[id^=lane-]", 6)
	p.waitText("#lab-clock-state", "running")
	start := time.Now()
	startClock := p.clockMs()
	sample := func() (wasm, heap float64) {
		if err := b.collectGarbage(); err != nil {
			t.Logf("HeapProfiler.collectGarbage: %v", err)
		}
		res := p.eval(`(() => { const w = window.__benchWasm; return (w ? w.exports.mem.buffer.byteLength : -1) + " " +
			(performance.memory ? performance.memory.usedJSHeapSize : -1); })()`)
		fmt.Sscanf(res, "%g %g", &wasm, &heap)
		return
	}
	first := time.Minute
	if first > total {
		first = total / 2
	}
	var w0, h0 float64
	for next := first; ; next += time.Minute {
		if next > total {
			next = total
		}
		time.Sleep(time.Until(start.Add(next)))
		w, h := sample()
		simS := float64(p.clockMs()-startClock) / 1000
		t.Logf("memory at %v: wasm linear memory %s, JS heap %s; simulated %.0f s (%.1f× real); lane 1 allowed %s",
			next, mib(w), mib(h), simS, simS/time.Since(start).Seconds(), p.text("#lane-0-allowed"))
		if next == first {
			w0, h0 = w, h
		}
		if next >= total {
			break
		}
	}
	w1, h1 := sample()
	real := time.Since(start)
	simS := float64(p.clockMs()-startClock) / 1000
	if w0 <= 0 || h0 <= 0 {
		t.Fatalf("memory not measurable: wasm %g, heap %g (the wasm instance hook or performance.memory is missing)", w0, h0)
	}
	// Not a bound: at 10× the lab's clock falls behind when the machine is
	// loaded (it clamps large frame gaps); the figure says how far it got.
	fmt.Printf("memory run: simulated %.0f s in %v real (%.1f× real; 10× asked)\n", simS, real.Round(time.Second), simS/real.Seconds())
	grow := func(a, b float64) float64 { return (b - a) / a * 100 }
	span := fmt.Sprintf("after %v vs after %v at 10×", real.Round(time.Second), first)
	report(t, "wasm linear memory", fmt.Sprintf("%s vs %s (%+.1f %%, %s)", mib(w1), mib(w0), grow(w0, w1), span), "within 10 %", math.Abs(grow(w0, w1)) <= 10)
	report(t, "JS heap", fmt.Sprintf("%s vs %s (%+.1f %%, %s)", mib(h1), mib(h0), grow(h0, h1), span), "within 10 %", math.Abs(grow(h0, h1)) <= 10)
}

// testTraceImport: the longest task while the lab reads an access log of
// sim.MaxTraceLines lines (Long Tasks API), from choosing the file until
// the trace is replayed; the file is read in parts between frames.
func testTraceImport(p *page) {
	var b strings.Builder
	start := time.Date(1995, 8, 1, 0, 0, 0, 0, time.FixedZone("", -4*3600))
	for i := range sim.MaxTraceLines {
		fmt.Fprintf(&b, "h%d.example - - [%s] \"GET / HTTP/1.0\" 200 %d\n", i%5000, start.Add(time.Duration(i)*time.Second/4).Format("02/Jan/2006:15:04:05 -0700"), i)
	}
	path := filepath.Join(p.t.TempDir(), "access.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		p.t.Fatal(err)
	}
	f := p.openLab(p.base + "/lab")
	f.waitValue("#client-0-pattern", "poisson")
	f.pause()
	f.eval(`(() => {
		window.__longest = 0; window.__tasks = 0;
		window.__lt = new PerformanceObserver((l) => { for (const e of l.getEntries()) { window.__tasks++; window.__longest = Math.max(window.__longest, e.duration); } });
		window.__lt.observe({type: "longtask"});
		return ""; })()`)
	began := time.Now()
	ctx, cancel := context.WithTimeout(f.ctx, 60*time.Second)
	err := chromedp.Do(ctx, chromedp.SetUploadFiles("#trace-file", []string{path}))
	cancel()
	if err != nil {
		f.t.Fatal(err)
	}
	f.pollFor(120*time.Second, "#trace-status", "Replaying: access.log (200000 requests, 5000 clients)remove", func() string { return f.text("#trace-status") })
	took := time.Since(began)
	// Long tasks are reported after they end: give the last one time.
	time.Sleep(300 * time.Millisecond)
	var longest float64
	var tasks int
	fmt.Sscan(f.eval(`(() => { window.__lt.disconnect(); return window.__longest + " " + window.__tasks; })()`), &longest, &tasks)
	report(f.t, "lab trace import, longest task", fmt.Sprintf("%.0f ms (%d long tasks; %d-line access log read and loaded in %v)", longest, tasks, sim.MaxTraceLines, took.Round(time.Millisecond)), "≤ 50 ms", longest <= 50)
}
