//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/limiter"
)

// TestPlayground drives the playground (/) end to end; each subtest opens
// the page anew.
func TestPlayground(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	open := func(t *testing.T) *playgroundPage { return p.on(t).openPlayground() }

	t.Run("WasmEncodings", func(t *testing.T) { testWasmEncodings(t, base) })
	// A browser of its own: what the worker caches at install is seen
	// only on the first visit (a later one finds the wasm it kept).
	t.Run("ServiceWorker", func(t *testing.T) { testServiceWorker(&playgroundPage{openPage(t, chromium, base)}) })
	t.Run("TokenBucket", func(t *testing.T) { testTokenBucket(open(t)) })
	t.Run("BadInput", func(t *testing.T) { testBadInput(open(t)) })
	t.Run("SpaceAndBurst", func(t *testing.T) { testSpaceAndBurst(open(t)) })
	t.Run("SpaceOnFocusedButton", func(t *testing.T) { testSpaceOnButton(open(t)) })
	t.Run("SlidingWindowLog", func(t *testing.T) { testSlidingWindowLog(open(t)) })
	t.Run("AutofireScreenshot", func(t *testing.T) { testAutofire(open(t)) })
	t.Run("SliderArrowKeys", func(t *testing.T) { testSliderKeys(open(t)) })
}

// testServiceWorker: go-app's app.js registers the service worker, and its
// install caches the site's files but not the wasm (see workerJS).
func testServiceWorker(p *playgroundPage) {
	got := p.eval(`navigator.serviceWorker.ready.then(async (r) => {
		const names = await caches.keys();
		const paths = [];
		for (const n of names) for (const q of await (await caches.open(n)).keys()) paths.push(new URL(q.url).pathname);
		return [new URL(r.active.scriptURL).pathname, names.length, ["/", "/lab", "/learn", "/web/app.css", "/app.js"].filter((x) => paths.includes(x)).join(","), paths.filter((x) => x.endsWith(".wasm")).length].join(" ");
	})`)
	if want := "/app-worker.js 1 /,/lab,/learn,/web/app.css,/app.js 0"; got != want {
		p.t.Errorf("service worker, caches, pages and files cached, wasm cached: %q, want %q", got, want)
	}
	// Reloaded, the page is the worker's, which keeps its binary: with the
	// page and its files cached at install, the page opens offline.
	p.do(chromedp.Reload())
	p.do(chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")))
	p.waitText("h1", "Rate limiter playground")
	p.workerKeeps("/web/app.wasm")
}

// testSliderKeys: arrow keys move the logarithmic auto-fire slider. Its
// value keeps two significant digits, so several positions share one; the
// slider must stay where the keys put it rather than snap back to that
// value's own position (485 for 4/s, where → alone never got past 4).
func testSliderKeys(p *playgroundPage) {
	p.set("autofire-rate", "4", "4 requests/s")
	p.waitValue("#autofire-rate", "485")
	p.eval(`document.getElementById("autofire-rate").focus(), "ok"`)
	for range 12 {
		p.do(chromedp.KeyEvent(kb.ArrowRight))
	}
	// Position 497: 0.1 × 2000^0.497 = 4.37…, two digits: 4.4.
	p.waitValue("#autofire-rate", "497")
	p.waitText("#autofire-rate-value", "4.4 requests/s")
	p.waitValue("#autofire-rate-num", "4.4")
	p.do(chromedp.KeyEvent(kb.ArrowLeft))
	p.waitValue("#autofire-rate", "496")
	p.waitText("#autofire-rate-value", "4.3 requests/s")
}

// testTokenBucket is the scenario: capacity 3, refill 0.5/s, clock
// paused, four sends → 3 allowed, 1 denied, level 0.00 of 3, retry after 2 s;
// resumed, once a token is back the next request is allowed.
func testTokenBucket(p *playgroundPage) {
	p.useBucket("3", "0.5")
	// "Copy as Go" writes exactly this limit.
	if got, want := p.eval(`document.querySelector("#playground-go-code").textContent`), explain.GoProgram(explain.GoSetup{From: "the playground", Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 0.5, Burst: 3}}); got != want {
		p.t.Errorf("the playground's Go code =\n%s\nwant\n%s", got, want)
	}

	p.click("#pause")
	p.waitText("#clock-state", "paused")
	p.waitText("#pause", "Resume clock")
	p.waitText("#level", "3.00")
	for range 4 {
		p.click("#send")
	}
	p.waitText("#allowed-count", "3")
	p.waitText("#denied-count", "1")
	p.waitText("#level", "0.00")
	p.waitText("#level-of", " of 3 tokens")
	p.waitText("#retry-after", "2.00 s")
	p.waitText("#last-decision .verdict", "✕ denied")
	p.waitText("#last-decision .detail", "retry after 2.00 s")
	p.waitCount("#log li", 4)
	p.waitText("#log li:nth-child(2) .verdict", "✓ allowed")
	p.waitText("#log li:nth-child(2) .detail", "0 left")
	p.screenshot("1-token-bucket-denied.png")

	p.click("#pause")
	p.waitText("#clock-state", "running")
	p.pollLevelAtLeast(1.00, 10*time.Second)
	p.click("#send")
	p.waitText("#allowed-count", "4")
	p.waitText("#denied-count", "1")
	p.waitText("#last-decision .verdict", "✓ allowed")
	p.waitText("#retry-after", "—")
	p.screenshot("2-token-bucket-refilled.png")
}

