//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// screen is a browser window: its CSS viewport and its device scale factor
// (2 is a 200 % zoom: a 1920 px window at 200 % lays out 960 CSS px).
type screen struct {
	name  string
	w, h  int64
	scale float64
}

// The three screens every page is measured at, then the lab's extra ones:
// the narrowest phone, a wide monitor, and browser zoom (1280 px at 125 %,
// 1920 and 2560 px at 200 %).
var (
	layoutScreens = []screen{{"phone-390x844", 390, 844, 1}, {"projector-1024x768", 1024, 768, 1}, {"fullhd-1920x1080", 1920, 1080, 1}}
	labScreens    = []screen{{"phone-360x780", 360, 780, 1}, {"wide-2560x1440", 2560, 1440, 1},
		{"1280x800-at-125pct", 1024, 640, 1.25}, {"1920x1080-at-200pct", 960, 540, 2}, {"2560x1440-at-200pct", 1280, 720, 2}}
)

// The bounds: a chart is at least minChartPx wide unless it is stacked at
// the full width of its column, and no chart text is under minTextPx CSS
// pixels on screen.
const (
	minChartPx = 480
	minTextPx  = 12
)

// chartSizes is what chartScript measures: each chart's width and the
// width it would have at the full width of its column, and the smallest
// chart text on screen with the text that has it.
type chartSizes struct {
	Widths   []float64 `json:"widths"`
	Full     []float64 `json:"full"`
	MinText  float64   `json:"minText"`
	MinWhat  string    `json:"minWhat"`
	Texts    int       `json:"texts"`
	ScrollW  float64   `json:"scrollW"`
	ViewW    float64   `json:"viewW"`
	Overflow string    `json:"overflow"`
}

// chartScript measures the charts matched by charts (a CSS selector) and
// every visible text inside texts (a selector of containers): an SVG text
// by its computed font size times its SVG's scale on screen
// (getScreenCTM), any other text by its computed font size. full is the
// content width of each chart's column (its nearest ancestor matching
// column).
func chartScript(charts, texts, column string) string {
	return fmt.Sprintf(`new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => {
	const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden"; };
	const out = {widths: [], full: [], minText: 1e9, minWhat: "", texts: 0,
		scrollW: document.documentElement.scrollWidth, viewW: document.documentElement.clientWidth, overflow: ""};
	for (const c of document.querySelectorAll(%[1]q)) {
		out.widths.push(Math.round(c.getBoundingClientRect().width * 10) / 10);
		const col = c.parentElement.closest(%[3]q);
		const cs = getComputedStyle(col);
		out.full.push(Math.round((col.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)) * 10) / 10);
	}
	for (const box of document.querySelectorAll(%[2]q)) {
		const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
		const seen = new Set();
		for (let n = walk.nextNode(); n; n = walk.nextNode()) {
			const el = n.parentElement;
			if (!n.textContent.trim() || seen.has(el) || !shown(el)) continue;
			seen.add(el);
			let px = parseFloat(getComputedStyle(el).fontSize);
			const svg = el.closest("svg");
			if (svg) px *= svg.getScreenCTM().a;
			px = Math.round(px * 100) / 100;
			out.texts++;
			if (px < out.minText) { out.minText = px; out.minWhat = (svg && svg.id ? "#" + svg.id + " " : "") + el.tagName + " " + JSON.stringify(n.textContent.trim().slice(0, 30)); }
		}
	}
	for (const el of document.querySelectorAll("body *")) {
		if (el.getBoundingClientRect().right > out.viewW + 0.5 && !el.closest(".table-wrap, .src, pre, .result-wrap") && shown(el)) { out.overflow = el.tagName + "#" + el.id + "." + el.className; break; }
	}
	done(JSON.stringify(out));
})))`, charts, texts, column)
}

