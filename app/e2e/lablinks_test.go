//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLabLinks drives what a new user expected of the lab's links and
// first screen: a link that names a preset, a duration t, a zoom, or a
// part the lab does not read; bursts counted unzoomed; Send on a phone
// without opening the setup; presenting on a projector.
func TestLabLinks(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	t.Cleanup(func() { p.do(chromedp.EmulateViewport(1360, 940)) })
	p.do(chromedp.EmulateViewport(1360, 940))
	t.Run("Preset", func(t *testing.T) { p.t = t; testLabPresetLink(p) })
	t.Run("BadParts", func(t *testing.T) { p.t = t; testLabBadParts(p) })
	t.Run("DurationT", func(t *testing.T) { p.t = t; testLabDurationT(p) })
	t.Run("Zoom", func(t *testing.T) { p.t = t; testLabZoomLink(p) })
	t.Run("ZoomedState", func(t *testing.T) { p.t = t; testLabZoomedState(p) })
	t.Run("BurstCount", func(t *testing.T) { p.t = t; testLabBurstCount(p) })
	t.Run("PhoneSend", func(t *testing.T) { p.t = t; testLabPhoneSend(p) })
	t.Run("Presenting", func(t *testing.T) { p.t = t; testLabPresentingFirstScreen(p) })
}

// clickOnly is one client, alice, who sends only on clicks.
const clickOnly = "client=alice,1,,none"

// shareQuery is the query of the lab's share link.
func (l *labPage) shareQuery() url.Values {
	l.t.Helper()
	u, err := url.Parse(l.eval(`document.getElementById("share-link").value`))
	if err != nil {
		l.t.Fatal(err)
	}
	return u.Query()
}

// testLabPresetLink: /lab?preset=github adds the GitHub preset's lane
// after the default three, brings it into view, says which preset it is,
// reports nothing, and the link then carries the lane. A lane added with
// "+ Add a lane…" is brought into view too.
func testLabPresetLink(p *page) {
	f := p.openLab(p.base + "/lab?preset=github")
	f.waitCount(".lane[id^=lane-]", 4)
	f.waitText("#lane-3-config", "fixed window: 5000 per 1 h")
	f.waitText("#lane-3-preset summary", "Preset: GitHub REST API: 5,000 requests per hour")
	f.waitCount("#link-errors", 0)
	f.waitLaneInView(3)
	f.poll("the share link's lanes", "fixed_window,5000,1h0m0s", func() string {
		ls := f.shareQuery()["lane"]
		return ls[len(ls)-1]
	})
	g := f.openLab(p.base + "/lab?preset=edge")
	g.waitValue("#client-0-pattern", "edge")
	g.waitValue("#client-0-name", "mallory")
	g.waitCount("#link-errors", 0)
	if y := g.eval(`String(window.scrollY)`); y != "0" {
		g.t.Errorf("a traffic preset scrolled the page to %s px; want it left at the top", y)
	}
	g.addLane("token_bucket")
	g.waitCount(".lane[id^=lane-]", 4)
	g.waitLaneInView(3)
}

// waitLaneInView waits until the page has scrolled down to lane i: its top
// at the window's top (scrollIntoView "start"), or, at the page's end, the
// whole lane inside the window.
func (l *labPage) waitLaneInView(i int) {
	l.t.Helper()
	l.poll(fmt.Sprintf("lane %d in view, and whether the page scrolled", i+1), "in view, scrolled", func() string {
		return l.eval(fmt.Sprintf(`(() => { const r = document.getElementById("lane-%d").getBoundingClientRect();
			const ok = r.top > -2 && (r.top <= 2 || r.bottom <= innerHeight + 1);
			return (ok ? "in view" : "top at " + Math.round(r.top) + " px, bottom at " + Math.round(r.bottom) + " of " + innerHeight) + ", " + (window.scrollY > 0 ? "scrolled" : "not scrolled"); })()`, i))
	})
}

// testLabBadParts: an unknown preset and an unknown key are named above
// the lanes with what the lab takes; the rest of the link (seed 3) holds
// and the page works (a click is decided).
func testLabBadParts(p *page) {
	f := p.openLab(p.base + "/lab?" + clickOnly + "&preset=gitbub&lanes=token_bucket,1,1&seed=3&paused=1")
	f.waitCount("#link-errors li", 2)
	keys := "lane, client, tier, focus, seed, speed, trace, worst, as, burst, paused, t, zoom, preset"
	f.waitText("#link-errors li:nth-child(1)", `link: preset: "gitbub" is not a preset; want one of github, shopify, stripe, nginx-nodelay, nginx-delay, cloudflare, edge, noisy; ignored`)
	f.waitText("#link-errors li:nth-child(2)", `link: "lanes" is not a part of a lab link; the lab reads `+keys+"; ignored")
	f.waitValue("#seed", "3")
	f.waitCount(".lane[id^=lane-]", 3)
	b := f.boxes("link-errors", "lane-0")
	if b["link-errors"].Bottom > b["lane-0"].Top {
		f.t.Errorf("the banner ends at %.0f px, under the first lane's top %.0f px; want it above the lanes", b["link-errors"].Bottom, b["lane-0"].Top)
	}
	f.click("#fire")
	f.waitText("#lane-0-allowed", "1")
	f.waitText("#lane-2-allowed", "1")
}

