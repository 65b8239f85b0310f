package playground

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/uitest"
	"github.com/ratelab/ratelab/limiter"
)

// pausedSim is a simulation with its clock stopped at 0.
func pausedSim() *sim.Playground {
	s := sim.NewPlayground()
	s.SetRunning(false)
	return s
}

func TestViewTokenBucketAfterFourSends(t *testing.T) {
	s := pausedSim()
	s.SetBurst(3)
	s.SetRate(0.5)
	s.Send(4)
	html := uitest.Mount(t, &view{Sim: s})
	uitest.WantTexts(t, html, map[string]string{
		"level":         "0.00",
		"level-of":      " of 3 tokens",
		"allowed-count": "3",
		"denied-count":  "1",
		"retry-after":   "2.00 s",
		"clock":         "t = 0.000 s",
		"clock-state":   "paused",
	})
	if n := len(regexp.MustCompile(`href="#m-ok"`).FindAllString(html, -1)); n != 3 {
		t.Errorf("%d allowed marks, want 3", n)
	}
	if n := len(regexp.MustCompile(`href="#m-no"`).FindAllString(html, -1)); n != 1 {
		t.Errorf("%d denied marks, want 1", n)
	}
	if n := len(regexp.MustCompile(`<li `).FindAllString(html, -1)); n != 4 {
		t.Errorf("%d rows in the log, want 4", n)
	}
	if _, ok := uitest.TextOf(html, "window-count"); ok {
		t.Error("#window-count shown for a token bucket")
	}
}

func TestViewSlidingWindowLogExpiry(t *testing.T) {
	s := pausedSim()
	s.SetKind(limiter.KindSlidingWindowLog)
	s.SetLimit(2)
	s.SetWindow(time.Second)
	s.Send(3)
	v := &view{Sim: s}
	d := app.NewClientTester(v)
	defer d.Close()
	uitest.WantTexts(t, app.HTMLString(v), map[string]string{
		"window-count":  "2",
		"window-of":     " of 2 allowed",
		"allowed-count": "2",
		"denied-count":  "1",
		"retry-after":   "1.00 s",
	})
	s.Step(time.Second)
	v.Update() // what the animation loop does each frame
	d.Consume()
	html := app.HTMLString(v)
	uitest.WantTexts(t, html, map[string]string{"window-count": "0", "clock": "t = 1.000 s"})
	// The two entries left the log: drawn as expired marks.
	if n := len(regexp.MustCompile(`href="#m-old"`).FindAllString(html, -1)); n != 2 {
		t.Errorf("%d expired marks, want 2", n)
	}
	if n := len(regexp.MustCompile(`href="#m-ok"`).FindAllString(html, -1)); n != 0 {
		t.Errorf("%d marks in the window, want 0", n)
	}
}

func TestPlaygroundHasStableIDs(t *testing.T) {
	html := uitest.Mount(t, &Page{})
	for _, id := range []string{
		"strategy", "strategy-token_bucket", "strategy-sliding_window_log", "explain",
		"capacity", "capacity-num", "rate", "rate-num", "send", "burst", "burst-n",
		"autofire", "autofire-rate", "autofire-rate-num", "pause", "step", "step-1s", "reset",
		"allowed-count", "denied-count", "level", "retry-after", "clock", "figure",
	} {
		if !regexp.MustCompile(`id="` + id + `"`).MatchString(html) {
			t.Errorf("#%s missing", id)
		}
	}
	uitest.WantTexts(t, html, map[string]string{
		"capacity-value": "5 tokens",
		"rate-value":     "1 token/s",
		"burst":          "Burst ×5",
		"autofire":       "Auto-fire: off",
		"pause":          "Pause clock",
		"level":          "5.00",
	})
}

// marksOf returns the marks drawn in rendered HTML: the number of each mark
// and the counts of the stacks' rest ("+20"), in order.
func marksOf(html string) (ok, no, old int, more []string) {
	ok = strings.Count(html, `href="#m-ok"`)
	no = strings.Count(html, `href="#m-no"`)
	old = strings.Count(html, `href="#m-old"`)
	for _, m := range regexp.MustCompile(`<text [^>]*>(\+\d+)</text>`).FindAllStringSubmatch(html, -1) {
		more = append(more, m[1])
	}
	return ok, no, old, more
}