// testBadInput: a bad number shows its error next to the field and the
// limiter keeps the last good value (here burst 3, refill rate 0.5/s); a
// good one clears the error.
func testBadInput(p *playgroundPage) {
	p.useBucket("3", "0.5")
	for _, c := range []struct{ id, in, msg string }{
		{"capacity-num", "", "⚠ burst is empty; want 1 to 100 tokens"},
		{"capacity-num", "150", "⚠ burst 150 is out of range; want 1 to 100 tokens"},
		{"capacity-num", "2.5", "⚠ burst 2.5 is not a whole number; want 1 to 100 tokens"},
		{"rate-num", "-1", "⚠ refill rate -1 is out of range; want 0 (no refill) or 0.001 to 50 tokens/s"},
	} {
		p.refused(c.id, c.in, c.msg)
	}
	// Typed (not set by script), 1e309 is bad input to the browser, which
	// then reports an empty value: the message must not say "empty".
	p.setNumber("capacity-num", "3")
	p.waitGone("#capacity-error")
	p.typeKeys("capacity-num", "1e309\r")
	p.waitText("#capacity-error", "⚠ burst is not a number the browser can read (too large, or not a number); want 1 to 100 tokens")
	p.waitAttr("#capacity-num", "aria-invalid", "true") // for screen readers, with its message
	p.waitAttr("#capacity-num", "aria-describedby", "capacity-error")
	p.waitText("#capacity-value", "3 tokens")
	p.waitText("#rate-value", "0.5 tokens/s")
	p.waitText("#level-of", " of 3 tokens") // the limiter's own burst
	p.screenshot("3-bad-input.png")
	// Empty, then typed 1e309: two texts the browser cannot read, with no
	// change event between them; the message follows the text.
	p.refused("capacity-num", "", "⚠ burst is empty; want 1 to 100 tokens")
	p.typeKeys("capacity-num", "1e309\r")
	p.waitText("#capacity-error", "⚠ burst is not a number the browser can read (too large, or not a number); want 1 to 100 tokens")
	p.setNumber("capacity-num", "3")
	p.waitGone("#capacity-error")
	p.waitAttr("#capacity-num", "aria-invalid", "null")
	p.waitAttr("#capacity-num", "aria-describedby", "null")
	p.setNumber("rate-num", "0.5")
	p.waitGone("#rate-error")
	// Text typed but not applied does not follow a strategy switch into the
	// other strategy's field.
	// (The case that showed it: burst and limit equal, so go-app saw no
	// change to the field's value attribute.)
	p.click("#strategy-sliding_window_log")
	p.waitCount("#limit-value", 1)
	limit, _, _ := strings.Cut(p.text("#limit-value"), " ") // "10 requests"
	p.click("#strategy-token_bucket")
	p.waitCount("#capacity-num", 1)
	p.set("capacity", limit, limit+" tokens")
	p.eval(`(() => { const el = document.getElementById("capacity-num"); el.value = "7"; return el.value; })()`)
	p.click("#strategy-sliding_window_log")
	p.waitText("#limit-value", limit+" requests")
	p.waitValue("#limit-num", limit)
	p.click("#strategy-token_bucket")
	p.waitCount("#capacity-num", 1)
	p.waitValue("#capacity-num", limit)
	p.set("capacity", "3", "3 tokens")
}