// testLabDurationT: t takes a duration as the lessons' links do: 1.5s
// opens paused at 1.500 s and the page's own link says t=1.5; 250ms too;
// a bad t is said under the clock and the clock stays at 0.
func testLabDurationT(p *page) {
	f := p.openLab(p.base + "/lab?seed=9&paused=1&t=1.5s")
	f.waitText("#lab-clock", "t = 1.500 s")
	f.waitText("#lab-clock-state", "paused")
	f.poll("the share link's t", "1.5", func() string { return f.shareQuery().Get("t") })
	g := f.openLab(p.base + "/lab?seed=9&paused=1&t=250ms")
	g.waitText("#lab-clock", "t = 0.250 s")
	h := g.openLab(p.base + "/lab?seed=9&paused=1&t=1.5x")
	h.waitText("#clock-error", `⚠ link: t: "1.5x" is not a number of seconds or a duration; want seconds from 0 to 86400, as the lab's clock shows them (t=12.345), or a duration (1.5s, 250ms, 2m); using the default instant, t = 0 s`)
	h.waitText("#lab-clock", "t = 0.000 s")
}

// zoomShown is the zoom bar's window, without its scale.
func (l *labPage) zoomShown() string {
	s := l.text("#lab-zoom-shown")
	if i := strings.Index(s, " ·"); i >= 0 {
		return s[:i]
	}
	return s
}

// testLabZoomLink: a link with zoom=0.98,1.01 opens at that window, and
// the page's link keeps it; zooming out to the whole run drops it; a bad
// zoom is named in the banner and the lanes show the whole run.
func testLabZoomLink(p *page) {
	f := p.openLab(p.base + "/lab?seed=9&paused=1&t=2&zoom=0.98,1.01")
	f.waitText("#lab-clock", "t = 2.000 s")
	f.poll("the zoom", "0.98–1.01 s", f.zoomShown)
	f.poll("the share link's zoom", "0.98,1.01", func() string { return f.shareQuery().Get("zoom") })
	f.click("#lab-zoom-fit")
	f.poll("the zoom after Fit", "0–10 s", f.zoomShown)
	f.poll("the share link's zoom after Fit", "", func() string { return f.shareQuery().Get("zoom") })
	g := f.openLab(p.base + "/lab?seed=9&paused=1&t=2&zoom=1.01,0.98")
	g.waitText("#link-errors li", `link: zoom: "1.01,0.98" ends before it starts; want from < to (zoom=0.98,1.01); using the default zoom, the whole run following the clock`)
	g.waitText("#lab-clock", "t = 2.000 s")
	g.poll("the zoom", "0–10 s", g.zoomShown)
}

// testLabZoomedState: zoomed to 0.98–1.01 s on the window-edge attack
// (mallory's 10 requests at 0.990 s and 10 at 1.000 s), the fixed window's
// state line is at 0 before 0.990 s and full (10 of 10) from 0.990 s to
// 1.000 s, as the decisions say, where the 100 ms chart buckets drew one
// point at 1.000 s and a slope from the one at 0.900 s.
func testLabZoomedState(p *page) {
	f := p.openLab(p.base + "/lab?preset=edge&paused=1&t=1.5&zoom=0.98,1.01")
	f.waitText("#lab-clock", "t = 1.500 s")
	f.poll("the zoom", "0.98–1.01 s", f.zoomShown)
	f.waitText("#lane-0-config", "fixed window: 10 per 1 s")
	f.waitText("#lane-0-allowed", "20")
	// x = (t − 0.98 s) / 30 ms × 600; the state band's full height is y 104,
	// empty 136.
	f.poll("lane 1's state line from 0.980 s to 1.010 s", "before 0.990 s: 136; 0.9905–0.9995 s: 104", func() string {
		return f.eval(`(() => {
			const pts = document.getElementById("lane-0-state-line").getAttribute("points").trim().split(/\s+/).map(p => p.split(",").map(Number));
			const ys = (lo, hi) => [...new Set(pts.filter(([x]) => x > lo && x < hi).map(([, y]) => y))].join(",");
			return "before 0.990 s: " + ys(0, 199) + "; 0.9905–0.9995 s: " + ys(210, 390);
		})()`)
	})
}