// A stack of marks at one instant is at most markRows high: beyond, its
// last row counts the rest, so 25 denials are 5 marks and "+20". The
// oldest instant is counted in full after the history dropped some of its
// requests.
func TestViewStackedMarksCount(t *testing.T) {
	s := pausedSim() // burst 5, 1 token/s
	s.Send(30)
	html := uitest.Mount(t, &view{Sim: s})
	if ok, no, old, more := marksOf(html); ok != 5 || no != 5 || old != 0 || strings.Join(more, " ") != "+20" {
		t.Errorf("burst of 30: %d ✓, %d ✕, %d ◌ marks, counts %q; want 5, 5, 0, [+20]", ok, no, old, more)
	}
	// 300 requests at three instants: the history holds the last 240.
	s.Reset()
	s.Send(100)
	s.Step(time.Second)
	s.Send(100)
	s.Step(time.Second)
	s.Send(100)
	if a, ok := s.Forgotten(0); a != 5 || ok != 55 {
		t.Errorf("Forgotten(0) = %d, %d; want 5 allowed, 55 denied", a, ok)
	}
	html = uitest.Mount(t, &view{Sim: s})
	// t=0: 5 ✓ and 95 ✕ (5 + "+90"); t=1 s and t=2 s: 1 ✓ and 99 ✕ (5 + "+94").
	if ok, no, _, more := marksOf(html); ok != 7 || no != 15 || strings.Join(more, " ") != "+90 +94 +94" {
		t.Errorf("three bursts of 100: %d ✓, %d ✕ marks, counts %q; want 7, 15, [+90 +94 +94]", ok, no, more)
	}
}

// The sliding window log's stacks: the entries in the window (from the
// limiter's log) and, once expired, the history's.
func TestViewStackedMarksSlidingWindowLog(t *testing.T) {
	s := pausedSim()
	s.SetKind(limiter.KindSlidingWindowLog)
	s.SetLimit(10)
	s.SetWindow(time.Second)
	s.Send(30)
	v := &view{Sim: s}
	d := app.NewClientTester(v)
	defer d.Close()
	if ok, no, old, more := marksOf(app.HTMLString(v)); ok != 5 || no != 5 || old != 0 || strings.Join(more, " ") != "+15 +5" {
		t.Errorf("in the window: %d ✓, %d ✕, %d ◌ marks, counts %q; want 5, 5, 0, [+15 +5]", ok, no, old, more)
	}
	s.Step(time.Second)
	v.Update()
	d.Consume()
	if ok, no, old, more := marksOf(app.HTMLString(v)); ok != 0 || no != 5 || old != 5 || strings.Join(more, " ") != "+5 +15" {
		t.Errorf("expired: %d ✓, %d ✕, %d ◌ marks, counts %q; want 0, 5, 5, [+5 +15]", ok, no, old, more)
	}
}

// The retry-after card counts down to the instant the last denial named,
// next to the retry-after it gave; once that instant has passed, it says
// the same request would now be allowed.
func TestViewRetryCountdown(t *testing.T) {
	s := pausedSim() // burst 5, 1 token/s
	v := &view{Sim: s}
	d := app.NewClientTester(v)
	defer d.Close()
	step := func(what string, f func(), level, left, of string) {
		t.Helper()
		f()
		v.Update()
		d.Consume()
		html := app.HTMLString(v)
		uitest.WantTexts(t, html, map[string]string{"level": level, "retry-after": left})
		if got, _ := uitest.TextOf(html, "retry-after-of"); got != of {
			t.Errorf("%s: #retry-after-of = %q, want %q", what, got, of)
		}
	}
	step("no request", func() {}, "5.00", "—", "")
	step("denied", func() { s.Send(6) }, "0.00", "1.00 s", "left of 1.00 s")
	step("+100 ms", func() { s.Step(100 * time.Millisecond) }, "0.10", "0.90 s", "left of 1.00 s")
	step("+890 ms", func() { s.Step(890 * time.Millisecond) }, "0.99", "0.01 s", "left of 1.00 s")
	step("+9 ms", func() { s.Step(9 * time.Millisecond) }, "0.99", "0.01 s", "left of 1.00 s")
	step("+1 ms, at the instant", func() { s.Step(time.Millisecond) }, "1.00", "0 s", "the same request would now be allowed")
	step("+1.1 s", func() { s.Step(1100 * time.Millisecond) }, "2.10", "0 s", "the same request would now be allowed")
	step("parameters changed", func() { _ = s.SetRate(2) }, "2.10", "—", "parameters changed since the denial")
	step("rate 1 again", func() { _ = s.SetRate(1) }, "2.10", "—", "parameters changed since the denial")
	step("allowed", func() { s.Send(1) }, "1.10", "—", "")
	s.SetRate(0)
	step("never", func() { s.Send(2) }, "0.10", "never", "")
	// A parameter changed after a denial: the retry instant it named no
	// longer holds (a higher rate could admit at once, a lower one later).
	s.SetRate(1)
	step("denied at rate 1", func() { s.Send(2) }, "0.10", "0.90 s", "left of 0.90 s")
	step("rate 10", func() { _ = s.SetRate(10) }, "0.10", "—", "parameters changed since the denial")
	step("same rate again", func() { _ = s.SetRate(10) }, "0.10", "—", "parameters changed since the denial")
	step("denied at rate 10", func() { s.Send(2) }, "0.10", "0.09 s", "left of 0.09 s")
	step("rate 10 again, unchanged", func() { _ = s.SetRate(10) }, "0.10", "0.09 s", "left of 0.09 s")
}

