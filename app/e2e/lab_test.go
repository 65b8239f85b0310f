//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/limiter"
)

// TestLab drives the comparison lab (/lab) end to end. Each subtest opens
// the page it starts from anew: the tab (tab.on(t)) to open its own links, or
// the default lab (lab(t)), or the playground.
func TestLab(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	tab := openPage(t, chromium, base)
	lab := func(t *testing.T) *labPage { return tab.on(t).openLab(base + "/lab") }

	t.Run("NavigateToLab", func(t *testing.T) { testLabNavigation(tab.on(t).openPlayground()) })
	t.Run("PageAddresses", func(t *testing.T) { testPageAddresses(tab.on(t)) })
	t.Run("WindowEdgeAttack", func(t *testing.T) { testLabEdgeAttack(lab(t)) })
	t.Run("Scrubber", func(t *testing.T) { testLabScrubber(lab(t)) })
	t.Run("CopiedLink", func(t *testing.T) { testLabLink(lab(t)) })
	t.Run("TamperedLink", func(t *testing.T) { testLabTamperedLink(tab.on(t)) })
	t.Run("MalformedCSV", func(t *testing.T) { testLabMalformedCSV(lab(t)) })
	t.Run("NASATrace", func(t *testing.T) { testLabNASA(lab(t)) })
	t.Run("TraceQuietsClients", func(t *testing.T) { testLabTraceQuiets(tab.on(t)) })
	t.Run("FarTrace", func(t *testing.T) { testLabFarTrace(tab.on(t)) })
	t.Run("RunToEndLargeTrace", func(t *testing.T) { testLabRunToEndLarge(tab.on(t)) })
	t.Run("Tiers", func(t *testing.T) { testLabTiers(tab.on(t)) })
	t.Run("QuizOnThisSetup", func(t *testing.T) { testLabQuiz(tab.on(t)) })
	t.Run("InspectorOnLane", func(t *testing.T) { testLabInspector(tab.on(t)) })
	t.Run("InspectorEveryStrategy", func(t *testing.T) { testLabInspectorEveryKind(tab.on(t)) })
	t.Run("ColumnFollowsChanges", func(t *testing.T) { testLabColumnFollows(tab.on(t)) })
	t.Run("LaneFieldsFollowKind", func(t *testing.T) { testLaneFieldsFollowKind(tab.on(t)) })
	t.Run("Overload", func(t *testing.T) { testLabOverload(tab.on(t)) })
	t.Run("ClientFieldMessages", func(t *testing.T) { testLabClientMessages(tab.on(t)) })
	t.Run("CopyLink", func(t *testing.T) { testLabCopy(tab.on(t)) })
	t.Run("CopyAsGo", func(t *testing.T) { testLabCopyAsGo(tab.on(t)) })
	t.Run("LinkCarriesChoices", func(t *testing.T) { testLabLinkChoices(tab.on(t)) })
	t.Run("LongTraceNames", func(t *testing.T) { testLabLongTraceNames(tab.on(t)) })
}

// testLabLongTraceNames: a trace's client names may be of any length (an
// IPv6 address has up to 45 characters; a file anything): at 390 px, names
// of 300 and 60,000 characters do not make the page scroll sideways (the
// "state of client" menu and the per-client totals took their width). The
// menu is bounded and the table cuts each name with an ellipsis; the full
// name is in a title.
func testLabLongTraceNames(p *page) {
	f := p.openLab(p.base + "/lab")
	f.waitValue("#client-0-pattern", "poisson")
	f.pause()
	f.do(chromedp.EmulateViewport(390, 844))
	defer f.do(chromedp.EmulateViewport(1360, 940))
	for _, n := range []int{300, 60000} {
		name := strings.Repeat("h", n)
		f.uploadTrace("long.csv", []byte("t_ms,client\n0,"+name+"\n5,"+name+"\n10,2001:db8::1\n"))
		f.waitText("#trace-status", "Replaying: long.csv (3 requests, 2 clients)remove")
		f.click("#run-trace")
		f.poll(fmt.Sprintf("the %d-character name in the totals", n), "true", func() string {
			return f.eval(`String([...document.querySelectorAll("#totals .client-name")].some(e => e.title.length === ` + strconv.Itoa(n) + `))`)
		})
		f.setSelect("focus", name)
		f.poll(fmt.Sprintf("menu's title with the %d-character name", n), strconv.Itoa(n), func() string {
			return f.eval(`String(document.getElementById("focus").title.length)`)
		})
		width := func() string {
			w := f.eval(`String(document.documentElement.scrollWidth)`)
			if v, _ := strconv.Atoi(w); v <= 390 {
				return "at most 390"
			}
			return w
		}
		f.poll(fmt.Sprintf("page width at 390 px with a %d-character name", n), "at most 390", width)
		// The name's cell is cut, not the page's width (10rem).
		if got := f.eval(`String(Math.max(...[...document.querySelectorAll("#totals .client-name")].map(e => e.getBoundingClientRect().width)) <= 170)`); got != "true" {
			f.t.Errorf("with a %d-character name, a name in the totals is wider than 170 px", n)
		}
		if got := f.eval(`String(document.getElementById("focus").getBoundingClientRect().right <= 390)`); got != "true" {
			f.t.Errorf("with a %d-character name, the menu reaches past 390 px", n)
		}
	}
	f.screenshot("lab-long-trace-names.png")
}

// testLabLinkChoices: the link carries the client whose state is drawn, the
// client a click sends as and the burst size; a bad one is named in the
// banner and falls back alone.
func testLabLinkChoices(p *page) {
	two := "client=alice,1,,poisson,8&client=bob,1,,steady,2&seed=1"
	f := p.openLab(p.base + "/lab?" + two + "&focus=bob&as=bob&burst=25")
	f.waitValue("#fire-as", "bob")
	f.waitValue("#burst-n", "25")
	f.waitText("#burst", "Burst ×25")
	f.waitValue("#focus", "bob")
	f.waitGone("#link-errors")
	// focus, as and burst of the share link and of the address bar.
	const parts = `(q => ["focus", "as", "burst"].map(k => q.get(k)).join(" "))`
	share := func() string {
		return f.eval(parts + `(new URL(document.getElementById("share-link").value).searchParams)`)
	}
	address := func() string { return f.eval(parts + `(new URLSearchParams(location.search))`) }
	f.poll("share link's focus, as and burst", "bob bob 25", share)
	f.poll("address bar's focus, as and burst", "bob bob 25", address)
	// Back to the defaults: the parts leave the link and the address bar.
	f.setSelect("fire-as", "alice")
	f.setNumber("burst-n", "10")
	f.setSelect("focus", "alice")
	f.poll("share link with the defaults", "  ", share)
	f.poll("address bar with the defaults", "  ", address)
	f.setSelect("fire-as", "bob")
	f.poll("address bar after choosing bob", " bob ", address)
	f.click("#fire")
	f.poll("bob's click counted", "true", func() string {
		return f.eval(`String(document.getElementById("totals").textContent.includes("bob"))`)
	})

	g := p.openLab(p.base + "/lab?" + two + "&focus=zed&as=zed&burst=0")
	g.waitCount("#link-errors li", 3)
	g.waitText("#link-errors li:nth-child(1)", `link: focus: "zed" is not a client of the link; want one of [alice bob]; using the default focus (the first client)`)
	g.waitText("#link-errors li:nth-child(2)", `link: as: "zed" is not a client of the link; want one of [alice bob]; sending as alice`)
	g.waitText("#link-errors li:nth-child(3)", "link: burst 0 is out of range; want 1 to 1000 requests; using Burst ×10")
	g.waitValue("#fire-as", "alice")
	g.waitValue("#burst-n", "10")
	g.waitValue("#focus", "alice")
	g.waitValue("#client-1-name", "bob")

	// "state of client" lists the setup's clients in order, one that only
	// clicks too; a name of 32 letters does not widen the page at 390 px.
	long := strings.Repeat("x", 32)
	w := p.openLab(p.base + "/lab?client=alice,1,,poisson,8&client=bob,1,,none&client=" + long + ",1,,steady,2")
	w.do(chromedp.EmulateViewport(390, 844))
	defer w.do(chromedp.EmulateViewport(1360, 940)) // also when the test stops early
	w.poll("state of client's options", "alice bob "+long, func() string {
		return w.eval(`[...document.querySelectorAll("#focus-list option")].map(o => o.value).join(" ")`)
	})
	w.setSelect("focus", long)
	w.poll("page width at 390 px", "390", func() string { return w.eval(`String(document.documentElement.scrollWidth)`) })
	w.do(chromedp.EmulateViewport(1360, 940))

	// nginx's limit_req with and without nodelay is one lane (the same
	// decisions): its note names both (it said "nodelay" for the queue).
	h := p.openLab(p.base + "/lab")
	h.addLane("preset:nginx-delay")
	h.waitCount(".lane[id^=lane-]", 4)
	h.waitText("#lane-3-preset summary", "Preset: nginx limit_req rate=10r/s burst=20 nodelay, or nginx limit_req rate=10r/s burst=20 (queue) (the same lane: the same decisions)")
	h.waitCount("#lane-3-preset a", 1)
	h.addLane("preset:github")
	h.waitCount(".lane[id^=lane-]", 5)
	h.waitText("#lane-4-preset summary", "Preset: GitHub REST API: 5,000 requests per hour")

	// A request sent while scrubbed continues from there: the page says
	// that what came after is dropped, before and after.
	h.runSeconds(3)
	h.setRange("scrub", "1000")
	h.waitText("#scrub-label", "showing t = 1.000 s of 3.000 s (replayed; Resume, a request or a step continues from here and drops what came after)")
	h.click("#fire")
	h.waitText("#scrub-label", "continued from t = 1.000 s: the run after it, to t = 3.000 s, was dropped; drag back to see every lane as it was")
	h.click("#step-1s")
	h.waitText("#lab-clock", "t = 2.000 s")
	h.click("#lab-reset")
	h.waitText("#scrub-label", "drag back to see every lane as it was")
}