// testLabBurstCount: unzoomed (0–10 s), Burst ×25 at 0.5 s on a fixed
// window of 10 per 1 s is one ✓ and one ✕ with their counts, ×10 and ×15;
// Burst ×5 at 2 s is a stack of five rungs.
func testLabBurstCount(p *page) {
	f := p.openLab(p.base + "/lab?" + clickOnly + "&burst=25&paused=1&t=0.5")
	f.waitText("#lab-clock", "t = 0.500 s")
	f.poll("the zoom", "0–10 s", f.zoomShown)
	f.click("#burst")
	f.waitText("#lane-0-allowed", "10")
	f.waitText("#lane-0-denied", "15")
	f.waitText("#lane-0-counts", "×10×15")
	f.waitText("#lane-2-counts", "×10×15")
	if ok, no := len(f.subpaths("#lane-0-ok")), len(f.subpaths("#lane-0-no")); ok != 1 || no != 1 {
		f.t.Errorf("the burst of 25: %d ✓ and %d ✕ marks, want 1 and 1", ok, no)
	}
	f.setNumber("burst-n", "5")
	f.waitText("#burst", "Burst ×5")
	f.click("#step-1s")
	f.click("#step-100ms")
	f.waitText("#lab-clock", "t = 1.600 s")
	f.click("#burst")
	f.waitText("#lane-0-allowed", "15")
	f.poll("the fixed window's rungs", "5", func() string { return strconv.Itoa(len(f.subpaths("#lane-0-stack-ok"))) })
	f.waitText("#lane-0-counts", "×10×15")
}

// testLabPhoneSend: on a 390 × 844 phone, Send and Burst stand beside the
// clock on the first screen with the setup closed; Send is decided in
// every lane, and the first lane's chart stays on the first screen.
func testLabPhoneSend(p *page) {
	p.emulate(screen{"phone-390x844", 390, 844, 1})
	defer p.do(chromedp.EmulateViewport(1360, 940))
	f := p.openLab(p.base + "/lab?" + clickOnly + "&paused=1")
	f.waitAttr("#setup-toggle", "aria-expanded", "false")
	b := f.boxes("lab-send", "lab-burst", "lab-pause", "step-1s", "lab-reset", "lane-0-svg")
	for _, id := range []string{"lab-send", "lab-burst", "lab-pause", "step-1s", "lab-reset", "lane-0-svg"} {
		inView(f.t, id, b[id], b["viewport"])
	}
	f.t.Logf("phone: Send at %.0f px, first chart %.0f to %.0f px of %.0f", b["lab-send"].Top, b["lane-0-svg"].Top, b["lane-0-svg"].Bottom, b["viewport"].Bottom)
	f.waitText("#lab-send", "Send")
	f.click("#lab-send")
	f.waitText("#lane-0-allowed", "1")
	f.waitText("#lane-1-allowed", "1")
	f.waitText("#lane-2-allowed", "1")
	f.click("#lab-burst")
	f.waitText("#lane-0-allowed", "10")
	f.waitText("#lane-0-denied", "1")
	f.waitAttr("#setup-toggle", "aria-expanded", "false")
	f.screenshot("lablinks-phone-send.png")
}

// testLabPresentingFirstScreen: presenting at 1024 × 768, the first lane's
// chart starts within 400 px, with the clock's controls, Send and the
// first lane's strategy on the first screen.
func testLabPresentingFirstScreen(p *page) {
	p.emulate(screen{"projector-1024x768", 1024, 768, 1})
	defer p.do(chromedp.EmulateViewport(1360, 940))
	f := p.openLab(p.base + "/lab?" + clickOnly + "&paused=1")
	f.do(chromedp.KeyEvent("p"))
	f.waitAttr("html", "data-present", "")
	ids := []string{"lab-clock", "lab-pause", "lab-send", "lab-burst", "step-1s", "speed", "lab-reset", "scrub", "lab-zoom-in", "lane-0-kind", "lane-0-config", "lane-0-svg"}
	b := f.boxes(ids...)
	for _, id := range ids {
		inView(f.t, id, b[id], b["viewport"])
	}
	if top := b["lane-0-svg"].Top; top > 400 {
		f.t.Errorf("presenting: the first chart starts at %.0f px, want at most 400", top)
	}
	f.t.Logf("presenting at 1024×768: first chart %.0f to %.0f px", b["lane-0-svg"].Top, b["lane-0-svg"].Bottom)
	f.click("#lab-send")
	f.waitText("#lane-0-allowed", "1")
	f.firstScreen("lablinks-presenting-1024x768.png")
	f.do(chromedp.KeyEvent("p"))
	f.waitAttr("html", "data-present", "null")
}
