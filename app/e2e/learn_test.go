//go:build e2e

package e2e

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/limiter"
)

// lessonChecks are the "what you should have seen" messages established by
// app/explain/lessons_test.go: each lesson played in the page must pass
// its check with exactly this message.
var lessonChecks = []struct{ id, msg string }{
	{"burst-vs-rate", "burst 10: 14 admitted in the busiest second (more than the burst of 10) and 35 in 5 s; " +
		"burst 1: 5 in the busiest second and 26 in 5 s. The difference, 9, is the extra burst spent once."},
	{"boundary-burst", "fixed window: 20 within 1 s, in [900 ms, 1.9 s) (2 × the limit of 10); sliding window log: 10; " +
		"sliding window counter: 10. Memory per client: the log up to 10 instants, the counter 2 counts."},
	{"monotonic-clock", "while the wall clock was behind (4 s to 8 s): monotonic 8 admitted, wall clock 0 (starved; " +
		"naive elapsed reached -9.75 s). In the second after the 1 h jump: monotonic 2, wall clock 4 (an unearned full bucket). " +
		"In 12 s: monotonic 27, wall clock 22."},
	{"per-client-eviction", "keys held peaked at 3000 of 5001 clients and fell to 0 after the last sweep; " +
		"Mallory at 3 s: 3 admitted with eviction that keeps debt, 5 with the naive TTL cache (2 unearned)."},
	{"lock-design", "total waiting: 51.84 µs with one global lock, 23.28 µs with a lock per key (longest 3.84 µs vs 1.94 µs; " +
		"hold times measured by make bench on go1.26.8 linux/amd64, AMD EPYC (Oxide Virtual Turin-like), 2 cores, at 2f69143). " +
		"Lazy creation, burst 5, 10 first requests: 10 admitted with check-then-act, 5 with limiter.Keyed."},
	{"queue-vs-meter", "both lanes: 26 admitted, 9 rejected. As a queue the longest wait is 2 s (the 21st request, " +
		"(21 − 1) × 100 ms); as a meter every admitted request passes at once."},
	{"many-gateways", "in 3 s, 180 offered against a limit of 30: local limits admitted 90 (3×, 60 over); " +
		"read-then-write admitted 60 (30 over, 30 lost updates); the atomic shared store 30, each request 20 ms later; " +
		"stamped by instance clocks −300 ms, 0 and +300 ms: 41, by the store's clock: 30; the split limit 27. (Simulated.)"},
}

// TestLearn drives the /learn page (lessons, inspector, quiz, cards) and the
// accessibility features across the app, end to end.
func TestLearn(t *testing.T) {
	chromium := findChromium(t)
	axe := axeScript(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	// The page's console errors and uncaught exceptions go to the test log.
	if err := chromedp.Listen(p.ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			t.Logf("page exception: %s %v", e.ExceptionDetails.Text, e.ExceptionDetails.Exception)
		case *runtime.EventConsoleAPICalled:
			if e.Type == "error" || e.Type == "warning" || e.Type == "log" {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				t.Logf("page console %s: %s", e.Type, strings.Join(parts, " "))
			}
		}
	}); err != nil {
		t.Fatal(err)
	}

	playground := func(t *testing.T) *playgroundPage { return p.on(t).openPlayground() }
	learn := func(t *testing.T) *learnPage { return p.on(t).openLearn(base + "/learn") }

	t.Run("ShippedSourceEqualsLimiter", func(t *testing.T) { testShippedSource(t, base) })
	t.Run("HelpOverlayKeys", func(t *testing.T) { testHelpOverlay(playground(t)) })
	t.Run("SpaceStillSends", func(t *testing.T) { testSpaceSends(playground(t)) })
	t.Run("AxePlayground", func(t *testing.T) {
		// With a request decided and announced.
		g := playground(t)
		g.pause()
		g.reset()
		g.do(chromedp.KeyEvent(" "))
		g.waitText("#allowed-count", "1")
		g.axe(axe, "playground")
		// A burst with allowed and denied requests: each part of the verdict
		// under Send in its own colour, both legible (color-contrast), light
		// and dark.
		g.setBurstN(6)
		g.click("#burst")
		g.waitText("#send-decision", "#2–#7✓ 4 allowed,✕ 2 deniedretry after 1.00 s")
		g.axe(axe, "playground after a mixed burst")
		g.click("#theme-toggle")
		g.axe(axe, "playground after a mixed burst, dark")
		g.click("#theme-toggle")
	})
	t.Run("Lessons", func(t *testing.T) { testLessons(playground(t)) })
	t.Run("InspectorEnterOnMark", func(t *testing.T) { testInspector(learn(t)) })
	t.Run("AxeLessonOpen", func(t *testing.T) {
		l := learn(t)
		l.openLesson("burst-vs-rate")
		l.runLesson()
		l.inspect("0-14")
		l.showSource()
		l.axe(axe, "lesson with inspector and source")
	})
	t.Run("QuizSeed42", func(t *testing.T) { testQuiz(p.on(t)) })
	t.Run("AxeQuizOpen", func(t *testing.T) {
		// Seed 2's first question is about a token bucket: it has the
		// tokens field too.
		q := p.on(t).openLearn(base + "/learn?seed=2")
		q.waitText("#quiz-progress", "1 of 10")
		q.waitCount("#quiz-tokens", 1)
		q.axe(axe, "quiz question")
		q.decide(true)
		q.setNumber("quiz-tokens", "1")
		q.click("#quiz-reveal")
		q.waitCount("#inspector", 1)
		q.axe(axe, "quiz reveal")
	})
	t.Run("QuizTokensTyped", func(t *testing.T) { testQuizTokensTyped(p.on(t)) })
	t.Run("QuizTokenTolerance", func(t *testing.T) { testQuizTokenTolerance(p.on(t)) })
	t.Run("BadLinks", func(t *testing.T) { testLearnBadLinks(p.on(t)) })
	t.Run("Cards", func(t *testing.T) { testCards(learn(t)) })
	t.Run("AxeCards", func(t *testing.T) {
		// With the first card's answer open.
		l := learn(t)
		l.openCards()
		c := explain.Cards()[0]
		l.click("#card-toggle-" + c.ID)
		l.waitAttrOf("#card-toggle-"+c.ID, "aria-expanded", "true")
		l.axe(axe, "cards")
	})
	t.Run("DarkThemeAnd360px", func(t *testing.T) { testThemeAndNarrow(p.on(t), axe) })
	t.Run("AxeLab", func(t *testing.T) {
		resp, err := http.Get(base + "/lab")
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("/lab: %v %v", resp, err)
		}
		resp.Body.Close()
		p.on(t).do(chromedp.EmulateViewport(1360, 940))
		l := p.on(t).openLab(base + "/lab")
		l.axe(axe, "lab")
		// With the inspector open on a lane's newest decision.
		l.waitText("#lab-clock-state", "running")
		l.pause()
		l.do(chromedp.Focus(chromedp.ID("lane-0-svg")))
		l.poll("#lane-0-selected starts with Selected", "true", func() string {
			return l.eval(`String(String((document.getElementById("lane-0-selected") || {}).textContent || "").startsWith("Selected: request"))`)
		})
		l.do(chromedp.KeyEvent("\r"))
		l.waitCount("#insp-verdict", 1)
		l.axe(axe, "lab with the inspector open")
	})
}

