//go:build e2e

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
)

// TestLessonsPlayer drives the lessons' clock (pause, step, scrub, speed,
// a paused link), the pictures of the monotonic clock, lock design and
// queue lessons, the lazy-creation race stepper, and the quiz's Reveal
// with the tokens field empty. Lessons are named by ID, not position.
func TestLessonsPlayer(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	p.do(chromedp.EmulateViewport(1280, 800))
	t.Run("PausedLink", func(t *testing.T) { testLessonPausedLink(p.on(t)) })
	t.Run("StepScrubPause", func(t *testing.T) { testLessonStepScrub(p.on(t)) })
	t.Run("BadInstant", func(t *testing.T) { testLessonBadInstant(p.on(t)) })
	t.Run("ClockPicture", func(t *testing.T) { testClockPicture(p.on(t)) })
	t.Run("LockPicture", func(t *testing.T) { testLockPicture(p.on(t)) })
	t.Run("Race", func(t *testing.T) { testRaceStepper(p.on(t)) })
	t.Run("QueuePicture", func(t *testing.T) { testQueuePicture(p.on(t)) })
	t.Run("QuizRevealNoTokens", func(t *testing.T) { testQuizRevealNoTokens(p.on(t)) })
	t.Run("Screenshots", func(t *testing.T) { testLessonScreenshots(p.on(t)) })
}

// lessonAt waits until the lesson's clock, its state and its event count
// read as given.
func (p *learnPage) lessonAt(clock, state, event string) {
	p.t.Helper()
	p.waitText("#lesson-clock", clock)
	p.waitText("#lesson-clock-state", state)
	p.waitText("#lesson-event", event)
}

// burstLanes waits for lesson 1's two lanes' counts and marks.
func (p *learnPage) burstLanes(a0, d0, a1, d1 int) {
	p.t.Helper()
	p.waitText("#lstrip-0-allowed", "✓ "+strconv.Itoa(a0)+" allowed")
	p.waitText("#lstrip-0-denied", "✕ "+strconv.Itoa(d0)+" denied")
	p.waitText("#lstrip-1-allowed", "✓ "+strconv.Itoa(a1)+" allowed")
	p.waitText("#lstrip-1-denied", "✕ "+strconv.Itoa(d1)+" denied")
	p.waitCount("#lstrip-0 .mark[role=button]", a0+d0)
}

// testLessonPausedLink: a link with paused=1&t=1 opens lesson 1 paused at
// 1 s, its lanes as they are then (21 requests, every 50 ms from 0 to 1 s).
func testLessonPausedLink(p *page) {
	f := p.openLearn(p.base + "/learn?lesson=burst-vs-rate&paused=1&t=1")
	f.waitAttrOf("#lesson", "data-lesson", "burst-vs-rate")
	f.lessonAt("t = 1.00 s of 5.00 s", "paused", "event 21 of 101")
	f.burstLanes(15, 6, 6, 15)
	f.waitAttrOf("#lesson-pause", "aria-pressed", "true")
	f.waitText("#lesson-pause", "▶ Resume")
	f.waitValue("#lesson-scrub", "200")
	f.waitAttrOf("#lesson-link-here", "href", "/learn?lesson=burst-vs-rate&paused=1&t=1")
	f.waitCount("#learn-notice", 0)
	f.screenshot("lessons-player-paused-link.png")
}

