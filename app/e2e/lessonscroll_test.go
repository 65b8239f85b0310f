//go:build e2e

package e2e

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLessonOpensInView: on a phone the lesson card stands under the list of
// lessons; a link to a lesson, or a tap on one in the list, opens with the
// card at the top of the window. On a wide screen, where the card is beside
// the list, the page does not scroll.
func TestLessonOpensInView(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	t.Cleanup(func() { p.do(chromedp.EmulateViewport(1360, 940)) })
	for _, c := range []struct {
		w, h   int64
		scroll bool
	}{{390, 844, true}, {1280, 800, false}, {1024, 768, false}} {
		p.do(chromedp.EmulateViewport(c.w, c.h))
		check := func(how string, f *learnPage) {
			t.Helper()
			top, _ := strconv.ParseFloat(f.eval(`String(document.getElementById("lesson").getBoundingClientRect().top)`), 64)
			y, _ := strconv.ParseFloat(f.eval(`String(scrollY)`), 64)
			switch {
			case c.scroll && (y < 300 || top < -1 || top > 1):
				t.Errorf("%dx%d, %s: scrolled to %.0f, the lesson's top at %.1f px; want it at the window's top", c.w, c.h, how, y, top)
			case !c.scroll && y != 0:
				t.Errorf("%dx%d, %s: scrolled to %.0f with the lesson's top at %.1f px; want no scroll", c.w, c.h, how, y, top)
			}
		}
		f := p.openLearn(base + "/learn?lesson=per-client-eviction&paused=1&t=10")
		f.waitAttrOf("#lesson", "data-lesson", "per-client-eviction")
		f.waitText("#lesson-clock", "t = 10.00 s of 10.00 s")
		check("the link to lesson 5 at 10 s", f)
		g := p.openLearn(base + "/learn")
		g.click(`#lesson-list a[href*="burst-vs-rate"]`)
		g.waitAttrOf("#lesson", "data-lesson", "burst-vs-rate")
		check("lesson 2 tapped in the list", g)
	}
}

// TestLessonRunShowsLanes: at 1024×768 and on a phone, the lanes of a
// lesson stand under its texts, below the first screen; Run scrolls the
// lesson's clock up (to the window's top, or as far as the page goes) so
// that the lanes it plays are seen with it.
func TestLessonRunShowsLanes(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	t.Cleanup(func() { p.do(chromedp.EmulateViewport(1360, 940)) })
	for _, v := range [][2]int64{{1024, 768}, {390, 844}} {
		p.do(chromedp.EmulateViewport(v[0], v[1]))
		f := p.openLearn(base + "/learn?lesson=boundary-burst")
		f.waitAttrOf("#lesson", "data-lesson", "boundary-burst")
		f.eval(`window.scrollTo(0, 0), "ok"`)
		below := f.eval(`String(document.getElementById("lstrip-0").getBoundingClientRect().top > innerHeight)`)
		if below != "true" {
			t.Fatalf("%dx%d: lane 1 already in the first screen; the test wants it below", v[0], v[1])
		}
		f.click("#lesson-run")
		f.poll(fmt.Sprintf("%dx%d: the lesson's clock and lane 1 after Run", v[0], v[1]), "clock in view, lane 1 in view", func() string {
			return f.eval(`(() => { const t = document.getElementById("lesson-player").getBoundingClientRect().top;
				const l = document.getElementById("lstrip-0").getBoundingClientRect();
				return (t >= -1 ? "clock in view" : "clock at " + Math.round(t) + " px") + ", " + (l.bottom <= innerHeight ? "lane 1 in view" : "lane 1 ends at " + Math.round(l.bottom) + " px"); })()`)
		})
	}
}
