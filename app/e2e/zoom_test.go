//go:build e2e

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestZoom drives the zoomable time axes: the lab's lanes on the
// window-edge attack, and the playground's timeline.
func TestZoom(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	t.Run("LabKeys", func(t *testing.T) { testZoomLabKeys(p.on(t)) })
	t.Run("LabButtons", func(t *testing.T) { testZoomLabButtons(p.on(t)) })
	t.Run("LabWheel", func(t *testing.T) { testZoomLabWheel(p.on(t)) })
	t.Run("Playground", func(t *testing.T) { testZoomPlayground(p.on(t)) })
}

// zoomEdgeLab opens the lab on the window-edge attack (default lanes: fixed
// window, sliding window log, token bucket, 10 per 1 s), run for exactly
// 10 s, paused, at 1360×940 (on a phone the setup, with the presets, is
// one tap away).
func (p *page) zoomEdgeLab() *labPage {
	p.do(chromedp.EmulateViewport(1360, 940))
	f := p.openLab(p.base + "/lab")
	f.loadPreset("edge")
	f.waitValue("#client-0-pattern", "edge")
	f.runSeconds(10)
	f.waitText("#lane-0-allowed", "100")
	f.waitText("#lab-zoom-shown", "0.5–10.5 s · 1 ms = 0.06 px")
	return f
}

// subpaths splits the d of the path sel into its "M…" parts.
func (p *page) subpaths(sel string) []string {
	d := p.eval(fmt.Sprintf(`(document.querySelector(%q) || {getAttribute: () => ""}).getAttribute("d") || ""`, sel))
	var out []string
	for _, s := range strings.Split(d, "M")[1:] {
		out = append(out, "M"+s)
	}
	return out
}

// laneMarks is lane i's merged marks (✓ and ✕) and its rungs, one per
// request of a burst, as drawn (only the visible window is drawn).
func (p *page) laneMarks(i int) (merged int, rungs []string) {
	id := "#lane-" + strconv.Itoa(i)
	merged = len(p.subpaths(id+"-ok")) + len(p.subpaths(id+"-no"))
	return merged, append(p.subpaths(id+"-stack-ok"), p.subpaths(id+"-stack-no")...)
}

// checkEdgeZoomed checks the lanes zoomed to 1 ms ≥ 20 px on the edge
// attack: the fixed window lane shows exactly 20 request marks, two stacks
// of 10 rungs at 0.990 s and 1.000 s at least 200 px apart, and its window
// boundary at 1.000 s: right of the 0.990 s stack, through the 1.000 s one
// (the window [1 s, 2 s) starts there and holds that burst).
func (p *page) checkEdgeZoomed() {
	p.t.Helper()
	p.poll("1 ms in px", "1 ms = 20 px", func() string {
		s := p.text("#lab-zoom-shown")
		return s[strings.Index(s, "·")+len("· "):]
	})
	merged, rungs := p.laneMarks(0)
	if merged != 0 || len(rungs) != 20 {
		p.t.Fatalf("fixed window lane zoomed: %d merged marks and %d rungs, want 0 and 20", merged, len(rungs))
	}
	xs := map[float64]int{}
	var order []float64
	for _, r := range rungs {
		var x, y, h float64
		if _, err := fmt.Sscanf(r, "M%g %gh%g", &x, &y, &h); err != nil {
			p.t.Fatalf("rung %q: %v", r, err)
		}
		if xs[x+h/2] == 0 {
			order = append(order, x+h/2)
		}
		xs[x+h/2]++
	}
	if len(order) != 2 || xs[order[0]] != 10 || xs[order[1]] != 10 {
		p.t.Fatalf("rungs by instant %v, want two stacks of 10", xs)
	}
	x990, x1000 := order[0], order[1]
	var xb float64
	if b := p.subpaths("#lane-0-bounds"); len(b) != 1 {
		p.t.Fatalf("window boundaries in view: %q, want one", b)
	} else if _, err := fmt.Sscanf(b[0], "M%g 2V48", &xb); err != nil {
		p.t.Fatal(err)
	}
	if !(x990 < xb && xb == x1000) {
		p.t.Errorf("0.990 s stack at x = %g, boundary at %g, 1.000 s stack at %g: want the boundary right of the first, at the second", x990, xb, x1000)
	}
	w, _ := strconv.ParseFloat(p.eval(`String(document.getElementById("lane-0-svg").getBoundingClientRect().width)`), 64)
	if px := (x1000 - x990) * w / 600; px < 199.5 {
		p.t.Errorf("0.990 s and 1.000 s are %.1f px apart on a %.0f px chart, want at least 200 (1 ms ≥ 20 px)", px, w)
	}
	// Every lane shares the window: the sliding window log's second burst
	// is 10 denied rungs at the same x.
	if _, r1 := p.laneMarks(1); len(r1) != 20 || len(p.subpaths("#lane-1-stack-no")) != 10 {
		p.t.Errorf("sliding window log lane zoomed: %d rungs (%d denied), want 20 (10)", len(r1), len(p.subpaths("#lane-1-stack-no")))
	}
	p.t.Logf("zoomed to %s: 0.990 s at x = %g, 1.000 s and the boundary at x = %g (%.0f px chart)", p.text("#lab-zoom-shown"), x990, x1000, w)
}