// Sliding window log: once the instant the denial named has passed, the
// card says the wait is over, and it is true: the same request is allowed.
func TestViewRetryWaitOverWindow(t *testing.T) {
	s := pausedSim()
	s.SetKind(limiter.KindSlidingWindowLog) // limit 5, window 5 s
	v := &view{Sim: s}
	d := app.NewClientTester(v)
	defer d.Close()
	card := func() (string, string) {
		v.Update()
		d.Consume()
		html := app.HTMLString(v)
		value, _ := uitest.TextOf(html, "retry-after")
		of, _ := uitest.TextOf(html, "retry-after-of")
		return value, of
	}
	s.Send(6)
	if value, of := card(); value != "5.00 s" || of != "left of 5.00 s" {
		t.Errorf("denied: %q, %q; want 5.00 s, left of 5.00 s", value, of)
	}
	s.Step(4999 * time.Millisecond)
	if value, of := card(); value != "0.01 s" || of != "left of 5.00 s" {
		t.Errorf("1 ms before: %q, %q; want 0.01 s, left of 5.00 s", value, of)
	}
	s.Step(time.Millisecond)
	if value, of := card(); value != "0 s" || of != "the same request would now be allowed" {
		t.Errorf("at the instant: %q, %q; want 0 s, the same request would now be allowed", value, of)
	}
	if e := s.Send(1); !e.Allowed {
		t.Errorf("the same request at the instant: %+v; want allowed", e)
	}
}

// TestFramesRedrawOnlyWhenMoved: a frame of a paused playground asks for no
// redraw, and one after a request does (see ui.Frames).
func TestFramesRedrawOnlyWhenMoved(t *testing.T) {
	now := time.Now()
	s := pausedSim()
	v := &view{Sim: s}
	dv := app.NewClientTester(v)
	defer dv.Close()
	if v.frame(dv.Context(), now, 16*time.Millisecond) {
		t.Error("paused playground: the frame asks for a redraw")
	}
	s.Send(1)
	if !v.frame(dv.Context(), now, 16*time.Millisecond) {
		t.Error("playground after a request: the frame asks for no redraw")
	}
	// The token flies while paused; the frame after its flight still
	// redraws once (clearing it), then none.
	v.drawn = s.Version()
	for _, c := range []struct {
		at   time.Duration
		want bool
	}{{flightTime / 2, true}, {flightTime + time.Millisecond, true}, {flightTime + 50*time.Millisecond, false}} {
		if got := v.frame(dv.Context(), now.Add(c.at), 0); got != c.want {
			t.Errorf("paused playground, %v after an allowed request: redraw %v, want %v", c.at, got, c.want)
		}
	}
}

// Requests a few ms apart share a column: the second is drawn on the row
// above the first, at its own instant, not over it (1 ms is 0.05 units
// unzoomed), so the marks add up to the counters; a request 300 ms away
// starts a column of its own.
func TestViewNearbyMarksStack(t *testing.T) {
	s := pausedSim() // burst 5, 1 token/s
	s.Send(1)
	s.Step(300 * time.Millisecond)
	s.Send(1)
	s.Step(2 * time.Millisecond)
	s.Send(1)
	html := uitest.Mount(t, &view{Sim: s})
	var ys []string
	for _, m := range regexp.MustCompile(`<use href="#m-ok" x="[^"]*" y="([^"]*)"`).FindAllStringSubmatch(html, -1) {
		ys = append(ys, m[1])
	}
	want := []string{ui.F1(rowY(0, true)), ui.F1(rowY(0, true)), ui.F1(rowY(1, true))}
	if !slices.Equal(ys, want) {
		t.Errorf("the ✓ marks' rows (y) = %v, want %v", ys, want)
	}
}