func (p *page) chartSizes(charts, texts, column string) chartSizes {
	p.t.Helper()
	var s chartSizes
	if err := json.Unmarshal([]byte(p.eval(chartScript(charts, texts, column))), &s); err != nil {
		p.t.Fatal(err)
	}
	return s
}

// checkCharts fails the test for a chart narrower than minChartPx and not at
// its column's full width, for chart text under minTextPx, and for a page
// wider than its window.
func checkCharts(t *testing.T, where string, s chartSizes, wantCharts int) {
	t.Helper()
	if len(s.Widths) != wantCharts {
		t.Errorf("%s: %d charts, want %d", where, len(s.Widths), wantCharts)
	}
	for i, w := range s.Widths {
		if w < minChartPx && math.Abs(w-s.Full[i]) > 0.5 {
			t.Errorf("%s: chart %d is %.1f px wide, under %d px and not its column's full %.1f px", where, i, w, minChartPx, s.Full[i])
		}
	}
	if s.Texts == 0 {
		t.Errorf("%s: no chart text measured", where)
	}
	if s.MinText < minTextPx {
		t.Errorf("%s: chart text %.2f px on screen (%s), want at least %d px", where, s.MinText, s.MinWhat, minTextPx)
	}
	if s.ScrollW > s.ViewW || s.Overflow != "" {
		t.Errorf("%s: the page is %.0f px wide in a %.0f px window (%s reaches past it)", where, s.ScrollW, s.ViewW, s.Overflow)
	}
}

func (p *page) emulate(s screen) {
	p.t.Helper()
	p.do(chromedp.EmulateViewport(s.w, s.h, chromedp.EmulateScale(s.scale)))
}

// The lab's charts: every lane's drawing and the shared time axis.
const (
	labCharts = ".lane > svg[role=application]"
	labTexts  = ".lane > svg[role=application], #axis"
)

func (p *page) labSizes() chartSizes { return p.chartSizes(labCharts, labTexts, "#lanes") }

func logSizes(t *testing.T, where string, s chartSizes) {
	t.Helper()
	ws := make([]string, len(s.Widths))
	for i, w := range s.Widths {
		ws[i] = strconv.FormatFloat(w, 'f', 1, 64)
	}
	t.Logf("%s: charts %s px wide, smallest chart text %.2f px (%s)", where, strings.Join(ws, " "), s.MinText, s.MinWhat)
}

func TestLayout(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	t.Cleanup(func() { p.do(chromedp.EmulateViewport(1360, 940)) })

	for _, s := range append(append([]screen{}, layoutScreens...), labScreens[0]) {
		t.Run("Playground/"+s.name, func(t *testing.T) { p.t = t; testPlaygroundLayout(p, s) })
	}
	t.Run("LabWidths", func(t *testing.T) { p.t = t; testLabWidths(p) })
	t.Run("LabPhone", func(t *testing.T) { p.t = t; testLabPhone(p) })
	t.Run("LabPresenting", func(t *testing.T) { p.t = t; testLabPresenting(p) })
	for _, s := range layoutScreens {
		t.Run("Lesson/"+s.name, func(t *testing.T) { p.t = t; testLessonLayout(p, s) })
	}
	t.Run("NavRow", func(t *testing.T) { p.t = t; testNavRow(p) })
}

// testNavRow: the pages' links stand at the same place on every page, so
// that moving between pages does not move them under the pointer: at
// 1024×768 they stood 19 px lower on the playground and the lessons, whose
// taglines took two lines, than on the lab, and at 1280×800 20 px further
// left (the lab's page is wider; its header is not).
func testNavRow(p *page) {
	defer p.do(chromedp.EmulateViewport(1360, 940))
	for _, s := range []screen{{"1920x1080", 1920, 1080, 1}, {"1280x800", 1280, 800, 1}, {"1024x768", 1024, 768, 1}, {"390x844", 390, 844, 1}} {
		p.emulate(s)
		tops := map[string]string{}
		for _, pg := range []struct{ path, h1 string }{{"/", "Rate limiter playground"}, {"/lab", "Comparison lab"}, {"/learn", "Learn rate limiting"}} {
			f := p.freshAt(p.base+pg.path, pg.h1)
			tops[pg.path] = f.eval(`(() => { const r = document.querySelector("nav.nav").getBoundingClientRect(); return Math.round(r.top) + "," + Math.round(r.left); })()`)
		}
		if tops["/"] != tops["/lab"] || tops["/"] != tops["/learn"] {
			p.t.Errorf("%s: the nav's top,left is %s px on /, %s on /lab, %s on /learn; want one place", s.name, tops["/"], tops["/lab"], tops["/learn"])
		}
	}
}