// testLabNavigation: the playground links to the lab and back, in the same
// document with the one wasm, and each page sets its own title.
func testLabNavigation(p *playgroundPage) {
	if got := p.wasmLoaded(); !slices.Equal(got, []string{"/web/app.wasm"}) {
		p.t.Errorf("the playground loaded the wasm %q, want only /web/app.wasm", got)
	}
	p.waitText("#nav-lab", "Comparison lab")
	if got := p.followLink("#nav-lab", "Comparison lab"); !slices.Equal(got, []string{"/web/app.wasm"}) {
		p.t.Errorf("the lab loaded the wasm %q, want only /web/app.wasm", got)
	}
	p.waitText("#nav-playground", "Playground")
	p.waitCount(".lane[id^=lane-]", 3)
	if got := p.eval(`document.title`); got != "Comparison lab: rate-limiting strategies side by side" {
		p.t.Errorf("the lab's title is %q", got)
	}
	if got := p.followLink("#nav-playground", "Rate limiter playground"); !slices.Equal(got, []string{"/web/app.wasm"}) {
		p.t.Errorf("the playground loaded the wasm %q, want only /web/app.wasm", got)
	}
	if got := p.eval(`document.title`); got != "Rate limiter playground: token bucket and sliding window log" {
		p.t.Errorf("the playground's title is %q", got)
	}
	p.waitText("#nav-lab", "Comparison lab")
	if got := p.followLink("#nav-lab", "Comparison lab"); !slices.Equal(got, []string{"/web/app.wasm"}) {
		p.t.Errorf("the lab loaded the wasm %q, want only /web/app.wasm", got)
	}
	p.waitCount(".lane[id^=lane-]", 3)
}

// testLabColumnFollows: the left column shows changes made elsewhere: the
// lane buttons' lane count and "+ Add a lane…", and a trace named by the
// link once it has arrived. The totals' "throttles most" row is a table row
// (the page header's class "top" once made it a flex box).
func testLabColumnFollows(p *page) {
	f := p.openLab(p.base + "/lab")
	f.waitText("#lane-count", "3 of 6 lanes")
	for n := 4; n <= 6; n++ {
		f.click("#lane-0-dup")
		f.waitCount(".lane[id^=lane-]", n)
		f.waitText("#lane-count", strconv.Itoa(n)+" of 6 lanes")
	}
	f.waitAttr("#add-lane", "disabled", "")
	// The sixth lane disabled the focused Dup: the focus is on its lane's
	// strategy (not its ✕, where one Enter too many would remove it).
	active := func() string { return f.eval(`document.activeElement.id`) }
	f.poll("focus after Dup to the limit", "lane-0-kind", active)
	f.click("#lane-5-remove")
	f.waitCount(".lane[id^=lane-]", 5)
	f.waitText("#lane-count", "5 of 6 lanes")
	f.waitAttr("#add-lane", "disabled", "null")
	// The focus stays among the lane buttons: on the ✕ of the lane now
	// last, and after ↑ on the lane moved (its ↑ disabled at the top).
	f.poll("focus after ✕ on the last lane", "lane-4-remove", active)
	f.click("#lane-1-up")
	f.poll("focus after ↑ to the top", "lane-0-down", active)
	if got := f.eval(`getComputedStyle(document.querySelector("#totals tr.top")).display`); got != "table-row" {
		f.t.Errorf("the totals' \"throttles most\" row is display %q, want table-row", got)
	}
	// Five lanes: the totals' scroll box takes the focus, so the keyboard
	// can reach columns pushed out of view.
	f.eval(`(() => { document.getElementById("totals-wrap").focus(); return ""; })()`)
	f.poll("focus on the totals' scroll box", "totals-wrap", active)

	// A lane field's message follows its text: empty, then typed 1e309
	// (no change event between two texts the browser cannot read).
	f.setNumber("lane-0-p1-num", "")
	f.waitText("#lane-0-p1-error", "⚠ limit is empty; want 1 to 10000 requests")
	f.typeKeys("lane-0-p1-num", "1e309\r")
	f.waitText("#lane-0-p1-error", "⚠ limit is not a number the browser can read (too large, or not a number); want 1 to 10000 requests")

	q := sim.DefaultSetup()
	q.Trace = "nasa"
	f = p.openLab(p.base + "/lab?" + q.Values().Encode())
	f.waitNASATrace()
	f.waitAttr("#run-trace", "disabled", "null")
}

// testPageAddresses: an encoded path loads the page go-app routes it to;
// /lab/ redirects to /lab; the lessons link back to the lab.
func testPageAddresses(p *page) {
	l := p.freshAt(p.base+"/l%61b", "Comparison lab")
	l.waitCount(".lane[id^=lane-]", 3)
	if got := l.wasmLoaded(); !slices.Equal(got, []string{"/web/app.wasm"}) {
		p.t.Errorf("/l%%61b loaded the wasm %q, want only /web/app.wasm", got)
	}

	l = p.freshAt(p.base+"/lab/?seed=3", "Comparison lab")
	if got := l.eval(`location.pathname`); got != "/lab" {
		p.t.Errorf("/lab/ ended at %q, want /lab", got)
	}

	l = p.freshAt(p.base+"/learn", "Learn rate limiting")
	if got := l.followLink("#nav-lab", "Comparison lab"); !slices.Equal(got, []string{"/web/app.wasm"}) {
		p.t.Errorf("the lab, reached from /learn, loaded the wasm %q, want only /web/app.wasm", got)
	}
	l.waitCount(".lane[id^=lane-]", 3)
}

// edgeConfigs are the three lanes of the comparison, on the same budget of
// 10 requests per second.
var edgeConfigs = []limiter.Config{
	{Kind: limiter.KindFixedWindow, Limit: 10, Window: time.Second},
	{Kind: limiter.KindSlidingWindowLog, Limit: 10, Window: time.Second},
	{Kind: limiter.KindTokenBucket, Rate: 10, Burst: 10},
}

// edgeExpect computes, from package limiter alone, what each lane decides
// for the window-edge attack over 10 s: bursts of 10 at 0.99 s and 1 s,
// 2.99 s and 3 s, … 8.99 s and 9 s; and the most admitted in any 1 s.
func edgeExpect(t *testing.T, c limiter.Config) (allowed, denied int, worst int, start time.Duration) {
	s, err := limiter.New(c)
	if err != nil {
		t.Fatal(err)
	}
	var adm []time.Duration
	for b := time.Second; b <= 10*time.Second; b += 2 * time.Second {
		for _, at := range []time.Duration{b - 10*time.Millisecond, b} {
			for range 10 {
				d, err := s.AllowN(at, 1)
				if err != nil {
					t.Fatal(err)
				}
				if d.Allowed {
					allowed++
					adm = append(adm, at)
				} else {
					denied++
				}
			}
		}
	}
	lo := 0
	for hi := range adm {
		for adm[hi]-adm[lo] >= time.Second {
			lo++
		}
		if hi-lo+1 > worst {
			worst, start = hi-lo+1, adm[lo]
		}
	}
	return
}

// testLabEdgeAttack builds fixed window, sliding window log and token
// bucket on the same budget (10 per 1 s), runs the window-edge attack for
// exactly 10 simulated seconds (paused, ten steps of 1 s), and checks each
// lane's counts and worst case against the limiter package.
func testLabEdgeAttack(p *labPage) {
	p.useEdgeAttack()
	p.runSeconds(10)
	for i, c := range edgeConfigs {
		allowed, denied, worst, start := edgeExpect(p.t, c)
		id := fmt.Sprintf("#lane-%d", i)
		p.waitText(id+"-allowed", strconv.Itoa(allowed))
		p.waitText(id+"-denied", strconv.Itoa(denied))
		stretch := fmt.Sprintf("%d in 1 s at %s–%s s", worst,
			strconv.FormatFloat(start.Seconds(), 'f', -1, 64), strconv.FormatFloat((start+time.Second).Seconds(), 'f', -1, 64))
		p.waitText(id+"-worst", "all clients: "+stretch)
		p.waitText(id+"-worst-client", "one client (mallory): "+stretch) // the only client
		p.waitCount(id+"-worst-band", 1)
		p.t.Logf("lane %d: %s", i+1, p.text(id+"-worst"))
	}
	// The numbers app/sim's tests established for this attack.
	p.waitText("#lane-0-allowed", "100")
	p.waitText("#lane-0-worst", "all clients: 20 in 1 s at 0.99–1.99 s")
	p.waitText("#lane-1-allowed", "50")
	p.waitText("#lane-1-denied", "50")
	p.waitText("#lane-1-worst", "all clients: 10 in 1 s at 0.99–1.99 s")
	p.waitText("#lane-2-worst", "all clients: 10 in 1 s at 0.99–1.99 s")
	p.screenshot("lab-1-window-edge-attack.png")
	// Resume runs the clock again and Pause stops it, as often as clicked.
	for range 2 {
		p.click("#lab-pause")
		p.waitText("#lab-clock-state", "running")
		p.waitText("#lab-pause", "Pause")
		p.click("#lab-pause")
		p.waitText("#lab-clock-state", "paused")
		p.waitText("#lab-pause", "Resume")
	}
	// Run again from the start, the attack's run is the same.
	p.runSeconds(10)
	p.waitText("#lane-0-allowed", "100")
}

