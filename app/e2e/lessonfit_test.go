//go:build e2e

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/ratelab/ratelab/app/explain"
)

// The screens the lessons' pictures are measured at: two phones, a
// projector and a laptop.
var lessonFitScreens = []screen{{"phone-390x844", 390, 844, 1}, {"phone-360x780", 360, 780, 1},
	{"projector-1024x768", 1024, 768, 1}, {"laptop-1280x800", 1280, 800, 1}}

// TestLessonFit: the lessons' pictures and the design lesson's class
// diagram fit the width of a phone with their text at 12 px or more, the
// design lesson says its rates in words, and its player steps through
// alice's requests.
func TestLessonFit(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	t.Cleanup(func() { p.do(chromedp.EmulateViewport(1280, 800)) })
	t.Run("Pictures", func(t *testing.T) { testPicturesFit(p.on(t)) })
	t.Run("Diagram", func(t *testing.T) { testDiagramFits(p.on(t)) })
	p.do(chromedp.EmulateViewport(1280, 800))
	t.Run("Rates", func(t *testing.T) { testDesignRates(p.on(t)) })
	t.Run("DesignPlayer", func(t *testing.T) { testDesignPlayer(p.on(t)) })
}

// pictureWidth is the viewBox width the pictures are drawn at for the open
// lesson's card (picfit.go): 960 from 780 px of card content up, else its
// whole pixels (at least 300).
const pictureWidth = `(() => { const el = document.getElementById("lesson"), cs = getComputedStyle(el);
	const cw = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
	return String(cw >= 780 ? 960 : Math.max(Math.floor(cw), 300)); })()`

// testPicturesFit: the clock, lock and queue lessons, paused mid-way, at
// each screen: no picture wider than the card, none scrolled inside its box,
// the page no wider than the window, every picture's text 12 px or more on
// screen, and each SVG's viewBox as wide as picfit.go draws it.
func testPicturesFit(p *page) {
	for _, s := range lessonFitScreens {
		p.emulate(s)
		for _, l := range []struct {
			id, t, svgs string
			n           int
			height      []string
		}{
			{"monotonic-clock", "5", "#clock-svg", 1, []string{"304", "340"}},
			{"lock-design", "0.0000005", "#lock-global-svg, #lock-perkey-svg", 2, []string{"144", "144"}},
			{"queue-vs-meter", "0.5", "#queue-0-svg, #queue-1-svg", 2, nil},
		} {
			f := p.openLearn(p.base + "/learn?lesson=" + l.id + "&paused=1&t=" + l.t)
			f.waitText("#lesson-clock-state", "paused")
			w := f.eval(pictureWidth)
			first := strings.Split(l.svgs, ",")[0]
			f.poll(first+" viewBox width", w, func() string {
				return f.eval(fmt.Sprintf(`(() => { const s = document.querySelector(%q); return s ? s.getAttribute("viewBox").split(" ")[2] : "<missing>"; })()`, first))
			})
			where := s.name + " " + l.id
			if l.height != nil {
				want := l.height[0]
				if w != "960" {
					want = l.height[1]
				}
				if got := f.eval(fmt.Sprintf(`document.querySelector(%q).getAttribute("viewBox")`, first)); got != "0 0 "+w+" "+want {
					p.t.Errorf("%s: viewBox %q, want %q", where, got, "0 0 "+w+" "+want)
				}
			}
			checkCharts(p.t, where, f.chartSizes(l.svgs, "#lesson .lesson-picture", "#lesson"), l.n)
			f.fitsWidth(where, "#lesson .lesson-picture, #lesson .lesson-picture *")
			f.screenshot(fmt.Sprintf("lessonfit-%s-%dx%d.png", l.id, s.w, s.h))
		}
	}
}

// fitsWidth fails when the page scrolls sideways or an element matched by
// sel is wider than its box lets it show (scrolls inside itself) or reaches
// past the window.
func (p *page) fitsWidth(where, sel string) {
	p.t.Helper()
	got := p.eval(fmt.Sprintf(`(() => {
		const se = document.scrollingElement;
		if (se.scrollWidth > innerWidth) return "page " + se.scrollWidth + " px in " + innerWidth;
		for (const el of document.querySelectorAll(%q)) {
			const r = el.getBoundingClientRect();
			if (r.width === 0) continue;
			if (r.right > innerWidth + 0.5 || r.left < -0.5) return (el.id || el.tagName) + " spans " + r.left + " to " + r.right;
			if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible") return (el.id || el.className || el.tagName) + " scrolls: " + el.scrollWidth + " in " + el.clientWidth;
		}
		return "fits";
	})()`, sel))
	if got != "fits" {
		p.t.Errorf("%s: %s", where, got)
	}
}