// box is an element's rectangle in the viewport (CSS px).
type box struct{ Left, Top, Right, Bottom float64 }

// boxes reads the rectangles of the elements with these ids, and the
// viewport as "viewport" (its scroll offset as Left and Top).
func (p *page) boxes(ids ...string) map[string]box {
	p.t.Helper()
	js := `(() => { const out = {viewport: {Left: scrollX, Top: scrollY, Right: innerWidth, Bottom: innerHeight}};
		for (const id of ` + quoteJSON(ids) + `) { const el = document.getElementById(id); if (!el) continue;
			const r = el.getBoundingClientRect(); out[id] = {Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom}; }
		return JSON.stringify(out); })()`
	var m map[string]box
	if err := json.Unmarshal([]byte(p.eval(js)), &m); err != nil {
		p.t.Fatal(err)
	}
	for _, id := range ids {
		if _, ok := m[id]; !ok {
			p.t.Fatalf("no element #%s", id)
		}
	}
	return m
}

func quoteJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// inView fails the test unless b lies inside the viewport v.
func inView(t *testing.T, what string, b, v box) {
	t.Helper()
	if b.Left < 0 || b.Top < 0 || b.Right > v.Right || b.Bottom > v.Bottom {
		t.Errorf("%s at %+v, outside the %.0f × %.0f viewport", what, b, v.Right, v.Bottom)
	}
}

// testPlaygroundLayout: the token bucket (burst 3, refill 0.5/s,
// paused) sent four requests: Send is on the first screen, pressing it
// scrolls nothing, and the decision stands right under it (8 px, the
// rows' margin), inside the viewport. The figure keeps the chart bounds.
func testPlaygroundLayout(p *page, s screen) {
	p.emulate(s)
	f := p.openPlayground()
	f.useBucket("3", "0.5")
	f.pause()
	f.eval(`window.scrollTo(0, 0), "ok"`)
	f.waitText("#send-decision", "no request yet")
	f.click("#send")
	f.waitText("#send-decision", "#1✓ allowed2 tokens left")
	for range 3 {
		f.click("#send")
	}
	f.waitText("#send-decision", "#4✕ deniedretry after 2.00 s")
	f.waitText("#last-decision .detail", "retry after 2.00 s")
	b := f.boxes("send", "send-decision")
	v, send, dec := b["viewport"], b["send"], b["send-decision"]
	if v.Top != 0 || v.Left != 0 {
		f.t.Errorf("the page scrolled to (%.0f, %.0f) for Send; want Send on the first screen", v.Left, v.Top)
	}
	inView(f.t, "Send", send, v)
	inView(f.t, "the decision", dec, v)
	if under := math.Abs(dec.Top-send.Bottom-8) < 0.5 && math.Abs(dec.Left-send.Left) < 0.5; !under {
		f.t.Errorf("the decision at %+v is not 8 px under Send (Send at %+v)", dec, send)
	}
	f.t.Logf("%s: Send at %+v, the decision at %+v", s.name, send, dec)
	sz := f.chartSizes("#figure", "#figure", ".card")
	logSizes(f.t, s.name, sz)
	checkCharts(f.t, s.name, sz, 1)
	f.screenshot("layout-playground-" + s.name + ".png")
}