// useEdgeAttack sets the lanes to edgeConfigs (by strategy, then "Same
// budget" 10 per 1 s) and the traffic to the window-edge attack's preset.
func (l *labPage) useEdgeAttack() {
	l.t.Helper()
	for i, c := range edgeConfigs {
		l.setSelect(fmt.Sprintf("lane-%d-kind", i), string(c.Kind))
	}
	l.sameBudget("10", "1")
	l.waitText("#lane-0-config", "fixed window: 10 per 1 s")
	l.waitText("#lane-1-config", "sliding window log: 10 per 1 s")
	l.waitText("#lane-2-config", "token bucket: 10/s, burst 10")
	l.loadPreset("edge")
	l.waitValue("#client-0-name", "mallory")
	l.waitValue("#client-0-pattern", "edge")
}

// testLabScrubber: after the window-edge attack's 10 s, dragging the
// timeline back to 1.5 s shows every lane as it was then (replayed); back
// to live restores the end.
func testLabScrubber(p *labPage) {
	p.useEdgeAttack()
	p.runSeconds(10)
	p.setRange("scrub", "1500")
	p.waitText("#lab-clock", "t = 1.500 s")
	p.waitText("#lab-clock-state", "scrubbed")
	p.waitText("#lane-0-allowed", "20")
	p.waitText("#lane-1-allowed", "10")
	p.waitText("#lane-1-denied", "10")
	// At 1.5 s the worst window, [0.99 s, 1.99 s), has not ended: it is
	// open, and its band stops at now (it was drawn to 1.99 s, past now).
	p.waitText("#lane-0-worst", "all clients: 20 in 1 s from 0.99 s, window open until 1.99 s")
	if got := p.eval(`(() => { const b = document.getElementById("lane-0-worst-band"), now = document.querySelector('#lane-0-svg line[y2="140"]'); return (parseFloat(b.getAttribute("x")) + parseFloat(b.getAttribute("width"))).toFixed(1) + " " + parseFloat(now.getAttribute("x1")).toFixed(1); })()`); len(strings.Fields(got)) != 2 || strings.Fields(got)[0] != strings.Fields(got)[1] {
		p.t.Errorf("the open worst window's band's right edge and the now line's x = %q, want equal", got)
	}
	p.screenshot("lab-2-scrubbed.png")
	// The keyboard: arrows move 100 ms, Page Down 1 s, never below 0.
	p.do(chromedp.Focus(chromedp.ID("scrub")))
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	p.waitText("#lab-clock", "t = 1.700 s")
	p.do(chromedp.KeyEvent(kb.PageDown))
	p.waitText("#lab-clock", "t = 0.700 s")
	for range 8 {
		p.do(chromedp.KeyEvent(kb.ArrowLeft))
	}
	p.waitText("#lab-clock", "t = 0.000 s")
	p.waitValue("#scrub", "0")
	p.click("#scrub-live")
	p.waitText("#lab-clock", "t = 10.000 s")
	p.waitText("#lane-0-allowed", "100")
	// Quick presses lose none (each moved from the element's value, which
	// the frame loop could set back to the last drawn instant).
	p.do(chromedp.Focus(chromedp.ID("scrub")))
	for range 40 {
		p.do(chromedp.KeyEvent(kb.ArrowLeft))
	}
	p.waitText("#lab-clock", "t = 6.000 s")
	p.click("#scrub-live")
	p.waitText("#lab-clock", "t = 10.000 s")
	// Back to the timeline's end by key is live again, not "scrubbed".
	p.do(chromedp.Focus(chromedp.ID("scrub")))
	p.do(chromedp.KeyEvent(kb.ArrowLeft))
	p.waitText("#lab-clock-state", "scrubbed")
	p.waitText("#lab-clock", "t = 9.900 s")
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	p.waitText("#lab-clock-state", "paused")
	p.waitText("#lab-clock", "t = 10.000 s")
	p.waitText("#scrub-label", "drag back to see every lane as it was")
}

// testLabLink opens the link copied from the window-edge attack's setup as
// a new document: the same lanes, parameters and clients.
func testLabLink(p *labPage) {
	p.useEdgeAttack()
	p.pause()
	p.click("#copy-link")
	// The address bar and the field follow the setup in the lanes' frame
	// (at most every 300 ms): wait until they agree, then read.
	p.poll("share link = address bar", "true", func() string {
		return p.eval(`String(document.getElementById("share-link").value === location.origin + location.pathname + location.search)`)
	})
	link := p.eval(`document.getElementById("share-link").value`)
	if !strings.HasPrefix(link, p.base+"/lab?") {
		p.t.Fatalf("share link %q; want %s/lab?…", link, p.base)
	}
	q := p.eval(`location.search`)
	if "?"+strings.SplitN(link, "?", 2)[1] != q {
		p.t.Errorf("share link query %q differs from the address bar's %q", link, q)
	}
	p.t.Logf("link: %s", link)
	f := p.openLab(link)
	for i, c := range edgeConfigs {
		id := fmt.Sprintf("#lane-%d", i)
		f.waitValue(id+"-kind", string(c.Kind))
		f.waitText(id+"-config", []string{"fixed window: 10 per 1 s", "sliding window log: 10 per 1 s", "token bucket: 10/s, burst 10"}[i])
	}
	f.waitCount(".lane[id^=lane-]", 3)
	f.waitValue("#lane-0-p1-num", "10")
	f.waitValue("#lane-0-p2-num", "1")
	f.waitValue("#lane-2-p1-num", "10")
	f.waitValue("#lane-2-p2-num", "10")
	f.waitValue("#client-0-name", "mallory")
	f.waitValue("#client-0-pattern", "edge")
	f.waitValue("#client-0-size", "10")
	f.waitValue("#client-0-window", "1000")
	f.waitValue("#client-0-gap", "10")
	f.waitGone("#link-errors")
	f.screenshot("lab-3-copied-link.png")
}

// testLabTamperedLink: a link with a bad lane and a bad seed keeps its good
// parts, falls back for the bad ones, and says what was wrong.
func testLabTamperedLink(p *page) {
	// A lane's tiers joined by a literal ";", as the link format is
	// documented (it was dropped as a separator, with every lane).
	h := p.openLab(p.base + "/lab?lane=fixed_window,10,1s;pro=fixed_window,50,1s&lane=gcra,2,2")
	h.waitCount(".lane[id^=lane-]", 2)
	h.waitText("#lane-0-tier-pro", "tier pro: fixed window: 50 per 1 s")
	h.waitGone("#link-errors")
	// An unlimited rate, which the rate field refuses, a link does too (it
	// was taken, and the field left blank).
	g := p.openLab(p.base + "/lab?lane=token_bucket,Inf,10")
	g.waitCount("#link-errors li", 1)
	g.waitText("#link-errors li", "link: lane: lane 1: rate +Inf is out of range; want 0.00001 to 10000000 tokens/s; using the default lanes (all of them)")
	g.waitText("#lane-0-config", "fixed window: 10 per 1 s")
	// A lane far beyond its fields' range froze the tab (each 100 ms chart
	// bucket copied a log of 16,777,216 per 24 h): refused, named with the
	// range; the client and the speed are kept, and the clock runs.
	z := p.openLab(p.base + "/lab?lane=sliding_window_log,16777216,24h&client=a,1,,steady,10000&speed=10")
	z.waitCount("#link-errors li", 1)
	z.waitText("#link-errors li", "link: lane: lane 1: limit 16777216 is out of range; want 1 to 10000 requests; using the default lanes (all of them)")
	z.waitCount(".lane[id^=lane-]", 3)
	z.waitText("#lane-1-config", "sliding window log: 10 per 1 s")
	z.waitValue("#client-0-name", "a")
	z.waitValue("#speed", "10")
	z.pollFor(15*time.Second, "the clock runs past 1 s", "true", func() string { return strconv.FormatBool(z.clockMs() > 1000) })
	z.pause()
	// A tier inside a lane is held to tier='s rules: at 10000× it was
	// taken, the page's link then said tier=pro,10000, which it refused,
	// and adding a lane failed.
	tl := p.openLab(p.base + "/lab?lane=fixed_window,10,1s;pro=fixed_window,100000,1s&client=alice,1,pro,steady,5")
	tl.waitCount("#link-errors li", 1)
	tl.waitText("#link-errors li", "link: lane: lane 1: tier pro is fixed window: 100000 per 1s, 10000× the lane's fixed window: 10 per 1s; want at most 100×; using the default lanes (all of them)")
	tl.waitCount(".lane[id^=lane-]", 3)
	tl.waitCount("#lane-0-tier-pro", 0)
	tl.waitValue("#client-0-tier", "pro")
	if link := tl.eval(`document.getElementById("share-link").value`); strings.Contains(link, "tier=") {
		tl.t.Errorf("share link %s names a tier", link)
	}
	tl.addLane("gcra")
	tl.waitCount(".lane[id^=lane-]", 4)
	tl.waitGone("#lanes-error")
	tl = p.openLab(p.base + "/lab?lane=fixed_window,10,1s;default=fixed_window,50,1s")
	tl.waitText("#link-errors li", `link: lane: lane 1: tier name "default" reads as no tier (a client's own lane budget); want another word; using the default lanes (all of them)`)
	q := url.Values{
		"lane":   {"token_bucket,-5,10", "fixed_window,10,1s"},
		"client": {"bob,1,,steady,4"},
		"seed":   {"abc"},
	}
	// A ";" is not a separator: "2;seed=4" is the speed, and refused.
	raw := q.Encode() + "&speed=2;seed=4"
	qq, err := sim.ParseLink(raw)
	if err != nil {
		p.t.Fatal(err)
	}
	_, err = sim.DecodeSetup(qq)
	if err == nil {
		p.t.Fatal("sim accepted the tampered link")
	}
	var want []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		want = append(want, e.Error())
	}
	if w := `link: speed: "2;seed=4" is not a number; want 0.1 to 100; using the default speed, 1×`; !slices.Contains(want, w) {
		p.t.Errorf("link errors %q lack %q", want, w)
	}
	f := p.openLab(p.base + "/lab?" + raw)
	f.waitCount("#link-errors li", len(want))
	for i, w := range want {
		f.waitText(fmt.Sprintf("#link-errors li:nth-child(%d)", i+1), w)
	}
	// Lanes, seed and speed fell back; the client was kept.
	f.waitCount(".lane[id^=lane-]", 3)
	f.waitValue("#lane-0-kind", "fixed_window")
	f.waitValue("#seed", "1")
	f.waitValue("#client-0-name", "bob")
	f.waitText("h1", "Comparison lab")
	f.screenshot("lab-4-tampered-link.png")
	f.t.Logf("banner: %v", want)
	// A seed typed out of range says which way, and the run keeps seed 1.
	f.setNumber("seed", "-1")
	f.waitText("#seed-error", `⚠ seed "-1" is negative; want 0 to 18446744073709551615`)
	f.waitAttr("#seed", "aria-invalid", "true")
	f.waitAttr("#seed", "aria-describedby", "seed-error")
	f.setNumber("seed", "18446744073709551616")
	f.waitText("#seed-error", `⚠ seed "18446744073709551616" is too large; want 0 to 18446744073709551615`)
	if link := f.eval(`document.getElementById("share-link").value`); !strings.Contains(link, "seed=1&") {
		f.t.Errorf("share link after refused seeds: %s; want seed=1", link)
	}
}