// testDiagramFits: under 840 px of lesson the class diagram is its list of
// types (the drawing and its arrows' legend hidden), on a phone with no text under 12 px and
// nothing past the window; from there up it is the drawing, its text 12 px
// or more.
func testDiagramFits(p *page) {
	types := explain.DesignTypes()
	for _, s := range lessonFitScreens {
		p.emulate(s)
		f := p.openLearn(p.base + "/learn?lesson=" + explain.DesignLessonID)
		f.waitCount("#design-types > li", len(types))
		where := s.name + " design"
		list := f.eval(`String(document.getElementById("design-types").getBoundingClientRect().width > 0) + " " + String(document.getElementById("design-diagram").getBoundingClientRect().width > 0) + " " + String(document.querySelector(".design-legend").getBoundingClientRect().width > 0)`)
		narrow := f.eval(`String(document.getElementById("design").clientWidth < 840)`) == "true"
		if narrow {
			if list != "true false false" {
				p.t.Errorf("%s: list shown, diagram shown, arrow legend shown: %s; want the list only", where, list)
			}
			checkCharts(p.t, where, f.chartSizes("#design-types", "#design-diagram-section", "#design"), 1)
			f.fitsWidth(where, "#design-diagram-section, #design-diagram-section *")
			if got := f.text("#design-type-Keyed .rel"); got != "holds one Strategy per key (0..*), made on the key's first request by its Factory" {
				p.t.Errorf("%s: Keyed's relation %q", where, got)
			}
			if got := f.text("#design-type-SlidingWindowCounter li code"); got != "NewSlidingWindowCounter(limit int, window time.Duration) (*SlidingWindowCounter, error)" {
				p.t.Errorf("%s: SlidingWindowCounter's constructor %q", where, got)
			}
			if got := f.eval(`document.querySelector("#design-type-Strategy h4 a").getAttribute("href")`); got != explain.ShippedDir+"limiter.go" {
				p.t.Errorf("%s: Strategy links to %q", where, got)
			}
		} else {
			if list != "false true true" {
				p.t.Errorf("%s: list shown, diagram shown, arrow legend shown: %s; want the diagram and its legend", where, list)
			}
			checkCharts(p.t, where, f.chartSizes("#design-diagram", "#design-diagram-section", "#design"), 1)
			f.fitsWidth(where, "#design-diagram-section, #design-diagram-section *")
		}
		f.eval(`document.getElementById("design-diagram-section").scrollIntoView({block: "start"}), "ok"`)
		f.screenshot(fmt.Sprintf("lessonfit-design-%dx%d.png", s.w, s.h))
	}
}

// testDesignRates: the tiers and the endpoints say their rates in words,
// exactly, for a token bucket and for a fixed window.
func testDesignRates(p *page) {
	f := p.openLearn(p.base + "/learn?lesson=" + explain.DesignLessonID)
	f.waitText("#design-tiers-configs", "free = token bucket: 5 per minute, burst 5\npro  = token bucket: 50 per minute, burst 50")
	f.waitText("#design-endpoints-configs", "/search = token bucket: 5 per minute, burst 5\n/upload = token bucket: 2 per minute, burst 2")
	f.waitText("#design-factory", explain.OneLimitCode(explain.Budget("token_bucket", explain.SwitchLimit, explain.SwitchWindow)))
	f.click("#design-kind-gcra")
	f.waitText("#design-tiers-configs", "free = GCRA: 5 per minute, burst 5\npro  = GCRA: 50 per minute, burst 50")
	f.click("#design-kind-fixed_window")
	f.waitText("#design-tiers-configs", "free = fixed window: 5 per minute\npro  = fixed window: 50 per minute")
	if got := f.text("#design-tiers p"); !strings.Contains(got, "gets 50 per minute, any other key 5 per minute.") {
		p.t.Errorf("tiers text: %q", got)
	}
}

// testDesignPlayer: the design lesson's player steps through alice's 14
// requests, 5 instants, each step adding its rows with every strategy's
// reply; the scrubber goes back; Run plays to the check.
func testDesignPlayer(p *page) {
	l, _ := explain.LessonByID(explain.DesignLessonID)
	res, err := l.Run()
	if err != nil {
		p.t.Fatal(err)
	}
	row := func(i int) string {
		var cells []string
		for j, c := range res.Rows[i] {
			switch {
			case j < 2:
			case strings.HasPrefix(c, "200 ("):
				c = "✓ " + c
			default:
				c = "✕ " + c
			}
			cells = append(cells, c)
		}
		return strings.Join(cells, " | ")
	}
	rowText := func(i int) string {
		return p.eval(fmt.Sprintf(`(() => { const tr = document.querySelectorAll("#lesson-table tbody tr")[%d]; return tr ? [...tr.cells].map(c => c.textContent).join(" | ") : "<missing>"; })()`, i))
	}
	f := p.openLearn(p.base + "/learn?lesson=" + explain.DesignLessonID)
	lp := f
	lp.lessonAt("t = 0.00 s of 2.00 s", "ready", "event 0 of 5")
	for i, c := range []struct {
		clock string
		rows  int
	}{{"0.00", 3}, {"0.60", 6}, {"1.00", 9}, {"1.10", 11}, {"1.50", 14}} {
		f.click("#lesson-step")
		lp.lessonAt("t = "+c.clock+" s of 2.00 s", "paused", "event "+strconv.Itoa(i+1)+" of 5")
		f.waitCount("#lesson-table tbody tr", c.rows)
		f.poll("row "+strconv.Itoa(c.rows), row(c.rows-1), func() string { return rowText(c.rows - 1) })
	}
	if got, want := rowText(6), "7 | 1 s | ✓ 200 (3 left) | ✓ 200 (3 left) | ✓ 200 (3 left) | ✓ 200 (4 left) | ✓ 200 (2 left) | ✕ 429 (retry after 200 ms)"; got != want {
		p.t.Errorf("row 7: %q, want %q", got, want)
	}
	f.click("#lesson-step")
	lp.lessonAt("t = 2.00 s of 2.00 s", "ended", "event 5 of 5")
	f.waitAttrOf("#lesson-check", "data-ok", "true")
	f.setRange("lesson-scrub", "400")
	lp.lessonAt("t = 0.80 s of 2.00 s", "paused", "event 2 of 5")
	f.waitCount("#lesson-table tbody tr", 6)
	lp.runLesson()
	f.waitCount("#lesson-table tbody tr", 14)
	f.screenshot("lessonfit-design-player.png")
}