// TestPlaygroundLegibility: the strategy buttons' focus ring, stacks of
// marks that stay in their area and count what they do not draw, short
// numbers in messages that wrap on a phone, and the retry-after countdown.
// Each subtest opens the page anew, with the clock paused.
func TestPlaygroundLegibility(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	paused := func(t *testing.T) *playgroundPage {
		g := p.on(t).openPlayground()
		g.pause()
		return g
	}

	t.Run("StrategyFocusRing", func(t *testing.T) { testStrategyFocusRing(paused(t)) })
	t.Run("StackedMarks", func(t *testing.T) { testStackedMarks(paused(t)) })
	t.Run("TinyNumberMessage", func(t *testing.T) { testTinyNumberMessage(paused(t)) })
	t.Run("RetryCountdown", func(t *testing.T) { testRetryCountdown(paused(t)) })
	t.Run("CountOverNowLine", func(t *testing.T) { testCountOverNowLine(paused(t)) })
	t.Run("ButtonsStayPut", func(t *testing.T) { testButtonsStayPut(paused(t)) })
}

// testButtonsStayPut: the verdict under Send redraws on its own frame loop
// and its text changes length ("no request yet", "#1–#6 ✓ 5 allowed, ✕ 1
// denied retry after 1.00 s"); Burst, below it, stays where it is through Burst ×6 and Reset,
// frame by frame, on a desktop and a phone, so a pointer over it does not
// miss.
func testButtonsStayPut(p *playgroundPage) {
	for _, v := range [][2]int64{{1280, 800}, {390, 844}} {
		p.do(chromedp.EmulateViewport(v[0], v[1]))
		p.reset()
		p.waitText("#send-decision", "no request yet")
		tops := func(click string) string {
			return p.eval(fmt.Sprintf(`new Promise((resolve) => {
				const b = document.getElementById("burst"), top = () => b.getBoundingClientRect().top + scrollY;
				const first = top(), moved = [];
				document.getElementById(%q).click();
				let n = 0;
				const tick = () => {
					if (top() !== first) moved.push("frame " + n + ": " + first + " → " + top());
					if (++n < 10) requestAnimationFrame(tick); else resolve(moved.join(", "));
				};
				requestAnimationFrame(tick);
			})`, click))
		}
		if moved := tops("burst"); moved != "" {
			p.t.Errorf("%dx%d: Burst moved after Burst ×5: %s", v[0], v[1], moved)
		}
		p.setBurstN(6)
		p.reset()
		p.click("#burst")
		p.waitText("#send-decision", "#1–#6✓ 5 allowed,✕ 1 deniedretry after 1.00 s")
		if moved := tops("reset"); moved != "" {
			p.t.Errorf("%dx%d: Burst moved after Reset: %s", v[0], v[1], moved)
		}
		p.waitText("#send-decision", "no request yet")
	}
	p.do(chromedp.EmulateViewport(1360, 940))
}