// testLabMalformedCSV: a bad file shows the parser's message with its line
// number next to the control, and nothing else changes.
func testLabMalformedCSV(p *labPage) {
	data := []byte("t_ms,client\n0,alice\n250,bob\nsoon,carol\n")
	_, perr := sim.ParseTrace("bad.csv", data)
	if perr == nil || !strings.Contains(perr.Error(), "line 4") {
		p.t.Fatalf("sim.ParseTrace error = %v; want one naming line 4", perr)
	}
	p.pause()
	before := p.laneSummary()
	p.uploadTrace("bad.csv", data)
	p.waitText("#trace-error", "⚠ "+perr.Error())
	p.t.Logf("malformed CSV: %s", p.text("#trace-error"))
	p.waitGone("#trace-status")
	p.poll("files left in the field", "0", func() string { return p.eval(`String(document.getElementById("trace-file").files.length)`) })
	if after := p.laneSummary(); after != before {
		p.t.Errorf("lanes changed after a bad file:\n before %s\n after  %s", before, after)
	}
	p.screenshot("lab-5-malformed-csv.png")
}

// testLabFarTrace: a file whose last request is at the latest instant a
// trace may have (5·10^12 ms, about 158 years) runs to its end at full
// speed; one past it, or a Latin-1 file, gets its message next to the
// control and changes nothing. (At 9223372036854 ms, accepted before,
// "Run to end" froze the tab.)
func testLabFarTrace(p *page) {
	f := p.openLab(p.base + "/lab")
	f.waitValue("#client-0-pattern", "poisson")
	f.pause()
	f.uploadTrace("far.csv", []byte("t_ms,client\n0,a\n5000000000000,a\n"))
	f.waitText("#trace-status", "Replaying: far.csv (2 requests, 1 client)remove")
	f.click("#run-trace")
	f.waitText("#lab-clock", "t = 5000000000.000 s")
	before := f.laneSummary()
	f.uploadTrace("past.csv", []byte("t_ms,client\n0,a\n5000000000001,a\n"))
	f.waitText("#trace-error", "⚠ line 3: t_ms 5000000000001 is out of range; want at most 5000000000000 (about 158 years)")
	// Unix times in ms are taken as they are, and the status says where
	// the first request is.
	f.uploadTrace("epoch.csv", []byte("t_ms,client\n1700000000000,a\n1700000000500,a\n"))
	f.waitText("#trace-status", "Replaying: epoch.csv (2 requests, 1 client, the first at t = 1700000000.000 s: “Run to end” gets there at once)remove")
	f.uploadTrace("far.csv", []byte("t_ms,client\n0,a\n5000000000000,a\n"))
	f.waitText("#trace-status", "Replaying: far.csv (2 requests, 1 client)remove")
	f.click("#run-trace")
	f.waitText("#lab-clock", "t = 5000000000.000 s")
	before = f.laneSummary()
	f.uploadTrace("latin1.csv", []byte("t_ms,client\n0,Jos\xe9\n5,Jos\xe8\n"))
	f.waitText("#trace-error", "⚠ line 2: is not UTF-8 text; want the file saved as UTF-8")
	f.waitText("#trace-status", "Replaying: far.csv (2 requests, 1 client)remove")
	if after := f.laneSummary(); after != before {
		f.t.Errorf("lanes changed after refused files:\n before %s\n after  %s", before, after)
	}
}

// testLabRunToEndLarge: "Run to end" on a trace of 199,990 requests from
// as many clients (one a millisecond, 600,000 decisions on the three
// default lanes) never blocks the page for long: it runs over frames of at
// most 20,000 decisions, saying how far it has got, and ends at the trace's
// end with the totals of the same run in one go natively. Pause stops it
// where it got to, and "Run to end" again goes on to the same totals. It
// returns the longest task (ms) from the click to the end.
func testLabRunToEndLarge(p *page) (longestMs float64) {
	const n = 199990
	var b strings.Builder
	b.WriteString("t_ms,client\n")
	for i := range n {
		fmt.Fprintf(&b, "%d,c%d\n", i, i)
	}
	tr, err := sim.ParseTrace("big.csv", []byte(b.String()))
	if err != nil {
		p.t.Fatal(err)
	}
	f := p.openLab(p.base + "/lab")
	f.waitValue("#client-0-pattern", "poisson")
	f.pause()
	// The file is read in parts, each shown: the page is drawn between them.
	f.eval(`(() => {
		window.__reading = [];
		window.__ro = new MutationObserver(() => {
			const el = document.getElementById("trace-reading");
			if (el && !window.__reading.includes(el.textContent)) window.__reading.push(el.textContent);
		});
		window.__ro.observe(document.body, {subtree: true, childList: true, characterData: true});
		return ""; })()`)
	f.uploadTrace("big.csv", []byte(b.String()))
	f.pollFor(60*time.Second, "#trace-status", "Replaying: big.csv (199990 requests, 199990 clients)remove", func() string { return f.text("#trace-status") })
	f.waitGone("#trace-reading")
	var parts []string
	if err := json.Unmarshal([]byte(f.eval(`(() => { window.__ro.disconnect(); return JSON.stringify(window.__reading); })()`)), &parts); err != nil {
		f.t.Fatal(err)
	}
	shown := 0
	for _, s := range parts {
		if pct, ok := strings.CutPrefix(s, "reading big.csv… "); ok && strings.HasSuffix(pct, " %") {
			shown++
		}
	}
	if shown < 2 {
		f.t.Errorf("reading progress shown %q; want at least 2 steps of \"reading big.csv… N %%\"", parts)
	}

	// The longest task from the click to the end (Long Tasks API), and
	// whether the progress was shown.
	f.eval(`(() => {
		window.__longest = 0; window.__progress = ""; window.__pauseAt = "";
		window.__lt = new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longest = Math.max(window.__longest, e.duration); });
		window.__lt.observe({type: "longtask"});
		window.__mo = new MutationObserver(() => {
			const el = document.getElementById("run-progress");
			if (el && !window.__progress) window.__progress = document.getElementById("lab-clock-state").textContent + ": " + el.textContent;
			if (el && !window.__pauseAt) { const r = document.getElementById("lab-pause").getBoundingClientRect(); window.__pauseAt = Math.round(r.x) + "," + Math.round(r.y); }
		});
		window.__mo.observe(document.body, {subtree: true, childList: true, characterData: true});
		return ""; })()`)
	start := time.Now()
	f.click("#run-trace")
	f.pollFor(60*time.Second, "#lab-clock", "t = 199.989 s", func() string { return f.text("#lab-clock") })
	took := time.Since(start)
	f.waitText("#lab-clock-state", "paused")
	f.waitGone("#run-progress")
	// Long tasks are reported after they end: give the last one time.
	time.Sleep(300 * time.Millisecond)
	longest, _ := strconv.ParseFloat(f.eval(`(() => { window.__lt.disconnect(); window.__mo.disconnect(); return String(window.__longest); })()`), 64)
	// How long the longest task took is a speed: make bench-ui bounds it
	// (TestPageBench/RunToEndLargeTrace); here it is only told.
	f.t.Logf("Run to end, %d requests on 3 lanes: %v, longest task %.0f ms", n, took.Round(time.Millisecond), longest)
	if got := f.eval(`window.__progress`); !strings.HasPrefix(got, "running: running to the end… ") || !strings.HasSuffix(got, " % (to t = 199.989 s); Pause stops here") {
		f.t.Errorf("progress shown %q; want \"running: running to the end… N %% (to t = 199.989 s); Pause stops here\"", got)
	}
	// Pause did not move when the run began (it moved away from the pointer).
	if during, after := f.eval(`window.__pauseAt`), f.eval(`(() => { const r = document.getElementById("lab-pause").getBoundingClientRect(); return Math.round(r.x) + "," + Math.round(r.y); })()`); during != after {
		f.t.Errorf("Pause at %s during the run, %s after; want it to stay put", during, after)
	}

	lab := replayNatively(f.t, f.linkSetup(), tr)
	checkTotals := func() {
		f.t.Helper()
		f.waitTotals(lab, n)
		f.waitText("#totals tr.total th", "all 199990 clients")
	}
	checkTotals()

	// Pause stops it on the way; Run to end goes on from there.
	f.restart()
	f.click("#run-trace")
	f.click("#lab-pause")
	f.waitText("#lab-clock-state", "paused")
	f.waitGone("#run-progress")
	if ms := f.clockMs(); ms <= 0 || ms >= 199989 {
		f.t.Errorf("paused on the way at %d ms; want between 0 and 199989", ms)
	}
	f.click("#run-trace")
	f.pollFor(60*time.Second, "#lab-clock", "t = 199.989 s", func() string { return f.text("#lab-clock") })
	f.waitText("#lab-clock-state", "paused")
	checkTotals()
	return longest
}