// checkEdgeFit checks the lanes back on the whole axis: 0.5–10.5 s, every
// second labelled.
func (p *page) checkEdgeFit() {
	p.t.Helper()
	p.poll("window shown", "0.5–10.5 s", func() string { return strings.Split(p.text("#lab-zoom-shown"), " · ")[0] })
	p.poll("axis labels", "1 s 2 s 3 s 4 s 5 s 6 s 7 s 8 s 9 s 10 s", func() string {
		return p.eval(`[...document.querySelectorAll("#axis text")].map(t => t.textContent).join(" ")`)
	})
	if _, rungs := p.laneMarks(0); len(rungs) != 100 {
		p.t.Errorf("fixed window lane on the whole axis: %d rungs, want 100 (ten bursts of 10)", len(rungs))
	}
	p.waitDisabled("#lab-zoom-fit", true)
}

// testZoomLabKeys: focus the fixed window lane, Home selects its first
// request (0.990 s), + zooms about it until 1 ms ≥ 20 px; Shift+→ pans,
// 0 fits.
func testZoomLabKeys(p *page) {
	f := p.zoomEdgeLab()
	f.do(chromedp.Focus("#lane-0-svg"))
	f.do(chromedp.KeyEvent(kb.Home))
	f.waitAttrOf("#lane-0-sel", "data-g", "0")
	for i := 0; i < 20 && f.eval(`String(document.getElementById("lab-zoom-in").disabled)`) != "true"; i++ {
		f.do(chromedp.KeyEvent("+"))
	}
	f.checkEdgeZoomed()
	f.screenshot("zoom-1-lab-keys.png")
	before := f.text("#lab-zoom-shown")
	f.do(chromedp.KeyEvent(kb.ArrowRight, chromedp.KeyModifiers(chromedp.ModifierShift)))
	f.poll("panned", "moved", func() string {
		if f.text("#lab-zoom-shown") != before {
			return "moved"
		}
		return "not yet"
	})
	f.do(chromedp.KeyEvent(kb.ArrowLeft, chromedp.KeyModifiers(chromedp.ModifierShift)))
	f.waitText("#lab-zoom-shown", before)
	f.waitAttrOf("#lane-0-sel", "data-g", "0") // Shift+arrows pan, they do not choose
	f.do(chromedp.KeyEvent("0"))
	f.checkEdgeFit()
	f.screenshot("zoom-2-lab-fit.png")
}

// testZoomLabButtons: the same with the buttons, at a projector's
// 1024×768 and a phone's 390×844.
func testZoomLabButtons(p *page) {
	for _, vp := range [][2]int64{{1024, 768}, {390, 844}, {1280, 800}} {
		f := p.zoomEdgeLab()
		f.do(chromedp.EmulateViewport(vp[0], vp[1]))
		f.do(chromedp.Focus("#lane-0-svg"))
		f.do(chromedp.KeyEvent(kb.Home))
		f.waitAttrOf("#lane-0-sel", "data-g", "0")
		for i := 0; i < 20 && f.eval(`String(document.getElementById("lab-zoom-in").disabled)`) != "true"; i++ {
			f.click("#lab-zoom-in")
		}
		f.checkEdgeZoomed()
		f.eval(`(() => { document.getElementById("lane-0").scrollIntoView({block: "start"}); return ""; })()`)
		f.screenshot(fmt.Sprintf("zoom-3-lab-buttons-%dx%d.png", vp[0], vp[1]))
		f.click("#lab-zoom-out")
		f.waitDisabled("#lab-zoom-in", false)
		f.click("#lab-zoom-fit")
		f.checkEdgeFit()
	}
	p.do(chromedp.EmulateViewport(1360, 940))
}