// testStrategyFocusRing: reached with the keyboard, a strategy button shows
// its ring, drawn outside the button and not clipped by the group (which
// had overflow: hidden).
func testStrategyFocusRing(p *playgroundPage) {
	for _, c := range []struct{ id, back string }{
		{"strategy-token_bucket", "Tab, Shift+Tab"},
		{"strategy-sliding_window_log", "Shift+Tab, Tab"},
	} {
		p.eval(fmt.Sprintf(`(() => { const b = document.getElementById(%q); b.scrollIntoView({block: "center"}); b.focus(); return ""; })()`, c.id))
		if c.back == "Tab, Shift+Tab" {
			p.do(chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
		} else {
			p.do(chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)), chromedp.KeyEvent(kb.Tab))
		}
		got := p.eval(`(() => { const b = document.activeElement, cs = getComputedStyle(b);
			return [b.id, b.matches(":focus-visible"), cs.outlineStyle, cs.outlineWidth, cs.outlineColor, cs.outlineOffset,
				getComputedStyle(b.parentElement).overflow].join(" "); })()`)
		if want := c.id + " true solid 2px rgb(9, 105, 218) 2px visible"; got != want {
			p.t.Errorf("after %s: focused, :focus-visible, outline, offset, group overflow = %q, want %q", c.back, got, want)
		}
		// The ring as drawn: 2 to 4 px outside the button on each side.
		var r struct{ L, T, R, B float64 }
		if err := json.Unmarshal([]byte(p.eval(`JSON.stringify((() => { const r = document.activeElement.getBoundingClientRect(); return {L: r.left, T: r.top, R: r.right, B: r.bottom}; })())`)), &r); err != nil {
			p.t.Fatal(err)
		}
		midX, midY := (r.L+r.R)/2, (r.T+r.B)/2
		img := p.viewport()
		for _, pt := range []struct {
			side string
			x, y float64
		}{{"left", r.L - 3, midY}, {"right", r.R + 3, midY}, {"top", midX, r.T - 3}, {"bottom", midX, r.B + 3}} {
			if got := pixel(img, pt.x, pt.y); got != "rgb(9, 105, 218)" {
				p.t.Errorf("%s: the ring's %s side at (%.0f, %.0f) is %s, want rgb(9, 105, 218)", c.id, pt.side, pt.x, pt.y, got)
			}
		}
	}
	p.screenshot("8-strategy-focus-ring.png")
	p.eval(`(() => { document.activeElement.blur(); return ""; })()`)
}

// testStackedMarks: Burst ×30 on a bucket of 5, paused: 5 ✓ and 25 ✕ at
// one instant. Each stack stays between the axis and the time labels: the
// ✕ stack draws 5 marks and counts the rest, "+20". Checked on a desktop
// and a phone, under "now" and, 6 s later, under "−6 s".
func testStackedMarks(p *playgroundPage) {
	p.reset()
	p.waitText("#clock", "t = 0.000 s")
	p.burst(30)
	p.waitText("#allowed-count", "5")
	p.waitText("#denied-count", "25")
	p.waitCount("#marks use[href='#m-ok']", 5)
	p.waitCount("#marks use[href='#m-no']", 5)
	p.waitText("#marks", "+20")
	overlaps := `(() => {
		const box = (e) => e.getBoundingClientRect(), fig = box(document.getElementById("figure"));
		const labels = [...document.querySelectorAll("#ticks text")];
		const out = [];
		for (const m of document.querySelectorAll("#marks use, #marks text")) {
			const r = box(m), name = m.textContent || m.getAttribute("href");
			if (r.top < fig.top || r.bottom > fig.bottom || r.left < fig.left || r.right > fig.right) out.push(name + " outside the figure");
			for (const l of labels) {
				const q = box(l);
				if (r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom) out.push(name + " on " + l.textContent);
			}
		}
		return out.length ? [...new Set(out)].join(", ") : "none";
	})()`
	// The stack sits on a label's column, so that a label could be hit.
	under := func(label string) string {
		return p.eval(fmt.Sprintf(`(() => { const l = [...document.querySelectorAll("#ticks text")].find((e) => e.textContent === %q);
			const m = [...document.querySelectorAll("#marks text")][0];
			if (!l || !m) return "missing";
			const a = l.getBoundingClientRect(), b = m.getBoundingClientRect();
			return String(a.left < b.right && b.left < a.right); })()`, label))
	}
	defer p.do(chromedp.EmulateViewport(1360, 940))
	for _, w := range []int64{1360, 390} {
		p.do(chromedp.EmulateViewport(w, 1400))
		p.poll(fmt.Sprintf("at %d px, the stack under now", w), "true", func() string { return under("now") })
		p.poll(fmt.Sprintf("at %d px, marks outside the figure or on a time label", w), "none", func() string { return p.eval(overlaps) })
	}
	p.screenshot("9-stacked-marks-phone.png")
	for range 6 {
		p.click("#step-1s")
	}
	p.waitText("#clock", "t = 6.000 s")
	p.poll("at 390 px, the stack under −6 s", "true", func() string { return under("−6 s") })
	p.poll("at 390 px, 6 s later: marks outside the figure or on a time label", "none", func() string { return p.eval(overlaps) })
	p.waitText("#marks", "+20")
	p.setBurstN(5)
}