// testLessonLayout: the boundary-burst lesson, played: its three lanes
// keep the chart bounds.
func testLessonLayout(p *page, s screen) {
	p.emulate(s)
	f := p.openLearn(p.base + "/learn?lesson=boundary-burst")
	f.waitAttrOf("#lesson", "data-lesson", "boundary-burst")
	f.runLesson()
	sz := f.chartSizes(".lstrip", ".lesson-lanes", ".lesson-lanes")
	logSizes(f.t, s.name, sz)
	checkCharts(f.t, s.name, sz, 3)
	f.screenshot("layout-lesson-" + s.name + ".png")
}

// testLabPhone: on a phone the lab opens on its lanes: the first lane's
// chart is on the first screen and the setup is closed behind the button
// at the top; one tap opens it right under the button.
func testLabPhone(p *page) {
	phone := layoutScreens[0]
	p.emulate(phone)
	f := p.openLab(p.base + "/lab")
	f.waitAttr("#setup-toggle", "aria-expanded", "false")
	f.waitText("#setup-toggle", "▸ Setup: lanes, traffic, presets, share")
	b := f.boxes("setup-toggle", "lane-0", "lane-0-svg", "lab-setup")
	v := b["viewport"]
	inView(f.t, "the setup button", b["setup-toggle"], v)
	inView(f.t, "the first lane's chart", b["lane-0-svg"], v)
	if setup := b["lab-setup"]; setup.Bottom-setup.Top != 0 {
		f.t.Errorf("the closed setup is %.0f px tall, want 0 (not shown)", setup.Bottom-setup.Top)
	}
	f.t.Logf("phone: first lane at %.0f px, its chart %.0f to %.0f px, of %.0f", b["lane-0"].Top, b["lane-0-svg"].Top, b["lane-0-svg"].Bottom, v.Bottom)
	f.screenshot("layout-lab-phone-lanes-first.png")

	f.click("#setup-toggle")
	f.waitAttr("#setup-toggle", "aria-expanded", "true")
	f.waitText("#setup-toggle", "▾ Hide the setup")
	b = f.boxes("setup-toggle", "lab-setup", "budget-limit")
	if gap := b["lab-setup"].Top - b["setup-toggle"].Bottom; math.Abs(gap-12) > 0.5 {
		f.t.Errorf("the open setup starts %.1f px under its button, want 12", gap)
	}
	inView(f.t, "the budget field", b["budget-limit"], b["viewport"])
	f.screenshot("layout-lab-phone-setup-open.png")
	f.loadPreset("edge")
	f.waitValue("#client-0-pattern", "edge")
	f.click("#setup-toggle")
	f.waitAttr("#setup-toggle", "aria-expanded", "false")
	f.waitCount(".lane[id^=lane-]", 3)
}

// presentSizes is what presenting mode enlarges at 1024 × 768: the clock's
// and the first lane's counts' font sizes (CSS px), and the lab's charts.
type presentSizes struct {
	clock, counts float64
	charts        chartSizes
}

func (p *page) presentSizes() presentSizes {
	p.t.Helper()
	px := func(sel string) float64 {
		v, err := strconv.ParseFloat(p.eval(`String(parseFloat(getComputedStyle(document.querySelector(`+strconv.Quote(sel)+`)).fontSize))`), 64)
		if err != nil {
			p.t.Fatal(err)
		}
		return v
	}
	return presentSizes{clock: px("#lab-clock"), counts: px("#lane-0 .lane-counts"), charts: p.labSizes()}
}