// testLessonStepScrub: from the paused link, each step moves one request
// (50 ms) and its marks; the scrubber moves to its thousandth of the lesson;
// Resume plays, Pause stops, Skip ends with the check.
func testLessonStepScrub(p *page) {
	f := p.openLearn(p.base + "/learn?lesson=burst-vs-rate&paused=1&t=1")
	f.lessonAt("t = 1.00 s of 5.00 s", "paused", "event 21 of 101")
	f.click("#lesson-step")
	f.lessonAt("t = 1.05 s of 5.00 s", "paused", "event 22 of 101")
	f.burstLanes(15, 7, 6, 16)
	f.waitAttrOf("#mark-0-21", "aria-label", "request 22 at 1.05 s: denied")
	f.click("#lesson-step-back")
	f.click("#lesson-step-back")
	f.lessonAt("t = 0.95 s of 5.00 s", "paused", "event 20 of 101")
	f.burstLanes(14, 6, 5, 15)
	f.waitCount("#mark-0-20", 0)
	f.setRange("lesson-scrub", "100")
	f.lessonAt("t = 0.50 s of 5.00 s", "paused", "event 11 of 101")
	f.burstLanes(11, 0, 3, 8)
	f.setRange("lesson-scrub", "0")
	f.lessonAt("t = 0.00 s of 5.00 s", "paused", "event 1 of 101")
	f.burstLanes(1, 0, 1, 0)
	f.click("#lesson-step-back")
	f.lessonAt("t = 0.00 s of 5.00 s", "ready", "event 0 of 101")
	f.waitCount("#lstrip-0 .mark[role=button]", 0)
	// The speed menu is the lab's (ui.SpeedOptions); 0.1× plays 5 s in 25 s.
	f.eval(`(() => { const s = document.getElementById("lesson-speed"); s.value = "0.1"; s.dispatchEvent(new Event("change", {bubbles: true})); return "ok"; })()`)
	f.click("#lesson-pause")
	f.waitText("#lesson-clock-state", "playing")
	f.waitText("#lesson-pause", "⏸ Pause")
	// Pause once the clock has passed the first event: paused before it,
	// the lesson is "ready" again (nothing has happened yet).
	f.pollFor(30*time.Second, "#lesson-event after play", "moved", func() string {
		if f.text("#lesson-event") == "event 0 of 101" {
			return "event 0"
		}
		return "moved"
	})
	f.click("#lesson-pause")
	f.waitText("#lesson-clock-state", "paused")
	// Paused wherever it got to: the marks are the events so far (one
	// request each), and a step goes to the next request's instant.
	ev := strings.TrimSuffix(strings.TrimPrefix(f.text("#lesson-event"), "event "), " of 101")
	k := atoi(f.t, ev)
	if k < 1 {
		f.t.Fatalf("after playing at 0.1×: event %d", k)
	}
	f.waitCount("#lstrip-0 .mark[role=button]", k)
	f.click("#lesson-step")
	f.lessonAt("t = "+strconv.FormatFloat(float64(k)*0.05, 'f', 2, 64)+" s of 5.00 s", "paused", "event "+strconv.Itoa(k+1)+" of 101")
	f.waitCount("#lstrip-0 .mark[role=button]", k+1)
	f.click("#lesson-skip")
	f.lessonAt("t = 5.00 s of 5.00 s", "ended", "event 101 of 101")
	f.burstLanes(35, 66, 26, 75)
	f.waitLessonChecked()
	// Ended, nothing is left to play: "↻ Run it again" starts it over.
	f.poll("#lesson-pause disabled once ended", "true", func() string { return f.eval(`String(document.getElementById("lesson-pause").disabled)`) })
	f.waitText("#lesson-run", "↻ Run it again")
}

func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// testLessonBadInstant: a bad t is said, and the rest of the link (the
// lesson, paused) is kept.
func testLessonBadInstant(p *page) {
	f := p.openLearn(p.base + "/learn?lesson=queue-vs-meter&paused=1&t=soon")
	f.waitText("#learn-notice", `⚠ The instant t="soon" is not a time; want seconds (1.5) or a duration (700ms); opening at the start.`)
	f.waitAttrOf("#lesson", "data-lesson", "queue-vs-meter")
	f.lessonAt("t = 0.00 s of 3.00 s", "ready", "event 0 of 2")
	f = p.openLearn(p.base + "/learn?lesson=queue-vs-meter&paused=1&t=7")
	f.waitText("#learn-notice", `⚠ The instant t="7" is after the lesson's end (3 s); opening at its end.`)
	f.lessonAt("t = 3.00 s of 3.00 s", "ended", "event 2 of 2")
	f.waitLessonChecked()
}

