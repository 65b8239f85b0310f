package main

import (
	"regexp"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
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

// The totals table: its cells carry the counts, and names from a link or a
// trace file are text, never markup.
func TestLabTotalsHTML(t *testing.T) {
	snap := &totalsSnap{
		Lanes:   []string{"#1 fixed window", "#2 token bucket"},
		Totals:  []sim.Counts{{Allowed: 7, Denied: 3}, {Allowed: 9, Denied: 1}},
		Top:     []totalsTop{{`<b>&"'x`, ": 3 of 5 denied"}, {Text: "nobody denied"}},
		Clients: 12,
		Rows: []totalsRow{
			{Client: `<b>&"'x`, Cells: []sim.Counts{{Allowed: 2, Denied: 3}, {Allowed: 5, Denied: 0}}},
		},
	}
	html := strings.ReplaceAll(mount(t, &labTotals{Snap: snap}), "\n", "")
	// go-app writes attributes in a map's order: one order for the name's.
	html = regexp.MustCompile(`<span (title="(?:\\.|[^"\\])*") (class="client-name")>`).ReplaceAllString(html, `<span $2 $1>`)
	for _, want := range []string{
		`<h2>Per-client totals: allowed / denied (the 1 denied most of 12)</h2>`,
		`<tr class="total"><th>all 12 clients</th><td class="num-cell"><span class="ok">7</span><span class="sep"> / </span><span class="no">3</span></td><td class="num-cell"><span class="ok">9</span><span class="sep"> / </span><span class="no">1</span></td></tr>`,
		`<tr class="top"><th>throttles most</th><td class="small"><span class="client-name" title="<b>&\"'x">&lt;b&gt;&amp;&#34;&#39;x</span>: 3 of 5 denied</td><td class="small">nobody denied</td></tr>`,
		`<tr><th class="mono"><span class="client-name" title="<b>&\"'x">&lt;b&gt;&amp;&#34;&#39;x</span></th><td class="num-cell"><span class="ok">2</span><span class="sep"> / </span><span class="no">3</span></td>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("totals HTML lacks %s\nin %s", want, html)
		}
	}
	// The full name is in a title (the cell cuts a long one): an attribute,
	// which the browser's go-app sets with setAttribute, never markup. (This
	// HTML is go-app's pre-render, which quotes an attribute with
	// strconv.Quote; it never sees a trace's names.)
	if strings.Contains(regexp.MustCompile(`="(\\.|[^"\\])*"`).ReplaceAllString(html, `=""`), "<b>") {
		t.Errorf("a client name became markup: %s", html)
	}
}

// The presets card lists every preset with its source, as plain HTML.
func TestPresetsHTML(t *testing.T) {
	html := presetsHTML()
	// Each preset's configuration in the pages' notation (explain.ConfigText).
	configs := map[string]string{
		"github":        "fixed window: 5000 per 1 h",
		"shopify":       "leaky bucket: capacity 40, leaks 1 per 500 ms",
		"stripe":        "token bucket: 100/s, burst 100",
		"nginx-nodelay": "leaky bucket: capacity 21, leaks 1 per 100 ms",
		"nginx-delay":   "leaky bucket: capacity 21, leaks 1 per 100 ms",
		"cloudflare":    "sliding window counter: 50 per 1 min",
	}
	if len(configs) != len(sim.Presets()) {
		t.Errorf("%d presets; the test knows %d", len(sim.Presets()), len(configs))
	}
	for _, p := range sim.Presets() {
		want := `<li id="preset-` + p.ID + `"><strong>` + template.HTMLEscapeString(p.Name) + `</strong><div class="mono small">` + configs[p.ID] + `</div>`
		if !strings.Contains(html, want) {
			t.Errorf("presets HTML lacks %s", want)
		}
		if !strings.Contains(html, `href="`+p.Source+`" target="_blank" rel="noopener">`) {
			t.Errorf("presets HTML lacks the link to %s", p.Source)
		}
	}
	if n := strings.Count(html, "<li "); n != len(sim.Presets()) {
		t.Errorf("%d presets listed, want %d", n, len(sim.Presets()))
	}
}

// The live region tells a new decision at most once a second, and empties
// at once when its source is reset, so the first decision after a reset is
// told even though it has the number the last one before it had.
func TestAnnouncerReset(t *testing.T) {
	seq, msg := 0, ""
	a := &announcer{Source: func() (int, string) { return seq, msg }}
	t0 := time.Unix(100, 0)
	step := func(at time.Duration, wantRedraw bool, wantShown string) {
		t.Helper()
		if got := a.poll(nil, t0.Add(at), 0); got != wantRedraw {
			t.Errorf("at %v: redraw %v, want %v", at, got, wantRedraw)
		}
		if a.shown != wantShown {
			t.Errorf("at %v: shown %q, want %q", at, a.shown, wantShown)
		}
	}
	step(0, false, "")
	seq, msg = 1, "Request 1 at 0.000 s: allowed"
	step(0, true, "Request 1 at 0.000 s: allowed")
	seq, msg = 2, "Request 2 at 0.100 s: allowed"
	step(500*time.Millisecond, false, "Request 1 at 0.000 s: allowed")
	step(time.Second, true, "Request 2 at 0.100 s: allowed")
	seq, msg = 0, "" // Reset
	step(1100*time.Millisecond, true, "")
	step(1200*time.Millisecond, false, "")
	seq, msg = 1, "Request 1 at 0.000 s: denied"
	step(2*time.Second, true, "Request 1 at 0.000 s: denied")
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
	html := mount(t, &view{Sim: s})
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
	html = mount(t, &view{Sim: s})
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
		wantTexts(t, html, map[string]string{"level": level, "retry-after": left})
		if got, _ := textOf(html, "retry-after-of"); got != of {
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
		value, _ := textOf(html, "retry-after")
		of, _ := textOf(html, "retry-after-of")
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
