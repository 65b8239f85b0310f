package main

import (
	"regexp"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/limiter"
)

// textOf returns the text directly inside the element with the given id in
// rendered HTML, and whether it was found.
func textOf(html, id string) (string, bool) {
	m := regexp.MustCompile(`id="` + regexp.QuoteMeta(id) + `"[^>]*>([^<]*)<`).FindStringSubmatch(html)
	if m == nil {
		return "", false
	}
	return m[1], true
}

func wantTexts(t *testing.T, html string, want map[string]string) {
	t.Helper()
	for id, w := range want {
		got, ok := textOf(html, id)
		if !ok {
			t.Errorf("#%s missing", id)
		} else if got != w {
			t.Errorf("#%s = %q, want %q", id, got, w)
		}
	}
}

// mount renders c in go-app's client tester and returns its HTML.
func mount(t *testing.T, c app.UI) string {
	t.Helper()
	d := app.NewClientTester(c)
	t.Cleanup(d.Close)
	return app.HTMLString(c)
}

func TestViewTokenBucketAfterFourSends(t *testing.T) {
	s := pausedSim()
	s.SetBurst(3)
	s.SetRate(0.5)
	s.Send(4)
	html := mount(t, &view{Sim: s})
	wantTexts(t, html, map[string]string{
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
	if _, ok := textOf(html, "window-count"); ok {
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
	wantTexts(t, app.HTMLString(v), map[string]string{
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
	wantTexts(t, html, map[string]string{"window-count": "0", "clock": "t = 1.000 s"})
	// The two entries left the log: drawn as expired marks.
	if n := len(regexp.MustCompile(`href="#m-old"`).FindAllString(html, -1)); n != 2 {
		t.Errorf("%d expired marks, want 2", n)
	}
	if n := len(regexp.MustCompile(`href="#m-ok"`).FindAllString(html, -1)); n != 0 {
		t.Errorf("%d marks in the window, want 0", n)
	}
}

func TestPlaygroundHasStableIDs(t *testing.T) {
	html := mount(t, &playground{})
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
	wantTexts(t, html, map[string]string{
		"capacity-value": "5 tokens",
		"rate-value":     "1 token/s",
		"burst":          "Burst ×5",
		"autofire":       "Auto-fire: off",
		"pause":          "Pause clock",
		"level":          "5.00",
	})
}