// testZoomLabWheel: Ctrl+wheel over the lane zooms about the pointer (the
// browser sends a trackpad's pinch the same way); a plain wheel over an
// unfocused chart scrolls the page and leaves the zoom alone.
func testZoomLabWheel(p *page) {
	f := p.zoomEdgeLab()
	f.eval(`(() => { document.getElementById("lane-0").scrollIntoView({block: "center"}); return ""; })()`)
	box := f.eval(`(() => { const r = document.getElementById("lane-0-svg").getBoundingClientRect(); return r.left + " " + r.top + " " + r.width; })()`)
	var left, top, width float64
	fmt.Sscanf(box, "%g %g %g", &left, &top, &width)
	// 0.995 s on the axis 0.5–10.5 s, on the strip's ✓ row.
	x, y := left+width*0.0495, top+22*width/600
	wheel := func(dy float64, mods ...chromedp.Modifier) {
		// CDP requires deltaX, and drops a zero one (omitempty): a
		// thousandth of a pixel sideways, which a vertical wheel ignores.
		delta := func(p *input.DispatchMouseEventParams) { p.DeltaX, p.DeltaY = 0.001, dy }
		f.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, x, y, delta, chromedp.ButtonModifiers(mods...)))
	}
	f.do(chromedp.Focus("#lab-pause")) // not the chart: a plain wheel is the page's
	scrolled := f.eval(`String(window.scrollY)`)
	wheel(300)
	f.poll("page scrolled by a plain wheel", "true", func() string { return f.eval(`String(window.scrollY > ` + scrolled + `)`) })
	f.waitText("#lab-zoom-shown", "0.5–10.5 s · 1 ms = 0.06 px")
	f.eval(`(() => { document.getElementById("lane-0").scrollIntoView({block: "center"}); return ""; })()`)
	box = f.eval(`(() => { const r = document.getElementById("lane-0-svg").getBoundingClientRect(); return r.left + " " + r.top + " " + r.width; })()`)
	fmt.Sscanf(box, "%g %g %g", &left, &top, &width)
	y = top + 22*width/600
	for i := 0; i < 10 && f.eval(`String(document.getElementById("lab-zoom-in").disabled)`) != "true"; i++ {
		// The pointer between the bursts at 0.990 s and 1.000 s, where
		// they are drawn now, as a user would keep it.
		_, rungs := f.laneMarks(0)
		var xs []float64
		for _, r := range rungs {
			var rx, ry, rh float64
			fmt.Sscanf(r, "M%g %gh%g", &rx, &ry, &rh)
			if c := rx + rh/2; len(xs) == 0 || xs[len(xs)-1] != c {
				xs = append(xs, c)
			}
		}
		if len(xs) < 2 {
			f.t.Fatalf("the bursts at 0.990 s and 1.000 s left the view: rungs at %v", xs)
		}
		mid := (xs[0] + xs[1]) / 2
		shownFrom, _ := strconv.ParseFloat(strings.Split(f.text("#lab-zoom-shown"), "–")[0], 64)
		if mid < 150 && shownFrom > 0.9 { // the window can move left
			// A zoom keeps the instant under the pointer in place: near
			// the left edge, the bursts would leave the view. Shift+wheel
			// pans them to the middle first, as a user would.
			shown := f.text("#lab-zoom-shown")
			wheel(-(300-mid)*width/600, chromedp.ModifierShift)
			f.poll("panned by Shift+wheel", "true", func() string { return strconv.FormatBool(f.text("#lab-zoom-shown") != shown) })
			f.t.Logf("Shift+wheel: %s → %s", shown, f.text("#lab-zoom-shown"))
			i--
			continue
		}
		x = left + mid*width/600
		// The page applies a wheel event in its own time: the next round
		// reads the marks only once this zoom is drawn, or it would pan
		// from where the bursts were before it.
		shown := f.text("#lab-zoom-shown")
		wheel(-300, chromedp.ModifierCtrl)
		f.poll("zoomed by Ctrl+wheel", "true", func() string { return strconv.FormatBool(f.text("#lab-zoom-shown") != shown) })
	}
	f.checkEdgeZoomed()
	f.screenshot("zoom-4-lab-wheel.png")
	wheel(3000, chromedp.ModifierCtrl)
	f.checkEdgeFit()
}

// testZoomPlayground: the playground's timeline zooms with its buttons and
// keys down to 1 ms = 20 px, and Fit (or 0) shows the last 10 s again.
func testZoomPlayground(p *page) {
	f := p.openPlayground()
	f.do(chromedp.EmulateViewport(1280, 800))
	defer f.do(chromedp.EmulateViewport(1360, 940))
	f.waitDisabled("#fig-zoom-fit", true)
	f.do(chromedp.Focus("#figure"))
	f.do(chromedp.KeyEvent("+"))
	f.waitDisabled("#fig-zoom-fit", false)
	for i := 0; i < 20 && f.eval(`String(document.getElementById("fig-zoom-in").disabled)`) != "true"; i++ {
		f.click("#fig-zoom-in")
	}
	f.poll("1 ms in px", "1 ms = 20 px", func() string {
		s := f.text("#fig-zoom-shown")
		return s[strings.Index(s, "·")+len("· "):]
	})
	// Paused, a request stays at now, which the zoom keeps in view (a
	// running clock moves it 20 px a ms).
	f.pause()
	f.click("#send")
	f.waitCount("#marks use[href='#m-ok']", 1)
	f.screenshot("zoom-5-playground-zoomed.png")
	f.do(chromedp.Focus("#figure"))
	f.do(chromedp.KeyEvent("0"))
	f.waitDisabled("#fig-zoom-fit", true)
	f.poll("ticks on the whole timeline", "true", func() string {
		return f.eval(`String([...document.querySelectorAll("#ticks text")].some(t => t.textContent === "now"))`)
	})
}

// waitDisabled waits until the button sel is disabled (or enabled).
func (p *page) waitDisabled(sel string, disabled bool) {
	p.t.Helper()
	p.poll(sel+" disabled", strconv.FormatBool(disabled), func() string {
		return p.eval(fmt.Sprintf(`String(document.querySelector(%q).disabled)`, sel))
	})
}
