//go:build e2e

package e2e

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"testing"

	"github.com/chromedp/chromedp"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/limiter"
)

// TestDesignLesson drives the design lesson (the first) and the source
// view of the inspector, end to end; each subtest opens its page anew.
func TestDesignLesson(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	p.do(chromedp.EmulateViewport(1280, 800))
	design := func(t *testing.T) *learnPage {
		return p.on(t).openLearn(base + "/learn?lesson=" + explain.DesignLessonID)
	}
	t.Run("First", func(t *testing.T) { testDesignFirst(p.on(t).openLearn(base + "/learn")) })
	t.Run("Diagram", func(t *testing.T) { testDesignDiagram(design(t)) })
	t.Run("Switch", func(t *testing.T) { testDesignSwitch(design(t)) })
	t.Run("TiersAndEndpoints", func(t *testing.T) { testDesignTiersAndEndpoints(design(t)) })
	t.Run("Widths", func(t *testing.T) { testDesignWidths(p.on(t)) })
	t.Run("SourceView", func(t *testing.T) {
		testSourceViewScroll(p.on(t).openLearn(base + "/learn?lesson=burst-vs-rate"))
	})
}

// testDesignFirst: the design lesson is the first in the list and the one
// the intro starts with, numbered 1.
func testDesignFirst(p *learnPage) {
	p.waitCount("#lesson-list li", len(explain.Lessons()))
	if got := p.eval(`document.querySelector("#lesson-list li:first-child a").id`); got != "lesson-link-"+explain.DesignLessonID {
		p.t.Errorf("first lesson link %q; want lesson-link-%s", got, explain.DesignLessonID)
	}
	l, _ := explain.LessonByID(explain.DesignLessonID)
	p.waitText("#start-lesson", "Start with lesson 1: "+l.Title+" →")
	p.click("#start-lesson")
	p.waitAttrOf("#lesson", "data-lesson", explain.DesignLessonID)
	p.waitText("#lesson-title", "Lesson 1: "+l.Title)
	p.waitCount("#design-diagram", 1)
	// Its run is the table of the same requests under the six strategies,
	// and its check passes with explain's message.
	r, _ := l.Run()
	_, msg := l.Check(r)
	p.runLesson()
	p.waitText("#lesson-check-msg", msg)
	p.waitCount("#lesson-table tbody tr", len(explain.SwitchRequests()))
}