// testCountOverNowLine: Burst ×30 on a bucket of 20, paused: 20 ✓ and 10
// ✕ at one instant, the stacks' counts "+15" and "+5" on the dashed "now"
// line. Each count is painted after the line on an opaque box the panel's
// colour (the filter #count-bg), so the line changes no pixel of the
// count's box, in the light theme and the dark one.
func testCountOverNowLine(p *playgroundPage) {
	p.set("capacity", "20", "20 tokens")
	p.reset()
	p.waitText("#clock", "t = 0.000 s")
	p.waitText("#level", "20.00")
	p.burst(30)
	p.waitText("#allowed-count", "20")
	p.waitText("#denied-count", "10")
	p.poll("the stacks' counts", "+15 +5", func() string {
		return p.eval(`[...document.querySelectorAll("#marks text")].map((e) => e.textContent).join(" ")`)
	})
	got := p.eval(`(() => {
		const f = document.getElementById("count-bg");
		if (!f) return "no #count-bg";
		const flood = f.querySelector("feFlood"), comp = f.querySelector("feComposite");
		const ticks = document.getElementById("ticks");
		const counts = [...document.querySelectorAll("#marks text")].map((e) => [e.textContent, e.getAttribute("filter"),
			!!(ticks.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING)].join(" "));
		return [f.getAttribute("x"), f.getAttribute("y"), f.getAttribute("width"), f.getAttribute("height"),
			flood.getAttribute("flood-color"), flood.getAttribute("flood-opacity"), comp.getAttribute("in"), comp.getAttribute("operator"), ...counts].join(", ");
	})()`)
	if want := "-0.1, 0, 1.2, 1, #fff, 1, SourceGraphic, over, +15 url(#count-bg) true, +5 url(#count-bg) true"; got != want {
		p.t.Errorf("count backdrop (x, y, width, height, flood colour and opacity, composite) and counts (text, filter, after the ticks) = %q, want %q", got, want)
	}
	// Each count's box and the now line, in CSS pixels: the line runs
	// through the box, which is the case to check.
	type box struct {
		Text       string
		L, T, R, B float64
	}
	var boxes []box
	js := p.eval(`JSON.stringify((() => {
		const lines = document.querySelectorAll("#ticks > line"), now = lines[lines.length - 1].getBoundingClientRect();
		return [...document.querySelectorAll("#marks text")].map((e) => { const r = e.getBoundingClientRect();
			return {Text: e.textContent, L: r.left, T: r.top, R: r.right, B: r.bottom,
				Through: now.left > r.left && now.left < r.right && now.top < r.top && now.bottom > r.bottom}; });
	})())`)
	if err := json.Unmarshal([]byte(js), &boxes); err != nil {
		p.t.Fatal(err)
	}
	if !strings.Contains(js, `"Through":true`) || strings.Contains(js, `"Through":false`) {
		p.t.Fatalf("the now line does not run through each count's box: %s", js)
	}
	// The pixels of each count's box with the now line drawn and with it
	// hidden: the same, since the backdrop hides the line. Only the rows
	// wholly inside the box, whose edge rows blend with what is around.
	nowLine := `[...document.querySelectorAll("#ticks > line")].pop().style.visibility`
	lineIn := func() string {
		with := p.viewport()
		p.eval(`(() => { ` + nowLine + ` = "hidden"; return ""; })()`)
		without := p.viewport()
		p.eval(`(() => { ` + nowLine + ` = ""; return ""; })()`)
		var out []string
		for _, b := range boxes {
			n, first := 0, ""
			for x := int(math.Ceil(b.L)); x < int(b.R); x++ {
				for y := int(math.Ceil(b.T)); y < int(b.B); y++ {
					if w, wo := pixel(with, float64(x), float64(y)), pixel(without, float64(x), float64(y)); w != wo {
						if n++; first == "" {
							first = fmt.Sprintf(" (first at %d, %d: %s, %s without the line)", x, y, w, wo)
						}
					}
				}
			}
			out = append(out, b.Text+": "+strconv.Itoa(n)+first)
		}
		return strings.Join(out, ", ")
	}
	p.poll("light theme: pixels of the now line in each count's box", "+15: 0, +5: 0", lineIn)
	p.click("#theme-toggle")
	p.waitAttr("html", "data-theme", "dark")
	p.poll("dark theme: pixels of the now line in each count's box", "+15: 0, +5: 0", lineIn)
	p.screenshot("12-count-over-now-line-dark.png")
	p.click("#theme-toggle")
	p.waitAttr("html", "data-theme", "light")
	p.setBurstN(5)
	p.set("capacity", "5", "5 tokens")
}