// testLabTraceQuiets: loading the NASA trace on the default setup turns
// alice's generated traffic (Poisson, 8/s) to clicks only and says so, so
// that the lanes hear the trace (0.5 requests/s); the link keeps alice.
func testLabTraceQuiets(p *page) {
	f := p.openLab(p.base + "/lab")
	f.waitValue("#client-0-pattern", "poisson")
	f.click("#load-nasa")
	f.waitNASATrace()
	f.waitText("#trace-note", "So that the lanes hear the trace, alice now sends only on clicks; pick a pattern again to mix generated traffic in, or remove the trace to have it back.")
	f.waitValue("#client-0-pattern", "none")
	f.poll("link", "true true", func() string {
		return f.eval(`(() => { const l = document.getElementById("share-link").value; return l.includes("client=alice%2C1%2C%2Cnone") + " " + l.includes("trace=nasa"); })()`)
	})
	// Picking Poisson again brings back alice's own rate, 8/s, not the
	// default pattern's.
	f.setSelect("client-0-pattern", "poisson")
	f.waitCount("#client-0-rate", 1)
	f.waitValue("#client-0-rate", "8")
	f.waitGone("#trace-note") // alice no longer sends only on clicks
	f.setSelect("client-0-pattern", "none")
	f.waitValue("#client-0-pattern", "none")
	f.waitText("#trace-note", "So that the lanes hear the trace, alice now sends only on clicks; pick a pattern again to mix generated traffic in, or remove the trace to have it back.")
	// Removing the trace gives alice her pattern back.
	aliceBack(f)
	f.poll("link without the trace", "true false", func() string {
		return f.eval(`(() => { const l = document.getElementById("share-link").value; return l.includes("client=alice%2C1%2C%2Cpoisson%2C8") + " " + l.includes("trace="); })()`)
	})
	f.setSelect("client-0-pattern", "none")
	f.waitValue("#client-0-pattern", "none")
	// alice only clicks: the quiz on this setup takes the default traffic
	// on these lanes (it said "the traffic sends no request"), and says so,
	// and that it does not replay the trace (it said its questions came
	// from the link's clients, and asked about alice's Poisson requests).
	f.click("#load-nasa")
	f.waitNASATrace()
	f.poll("quiz link without the clients, with the trace", "true false true", func() string {
		return f.eval(`(() => { const h = document.getElementById("quiz-this").getAttribute("href"); return h.includes("lane=fixed_window") + " " + h.includes("client=") + " " + h.includes("trace=nasa"); })()`)
	})
	f.followLink("#quiz-this", "Learn rate limiting")
	f.waitCount("#quiz-prompt", 1)
	f.waitCount("#learn-notice", 0)
	f.waitText("#quiz-source", "Questions come from the lanes in this link, fed the comparison lab's default traffic (alice, Poisson (seeded), 8 requests/s), drawn with the seed below: the same link gives every student the same questions. The quiz does not replay the lab's trace (nasa): it asks only about the clients' generated traffic.")
	if got := f.eval(`(() => { const l = document.getElementById("quiz-link").value; return l.includes("trace=nasa") + " " + l.includes("client="); })()`); got != "true false" {
		p.t.Errorf("the quiz's own link keeps the trace and no clients = %q, want \"true false\"", got)
	}

	// A client renamed during a trace keeps what the trace took from it,
	// and clicks still send as it, with its state drawn.
	g := p.openLab(p.base + "/lab?client=alice,1,,poisson,8&client=bob,1,,steady,2&as=bob&focus=bob")
	g.waitValue("#fire-as", "bob")
	g.waitValue("#focus", "bob")
	g.click("#load-nasa")
	g.waitText("#trace-note", "So that the lanes hear the trace, alice, bob now send only on clicks; pick a pattern again to mix generated traffic in, or remove the trace to have them back.")
	g.setNumber("client-1-name", "bea")
	g.waitText("#trace-note", "So that the lanes hear the trace, alice, bea now send only on clicks; pick a pattern again to mix generated traffic in, or remove the trace to have them back.")
	g.waitValue("#fire-as", "bea")
	g.waitValue("#focus", "bea")
	aliceBack(g)
	g.waitValue("#client-1-pattern", "steady")
}

// aliceBack removes the trace and waits until alice, the first client, has
// her own traffic back (Poisson, 8/s) and the note is gone.
func aliceBack(l *labPage) {
	l.t.Helper()
	l.click("#clear-trace")
	l.waitGone("#trace-note")
	l.waitValue("#client-0-pattern", "poisson")
	l.waitCount("#client-0-rate", 1)
	l.waitValue("#client-0-rate", "8")
}

// testLaneFieldsFollowKind: after a lane switches strategy, its fields
// check the new strategy's parameters (their handlers kept the first
// strategy's: a token bucket's rate of 0.5 was "limit 0.5 is out of range").
func testLaneFieldsFollowKind(p *page) {
	f := p.openLab(p.base + "/lab")
	f.waitText("#lane-0-config", "fixed window: 10 per 1 s")
	f.setSelect("lane-0-kind", "token_bucket")
	f.waitText("#lane-0-config", "token bucket: 10/s, burst 10")
	f.setNumber("lane-0-p1-num", "0.5")
	f.waitText("#lane-0-config", "token bucket: 0.5/s, burst 10")
	// The quiz link in the left column follows (it kept the first setup).
	f.poll("quiz link has the new lane", "true", func() string {
		return f.eval(`String(document.getElementById("quiz-this").getAttribute("href").includes("lane=token_bucket%2C0.5%2C10"))`)
	})
	f.waitCount("#lane-0-p1-error", 0)
	f.setNumber("lane-0-p1-num", "")
	f.waitText("#lane-0-p1-error", "⚠ rate is empty; want 0.00001 to 10000000 tokens/s")

	// A lane switched to another strategy keeps its own budget, not the
	// "Same budget" fields' (12 per 1 s became 10/s, burst 10).
	f.waitText("#lane-1-config", "sliding window log: 10 per 1 s")
	f.setNumber("lane-1-p1-num", "12")
	f.waitText("#lane-1-config", "sliding window log: 12 per 1 s")
	f.setSelect("lane-1-kind", "token_bucket")
	f.waitText("#lane-1-config", "token bucket: 12/s, burst 12")
	f.setSelect("lane-1-kind", "leaky_bucket")
	f.waitText("#lane-1-config", "leaky bucket: capacity 12, leaks 1 per 83.333333 ms")
	f.setSelect("lane-1-kind", "fixed_window")
	f.waitText("#lane-1-config", "fixed window: 12 per 1 s")
}