// testLabPresenting: P turns presenting mode on and off on the window-edge
// attack at 1024 × 768 (a projector): the clock from 16.8 px (1.05rem) to
// 38.4 px (2.4rem), the lanes' counts from 13.6 px (.85rem) to 25.6 px
// (1.6rem), the charts from 562 px beside the setup to the page's full
// 938 px (1024 less 2 × 24 of page and 2 × 19 of card), their text from
// 12 px and up to 18 px and up. The header's button says it is on.
func testLabPresenting(p *page) {
	f := p.edgeLab()
	f.emulate(layoutScreens[1])
	f.eval(`document.activeElement && document.activeElement.blur(), "ok"`)
	check := func(state string, want presentSizes, minText float64) {
		got := f.presentSizes()
		logSizes(f.t, state, got.charts)
		if got.clock != want.clock || got.counts != want.counts {
			f.t.Errorf("%s: clock %.2f px, counts %.2f px; want %.2f and %.2f", state, got.clock, got.counts, want.clock, want.counts)
		}
		for i, w := range got.charts.Widths {
			if w != want.charts.Widths[i] {
				f.t.Errorf("%s: chart %d is %.1f px wide, want %.1f", state, i, w, want.charts.Widths[i])
			}
		}
		if got.charts.MinText < minText {
			f.t.Errorf("%s: chart text %.2f px (%s), want at least %.0f", state, got.charts.MinText, got.charts.MinWhat, minText)
		}
	}
	normal := presentSizes{clock: 16.8, counts: 13.6, charts: chartSizes{Widths: []float64{562, 562, 562}}}
	presenting := presentSizes{clock: 38.4, counts: 25.6, charts: chartSizes{Widths: []float64{938, 938, 938}}}
	check("not presenting", normal, minTextPx)
	f.waitAttr("#present-toggle", "aria-pressed", "false")
	f.do(chromedp.KeyEvent("p"))
	f.waitAttr("html", "data-present", "")
	f.waitAttr("#present-toggle", "aria-pressed", "true")
	check("presenting", presenting, 18)
	f.screenshot("layout-lab-presenting-1024x768.png")
	f.do(chromedp.KeyEvent("p"))
	f.waitAttr("html", "data-present", "null")
	f.waitAttr("#present-toggle", "aria-pressed", "false")
	check("presenting off again", normal, minTextPx)
	// The button does the same, and the help lists the key.
	f.click("#present-toggle")
	f.waitAttr("html", "data-present", "")
	check("presenting by the button", presenting, 18)
	f.click("#present-toggle")
	f.waitAttr("html", "data-present", "null")
	f.do(chromedp.KeyEvent("?"))
	f.waitText("#help-keys .key-row:nth-child(10) dt", "P")
	f.waitText("#help-keys .key-row:nth-child(10) dd", "presenting mode on or off: the clock, the lab's lanes, the counters and the decisions large, for a room")
	f.do(chromedp.KeyEvent("p")) // in the dialog: not ours
	f.waitAttr("html", "data-present", "null")
	f.click("#help-close")
}

// edgeLab opens the lab on the window-edge attack (three lanes), paused
// at 3 s.
func (p *page) edgeLab() *labPage {
	p.t.Helper()
	p.do(chromedp.EmulateViewport(1360, 940))
	f := p.openLab(p.base + "/lab")
	f.loadPreset("edge")
	f.waitValue("#client-0-pattern", "edge")
	f.runSeconds(3)
	return f
}

// testLabWidths: the window-edge attack at the three screens, the lab's
// extra ones, and every width from 360 to 2560 px in steps of 8 px.
func testLabWidths(p *page) {
	f := p.edgeLab()
	for _, s := range append(append([]screen{}, layoutScreens...), labScreens...) {
		f.emulate(s)
		sz := f.labSizes()
		logSizes(f.t, s.name, sz)
		checkCharts(f.t, s.name, sz, 3)
		f.screenshot("layout-lab-" + s.name + ".png")
	}
	for w := int64(360); w <= 2560; w += 8 {
		f.emulate(screen{w: w, h: 900, scale: 1})
		sz := f.labSizes()
		checkCharts(f.t, fmt.Sprintf("%d px wide", w), sz, 3)
	}
}