// testClockPicture: lesson 3 at 5 s draws both clocks, the wall clock's two
// steps, and each lane's decisions up to 5 s (21 requests), as the lesson's
// own run decided them.
func testClockPicture(p *page) {
	f := p.openLearn(p.base + "/learn?lesson=monotonic-clock&paused=1&t=5")
	f.lessonAt("t = 5.00 s of 12.00 s", "paused", "event 21 of 48")
	f.waitText("#clock-readings", "At t = 5.00 s (monotonic): the monotonic clock reads 5.00 s; the naive wall-clock elapsed time reads -5.00 s.")
	labels := f.eval(`[...document.querySelectorAll("#clock-svg text[data-c~=pic-label]")].map(e => e.textContent).join("|")`)
	want := "0 s|10 s|−5 s|monotonic clock|wall clock (naive elapsed)|set back 10 s at 4 s|forward 1 h at 8 s (off the chart)|0 s|2 s|4 s|6 s|8 s|10 s|12 s|monotonic lane|wall-clock lane"
	if labels != want {
		f.t.Errorf("lesson 3's labels:\n got %s\nwant %s", labels, want)
	}
	l, _ := explain.LessonByID("monotonic-clock")
	res, err := l.Run()
	if err != nil {
		f.t.Fatal(err)
	}
	var ok [2]int
	n := 0
	for i, at := range res.RowAt {
		if at > 5*time.Second {
			break
		}
		n++
		for lane, col := range []int{3, 4} {
			if strings.HasPrefix(res.Rows[i][col], "allowed") {
				ok[lane]++
			}
		}
	}
	if n != 21 || ok != [2]int{14, 11} {
		f.t.Errorf("lesson 3 up to 5 s: %d requests, %v admitted; want 21, [14 11]", n, ok)
	}
	f.waitCount("#clock-svg [data-c~=pic-mark]", 2*n)
	f.waitCount("#clock-svg [data-c~=pic-mark][data-c~=ok]", ok[0]+ok[1])
	f.waitCount("#clock-svg [data-c~=pic-now]", 1)
	f.waitText("#lesson-table-box summary", "The table: 21 of 48 rows so far")
	// After the 1 h jump the naive reading is an hour ahead.
	f.click("#lesson-skip")
	f.waitText("#clock-readings", "At t = 12.00 s (monotonic): the monotonic clock reads 12.00 s; the naive wall-clock elapsed time reads 3602.00 s.")
	f.waitCount("#clock-svg [data-c~=pic-mark]", 96)
	f.waitLessonChecked()
	// Zoomed about the middle, three times by half: 5.25 s to 6.75 s, its 7
	// requests (every 250 ms) in each lane; + on the focused picture is the
	// third button press; 0 shows it all again.
	f.waitText("#lesson-zoom-shown", "0–12 s")
	f.click("#lesson-zoom-in")
	f.click("#lesson-zoom-in")
	f.waitText("#lesson-zoom-shown", "4.5–7.5 s")
	f.do(chromedp.Focus(chromedp.CSS("#clock-picture .pic-scroll")))
	f.do(chromedp.KeyEvent("+"))
	f.waitText("#lesson-zoom-shown", "5.25–6.75 s")
	f.waitCount("#clock-svg [data-c~=pic-mark]", 14)
	if got := f.eval(`[...document.querySelectorAll("#clock-svg text[data-c~=pic-label]")].map(e => e.textContent).filter(t => /^[0-9.]+ s$/.test(t)).join("|")`); got != "0 s|10 s|5.5 s|6.0 s|6.5 s" {
		f.t.Errorf("zoomed lesson 3's second labels: %q", got)
	}
	f.do(chromedp.KeyEvent("0"))
	f.waitText("#lesson-zoom-shown", "0–12 s")
	f.waitCount("#clock-svg [data-c~=pic-mark]", 96)
}