// testLabNASA replays the built-in NASA trace (alone: the client removed)
// at full speed, and checks every lane's totals against the same setup run
// natively through app/sim, and the exported CSV against sim's.
func testLabNASA(p *labPage) {
	p.pause()
	// Each client may send 5 requests per 10 s: browsers fetching a page
	// and its images in one second are throttled.
	p.sameBudget("5", "10")
	p.waitText("#lane-0-config", "fixed window: 5 per 10 s")
	p.click("#client-0-remove")
	p.waitGone("#client-0")
	p.click("#load-nasa")
	p.waitNASATrace()
	if src := p.text("#trace-source"); !strings.Contains(src, "Internet Traffic Archive") || !strings.Contains(src, "Terms:") {
		p.t.Errorf("#trace-source = %q; want the source and terms", src)
	}
	p.click("#run-trace")
	p.waitText("#lab-clock", "t = 39568.000 s")
	// The timeline's thumb is at the end, where the clock is (it stayed
	// near the start when its value was set before its larger max).
	p.poll("#scrub value/max", "39568000/39568000", func() string {
		return p.eval(`(() => { const s = document.getElementById("scrub"); return s.value + "/" + s.max; })()`)
	})

	setup := p.linkSetup()
	if setup.Trace != "nasa" || len(setup.Clients) != 0 {
		p.t.Fatalf("link setup: trace %q, %d clients; want nasa, 0", setup.Trace, len(setup.Clients))
	}
	raw, err := os.ReadFile(filepath.Join(repoRoot, "web", "data", "nasa-1995-08-01.csv"))
	if err != nil {
		p.t.Fatal(err)
	}
	tr, err := sim.ParseTrace("nasa", raw)
	if err != nil {
		p.t.Fatal(err)
	}
	lab := replayNatively(p.t, setup, tr)
	p.waitTotals(lab, 20000)
	p.waitText("#totals tr.total th", "all 1656 clients")
	p.screenshot("lab-6-nasa-trace.png")

	// Export CSV: the downloaded file is sim's ExportCSV for this run.
	var want bytes.Buffer
	if err := lab.ExportCSV(&want); err != nil {
		p.t.Fatal(err)
	}
	p.click("#export-csv")
	p.waitCount("#export-link", 1)
	got := p.eval(`fetch(document.getElementById("export-link").href).then(r => r.text())`)
	if got != want.String() {
		p.t.Errorf("exported CSV (%d bytes) differs from sim's (%d bytes); first line %q", len(got), want.Len(), strings.SplitN(got, "\n", 2)[0])
	}
}

// freeAndPaid are two clients that only click: free, and paid of tier pro.
var freeAndPaid = []sim.Client{
	{Name: "free", Pattern: sim.Pattern{Kind: sim.PatternNone}, Weight: 1},
	{Name: "paid", Pattern: sim.Pattern{Kind: sim.PatternNone}, Weight: 1, Tier: "pro"},
}

// testLabTiers: two clients click 10 times each at one instant; a "pro" tier
// at 3× every lane's budget, set in the page, gives the pro client 3× as
// many admissions in every lane (the run is replayed), and removing the tier
// restores the counts.
func testLabTiers(p *page) {
	s := sim.Setup{
		Lanes: []sim.LaneSpec{
			{Config: limiter.Config{Kind: limiter.KindFixedWindow, Limit: 2, Window: time.Second}},
			{Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 2, Burst: 2}},
		},
		Clients: freeAndPaid,
		Seed:    1, Speed: 1, Worst: time.Second,
	}
	f := p.openLab(p.base + "/lab?" + s.Values().Encode())
	f.waitCount(".lane[id^=lane-]", 2)
	f.pause()
	f.restart()
	f.setNumber("burst-n", "10")
	for _, who := range []string{"free", "paid"} {
		f.setSelect("fire-as", who)
		f.click("#burst")
	}
	f.waitText("#lane-0-allowed", "4")
	f.waitText("#lane-1-allowed", "4")
	// paid's tier is not set on any lane yet, and the client says so.
	f.waitText("#client-1-tier-note", "No lane has tier pro: paid gets each lane's own budget until it is set below.")
	f.applyTier("")
	f.waitText("#tier-error", "⚠ tier name is empty; want a word of letters, digits, '-' or '_'")
	f.applyTier("default")
	f.waitText("#tier-error", `⚠ tier name "default" reads as no tier (a client's own lane budget); want another word`)
	f.setNumber("tier-factor", "3")
	f.applyTier("pro")
	f.waitText("#lane-0-tier-pro", "tier pro: fixed window: 6 per 1 s")
	f.waitText("#lane-1-tier-pro", "tier pro: token bucket: 6/s, burst 6")
	f.waitGone("#client-1-tier-note")
	f.waitGone("#tier-error")
	f.waitText("#lane-0-allowed", "8") // free 2, paid 6
	f.waitText("#lane-0-denied", "12")
	f.waitText("#lane-1-allowed", "8")
	// The first tier's chip row appears above the button: the focus stays
	// on "Set tier" (it fell to the page's body).
	active := func() string { return f.eval(`document.activeElement.id`) }
	f.poll("focus after the first tier", "tier-apply", active)
	// The link carries the multiple itself, beside each lane's tier.
	f.poll("tier in the link", "true", func() string {
		return f.eval(`String(document.getElementById("share-link").value.includes("&tier=pro%2C3&"))`)
	})
	// "+ Add a lane…" by keyboard: the arrows only choose (each fired a
	// change, and added a lane), Enter adds the choice: the third option,
	// a leaky bucket on the same budget (2 per 1 s), which gets tier pro
	// at ×3 like the other lanes.
	f.eval(`(() => { document.getElementById("add-lane").focus(); return document.activeElement.id; })()`)
	for range 3 {
		f.do(chromedp.KeyEvent(kb.ArrowDown))
	}
	f.poll("the choice", "leaky_bucket", func() string { return f.eval(`document.getElementById("add-lane").value`) })
	f.waitCount(".lane[id^=lane-]", 2)
	f.do(chromedp.KeyEvent(kb.Enter))
	f.waitCount(".lane[id^=lane-]", 3)
	f.waitText("#lane-2-config", "leaky bucket: capacity 2, leaks 1 per 500 ms")
	f.waitText("#lane-2-tier-pro", "tier pro: leaky bucket: capacity 6, leaks 1 per 166.666666 ms")
	f.waitText("#lane-2-allowed", "8") // replayed: free 2, paid 6
	f.waitValue("#add-lane", "")
	f.do(chromedp.KeyEvent(kb.ArrowDown))
	f.eval(`(() => { document.getElementById("add-lane").blur(); return "ok"; })()`)
	f.waitValue("#add-lane", "") // left without Enter: nothing added
	f.waitCount(".lane[id^=lane-]", 3)
	f.click("#lane-2-remove")
	f.waitCount(".lane[id^=lane-]", 2)
	f.screenshot("lab-8-tiers.png")
	f.setNumber("tier-factor", "500")
	f.click("#tier-apply")
	f.waitText("#tier-error", "⚠ tier multiple 500 is out of range; want 0.01 to 100 ×")
	f.waitText("#lane-0-allowed", "8")
	f.click("#tier-remove-pro")
	f.waitCount("#lane-0-tier-pro", 0)
	f.waitText("#lane-0-allowed", "4")
	f.poll("focus after removing the only tier", "tier-name", active)
	// Two tiers: ✕ on the first hands the focus to the next chip's ✕ (the
	// handler worked from the chips it was drawn with, and sent it to the
	// name field), ✕ on the last to the name field.
	f.setNumber("tier-factor", "2")
	for _, name := range []string{"aaa", "pro"} {
		f.applyTier(name)
		f.waitCount("#tier-remove-"+name, 1)
		f.waitText("#tier-chip-"+name, name+" ×2") // the chip says the multiple
	}
	f.click("#tier-remove-aaa")
	f.waitCount("#tier-remove-aaa", 0)
	f.poll("focus after removing the first of two tiers", "tier-remove-pro", active)
	f.click("#tier-remove-pro")
	f.waitCount("#tier-remove-pro", 0)
	f.poll("focus after removing the last tier", "tier-name", active)
	// "default", the tier field's placeholder, typed in means no tier.
	f.eval(`(() => { const el = document.getElementById("client-0-tier"); el.value = "default"; el.dispatchEvent(new Event("change", {bubbles: true})); return el.value; })()`)
	f.poll("free's tier in the link", "true", func() string {
		return f.eval(`String(document.getElementById("share-link").value.includes("client=free%2C1%2C%2Cnone"))`)
	})
	f.waitGone("#client-0-tier-note")
}

// testLabQuiz: "Quiz me on this setup" opens the quiz on the lab's lanes and
// traffic, with the lab's seed: the questions equal explain.NewQuiz's for
// that setup and seed.
func testLabQuiz(p *page) {
	s := sim.Setup{
		Lanes: []sim.LaneSpec{
			{Config: limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 4, Window: time.Second}},
			{Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 3, Burst: 4}},
		},
		Clients: []sim.Client{{Name: "zoe", Pattern: sim.Pattern{Kind: sim.PatternPoisson, Rate: 6}, Weight: 1}},
		Seed:    77, Speed: 1, Worst: time.Second,
	}
	ref, err := explain.NewQuiz(s, 77)
	if err != nil {
		p.t.Fatal(err)
	}
	f := p.openLab(p.base + "/lab?" + s.Values().Encode())
	f.waitCount(".lane[id^=lane-]", 2)
	if got := f.followLink("#quiz-this", "Learn rate limiting"); !slices.Equal(got, []string{"/web/app.wasm"}) {
		p.t.Errorf("the quiz loaded the wasm %q, want only /web/app.wasm", got)
	}
	f.waitText("#quiz-seed", "seed 77")
	f.waitText("#quiz-source", "Questions come from the comparison lab setup in this link (its lanes, clients and traffic), drawn with the seed below: the same link gives every student the same questions.")
	f.waitText("#quiz-prompt", ref.Questions[0].Prompt)
	f.waitCount("#learn-notice", 0)
	link := f.eval(`document.getElementById("quiz-link").value`)
	if !strings.Contains(link, "lane=sliding_window_counter") || !strings.Contains(link, "seed=77") || !strings.Contains(link, "mode=quiz") {
		p.t.Errorf("quiz link %q: want the lab's lanes, seed 77 and mode=quiz", link)
	}
	f.screenshot("lab-9-quiz-on-this-setup.png")
}