// testDesignDiagram: one box per type, each linked to a file the server
// serves (HTTP 200) whose text is limiter/'s, each drawing its members.
func testDesignDiagram(p *learnPage) {
	types := explain.DesignTypes()
	p.waitCount("#design-diagram a", len(types))
	lim, err := explain.LimiterDir()
	if err != nil {
		p.t.Fatal(err)
	}
	for _, d := range types {
		href := p.eval(fmt.Sprintf(`document.getElementById("design-box-%s").getAttribute("href")`, d.Name))
		if href != "/web/src/"+d.File {
			p.t.Errorf("%s links to %q; want /web/src/%s", d.Name, href, d.File)
			continue
		}
		resp, err := http.Get(p.base + href)
		if err != nil {
			p.t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want, _ := os.ReadFile(filepath.Join(lim, d.File))
		if resp.StatusCode != 200 || string(body) != string(want) {
			p.t.Errorf("GET %s: HTTP %d, %d bytes; want 200 and limiter/%s (%d bytes)", href, resp.StatusCode, len(body), d.File, len(want))
		}
		members := append(append(append([]string{}, d.Fields...), d.Funcs...), d.Methods...)
		got := p.eval(fmt.Sprintf(`Array.from(document.querySelectorAll("#design-box-%s [data-member]")).map(e => e.dataset.member).join("\n")`, d.Name))
		if got != strings.Join(members, "\n") {
			p.t.Errorf("%s draws %q; want %q", d.Name, got, members)
		}
	}
	// The text is drawn at 12 px or more at 1280 px.
	if got := p.eval(`String(Math.min(...Array.from(document.querySelectorAll("#design-diagram text")).map(e => e.getBoundingClientRect().height)) >= 12)`); got != "true" {
		p.t.Errorf("diagram text below 12 px")
	}
	p.eval(`document.getElementById("design-diagram").scrollIntoView({block: "start"}), "ok"`)
	p.screenshot("design-1-diagram-1280.png")
	p.axe(axeScript(p.t), "design lesson")
}

// switchWant is what the page must show for kind: alice's requests decided
// by a limiter.Keyed whose factory gives kind's 5 per second.
func switchWant(t *testing.T, kind limiter.Kind) (rows []string, admitted int) {
	cfg := explain.Budget(kind, explain.SwitchLimit, explain.SwitchWindow)
	k, err := limiter.NewKeyed(func(string) (limiter.Strategy, error) { return limiter.New(cfg) }, limiter.KeyedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, at := range explain.SwitchRequests() {
		d, err := k.AllowNAt(at, "alice", 1)
		if err != nil {
			t.Fatal(err)
		}
		cell := "✕ " + explain.ReplyText(explain.Reply{Status: 429, RetryAfter: d.RetryAfter})
		if d.Allowed {
			admitted++
			cell = "✓ " + explain.ReplyText(explain.Reply{Status: 200, Remaining: d.Remaining})
		}
		rows = append(rows, strconv.Itoa(i+1)+" | "+strconv.FormatFloat(at.Seconds(), 'f', -1, 64)+" s | "+cell)
	}
	return rows, admitted
}

// testDesignSwitch: every strategy in turn; the caller's code stays byte
// for byte the same, the factory's names the strategy, and the replies are
// the limiter's own.
func testDesignSwitch(p *learnPage) {
	caller := ""
	for i, k := range limiter.Kinds {
		p.click("#design-kind-" + string(k))
		p.waitAttrOf("#design-kind-"+string(k), "aria-pressed", "true")
		rows, admitted := switchWant(p.t, k)
		n := len(rows)
		p.waitText("#design-switch-count", fmt.Sprintf("%s: %d of %d admitted (200), %d refused (429)", k.Name(), admitted, n, n-admitted))
		p.poll("replies under "+string(k), strings.Join(rows, "\n"), func() string {
			return p.eval(`Array.from(document.querySelectorAll("#design-switch-table tbody tr")).map(r => Array.from(r.cells).map(c => c.textContent).join(" | ")).join("\n")`)
		})
		code := p.eval(`document.getElementById("design-caller").textContent`)
		if i == 0 {
			caller = code
			if code != explain.ServeCode {
				p.t.Errorf("caller:\n%s\nwant\n%s", code, explain.ServeCode)
			}
		} else if code != caller {
			p.t.Errorf("%s: the caller's code changed:\n%s\nwas\n%s", k, code, caller)
		}
		if got, want := p.eval(`document.getElementById("design-factory").textContent`), explain.OneLimitCode(explain.Budget(k, explain.SwitchLimit, explain.SwitchWindow)); got != want {
			p.t.Errorf("%s: factory %q; want %q", k, got, want)
		}
		if k == limiter.KindFixedWindow {
			p.eval(`document.getElementById("design-switch").scrollIntoView({block: "start"}), "ok"`)
			p.screenshot("design-2-switch-fixed-window.png")
		}
	}
}

// testDesignTiersAndEndpoints: with token buckets, the tiers' and
// endpoints' buttons give the limiter's own counts.
func testDesignTiersAndEndpoints(p *learnPage) {
	kind := limiter.KindTokenBucket
	p.click("#design-kind-" + string(kind))
	p.waitAttrOf("#design-kind-"+string(kind), "aria-pressed", "true")
	tiers, _ := limiter.NewKeyed(explain.Tiers(explain.TierConfigs(kind)), limiter.KeyedOptions{})
	count := map[string][2]int{}
	send := func(k *limiter.Keyed, at limiter.Instant, key string, n int) {
		c := count[key]
		for range n {
			d, _ := k.AllowNAt(at, key, 1)
			if d.Allowed {
				c[0]++
			} else {
				c[1]++
			}
		}
		count[key] = c
	}
	p.click("#design-tier-free")
	send(tiers, 0, "free:alice", 10)
	for range 6 {
		p.click("#design-tier-pro")
	}
	send(tiers, 0, "pro:bob", 60)
	// 20 s later a token bucket of 5 per minute has 1.67 tokens back.
	p.click("#design-tier-wait")
	p.click("#design-tier-wait")
	p.waitText("#design-tier-clock", "t = 20 s")
	p.click("#design-tier-free")
	send(tiers, 20*time.Second, "free:alice", 10)
	for i, key := range []string{"free:alice", "pro:bob"} {
		p.waitText(fmt.Sprintf("#design-tier-%d-ok", i), "✓ "+strconv.Itoa(count[key][0]))
		p.waitText(fmt.Sprintf("#design-tier-%d-no", i), "✕ "+strconv.Itoa(count[key][1]))
	}
	if count["free:alice"] != [2]int{6, 14} || count["pro:bob"] != [2]int{50, 10} {
		p.t.Errorf("limiter counts %v", count)
	}

	eps, _ := limiter.NewKeyed(explain.PerEndpoint(explain.EndpointLimits(kind)), limiter.KeyedOptions{})
	for i, c := range []struct {
		key string
		n   int
	}{{"alice /search", 8}, {"alice /upload", 8}, {"bob /upload", 1}} {
		for range c.n {
			p.click(fmt.Sprintf("#design-ep-%d", i))
		}
		send(eps, 0, c.key, c.n)
	}
	for i, key := range []string{"alice /search", "alice /upload", "bob /upload"} {
		p.waitText(fmt.Sprintf("#design-ep-%d-ok", i), "✓ "+strconv.Itoa(count[key][0]))
		p.waitText(fmt.Sprintf("#design-ep-%d-no", i), "✕ "+strconv.Itoa(count[key][1]))
	}
	if count["alice /search"] != [2]int{5, 3} || count["alice /upload"] != [2]int{2, 6} || count["bob /upload"] != [2]int{1, 0} {
		p.t.Errorf("limiter counts %v", count)
	}
	p.eval(`document.getElementById("design-tiers").scrollIntoView({block: "start"}), "ok"`)
	p.screenshot("design-3-tiers-endpoints.png")
}

// testDesignWidths: the lesson at a projector's 1024×768 and a phone's
// 390×844: the page does not scroll sideways (the diagram scrolls in its
// own box) and the demos' buttons work.
func testDesignWidths(p *page) {
	for _, vp := range [][2]int64{{1024, 768}, {390, 844}} {
		p.do(chromedp.EmulateViewport(vp[0], vp[1]))
		f := p.openLearn(p.base + "/learn?lesson=" + explain.DesignLessonID)
		f.waitCount("#design-diagram", 1)
		f.noHorizontalScroll()
		f.click("#design-kind-" + string(limiter.KindSlidingWindowLog))
		_, admitted := switchWant(p.t, limiter.KindSlidingWindowLog)
		f.waitText("#design-switch-count", fmt.Sprintf("sliding window log: %d of %d admitted (200), %d refused (429)", admitted, len(explain.SwitchRequests()), len(explain.SwitchRequests())-admitted))
		f.screenshot(fmt.Sprintf("design-4-%dx%d.png", vp[0], vp[1]))
	}
	p.do(chromedp.EmulateViewport(1280, 800))
}

// testSourceViewScroll: the inspector's source opens scrolled to its first
// highlight; a step's line button scrolls to and outlines that line, whose
// text is the step's code in limiter/.
func testSourceViewScroll(f *learnPage) {
	p := f
	f.runLesson()
	f.inspect("0-14")
	f.showSource()
	f.waitCount(".src[data-file='tokenbucket.go'] .src-line", strings.Count(readLimiterFile(p.t, "tokenbucket.go"), "\n"))
	inView := func(file, sel string) string {
		return f.eval(fmt.Sprintf(`(() => {
			const box = document.querySelector(".src[data-file='%s']"), el = box && box.querySelector(%q);
			if (!el) return "missing";
			const b = box.getBoundingClientRect(), e = el.getBoundingClientRect();
			return String(box.scrollTop > 0 && e.top >= b.top && e.bottom <= b.bottom);
		})()`, file, sel))
	}
	for _, file := range []string{"tokenbucket.go", "bucket.go"} {
		f.poll("first highlight of "+file+" in view", "true", func() string { return inView(file, "[data-first-note]") })
	}
	f.eval(`document.getElementById("insp-source").scrollIntoView({block: "start"}), "ok"`)
	f.screenshot("design-5-source-first-highlight.png")

	// The refill step's line: named with its number, its code limiter's.
	refill := `#insp-code-list li[data-step="refill"]`
	text := "if paid := int64(elapsed) * b.perNs; paid < debt {"
	line := lineOfText(p.t, "bucket.go", text)
	f.waitAttrOf(refill, "data-line", strconv.Itoa(line))
	f.waitText(refill+" button", "limiter/bucket.go line "+strconv.Itoa(line))
	f.waitText(refill+" code", text)
	if got := f.eval(`document.querySelector('` + refill + ` .code-units').textContent`); !strings.HasSuffix(strings.ReplaceAll(got, "\u202f", " "), "Here 100 000 000 ns × 5 = 500 000 000, that is 0.5 tokens.") {
		f.t.Errorf("refill units: %q", got)
	}
	f.click(refill + " button")
	f.waitAttrOf(".src[data-file='bucket.go'] .src-line.focus", "data-line", strconv.Itoa(line))
	f.poll("refill line in view", "true", func() string { return inView("bucket.go", ".src-line.focus") })
	if got := f.eval(`document.querySelector(".src[data-file='bucket.go'] .src-line.focus .code").textContent`); strings.TrimSpace(got) != text {
		f.t.Errorf("outlined line %d reads %q; want %q", line, got, text)
	}
	f.screenshot("design-6-source-step-line.png")

	// On a phone the steps' code lines scroll in their own boxes: the page
	// does not scroll sideways.
	p.do(chromedp.EmulateViewport(390, 844))
	defer p.do(chromedp.EmulateViewport(1280, 800))
	f.waitCount(refill, 1)
	f.noHorizontalScroll()
	f.eval(`document.getElementById("insp-code").scrollIntoView({block: "start"}), "ok"`)
	f.screenshot("design-7-source-steps-390.png")
}

func readLimiterFile(t *testing.T, name string) string {
	lim, err := explain.LimiterDir()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(lim, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lineOfText is the 1-based line of limiter/name that holds text (exactly
// one must).
func lineOfText(t *testing.T, name, text string) int {
	n := 0
	for i, l := range strings.Split(readLimiterFile(t, name), "\n") {
		if strings.Contains(l, text) {
			if n != 0 {
				t.Fatalf("%s: %q on two lines", name, text)
			}
			n = i + 1
		}
	}
	if n == 0 {
		t.Fatalf("%s: %q on no line", name, text)
	}
	return n
}