// testLockPicture: lesson 5 at 0.5 µs: who holds which lock on the two
// cores, who waits and for what, and the decisions drawn so far.
func testLockPicture(p *page) {
	f := p.openLearn(p.base + "/learn?lesson=lock-design&paused=1&t=0.0000005")
	f.lessonAt("t = 0.50 µs of 30.00 µs", "paused", "event 3 of 45")
	f.waitText("#lock-window", "Wave 1 of 3: 0.00 µs to 5.00 µs (its 9 decisions arrive at once, at 0.00 µs)")
	for id, want := range map[string]string{
		"#lock-global-core-0": "core 1: idle",
		"#lock-global-core-1": "core 2: c1 holds the global lock",
		"#lock-global-wait":   "waiting for the global lock: c2, c3, c4, c5, c6, c7, c8; waiting for a core: none",
		"#lock-global-done":   "1 of 27 decisions done",
		"#lock-perkey-core-0": "core 1: c1 holds lock c1",
		"#lock-perkey-core-1": "core 2: c3 holds lock c3",
		"#lock-perkey-wait":   "waiting for their key's lock: none; waiting for a core: c4, c5, c6, c7, c8",
		"#lock-perkey-done":   "2 of 27 decisions done",
	} {
		f.waitText(id, want)
	}
	// Bars: the decisions that have taken their lock by 0.5 µs.
	f.waitCount("#lock-global-svg [data-c~=pic-slot]", 2)
	f.waitCount("#lock-perkey-svg [data-c~=pic-slot]", 4)
	if got := f.eval(`[...document.querySelectorAll("#lock-perkey-svg [data-c~=slot-label]")].map(e => e.textContent).join(" ")`); got != "c1 c1 c2 c3" {
		f.t.Errorf("per-key bars at 0.5 µs: %q, want c1 c1 c2 c3", got)
	}
	// One step: the next event, 0.96 µs (c2 takes the global lock).
	f.click("#lesson-step")
	f.lessonAt("t = 0.96 µs of 30.00 µs", "paused", "event 4 of 45")
	f.waitText("#lock-global-core-0", "core 1: c2 holds the global lock")
	f.waitText("#lock-global-core-1", "core 2: idle")
	f.waitCount("#lock-global-svg [data-c~=pic-slot]", 3)
	// The third wave.
	f = p.openLearn(p.base + "/learn?lesson=lock-design&paused=1&t=0.000021")
	f.waitText("#lock-window", "Wave 3 of 3: 20.00 µs to 25.00 µs (its 9 decisions arrive at once, at 20.00 µs)")
	f.waitText("#lock-global-done", "20 of 27 decisions done")
	f.waitText("#lock-perkey-done", "22 of 27 decisions done")
	f.screenshot("lessons-lock-picture.png")
}

// testRaceStepper steps the lazy-creation race one operation at a time,
// without and with the re-check under the lock: each step's text and state
// are the scripted race's (app/explain's TestLazyCreationRace gives them
// exactly), and the end says what was admitted.
func testRaceStepper(p *page) {
	f := p.openLearn(p.base + "/learn?lesson=lock-design")
	for _, c := range []struct {
		mode    string
		recheck bool
		outcome string
	}{
		{"#race-naive", false, "10 admitted for a burst of 5: double admission, two buckets for one key (bucket #1 lost from the map)."},
		{"#race-recheck", true, "5 admitted for a burst of 5: one bucket for the key."},
	} {
		f.click(c.mode)
		f.waitAttrOf(c.mode, "aria-pressed", "true")
		f.waitText("#race-count", "operation 0 of 8")
		f.waitText("#race-op", "Nothing done yet: A and B each hold a first request for alice.")
		race, err := explain.LazyCreationRace(c.recheck)
		if err != nil {
			f.t.Fatal(err)
		}
		for i, s := range race.Steps {
			f.click("#race-next")
			f.waitText("#race-count", fmt.Sprintf("operation %d of 8", i+1))
			f.waitText("#race-op", s.Text)
			f.waitText("#race-map", s.Map)
			f.waitText("#race-a", s.A)
			f.waitText("#race-b", s.B)
			f.waitText("#race-admitted", fmt.Sprintf("A %d, B %d", s.AdmittedA, s.AdmittedB))
			f.waitText("#race-"+s.G+"-ops li:last-child", fmt.Sprintf("%d. %s: %s", i+1, s.Op, s.Text))
		}
		f.waitText("#race-outcome", c.outcome)
		f.poll("#race-next disabled", "true", func() string { return f.eval(`String(document.getElementById("race-next").disabled)`) })
		// Back one operation hides the outcome again.
		f.click("#race-back")
		f.waitText("#race-count", "operation 7 of 8")
		f.waitCount("#race-outcome", 0)
		f.click("#race-next")
		f.waitText("#race-outcome", c.outcome)
		f.screenshot("lessons-race-" + strings.TrimPrefix(c.mode, "#race-") + ".png")
	}
	// The naive race's insert step says the lost limiter in words.
	f.click("#race-naive")
	f.waitText("#race-count", "operation 0 of 8")
	for i := range 6 {
		f.click("#race-next")
		f.waitText("#race-count", fmt.Sprintf("operation %d of 8", i+1))
	}
	f.waitText("#race-op", "B takes the shard lock and inserts bucket #2 over bucket #1: the map has lost bucket #1, which A still uses")
}