// testLabInspector: one token bucket lane (5/s, burst 2) and a client that
// only clicks; Burst ×3 at 0 s gives 2 allowed, 1 denied. Entering the
// lane's strip with the keyboard selects the newest decision and Enter
// explains it: the panel shows explain.Replay's steps and verdict for the
// third request, exactly. A click on the first ✓ mark explains the first.
func testLabInspector(p *page) {
	cfg := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 5, Burst: 2}
	s := sim.Setup{
		Lanes:   []sim.LaneSpec{{Config: cfg}},
		Clients: []sim.Client{{Name: "me", Pattern: sim.Pattern{Kind: sim.PatternNone}, Weight: 1}},
		Seed:    1, Speed: 1, Worst: time.Second,
	}
	events := []sim.Event{{At: 0, Client: "me", N: 1}, {At: 0, Client: "me", N: 1}, {At: 0, Client: "me", N: 1}}
	f := p.openLab(p.base + "/lab?" + s.Values().Encode())
	f.waitCount(".lane[id^=lane-]", 1)
	f.pause()
	f.restart()
	// Nothing is coming: Step 1 request says so (it did nothing, silently).
	f.click("#step-request")
	f.waitText("#step-error", "⚠ no request is coming: the clients only click and no trace is left to replay; send one with Space or Burst ×N")
	f.setNumber("burst-n", "3")
	f.click("#burst")
	f.waitGone("#step-error")
	f.waitText("#lane-0-allowed", "2")
	f.waitText("#lane-0-denied", "1")
	f.waitAttr("#lane-0-svg", "tabindex", "0")
	f.waitAttr("#lane-0-svg", "role", "application")
	f.waitAttr("#lane-0-svg", "aria-label", "Lane 1 requests: ←/→ choose a request, Enter explains it (or click a mark); + and − zoom every lane, Shift+←/→ pan, 0 fits")

	check := func(k int, title string) {
		f.t.Helper()
		e, err := explain.Replay(cfg, "me", events, k)
		if err != nil {
			f.t.Fatal(err)
		}
		var want []string
		for _, st := range e.Steps {
			want = append(want, st.String())
		}
		f.waitText("#insp-title", title)
		f.waitText("#insp-what", strings.SplitN(e.Text(), "\n", 2)[0])
		f.poll("#insp-steps", strings.Join(want, "\n"), func() string {
			return f.inspectorSteps()
		})
		mark := "✓ "
		if !e.Decision.Allowed {
			mark = "✕ "
		}
		f.waitText("#insp-verdict", mark+e.Verdict)
		f.t.Logf("request %d: %s", k+1, e.Text())
	}

	// Keyboard: entering the strip selects the newest decision; ← and →
	// move the marker; Enter explains.
	f.do(chromedp.Focus(chromedp.ID("lane-0-svg")))
	f.waitText("#lane-0-selected", "Selected: request 3 (me) at 0.00 s: denied — Enter explains it")
	f.waitAttr("#lane-0-sel", "data-allowed", "false")
	f.do(chromedp.KeyEvent(kb.ArrowLeft))
	f.waitText("#lane-0-selected", "Selected: request 2 (me) at 0.00 s: allowed — Enter explains it")
	f.waitAttr("#lane-0-sel", "data-allowed", "true")
	f.do(chromedp.KeyEvent(kb.ArrowRight))
	f.do(chromedp.KeyEvent(kb.ArrowRight)) // stays on the newest
	f.waitText("#lane-0-selected", "Selected: request 3 (me) at 0.00 s: denied — Enter explains it")
	f.do(chromedp.KeyEvent(kb.Home))
	f.waitText("#lane-0-selected", "Selected: request 1 (me) at 0.00 s: allowed — Enter explains it")
	f.do(chromedp.KeyEvent(kb.End))
	f.waitText("#lane-0-selected", "Selected: request 3 (me) at 0.00 s: denied — Enter explains it")
	// A key the strip ignores leaves the next one working.
	f.do(chromedp.KeyEvent("x"))
	f.do(chromedp.KeyEvent("\r"))
	check(2, "Why: lane 1, request 3 (me) at 0.00 s: denied")
	f.waitText("#insp-verdict", "✕ denied: retry after 200 ms (HTTP 429, Retry-After: 1)")
	f.waitText("#lab-insp-note", "The clock is paused while you inspect, so these numbers stay put (Resume continues the run). Close with ✕ or Escape.")
	f.waitText("#lab-clock-state", "paused")
	f.screenshot("lab-10-inspector.png")

	// Mouse: a click on the first ✓ mark (at 0 s: x = 1.5 of 600 units,
	// y = the ✓ row) explains the first request.
	f.do(chromedp.ScrollIntoView(chromedp.ID("lane-0-svg")))
	xy := f.eval(`(() => { const r = document.getElementById("lane-0-svg").getBoundingClientRect();
		const k = r.width / 600; return (r.left + 1.5 * k) + "," + (r.top + 22 * k); })()`)
	var x, y float64
	if _, err := fmt.Sscanf(xy, "%g,%g", &x, &y); err != nil {
		f.t.Fatalf("mark position %q: %v", xy, err)
	}
	f.do(chromedp.MouseClickXY(x, y))
	check(0, "Why: lane 1, request 1 (me) at 0.00 s: allowed")
	f.waitText("#lane-0-selected", "Selected: request 1 (me) at 0.00 s: allowed — Enter explains it")
	// Resume with the panel open: its note no longer says the clock is paused.
	f.click("#lab-pause")
	f.waitText("#lab-clock-state", "running")
	f.waitText("#lab-insp-note", "The clock runs again: the lanes move on, and these numbers stay those of the decision explained. Close with ✕ or Escape.")
	f.click("#lab-pause")
	f.waitText("#lab-clock-state", "paused")
	f.waitText("#lab-insp-note", "The clock is paused while you inspect, so these numbers stay put (Resume continues the run). Close with ✕ or Escape.")
	f.click("#insp-close")
	f.waitGone("#inspector")
	f.waitGone("#lab-inspector")
}

// testLabInspectorEveryKind: six lanes, one per strategy, on the same
// budget (2 per 1 s); one client clicks 3 times at 0 s and once at 0.3 s.
// For every lane, Enter on its strip explains the newest request with
// exactly the steps and verdict explain.Replay computes from the limiter.
func testLabInspectorEveryKind(p *page) {
	var lanes []sim.LaneSpec
	for _, k := range limiter.Kinds {
		c, err := sim.SameBudget(k, 2, time.Second)
		if err != nil {
			p.t.Fatal(err)
		}
		lanes = append(lanes, sim.LaneSpec{Config: c})
	}
	s := sim.Setup{Lanes: lanes, Clients: []sim.Client{{Name: "me", Pattern: sim.Pattern{Kind: sim.PatternNone}, Weight: 1}},
		Seed: 1, Speed: 1, Worst: time.Second}
	events := []sim.Event{{At: 0, Client: "me", N: 1}, {At: 0, Client: "me", N: 1}, {At: 0, Client: "me", N: 1},
		{At: 300 * time.Millisecond, Client: "me", N: 1}}
	f := p.openLab(p.base + "/lab?" + s.Values().Encode())
	f.waitCount(".lane[id^=lane-]", 6)
	f.pause()
	f.restart()
	f.setNumber("burst-n", "3")
	f.click("#burst")
	f.click("#step-100ms")
	f.click("#step-100ms")
	f.click("#step-100ms")
	f.waitText("#lab-clock", "t = 0.300 s")
	f.click("#fire")
	for i, ln := range lanes {
		e, err := explain.Replay(ln.Config, "me", events, 3)
		if err != nil {
			f.t.Fatal(err)
		}
		var want []string
		for _, st := range e.Steps {
			want = append(want, st.String())
		}
		mark := "✓ "
		if !e.Decision.Allowed {
			mark = "✕ "
		}
		svg := fmt.Sprintf("lane-%d-svg", i)
		f.do(chromedp.Focus(chromedp.ID(svg)))
		f.do(chromedp.KeyEvent("\r"))
		f.waitText("#insp-verdict", mark+e.Verdict)
		f.poll(ln.Config.Kind.Name()+" steps", strings.Join(want, "\n"), func() string {
			return f.inspectorSteps()
		})
		// Strategies with fractional quantities say how they are rounded.
		if k := ln.Config.Kind; k == limiter.KindFixedWindow || k == limiter.KindSlidingWindowLog {
			f.waitCount("#insp-rounding", 0)
		} else {
			f.waitText("#insp-rounding", "Shown to 2 decimals: tokens rounded down, levels and estimates rounded up. "+
				"Each result is worked out from the exact values, so it can differ slightly from arithmetic on the shown numbers.")
		}
		f.t.Logf("lane %d (%s): %s", i+1, ln.Config, strings.ReplaceAll(e.Text(), "\n", " | "))
		// The panel opens under its lane; the lane's chart and the panel's
		// top are in view, and its bottom too when lane and panel fit (it
		// opened under the sixth lane, scrolled so only its heading showed).
		f.poll("inspector under its lane, in view", fmt.Sprintf("lane-%d true true true", i), func() string {
			return f.eval(`(() => { const p = document.getElementById("lab-inspector"), r = p.getBoundingClientRect(),
				s = document.getElementById("` + svg + `").getBoundingClientRect(), h = innerHeight,
				row = p.previousElementSibling;
				return row.id + " " + (s.top >= 0 && s.bottom <= h) + " " + (r.top >= 0 && r.top < h) + " " + (r.bottom <= h || r.bottom - row.getBoundingClientRect().top > h); })()`)
		})
		f.click("#insp-close")
		f.waitGone("#inspector")
	}
	// The panel stays under the lane it explains while the keyboard moves on
	// to another lane's chart (it moved under that lane, and the chart,
	// rebuilt, lost the focus), and its ✕ gives the focus back to its lane.
	slot := func() string {
		return f.eval(`(() => { const p = document.getElementById("lab-inspector"); return p ? p.previousElementSibling.id : "none"; })()`)
	}
	active := func() string { return f.eval(`document.activeElement.id`) }
	f.do(chromedp.Focus(chromedp.ID("lane-2-svg")))
	f.do(chromedp.KeyEvent("\r"))
	f.poll("inspector's lane", "lane-2", slot)
	f.do(chromedp.Focus(chromedp.ID("lane-4-svg")))
	f.waitText("#lane-4-selected", "Selected: request 4 (me) at 0.30 s: denied — Enter explains it") // sliding window log, 2 per 1 s
	f.poll("focus on lane 5's chart", "lane-4-svg", active)
	f.poll("inspector's lane after the focus moved", "lane-2", slot)
	f.do(chromedp.Focus(chromedp.ID("insp-close")))
	f.do(chromedp.KeyEvent("\r"))
	f.waitGone("#lab-inspector")
	f.poll("focus after ✕", "lane-2-svg", active)
	// Escape inside the panel closes it too, as its note says.
	f.do(chromedp.KeyEvent("\r"))
	f.poll("inspector's lane", "lane-2", slot)
	f.do(chromedp.Focus(chromedp.ID("insp-close")))
	f.do(chromedp.KeyEvent(kb.Escape))
	f.waitGone("#lab-inspector")
	f.poll("focus after Escape in the panel", "lane-2-svg", active)
}