// testTinyNumberMessage: a number far out of range is written short in
// its message (1e-300, not 300 zeros), and the message wraps on a phone.
func testTinyNumberMessage(p *playgroundPage) {
	p.do(chromedp.EmulateViewport(390, 1400))
	defer p.do(chromedp.EmulateViewport(1360, 940))
	for _, c := range []struct{ id, in, msg string }{
		{"rate-num", "1e-300", "⚠ refill rate 1e-300 is out of range; want 0 (no refill) or 0.001 to 50 tokens/s"},
		{"rate-num", "1e300", "⚠ refill rate 1e+300 is out of range; want 0 (no refill) or 0.001 to 50 tokens/s"},
		{"capacity-num", "0.000000000000000000000000000001", "⚠ burst 1e-30 is out of range; want 1 to 100 tokens"},
	} {
		p.refused(c.id, c.in, c.msg)
		p.poll("scrollWidth at 390 px after "+c.in, "390", func() string { return p.eval(`String(document.documentElement.scrollWidth)`) })
	}
	p.screenshot("10-tiny-number-phone.png")
	p.setNumber("rate-num", "1")
	p.waitGone("#rate-error")
	p.setNumber("capacity-num", "5")
	p.waitGone("#capacity-error")
}

// testRetryCountdown: the retry-after card counts down to the instant the
// last denial named, beside the live bucket; once that instant has passed
// (the clock stepped to it, then beyond), it says the wait is over, and a
// parameter changed since the denial shows "—". The card keeps its size
// through all of it.
func testRetryCountdown(p *playgroundPage) {
	p.reset()
	p.waitText("#clock", "t = 0.000 s")
	p.waitText("#clock-state", "paused")
	p.burst(6)
	p.waitText("#denied-count", "1")
	p.waitText("#retry-after", "1.00 s")
	p.waitText("#retry-after-of", "left of 1.00 s")
	card := `(() => { const r = document.getElementById("retry-after").closest(".stat").getBoundingClientRect();
		return r.width.toFixed(2) + "x" + r.height.toFixed(2); })()`
	size := p.eval(card)
	p.click("#step")
	p.waitText("#clock", "t = 0.100 s")
	p.waitText("#retry-after", "0.90 s")
	p.waitText("#retry-after-of", "left of 1.00 s")
	p.click("#reset")
	p.waitText("#clock", "t = 0.000 s")
	p.click("#burst")
	p.waitText("#denied-count", "1")
	p.waitText("#retry-after", "1.00 s")
	for range 9 {
		p.click("#step")
	}
	p.waitText("#clock", "t = 0.900 s")
	p.waitText("#retry-after", "0.10 s")
	p.waitText("#retry-after-of", "left of 1.00 s")
	p.click("#step") // to the instant the denial named
	p.waitText("#clock", "t = 1.000 s")
	p.waitText("#retry-after", "0 s")
	p.waitText("#retry-after-of", "the same request would now be allowed")
	p.poll("Retry-after card's size once the wait is over", size, func() string { return p.eval(card) })
	p.click("#step-1s")
	p.waitText("#clock", "t = 2.000 s")
	p.waitText("#level", "2.00")
	p.waitText("#level-of", " of 5 tokens")
	p.waitText("#retry-after", "0 s")
	p.waitText("#retry-after-of", "the same request would now be allowed")
	p.screenshot("11-retry-countdown.png")
	p.set("rate", "2", "2 tokens/s")
	p.waitText("#retry-after", "—")
	p.waitText("#retry-after-of", "parameters changed since the denial")
	p.poll("Retry-after card's size after a parameter change", size, func() string { return p.eval(card) })
	p.set("rate", "1", "1 token/s")
	p.click("#send")
	p.waitText("#last-decision .verdict", "✓ allowed")
	p.waitText("#retry-after", "—")
	p.waitText("#retry-after-of", "")
	p.poll("Retry-after card's size after an allowed request", size, func() string { return p.eval(card) })
}