// testQueuePicture: lesson 6 at 0.5 s: the queue lane draws 21 admitted
// requests, 20 of them waiting lines, and 15 still waiting; the meter lane
// draws none waiting.
func testQueuePicture(p *page) {
	f := p.openLearn(p.base + "/learn?lesson=queue-vs-meter&paused=1&t=0.5")
	f.lessonAt("t = 0.50 s of 3.00 s", "paused", "event 1 of 2")
	f.waitCount("#queue-0-svg [data-c~=pic-leave]", 21)
	f.waitCount("#queue-0-svg [data-c~=pic-wait]", 20)
	f.waitCount("#queue-1-svg [data-c~=pic-leave]", 21)
	f.waitCount("#queue-1-svg [data-c~=pic-wait]", 0)
	f.waitText("#queue-0-now", "waiting in the queue at t = 0.50 s: 15 requests; longest wait so far 2.00 s")
	f.waitText("#queue-1-now", "waiting: none; a meter lets every admitted request pass at once")
	// Zoomed in about the middle: 0.75 s to 2.25 s holds the queue's
	// requests leaving from 0.8 s to 2 s (13), none of the meter's (they
	// leave at 0); once more, 1.125 s to 1.875 s, from 1.2 s to 1.8 s (7).
	f.click("#lesson-zoom-in")
	f.waitText("#lesson-zoom-shown", "0.75–2.25 s")
	f.waitCount("#queue-0-svg [data-c~=pic-leave]", 13)
	f.waitCount("#queue-1-svg [data-c~=pic-leave]", 0)
	f.click("#lesson-zoom-in")
	f.waitText("#lesson-zoom-shown", "1.125–1.875 s")
	f.waitCount("#queue-0-svg [data-c~=pic-leave]", 7)
	f.click("#lesson-zoom-fit")
	f.waitText("#lesson-zoom-shown", "0–3 s")
	f.waitCount("#queue-0-svg [data-c~=pic-leave]", 21)
	f.click("#lesson-step") // the 5 requests at 1.5 s
	f.lessonAt("t = 1.50 s of 3.00 s", "paused", "event 2 of 2")
	f.waitCount("#queue-0-svg [data-c~=pic-leave]", 26)
	f.waitText("#queue-0-now", "waiting in the queue at t = 1.50 s: 10 requests; longest wait so far 2.00 s")
	f.screenshot("lessons-queue-picture.png")
}

// testQuizRevealNoTokens: with the tokens field empty, Reveal scores the
// decision alone, and the page says so.
func testQuizRevealNoTokens(p *page) {
	q, err := explain.NewQuiz(sim.DefaultSetup(), 2)
	if err != nil {
		p.t.Fatal(err)
	}
	qu, _ := q.Current()
	if !qu.AskTokens {
		p.t.Fatal("seed 2's first question does not ask for the tokens left")
	}
	choice := "#quiz-denied"
	if qu.Allowed {
		choice = "#quiz-allowed"
	}
	f := p.openLearn(p.base + "/learn?seed=2")
	f.waitText("#quiz-progress", "1 of 10")
	f.waitText("#quiz-tokens-unit", "tokens (right within ±0.05 of the exact value; optional: left empty, the answer is scored on allowed or denied alone)")
	f.click(choice)
	f.waitValue("#quiz-tokens", "")
	f.click("#quiz-reveal")
	f.waitCount("#quiz-form-error", 0)
	f.waitText("#quiz-feedback .check-head", "✓ Right: +1 point")
	f.waitText("#quiz-tokens-off", "Tokens left: not predicted, so scored on allowed or denied alone; the exact value is "+
		strings.TrimSuffix(strings.SplitN(qu.Answer(), ", ", 2)[1], " tokens left")+".")
	f.waitText("#quiz-score", "1 / "+strconv.Itoa(q.MaxScore))
}

// testLessonScreenshots: lessons 3, 5 and 6 paused mid-way at 1280×800,
// 1024×768 and 390×844, with no sideways scroll.
func testLessonScreenshots(p *page) {
	defer p.do(chromedp.EmulateViewport(1280, 800))
	for _, vp := range []struct{ w, h int64 }{{1280, 800}, {1024, 768}, {390, 844}} {
		p.do(chromedp.EmulateViewport(vp.w, vp.h))
		for _, l := range []struct{ id, t string }{{"monotonic-clock", "5"}, {"lock-design", "0.0000005"}, {"queue-vs-meter", "0.5"}} {
			f := p.openLearn(p.base + "/learn?lesson=" + l.id + "&paused=1&t=" + l.t)
			f.waitText("#lesson-clock-state", "paused")
			f.noHorizontalScroll()
			f.screenshot(fmt.Sprintf("lessons-%s-%dx%d.png", l.id, vp.w, vp.h))
		}
	}
}