// testLabOverload: a client of 10,000 requests/s at 100× is more than the
// page decides in real time. The clock says it runs slower, and Pause still
// answers (the page froze for over a minute before each tick had a budget).
// A speed a link sets that the list lacks is shown as it is.
func testLabOverload(p *page) {
	f := p.openLab(p.base + "/lab?client=a,1,,steady,10000&speed=100")
	// The first frames of such a load are long (up to the tick's budget).
	f.pollFor(15*time.Second, "#lab-clock-behind", "slower than 100×: more requests are due than the browser decides in real time", func() string { return f.text("#lab-clock-behind") })
	f.click("#lab-pause")
	f.waitText("#lab-clock-state", "paused")
	f.waitGone("#lab-clock-behind")
	f = p.openLab(p.base + "/lab?speed=3")
	f.waitValue("#speed", "3")
	if got := f.eval(`document.querySelector("#speed option:checked").textContent`); got != "3×" {
		f.t.Errorf("speed shown %q, want 3×", got)
	}
}

// testLabClientMessages: a refused client value keeps its message under
// the client while another field of the same client is changed (one line
// for the whole client lost it, with the refused text still in its field);
// the message names the client once.
func testLabClientMessages(p *page) {
	f := p.openLab(p.base + "/lab")
	f.waitValue("#client-0-pattern", "poisson")
	f.setNumber("client-0-rate", "20000")
	f.waitText("#client-0-rate-error", "⚠ rate 20000 is out of range; want 0.001 to 10000 req/s")
	f.setNumber("client-0-weight", "2")
	f.poll("link", "true", func() string {
		return f.eval(`String(document.getElementById("share-link").value.includes("client=alice%2C2%2C%2Cpoisson%2C8&"))`)
	})
	f.waitText("#client-0-rate-error", "⚠ rate 20000 is out of range; want 0.001 to 10000 req/s")
	f.setNumber("client-0-weight", "5000")
	f.waitText("#client-0-weight-error", "⚠ client 1 (alice): rate 8/s is out of range; want > 0 and, times weight 5000, <= 10000")
	f.waitAttr("#client-0-rate", "aria-describedby", "client-0-rate-error")
	f.waitAttr("#client-0-weight", "aria-describedby", "client-0-weight-error")
	f.setNumber("client-0-rate", "4")
	f.waitGone("#client-0-rate-error")
	f.waitAttr("#client-0-rate", "aria-invalid", "null")
	f.waitText("#client-0-weight-error", "⚠ client 1 (alice): rate 8/s is out of range; want > 0 and, times weight 5000, <= 10000")
}

// testLabCopy: "Copied ✓" shows only once the browser took the link, and
// only while it is still the setup's link. Refused, the card says why and
// selects the link to copy by hand (it said "Copied ✓" either way).
func testLabCopy(p *page) {
	f := p.openLab(p.base + "/lab")
	f.setPermission("clipboard-write", cdpbrowser.PermissionSettingDenied)
	f.click("#copy-link")
	f.waitText("#share-error", "⚠ the browser did not let the page copy (NotAllowedError); the link is selected in the field above: copy it from there")
	f.waitText("#copy-link", "Copy link")
	if got := f.eval(`document.activeElement.id + " " + (document.activeElement.selectionEnd - document.activeElement.selectionStart === document.activeElement.value.length)`); got != "share-link true" {
		f.t.Errorf("after a refused copy, focus and selection: %q, want the whole share link selected", got)
	}
	f.setPermission("clipboard-write", cdpbrowser.PermissionSettingGranted)
	f.click("#copy-link")
	f.waitText("#copy-link", "Copied ✓")
	f.waitGone("#share-error")
	f.setSelect("speed", "2")
	f.waitText("#copy-link", "Copy link")
}

// testLabCopyAsGo: each lane's "Copy as Go" shows and copies exactly
// explain.GoProgram for the lane, tiers included, and follows a change of
// the lane.
func testLabCopyAsGo(p *page) {
	s := sim.Setup{
		Lanes: []sim.LaneSpec{
			{Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 2, Burst: 3}, Tiers: map[string]limiter.Config{"pro": {Kind: limiter.KindTokenBucket, Rate: 10, Burst: 15}}},
			{Config: limiter.Config{Kind: limiter.KindSlidingWindowLog, Limit: 4, Window: 1500 * time.Millisecond}},
		},
		Tiers:   map[string]float64{"pro": 5},
		Clients: freeAndPaid,
		Seed:    1, Speed: 1, Worst: time.Second,
	}
	f := p.openLab(p.base + "/lab?" + s.Values().Encode())
	f.waitCount(".lane[id^=lane-]", 2)
	f.pause()
	// The tier's multiple (×5) gives every lane a pro tier: read the lanes
	// back from the page's own link.
	got := f.linkSetup()
	if want := (limiter.Config{Kind: limiter.KindSlidingWindowLog, Limit: 20, Window: 1500 * time.Millisecond}); got.Lanes[1].Tiers["pro"] != want {
		f.t.Fatalf("lane 2's pro tier %v, want %v", got.Lanes[1].Tiers["pro"], want)
	}
	tierOf := map[string]string{"paid": "pro"}
	want0 := explain.GoProgram(explain.GoSetup{From: "lane 1 of the comparison lab", Config: got.Lanes[0].Config, Tiers: got.Lanes[0].Tiers, TierOf: tierOf})
	want1 := explain.GoProgram(explain.GoSetup{From: "lane 2 of the comparison lab", Config: got.Lanes[1].Config, Tiers: got.Lanes[1].Tiers, TierOf: tierOf})
	f.click("#lane-0-go > summary")
	for id, want := range map[string]string{"#lane-0-go-code": want0, "#lane-1-go-code": want1} {
		if got := f.eval(`document.querySelector("` + id + `").textContent`); got != want {
			f.t.Errorf("%s =\n%s\nwant\n%s", id, got, want)
		}
	}
	f.setPermission("clipboard-read", cdpbrowser.PermissionSettingGranted)
	f.setPermission("clipboard-write", cdpbrowser.PermissionSettingGranted)
	f.click("#lane-0-go-copy")
	f.waitText("#lane-0-go-copy", "Copied main.go ✓")
	if got := f.eval(`navigator.clipboard.readText()`); got != want0 {
		f.t.Errorf("clipboard after Copy as Go =\n%s\nwant lane 1's program", got)
	}
	// Another limit: the code follows, and it is no longer the one copied.
	f.setSelect("lane-0-kind", "gcra")
	f.waitText("#lane-0-go-copy", "Copy as Go")
	if got := f.eval(`document.querySelector("#lane-0-go-code").textContent`); !strings.Contains(got, "return limiter.NewGCRA(") {
		f.t.Errorf("after switching lane 1 to GCRA, its Go code:\n%s", got)
	}
}