// testSpaceOnButton: Space presses a button reached with the keyboard (the
// help's "Enter / Space"), and sends no request; after a mouse click on the
// same button, Space sends a request and presses nothing.
func testSpaceOnButton(p *playgroundPage) {
	p.reset()
	allowed, denied := "0", "0"
	state := p.text("#clock-state")
	other := map[string]string{"paused": "running", "running": "paused"}[state]
	// Focus Pause from the keyboard: Tab away and Shift+Tab back.
	p.eval(`(() => { document.getElementById("pause").focus(); return ""; })()`)
	p.do(chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
	if id := p.eval(`document.activeElement.id`); id != "pause" {
		p.t.Fatalf("focused %q after Tab, Shift+Tab; want pause", id)
	}
	p.do(chromedp.KeyEvent(" "))
	p.waitText("#clock-state", other)
	if a, d := p.text("#allowed-count"), p.text("#denied-count"); a != allowed || d != denied {
		p.t.Errorf("Space on the focused Pause sent a request: %s/%s allowed/denied, were %s/%s", a, d, allowed, denied)
	}
	// A mouse click leaves Pause focused, but Space sends.
	p.click("#pause")
	p.waitText("#clock-state", state)
	p.do(chromedp.KeyEvent(" "))
	p.poll("requests decided", "1", func() string {
		a, _ := strconv.Atoi(p.text("#allowed-count"))
		d, _ := strconv.Atoi(p.text("#denied-count"))
		a0, _ := strconv.Atoi(allowed)
		d0, _ := strconv.Atoi(denied)
		return strconv.Itoa(a + d - a0 - d0)
	})
	if s := p.text("#clock-state"); s != state {
		p.t.Errorf("Space after a click on Pause changed the clock to %q", s)
	}
}

// testSpaceAndBurst: after a reset (fresh bucket of 3, paused), Space sends
// one request and Burst ×4 sends four.
func testSpaceAndBurst(p *playgroundPage) {
	p.useBucket("3", "0.5")
	p.click("#pause")
	p.waitText("#clock-state", "paused")
	p.reset()
	p.waitText("#clock", "t = 0.000 s")
	p.waitText("#level", "3.00")

	p.do(chromedp.KeyEvent(" "))
	p.waitText("#allowed-count", "1")
	p.waitText("#level", "2.00")

	p.burst(4)
	p.waitText("#allowed-count", "3")
	p.waitText("#denied-count", "2")
	p.waitText("#level", "0.00")
	p.waitCount("#log li", 5)
	p.screenshot("4-space-and-burst.png")

	// A refused N keeps the last good one; Reset clears the message and
	// puts the field back to the N in use.
	p.refused("burst-n", "500", "⚠ N 500 is out of range; want 1 to 100 requests")
	p.waitAttr("#burst-n", "aria-describedby", "burst-n-error")
	p.waitText("#burst", "Burst ×4")
	p.click("#reset")
	p.waitGone("#burst-n-error")
	p.waitAttr("#burst-n", "aria-invalid", "null")
	p.waitValue("#burst-n", "4")
	p.waitText("#allowed-count", "0")
	p.waitText("#denied-count", "0")
}

// testSlidingWindowLog is the second scenario: limit 2, window 1 s,
// three sends → 2 allowed, 1 denied; once the window has passed (the clock
// stepped by 1 s while paused) the next is allowed.
func testSlidingWindowLog(p *playgroundPage) {
	p.pause()
	p.click("#strategy-sliding_window_log")
	p.waitAttr("#strategy-sliding_window_log", "aria-pressed", "true")
	p.waitText("#allowed-count", "0")
	p.waitText("#denied-count", "0")
	p.setRange("limit", "2")
	p.waitText("#limit-value", "2 requests")
	p.setRange("window", "1")
	p.waitText("#window-value", "1 s")
	p.waitValue("#window-num", "1")
	p.waitText("#clock-state", "paused")
	for range 3 {
		p.click("#send")
	}
	p.waitText("#allowed-count", "2")
	p.waitText("#denied-count", "1")
	p.waitText("#window-count", "2")
	p.waitText("#window-of", " of 2 allowed")
	p.waitText("#retry-after", "1.00 s")
	p.waitText("#last-decision .detail", "retry after 1.00 s")
	p.waitCount("#marks use[href='#m-ok']", 2)
	p.waitCount("#marks use[href='#m-no']", 1)
	p.screenshot("5-sliding-window-log-denied.png")

	clock := p.text("#clock")
	p.click("#step")
	p.waitText("#clock", addMs(p.t, clock, 100))
	p.waitText("#window-count", "2")
	p.click("#step-1s")
	p.waitText("#window-count", "0")
	p.waitCount("#marks use[href='#m-old']", 2)
	p.click("#send")
	p.waitText("#allowed-count", "3")
	p.waitText("#denied-count", "1")
	p.waitText("#window-count", "1")
	p.waitText("#last-decision .verdict", "✓ allowed")
	p.waitText("#last-decision .detail", "1 left")
	p.screenshot("6-sliding-window-log-expired.png")
}

// testAutofire: auto-fire at 4 requests/s against a token bucket of burst 5
// refilling at 2 tokens/s, for the README's screenshot.
func testAutofire(p *playgroundPage) {
	p.pause()
	p.click("#strategy-token_bucket")
	p.waitAttr("#strategy-token_bucket", "aria-pressed", "true")
	p.set("capacity", "5", "5 tokens")
	p.set("rate", "2", "2 tokens/s")
	p.set("autofire-rate", "4", "4 requests/s")
	p.click("#reset")
	p.click("#autofire")
	p.waitText("#autofire", "Auto-fire: on")
	p.click("#pause")
	p.waitText("#clock-state", "running")
	// 4/s against 2/s: once the burst is spent, about half are denied.
	deadline := time.Now().Add(20 * time.Second)
	for {
		d, _ := strconv.Atoi(p.text("#denied-count"))
		if d >= 6 {
			break
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("auto-fire: %d denied after 20 s, want >= 6", d)
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	p.screenshot("7-token-bucket-autofire.png")
	p.click("#autofire")
	p.waitText("#autofire", "Auto-fire: off")
}

// testWasmEncodings: the wasm is served pre-compressed, brotli to browsers
// that accept it, else gzip, else plain, and go-app's app.js fetches it.
func testWasmEncodings(t *testing.T, base string) {
	for _, name := range []string{"app.wasm"} {
		size := func(suffix string) int64 { return fileSize(t, filepath.Join(repoRoot, "web", name+suffix)) }
		for _, c := range []struct {
			accept, encoding string
			size             int64
		}{
			{"gzip, deflate, br, zstd", "br", size(".br")}, // Chromium
			{"gzip, deflate", "gzip", size(".gz")},
			{"identity", "", size("")},
		} {
			req, _ := http.NewRequest("GET", base+"/web/"+name, nil)
			req.Header.Set("Accept-Encoding", c.accept)
			resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			n, _ := io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != c.encoding || n != c.size {
				t.Errorf("%s, Accept-Encoding %q: status %d, Content-Encoding %q, %d bytes; want 200, %q, %d bytes",
					name, c.accept, resp.StatusCode, resp.Header.Get("Content-Encoding"), n, c.encoding, c.size)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/wasm" {
				t.Errorf("%s, Accept-Encoding %q: Content-Type %q, want application/wasm", name, c.accept, ct)
			}
		}
	}
	get := func(path string) string {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return string(b)
	}
	if js := get("/app.js"); !strings.Contains(js, `fetchWithProgress("/web/app.wasm", showProgress)`) {
		t.Error("app.js does not fetch the one wasm, /web/app.wasm")
	}
}