// testShippedSource fetches every limiter source the page shows from the
// server (/web/src/) into a temp dir and checks it equals limiter/.
func testShippedSource(t *testing.T, base string) {
	lim, err := explain.LimiterDir()
	if err != nil {
		t.Fatal(err)
	}
	names, err := explain.ShippedFiles(lim)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	for _, n := range names {
		resp, err := http.Get(base + explain.ShippedDir + n)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("GET %s%s: HTTP %d", explain.ShippedDir, n, resp.StatusCode)
			continue
		}
		if err := os.WriteFile(filepath.Join(tmp, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := explain.CheckShipped(tmp); err != nil {
		t.Errorf("the shipped source differs from limiter/: %v", err)
	}
	for _, s := range explain.Sources() {
		for _, f := range s.FileNames() {
			if _, err := os.Stat(filepath.Join(tmp, f)); err != nil {
				t.Errorf("%s's source %s is not shipped", s.Kind, f)
			}
		}
	}
}

// testQuizTokensTyped: the tokens field keeps what is typed, key by key,
// even while it is not yet a number ("-", then "-0.5"), and Reveal names
// the problem in words.
func testQuizTokensTyped(p *page) {
	q := p.openLearn(p.base + "/learn?seed=2") // its first question asks for the tokens left
	q.waitText("#quiz-progress", "1 of 10")
	q.decide(true)
	q.eval(`document.getElementById("quiz-tokens").focus(), "ok"`)
	q.do(chromedp.KeyEvent("-"))
	q.poll("#quiz-tokens badInput", "true", func() string {
		return q.eval(`String(document.getElementById("quiz-tokens").validity.badInput)`)
	})
	q.click("#quiz-reveal")
	q.waitText("#quiz-form-error", "⚠ tokens left is not a number the browser can read; want 0 to 10 (right within ±0.05)")
	q.eval(`(() => { const el = document.getElementById("quiz-tokens"); el.value = ""; el.focus(); return "ok"; })()`)
	q.do(chromedp.KeyEvent("-0.5"))
	q.waitValue("#quiz-tokens", "-0.5")
	q.click("#quiz-reveal")
	q.waitText("#quiz-form-error", `⚠ tokens left "-0.5" is out of range: the bucket holds 0 to 10 tokens; want 0 to 10 (right within ±0.05)`)
	q.waitAttrOf("#quiz-tokens", "aria-describedby", "quiz-form-error")
	q.eval(`(() => { const el = document.getElementById("quiz-tokens"); el.value = ""; el.focus(); return "ok"; })()`)
	q.do(chromedp.KeyEvent("1e9"))
	q.click("#quiz-reveal")
	q.waitText("#quiz-form-error", `⚠ tokens left "1e9" is out of range: the bucket holds 0 to 10 tokens; want 0 to 10 (right within ±0.05)`)
	// Enter in the field reveals, as in a form.
	q.eval(`(() => { const el = document.getElementById("quiz-tokens"); el.value = ""; el.focus(); return "ok"; })()`)
	q.do(chromedp.KeyEvent("0.5"))
	q.do(chromedp.KeyEvent("\r"))
	q.waitCount("#quiz-reveal-panel", 1)
	q.waitGone("#quiz-form-error")
}

// testQuizTokenTolerance: seed 29391's question 5 leaves exactly 8.82535478
// tokens. A guess is right within 0.05 of that, either way: 8.77 (0.0554
// below) is wrong, as 8.88 (0.0546 above) is; compared with 8.82 (the value
// floored), 8.77 scored. The line under the score says which questions are
// worth 2 points.
func testQuizTokenTolerance(p *page) {
	q := p.openLearn(p.base + "/learn?mode=quiz&seed=29391")
	q.waitText("#quiz-scoring", "Scoring: 1 point per question for allowed or denied, and 1 more for the tokens left on "+
		"questions 5, 6 and 7 (token buckets): 13 in all.")
	ref, err := explain.NewQuiz(sim.DefaultSetup(), 29391)
	if err != nil {
		p.t.Fatal(err)
	}
	for i := range 4 { // right answers to questions 1 to 4 (no tokens asked)
		q.waitText("#quiz-progress", strconv.Itoa(i+1)+" of 10")
		q.decide(ref.Questions[i].Allowed)
		q.click("#quiz-reveal")
		q.waitText("#quiz-score", strconv.Itoa(i+1)+" / 13")
		q.click("#quiz-next")
	}
	q.waitText("#quiz-progress", "5 of 10")
	q.decide(true)
	q.setNumber("quiz-tokens", "8.77")
	q.click("#quiz-reveal")
	q.waitText("#quiz-feedback .check-head", "½ Decision right, tokens wrong: +1 point")
	q.waitText("#quiz-answer", "The answer: allowed, 8.8254 tokens left.")
	q.waitText("#quiz-tokens-off", "Tokens left: you said 8.77; the exact value is 8.8254, 0.0554 away: more than 0.05, so wrong.")
	q.waitText("#quiz-score", "5 / 13")
	q.click("#quiz-next")
	q.waitText("#quiz-progress", "6 of 10") // exactly 8.48912244: 8.44 is 0.0491 below
	q.decide(true)
	q.setNumber("quiz-tokens", "8.44")
	q.click("#quiz-reveal")
	q.waitText("#quiz-feedback .check-head", "✓ Right: +2 points")
	q.waitText("#quiz-tokens-off", "Tokens left: you said 8.44; the exact value is 8.4891, 0.0491 away: within 0.05, so right.")
	q.waitText("#quiz-score", "7 / 13")
}

// testHelpOverlay: `?` opens the shortcuts, Escape closes them and gives
// focus back.
func testHelpOverlay(p *playgroundPage) {
	p.waitGone("#help")
	p.eval(`document.activeElement && document.activeElement.blur(), "ok"`)
	p.do(chromedp.KeyEvent("?"))
	p.waitCount("#help [role=dialog]", 1)
	p.waitText("#help-title", "Keyboard shortcuts")
	p.waitCount("#help-keys .key-row", 12)
	p.waitText("#help-keys .key-row:nth-child(8) dd", "first or last request mark of a lesson lane or a lab chart")
	p.waitText("#help-keys .key-row:nth-child(9) dd", "Page Up / Page Down: move the lab's timeline by 1 s")
	p.poll("focused element", "help-close", func() string { return p.eval(`document.activeElement ? document.activeElement.id : ""`) })
	p.do(chromedp.KeyEvent(kb.Tab)) // modal: focus stays in the dialog
	if got := p.eval(`document.activeElement ? document.activeElement.id : ""`); got != "help-close" {
		p.t.Errorf("Tab in the help dialog moved focus to %q, want help-close", got)
	}
	p.screenshot("learn-1-help-overlay.png")
	p.do(chromedp.KeyEvent(kbEscape))
	p.waitGone("#help")

	// Inside the dialog, Space presses the focused button (Close) and sends
	// no request to the page behind it.
	sent := p.text("#allowed-count") + "/" + p.text("#denied-count")
	p.eval(`document.activeElement && document.activeElement.blur(), "ok"`)
	p.do(chromedp.KeyEvent("?"))
	p.poll("focused element", "help-close", func() string { return p.eval(`document.activeElement ? document.activeElement.id : ""`) })
	p.do(chromedp.KeyEvent(" "))
	p.waitGone("#help")
	if got := p.text("#allowed-count") + "/" + p.text("#denied-count"); got != sent {
		p.t.Errorf("Space on the help's Close button sent a request: allowed/denied %s, was %s", got, sent)
	}
}

// testSpaceSends: the help overlay's key handler leaves Space to the
// playground, and the live region announces the decision.
func testSpaceSends(p *playgroundPage) {
	p.pause()
	p.reset()
	p.eval(`document.activeElement && document.activeElement.blur(), "ok"`)
	p.do(chromedp.KeyEvent(" "))
	p.waitText("#allowed-count", "1")
	p.waitText("#denied-count", "0")
	p.poll("#announce", "Request 1 at 0.000 s: allowed", func() string {
		s := p.text("#announce")
		if i := strings.Index(s, ", "); i > 0 {
			return s[:i]
		}
		return s
	})
	p.waitAttrOf("#announce", "aria-live", "polite")
}

// testLessons opens each lesson from the list, runs it, and checks that the
// page shows its check passed with explain's exact message.
func testLessons(g *playgroundPage) {
	got := g.followLink("#nav-learn", "Learn rate limiting")
	p := &learnPage{g.page}
	if !slices.Equal(got, []string{"/web/app.wasm"}) {
		p.t.Errorf("/learn loaded the wasm %q, want only /web/app.wasm", got)
	}
	p.waitCount("#lesson-list li", 8)
	if got := p.eval(`document.title`); got != "Learn rate limiting: lessons, inspector, quiz and drill cards" {
		p.t.Errorf("the lessons' title is %q", got)
	}
	for _, c := range lessonChecks {
		p.openLesson(c.id)
		l, _ := explain.LessonByID(c.id)
		p.waitText("#lesson-title", "Lesson "+strconv.Itoa(l.Number)+": "+l.Title)
		p.waitText("#lesson-watch", l.Watch)
		p.waitText("#lesson-shows", l.Shows)
		p.waitText("#lesson-interview", l.Interview)
		p.click("#lesson-run")
		// The lesson plays for 2.5 s of real time, longer when frames are late.
		p.pollFor(20*time.Second, "#lesson-check-msg", c.msg, func() string { return p.text("#lesson-check-msg") })
		p.waitAttrOf("#lesson-check", "data-ok", "true")
		p.waitText("#lesson-check-head", "✓ Check passed: this is what you should have seen")
		switch c.id {
		case "burst-vs-rate":
			p.waitText("#lstrip-0-allowed", "✓ 35 allowed")
			p.waitText("#lstrip-0-denied", "✕ 66 denied")
			p.waitText("#lstrip-1-allowed", "✓ 26 allowed")
			p.waitText("#lstrip-1-denied", "✕ 75 denied")
			p.waitCount("#lstrip-0 .mark[role=button]", 101)
			p.waitCount("#lstrip-0 .mark[tabindex='0']", 1) // one Tab stop per lane
			// A request every 50 ms: each second's marks are labelled by the
			// second, the burst at 5 s by its instant.
			p.poll("lane 1's second labels", "0–1 s|1–2 s|2–3 s|3–4 s|4–5 s|5.00 s", func() string {
				return p.eval(`[...document.querySelectorAll("#lstrip-0 .sec")].map(e => e.textContent).join("|")`)
			})
			p.screenshot("learn-2-lesson-burst.png")
		case "boundary-burst":
			// One pair of bursts, 20 requests, as the text says.
			p.waitText("#lstrip-0-allowed", "✓ 20 allowed")
			p.waitText("#lstrip-0-denied", "✕ 0 denied")
			p.waitText("#lstrip-1-allowed", "✓ 10 allowed")
			p.waitText("#lstrip-1-denied", "✕ 10 denied")
			p.waitText("#lstrip-2-allowed", "✓ 10 allowed")
			p.waitText("#lstrip-2-denied", "✕ 10 denied")
			p.waitCount("#lstrip-0 .mark[role=button]", 20)
			// Each burst is labelled by its instant, as the text gives it
			// (a bare "0 s" read as the first burst's time).
			p.poll("lane 1's second labels", "0.90 s|1.00 s", func() string {
				return p.eval(`[...document.querySelectorAll("#lstrip-0 .sec")].map(e => e.textContent).join("|")`)
			})
		case "monotonic-clock":
			p.waitCount("#lesson-table tbody tr", 48)
			// After the set-back the wall-clock lane is evaluated at 3.5 s,
			// the latest instant it admitted at, and says so.
			p.waitText("#lesson-table tbody tr:nth-child(16) td:nth-child(5)", "✕ denied, 0.5 left")
			p.waitText("#lesson-table tbody tr:nth-child(17) td:nth-child(5)", "✕ denied, 0 left (evaluated at 3.5 s)")
			p.waitText("#lesson-table tbody tr:nth-child(33) td:nth-child(5)", "✓ allowed, 3 left")
		case "queue-vs-meter":
			p.waitText("#lstrip-0-allowed", "✓ 26 allowed")
			p.waitText("#lstrip-1-denied", "✕ 9 denied")
			// Request 21 waits 2 s in the queue lane, none in the meter lane:
			// its mark, the inspector's heading, steps and verdict agree.
			p.waitAttrOf("#mark-0-20", "aria-label", "request 21 at 0.00 s: allowed, waits 2.00 s")
			p.waitAttrOf("#mark-1-20", "aria-label", "request 21 at 0.00 s: allowed")
			p.click("#mark-1-20")
			p.waitText("#insp-title", "Why: lane 2, request 21 at 0.00 s: allowed")
			p.waitText("#insp-verdict", "✓ allowed: 0 remaining")
			if got := p.text("#insp-steps"); strings.Contains(got, "queue delay") {
				p.t.Errorf("the meter lane's steps name a queue delay: %s", got)
			}
			p.click("#mark-0-20")
			p.waitText("#insp-title", "Why: lane 1, request 21 at 0.00 s: allowed, waits 2.00 s")
			p.waitText("#insp-verdict", "✓ allowed: 0 remaining, served after 2 s in a queue")
		}
		// Lab lessons announce the check in the live region.
		p.poll("#announce", "Lesson finished. Check passed: "+c.msg, func() string { return p.text("#announce") })
	}
}

// inspectorWant is request 15 of the burst-vs-rate lesson's first lane (token bucket 5/s,
// burst 10, 20 requests per second): at 0.70 s the bucket is empty.
var inspectorWant = []string{
	"now: 700 ms",
	"elapsed since last update: now − last = 700 ms − 600 ms = 100 ms",
	"tokens at last update: 0",
	"refill: elapsed × rate = 100 ms × 5/s = 0.5",
	"tokens now: min(burst, tokens + refill) = min(10, 0 + 0.5) = 0.5",
	"request: n = 1",
	"test: tokens ≥ n: 0.5 ≥ 1 = false",
	"retry after: (n − tokens) ÷ rate = (1 − 0.5) ÷ 5/s, rounded up to 1 ns = 100 ms",
	"Retry-After header: seconds, rounded up, at least 1 = 1",
	"remaining: whole units that still fit now = 0",
}

// testInspector: Enter on a focused mark opens the inspector with the exact
// worked steps; the source toggle shows limiter/ as shipped, highlighted.
func testInspector(p *learnPage) {
	p.openLesson("burst-vs-rate")
	p.runLesson()
	p.waitAttrOf("#mark-0-14", "aria-label", "request 15 at 0.70 s: denied")
	p.waitAttrOf("#mark-0-14", "role", "button")
	// One Tab stop per lane (the first mark), the arrows move within it.
	stops := func() string {
		return p.eval(`Array.from(document.querySelectorAll("#lesson-lanes [tabindex='0']")).map(e => e.id).join(" ")`)
	}
	if got := stops(); got != "mark-0-0 mark-1-0" {
		p.t.Errorf("Tab stops among the marks: %q, want the first of each lane", got)
	}
	focused := func(want string) {
		p.t.Helper()
		p.poll("focused mark", want, func() string { return p.eval(`document.activeElement.id`) })
	}
	// The browser's own action for these keys (scrolling the page) is
	// stopped during the dispatch (browser.InstallKeyGuard): go-app's handlers run
	// after it, where PreventDefault is too late.
	p.eval(`(() => { window.__dp = []; document.addEventListener("keydown", e => window.__dp.push(e.key + ":" + e.defaultPrevented)); return "ok"; })()`)
	p.do(chromedp.Focus(chromedp.CSS("#mark-0-0")))
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	focused("mark-0-1")
	p.do(chromedp.KeyEvent(kb.ArrowLeft))
	p.do(chromedp.KeyEvent(kb.ArrowLeft)) // stays on the first
	focused("mark-0-0")
	p.do(chromedp.KeyEvent(kb.End))
	last := p.eval(`(() => { const m = document.querySelectorAll("#lstrip-0 [data-k]"); return m[m.length - 1].id; })()`)
	focused(last)
	p.do(chromedp.KeyEvent(kb.Home))
	focused("mark-0-0")
	if got := p.eval(`window.__dp.join(" ")`); got != "ArrowRight:true ArrowLeft:true ArrowLeft:true End:true Home:true" {
		p.t.Errorf("keys on the marks, default prevented: %q", got)
	}
	p.do(chromedp.Focus(chromedp.CSS("#mark-0-14")))
	p.do(chromedp.KeyEvent("\r"))
	p.waitText("#insp-what", "token bucket: 5/s, burst 10 — request of 1 at 700 ms")
	p.waitText("#insp-title", "Why: lane 1, request 15 at 0.70 s: denied")
	p.poll("Tab stops after Enter", "mark-0-14 mark-1-0", stops) // the selected mark is lane 1's stop
	p.poll("#insp-steps", strings.Join(inspectorWant, "\n"), func() string {
		return p.inspectorSteps()
	})
	p.waitText("#insp-verdict", "✕ denied: retry after 100 ms (HTTP 429, Retry-After: 1)")
	// The panel's ✕, by keyboard, gives the focus back to the mark, where
	// Enter opens it again.
	p.do(chromedp.Focus(chromedp.ID("insp-close")))
	p.do(chromedp.KeyEvent("\r"))
	p.waitGone("#inspector")
	focused("mark-0-14")
	p.do(chromedp.KeyEvent("\r"))
	p.waitText("#insp-verdict", "✕ denied: retry after 100 ms (HTTP 429, Retry-After: 1)")
	// The same, computed natively: the page shows explain's own steps.
	l, _ := explain.LessonByID("burst-vs-rate")
	lab, err := sim.New(*l.Setup, nil, sim.Options{History: 4096})
	if err != nil {
		p.t.Fatal(err)
	}
	if err := lab.AdvanceTo(l.Until); err != nil {
		p.t.Fatal(err)
	}
	var evs []sim.Event
	for _, r := range lab.Lanes()[0].History(nil) {
		evs = append(evs, sim.Event{At: r.At, Client: r.Client, N: r.N})
	}
	e, err := explain.Replay(l.Setup.Lanes[0].Config, "alice", evs, 14)
	if err != nil {
		p.t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(e.Text()), "\n"); strings.Join(lines[1:len(lines)-1], "\n") != strings.Join(inspectorWant, "\n") {
		p.t.Errorf("explain.Replay says:\n%s\nthe test expects:\n%s", e.Text(), strings.Join(inspectorWant, "\n"))
	}

	// The Go source, as shipped, with the lines that decided highlighted.
	p.showSource()
	p.waitCount(".src[data-file='tokenbucket.go']", 1)
	p.waitCount(".src[data-file='bucket.go']", 1)
	lim, _ := explain.LimiterDir()
	for _, f := range []string{"tokenbucket.go", "bucket.go"} {
		want, err := os.ReadFile(filepath.Join(lim, f))
		if err != nil {
			p.t.Fatal(err)
		}
		got := p.eval(fmt.Sprintf(`Array.from(document.querySelectorAll(".src[data-file='%s'] .code")).map(c => c.textContent).join("")`, f))
		if got != string(want) {
			p.t.Errorf("the page shows %s with %d bytes; limiter/%s has %d (they differ)", f, len(got), f, len(want))
		}
		src, _ := explain.SourceOf(limiter.KindTokenBucket)
		hls, err := src.Highlights(func(n string) (string, error) {
			b, err := os.ReadFile(filepath.Join(lim, n))
			return string(b), err
		}, explain.Denied)
		if err != nil {
			p.t.Fatal(err)
		}
		var lines []string
		for _, h := range hls {
			if h.File == f {
				for l := h.From; l <= h.To; l++ {
					lines = append(lines, strconv.Itoa(l))
				}
			}
		}
		p.poll("highlighted lines of "+f, strings.Join(lines, ","), func() string {
			return p.eval(fmt.Sprintf(`Array.from(document.querySelectorAll(".src[data-file='%s'] .src-line.hl")).map(l => l.dataset.line).join(",")`, f))
		})
	}
	p.eval(`document.getElementById("src-first-tokenbucket").scrollIntoView({block: "center"}), "ok"`)
	p.screenshot("learn-3-inspector-source.png")
	p.eval(`document.getElementById("insp-title").scrollIntoView({block: "start"}), "ok"`)
}

// quizScript is a fixed set of answers: right and wrong decisions, right
// and wrong token counts.
func quizScript(q *explain.Quiz) []explain.Guess {
	var gs []explain.Guess
	for i, qu := range q.Questions {
		g := explain.Guess{Allowed: qu.Allowed, Tokens: qu.TokensLeft}
		switch i % 4 {
		case 1:
			g.Allowed = !g.Allowed // wrong decision
		case 2:
			g.Tokens += 0.5 // wrong tokens (when asked)
		}
		// Typed to 2 decimals: the page reads what is typed.
		g.Tokens = math.Round(g.Tokens*100) / 100
		gs = append(gs, g)
	}
	return gs
}

// testQuiz: /learn?seed=42 asks the same questions on two fresh pages, and a
// scripted set of answers is scored exactly as explain.NewQuiz scores it.
func testQuiz(p *page) {
	want, err := explain.NewQuiz(sim.DefaultSetup(), 42)
	if err != nil {
		p.t.Fatal(err)
	}
	script := quizScript(want)
	var runs [2][]string
	for run := range runs {
		ref, _ := explain.NewQuiz(sim.DefaultSetup(), 42)
		q := p.openLearn(p.base + "/learn?seed=42")
		q.waitAttrOf("#tab-quiz", "aria-current", "page")
		q.waitText("#quiz-seed", "seed 42")
		q.waitValue("#quiz-link", p.base+"/learn?mode=quiz&seed=42")
		q.waitText("#quiz-scoring", "Scoring: "+ref.ScoringText())
		for i, g := range script {
			n := strconv.Itoa(i + 1)
			q.waitText("#quiz-progress", n+" of 10")
			at := ref.Questions[i].Request.At
			q.waitText("#quiz-paused", fmt.Sprintf("Clock paused at %d.%03d s, just before this request", at/time.Second, at%time.Second/time.Millisecond))
			runs[run] = append(runs[run], q.text("#quiz-prompt"))
			q.decide(g.Allowed)
			if ref.Questions[i].AskTokens {
				q.waitText("#quiz-given", ref.Questions[i].Given)
				q.setNumber("quiz-tokens", strconv.FormatFloat(g.Tokens, 'f', 2, 64))
			} else {
				q.waitCount("#quiz-given", 0)
			}
			if i == 0 && run == 0 {
				q.screenshot("learn-4-quiz-question.png")
			}
			q.click("#quiz-reveal")
			f, err := ref.Answer(g)
			if err != nil {
				p.t.Fatal(err)
			}
			q.waitText("#quiz-score", strconv.Itoa(f.Score)+" / "+strconv.Itoa(ref.MaxScore))
			q.waitText("#quiz-streak", strconv.Itoa(f.Streak))
			q.waitText("#quiz-answer", "The answer: "+ref.Questions[i].Answer()+".")
			if ref.Questions[i].AskTokens {
				q.waitText("#quiz-tokens-off", f.TokensText())
			} else {
				q.waitCount("#quiz-tokens-off", 0)
			}
			q.waitText("#insp-verdict", verdictText(ref.Questions[i].Explanation))
			// "Next" replaces Reveal and takes its focus (it fell to the body).
			q.poll("focus after Reveal", "quiz-next", func() string { return q.eval(`document.activeElement.id`) })
			if i == 1 && run == 0 {
				q.screenshot("learn-5-quiz-reveal.png")
			}
			q.click("#quiz-next")
		}
		q.waitText("#quiz-final", fmt.Sprintf("Final score %d of %d · best streak %d · %d to review",
			ref.Score, ref.MaxScore, ref.Best, len(ref.Mistakes)))
		q.waitCount("#quiz-mistakes > li", len(ref.Mistakes))
		q.waitAttrOf("#quiz-new", "href", "/learn?mode=quiz&seed=43")
		if run == 0 {
			q.screenshot("learn-6-quiz-results.png")
		}
	}
	for i := range runs[0] {
		if runs[0][i] != runs[1][i] {
			p.t.Errorf("question %d: %q, then %q on a fresh page", i+1, runs[0][i], runs[1][i])
		}
		if runs[0][i] != want.Questions[i].Prompt {
			p.t.Errorf("question %d: page asks %q; explain.NewQuiz(seed 42) asks %q", i+1, runs[0][i], want.Questions[i].Prompt)
		}
	}
	if len(runs[0]) != explain.QuizLength {
		p.t.Errorf("%d questions; want %d", len(runs[0]), explain.QuizLength)
	}
}

func verdictText(e explain.Explanation) string {
	if e.Outcome == explain.Denied || e.Outcome == explain.Never {
		return "✕ " + e.Verdict
	}
	return "✓ " + e.Verdict
}

// testCards: a card's model answer opens on request and links to its lesson.
func testCards(p *learnPage) {
	p.openCards()
	c := explain.Cards()[0]
	p.waitAttrOf("#card-answer-"+c.ID, "hidden", "")
	p.click("#card-toggle-" + c.ID)
	p.waitAttrOf("#card-toggle-"+c.ID, "aria-expanded", "true")
	p.waitText("#card-answer-"+c.ID, c.Answer)
	p.poll("answer shown", "true", func() string {
		return p.eval(fmt.Sprintf(`String(!document.getElementById("card-answer-%s").hidden)`, c.ID))
	})
	p.screenshot("learn-7-cards.png")
	p.click("#card-lesson-" + c.ID)
	p.waitAttrOf("#lesson", "data-lesson", c.Lesson)
	p.openCards()
}

// testThemeAndNarrow: the dark theme toggle is remembered across a reload;
// screenshots at 360 px of the lesson, quiz and playground.
func testThemeAndNarrow(p *page, axe string) {
	l := p.openLearn(p.base + "/learn?lesson=boundary-burst")
	l.click("#theme-toggle")
	l.poll("data-theme", "dark", func() string { return l.eval(`String(document.documentElement.dataset.theme)`) })
	l = p.openLearn(p.base + "/learn?lesson=boundary-burst")
	l.poll("data-theme after reload", "dark", func() string { return l.eval(`String(document.documentElement.dataset.theme)`) })
	l.waitAttrOf("#theme-toggle", "aria-pressed", "true")
	l.runLesson()
	l.inspect("0-12")
	l.screenshot("learn-8-dark-lesson.png")
	l.axe(axe, "dark theme, lesson with inspector")

	p.do(chromedp.EmulateViewport(360, 740))
	defer p.do(chromedp.EmulateViewport(1360, 940)) // also when the test stops early
	l = p.openLearn(p.base + "/learn?lesson=burst-vs-rate")
	l.runLesson()
	l.inspect("0-14")
	l.noHorizontalScroll()
	l.screenshot("learn-9-360px-dark-lesson.png")
	// A new run's Tab stops are its lanes' first marks again (mark 14 was
	// lane 1's).
	l.runLesson()
	l.waitCount("#lstrip-0 .mark[role=button]", 101) // the whole run, past mark 14
	l.poll("Tab stops after a new run", "mark-0-0 mark-1-0", func() string {
		return l.eval(`Array.from(document.querySelectorAll("#lesson-lanes [tabindex='0']")).map(e => e.id).join(" ")`)
	})
	l.click("#theme-toggle")
	l.poll("data-theme", "light", func() string { return l.eval(`String(document.documentElement.dataset.theme)`) })
	q := p.openLearn(p.base + "/learn?seed=42")
	q.waitText("#quiz-progress", "1 of 10")
	q.noHorizontalScroll()
	q.screenshot("learn-10-360px-quiz.png")
	g := p.openPlayground()
	g.noHorizontalScroll()
	g.screenshot("learn-11-360px-playground.png")
	// The drawings' labels stay readable on a phone (web/layout.css): sizes
	// in SVG units, which the 360 px screen scales to about 0.41 (the
	// playground's 760 units) and 0.52 (the lab's 600): 12 px and up.
	if got := g.eval(`[...document.querySelectorAll("#figure text")].map((e) => e.getAttribute("font-size") + ":" + getComputedStyle(e).fontSize).filter((x, i, a) => a.indexOf(x) === i).sort().join(" ")`); got != "11:31px 12:31px 22:46.5px" {
		p.t.Errorf("playground drawing at 360 px, font-size attribute:computed size: %q", got)
	}
	drawing := func(lab *labPage) string {
		return lab.eval(`(() => { const s = document.querySelector("#lane-0-svg"), a = document.querySelectorAll("#axis text");
			return [getComputedStyle(s.querySelector("text")).fontSize, getComputedStyle(s).borderTopWidth, getComputedStyle(a[0]).fontSize, getComputedStyle(a[0]).display, getComputedStyle(a[1]).display].join(" "); })()`)
	}
	lab := p.openLab(p.base + "/lab")
	lab.noHorizontalScroll()
	if got, want := drawing(lab), "26px 1px 26px block none"; got != want {
		p.t.Errorf("lab at 360 px: lane label size, lane border, axis label size, first and second axis label display: %q, want %q", got, want)
	}
	p.do(chromedp.EmulateViewport(1360, 940))
	lab = p.openLab(p.base + "/lab")
	if got, want := drawing(lab), "15px 1px 15px block block"; got != want {
		p.t.Errorf("lab at 1360 px: lane label size, lane border, axis label size, first and second axis label display: %q, want %q", got, want)
	}
}

// testLearnBadLinks: a bad seed, lesson or section in a link is said, and the
// page still shows something useful (the default seed, the lesson list).
func testLearnBadLinks(p *page) {
	f := p.openLearn(p.base + "/learn?seed=abc")
	f.waitText("#learn-notice", "⚠ The seed \"abc\" is not a whole number; want 0 to 18446744073709551615; using the default seed 1, so everyone who opens this link gets the same questions.")
	f.waitAttr("#tab-quiz", "aria-current", "page")
	f.waitText("#quiz-seed", "seed 1")
	f.poll("seed in the address", "1", func() string { return f.eval(`new URLSearchParams(location.search).get("seed")`) })
	f = p.openLearn(p.base + "/learn?mode=quiz&seed=")
	f.waitText("#learn-notice", "⚠ The seed is empty; want 0 to 18446744073709551615; using the default seed 1, so everyone who opens this link gets the same questions.")
	f = p.openLearn(p.base + "/learn?mode=quiz&seed=1e3")
	f.waitText("#quiz-seed", "seed 1000")
	f.waitCount("#learn-notice", 0)
	// A part the browser cannot decode (a bad %-escape) is said, and the
	// seed it may have been is the default one (it was a fresh seed, with
	// no word).
	f = p.openLearn(p.base + "/learn?mode=quiz&seed=%ZZ")
	f.waitText("#learn-notice", "⚠ Part of this link could not be read (invalid URL escape \"%ZZ\"); that part was ignored. Using the default seed 1, so everyone who opens this link gets the same questions.")
	f.waitText("#quiz-seed", "seed 1")
	f = p.openLearn(p.base + "/learn?mode=quiz&seed=-1")
	f.waitText("#learn-notice", "⚠ The seed \"-1\" is negative; want 0 to 18446744073709551615; using the default seed 1, so everyone who opens this link gets the same questions.")
	f.waitText("#quiz-seed", "seed 1")
	// The new seed, in the address, comes from the clock's milliseconds
	// (it was always 1: the browser's clock has no nanoseconds).
	seeds := map[string]bool{}
	for range 2 {
		f = p.openLearn(p.base + "/learn?mode=quiz")
		f.poll("seed in the address", "true", func() string { return f.eval(`String(new URLSearchParams(location.search).has("seed"))`) })
		seeds[f.eval(`new URLSearchParams(location.search).get("seed")`)] = true
	}
	if len(seeds) != 2 {
		p.t.Errorf("two fresh quizzes got the seeds %v; want two different ones", seeds)
	}
	f = p.openLearn(p.base + "/learn?lesson=nope&mode=nope")
	f.waitText("#learn-notice", "⚠ There is no lesson \"nope\"; here is the list. There is no section \"nope\"; showing the lessons.")
	f.waitAttr("#tab-lessons", "aria-current", "page")
	f = p.openLearn(p.base + "/learn?mode=cards&lesson=nope")
	f.waitText("#learn-notice", "⚠ There is no lesson \"nope\"; showing the cards.")
	f.waitAttr("#tab-cards", "aria-current", "page")
	f = p.openLearn(p.base + "/learn?mode=quiz&seed=42")
	f.waitCount("#learn-notice", 0)
}
