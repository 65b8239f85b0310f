package lab

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// Lane drawing geometry (SVG user units), one shared time axis for all
// lanes.
const (
	laneW              = 600.0
	laneH              = 140.0
	stripTop, stripBot = 12.0, 48.0
	okY, noY           = 22.0, 40.0
	rateTop, rateBot   = 56.0, 96.0
	stateTop, stateBot = 104.0, 136.0
	markCol            = 3.0 // marks are merged per column of this width
	nCols              = int(laneW / markCol)
)

// labFrameEvery is the lanes view's frame period: 30 redraws a second
// leave the browser every other frame to paint (six lanes at 200 requests/s).
const labFrameEvery = time.Second / 30

// labLanes is the lab's right column: the clock and scrubber, every lane
// drawn live on one shared time axis, and the per-client totals. It owns the
// animation loop: each frame moves the simulated clock by the real time
// elapsed (many requests per frame) and redraws this component only.
type labLanes struct {
	app.Compo
	M *labModel

	loop  ui.Frames
	drawn uint64
	// editsDrawn is the model's edits when the left column was last
	// redrawn for them.
	editsDrawn uint64
	urlAt      time.Time
	url        string

	hist   []sim.Record
	bks    []sim.Bucket
	buf    []byte
	okCol  [nCols]int32
	noCol  [nCols]int32
	stacks [][2]int // the history's [i, j) of each burst drawn as a stack
	totals *totalsSnap
	totAt  time.Time
	totVer uint64

	// The timeline slider's value as last drawn, and as last set on the
	// element (see frame).
	scrubAt, scrubSet int

	zoom labZoom
}

func (v *labLanes) OnMount(ctx app.Context) {
	if !app.IsClient { // native component tests draw frames by hand
		return
	}
	browser.InstallKeyGuard()
	browser.InstallWheelGuard()
	v.loop.Start(ctx, v, labFrameEvery, v.frame)
}

// frame runs on the UI goroutine: it advances the clock, keeps the link in
// the address bar current, and redraws when anything moved.
func (v *labLanes) frame(ctx app.Context, now time.Time, dt time.Duration) bool {
	m := v.M
	m.runStep() // "Run to end": this frame's parts
	if m.scrub == nil && !m.lab.Clock().Paused() {
		behind, err := m.lab.Tick(dt)
		if err != nil {
			m.setErr("clock", err)
			m.lab.Clock().Pause()
			m.changed()
		}
		if behind {
			m.behind = behindFrames
		} else if m.behind > 0 {
			m.behind--
		}
		m.moved()
	}
	if m.edits != v.editsDrawn && m.redrawControls != nil {
		v.editsDrawn = m.edits
		m.redrawControls()
	}
	if now.Sub(v.urlAt) > 300*time.Millisecond {
		v.urlAt = now
		v.syncURL(ctx)
	}
	if v.scrubAt != v.scrubSet {
		// go-app sets a changed max and value in no set order, and a range
		// input clamps a value set before a larger max: after "Run to end"
		// or "+1 s" while paused, the thumb stayed at the old end. The
		// element has its new max by now (drawn in an earlier frame).
		if el := browser.ByID("scrub"); el.Truthy() {
			el.Set("value", strconv.Itoa(v.scrubAt))
			v.scrubSet = v.scrubAt
		}
	}
	return m.version != v.drawn
}

// syncURL writes the setup into the address bar, the share field and the
// quiz link when it changed.
func (v *labLanes) syncURL(ctx app.Context) {
	q := linkQuery(v.M)
	if q == v.url || v.M.unlinked {
		return
	}
	v.url = q
	u := *ctx.Page().URL()
	u.RawQuery = q
	ctx.Page().ReplaceURL(&u)
	if el := browser.ByID("share-link"); el.Truthy() {
		el.Set("value", shareLink(v.M))
	}
	// The quiz link too: the left column is not redrawn for a lane's
	// changes, so its link kept the setup it was drawn with.
	if el := browser.ByID("quiz-this"); el.Truthy() {
		el.Set("href", quizLinkFor(v.M))
	}
	if v.M.copied != "" && v.M.copied != shareLink(v.M) {
		// "Copied ✓" was about the link before this change (a copy made
		// since the change, before this frame, keeps it).
		v.M.copied = ""
		v.M.changed()
	}
}

// axisOf is the shared time axis: the last span of the run (at least W ×
// 10, at most the minute of chart buckets kept), now near the right edge.
func axisOf(l *sim.Lab) ui.Axis {
	span := min(max(10*l.Setup().Worst, 2*time.Second), 60*time.Second)
	now := l.Now()
	from := max(0, now-span*19/20)
	return ui.Axis{X0: 0, X1: laneW, From: from, To: from + span}
}

func (v *labLanes) Render() app.UI {
	m := v.M
	v.drawn = m.version
	l := m.shown()
	a := v.zoom.axis(l)
	lanes := l.Lanes()

	// One rate scale for every lane, so their charts compare.
	rmax := 1.0
	width := l.Options().ChartBucket
	for _, ln := range lanes {
		v.bks = ln.Buckets(v.bks[:0])
		for _, b := range v.bks {
			if b.Start+width >= a.From {
				o, _ := b.Rates(width)
				rmax = max(rmax, o)
			}
		}
	}
	rmax = niceCeil(rmax)

	// Twice a second while the clock or "Run to end" runs (a trace of
	// 200,000 clients takes a while to rank), at once when paused.
	if v.totals == nil || (v.totVer != m.version && (time.Since(v.totAt) > 500*time.Millisecond || l.Clock().Paused() && m.toEnd == nil)) {
		v.totals, v.totAt, v.totVer = snapTotals(l), time.Now(), m.version
	}

	laneUIs := make([]app.UI, 0, len(lanes)+1)
	s := m.lab.Setup()
	for i, ln := range lanes {
		// Each lane has a slot of its own, the inspector right under the
		// lane it explains (so both stay in view): opening or closing it
		// moves no other lane, whose chart (and focus) would be rebuilt.
		var insp app.UI = app.Text("")
		if m.insp != nil && m.insp.lane == i {
			insp = v.inspectorUI()
		}
		laneUIs = append(laneUIs, app.Elem("div").Class("lane-slot").Body(v.lane(i, ln, l, a, rmax, s, len(lanes)), insp))
	}
	return app.Elem("div").Class("lab-main").Body(
		v.timebar(l),
		app.Elem("section").Class("card lanes").Attr("aria-label", "Lanes").Body(
			v.legend(l, s, rmax),
			app.Elem("div").Class("lane axis-row").Body(
				app.Elem("div").Class("lane-side axis-side").Body(app.Text("time (simulated) →"), v.zoomBar(l)),
				v.axisSVG(a),
			),
			app.Elem("div").ID("lanes").Body(laneUIs...),
			app.If(len(lanes) == 0, app.Elem("p").Class("hint").Text("No lanes: add one from “+ Add a lane…”.")),
		),
		&labTotals{M: m, Snap: v.totals},
	)
}

// scrubKeySteps are the timeline's keyboard steps in ms: the range's own
// step is 1 ms, fine for a pointer but 1 ms per key press for the keyboard.
// Arrows move 100 ms (the "+100 ms" button's step), Page Up and Page Down
// 1 s; Home and End keep the browser's (the start, now).
var scrubKeySteps = map[string]int{"ArrowLeft": -100, "ArrowDown": -100, "ArrowRight": 100, "ArrowUp": 100, "PageDown": -1000, "PageUp": 1000}

// scrubKey moves the timeline by scrubKeySteps, within its range.
func scrubKey(m *labModel) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		d, ok := scrubKeySteps[e.Get("key").String()]
		if !ok {
			return
		}
		// From the instant shown, not the element's value: the frame loop
		// writes the last drawn instant into the element, and keys quicker
		// than frames read that older value and lost a step.
		shown := m.lab.Now()
		if m.scrub != nil {
			shown = m.scrub.Now()
		}
		hi := int(m.lab.Now() / time.Millisecond)
		v := min(max(int(shown/time.Millisecond)+d, 0), hi)
		ctx.JSSrc().Set("value", strconv.Itoa(v))
		scrubToMs(m, v, hi)
	}
}

// scrubToMs shows the lab at v ms on a timeline whose end is hi ms: the
// end is now, live (the range counts whole ms, so its end is up to 1 ms
// before the clock, which read "showing t = 2.883 s of 2.883 s").
func scrubToMs(m *labModel, v, hi int) {
	if v >= hi {
		m.scrubTo(m.lab.Now())
		return
	}
	m.scrubTo(sim.Instant(v) * time.Millisecond)
}

// timebar: the clock, pause, steps, speed, reset and the scrubber.
func (v *labLanes) timebar(l *sim.Lab) app.UI {
	m := v.M
	toEnd := m.toEnd != nil
	paused := (m.lab.Clock().Paused() || m.scrub != nil) && !toEnd
	state, cls, pause := "running", "badge run", "Pause"
	if paused {
		state, cls, pause = "paused", "badge pause", "Resume"
	}
	if m.scrub != nil {
		state = "scrubbed"
	}
	progress := ""
	if toEnd {
		// Said under the buttons, beside the timeline: text that grows in
		// their row moved Pause away from the pointer.
		what := "running to the end… "
		if m.toEnd.open != nil {
			what = "opening the link's instant… "
		}
		progress = what + strconv.Itoa(m.runProgress()) + " % (to t = " + units.FormatClock(m.toEnd.to) + "); Pause stops here"
	}
	nowMs := m.lab.Now() / time.Millisecond
	atMs := l.Now() / time.Millisecond
	v.scrubAt = int(atMs)
	speed := m.lab.Clock().Speed()
	return app.Elem("section").Class("card timebar").Attr("aria-label", "Clock").Body(
		app.Elem("div").Class("row").Body(
			app.Elem("span").ID("lab-clock").Class("mono clock").Text("t = "+units.FormatClock(l.Now())),
			app.Elem("span").ID("lab-clock-state").Class(cls).Text(state),
			app.If(m.behind > 0 && !paused && !toEnd,
				app.Elem("span").ID("lab-clock-behind").Class("hint").Text("slower than "+units.Num(speed)+"×: more requests are due than the browser decides in real time"),
			),
			app.Elem("button").ID("lab-pause").Class("btn").Attr("aria-pressed", paused).Text(pause).OnClick(v.onPause),
			app.Elem("button").ID("step-request").Class("btn").Title("Pause and decide the next request alone").Text("Step 1 request").OnClick(v.onStepRequest),
			app.Elem("button").ID("step-100ms").Class("btn").Title("Move the clock forward by 100 ms").Text("+100 ms").OnClick(v.step(100*time.Millisecond)),
			app.Elem("button").ID("step-1s").Class("btn").Title("Move the clock forward by 1 s").Text("+1 s").OnClick(v.step(time.Second)),
			app.Elem("label").Attr("for", "speed").Class("inline-label").Text("speed"),
			app.Elem("select").ID("speed").Class("select").Body(ui.SpeedOptions(speed)...).OnChange(v.onSpeed),
			app.Elem("button").ID("lab-reset").Class("btn danger").Title("Start the run over at 0: same setup, same seed, same decisions").Text("Reset").OnClick(v.onReset),
		),
		app.Elem("div").Class("row scrub-row").Body(
			app.Elem("label").Attr("for", "scrub").Class("inline-label").Text("timeline"),
			app.ElemSelfClosing("input").Attr("type", "range").ID("scrub").Attr("min", 0).Attr("max", int(nowMs)).Attr("step", 1.0).Attr("value", int(atMs)).
				Attr("aria-label", "Timeline: show every lane as it was at this instant").
				OnInput(v.onScrub).
				DataSet("keys", "ArrowLeft ArrowRight ArrowUp ArrowDown PageUp PageDown").OnKeyDown(scrubKey(m)),
			app.If(toEnd,
				app.Elem("span").ID("run-progress").Class("hint").Text(progress),
			).ElseIf(m.scrub != nil,
				app.Elem("span").ID("scrub-label").Class("hint").Text("showing t = "+units.FormatClock(l.Now())+" of "+units.FormatClock(m.lab.Now())+" (replayed; Resume, a request or a step continues from here and drops what came after)"),
				app.Elem("button").ID("scrub-live").Class("btn link").Text("back to live").OnClick(v.onLive),
			).ElseIf(m.dropped != "",
				app.Elem("span").ID("scrub-label").Class("hint").Text(m.dropped+"; drag back to see every lane as it was"),
			).Else(
				app.Elem("span").ID("scrub-label").Class("hint").Text("drag back to see every lane as it was"),
			),
		),
		ui.ErrorLine(m.errs, "clock"),
		ui.ErrorLine(m.errs, "step"),
		ui.ErrorLine(m.errs, "scrub"),
	)
}

// onPause pauses or resumes the clock; while "Run to end" is under way it
// stops the run where it got to. It reads the state when clicked.
func (v *labLanes) onPause(ctx app.Context, e app.Event) {
	m := v.M
	if m.toEnd != nil {
		// "Run to end" under way: Pause stops it where it got to.
		m.stopRun()
	} else if m.lab.Clock().Paused() || m.scrub != nil {
		m.resumeFromScrub()
		m.lab.Clock().Resume()
	} else {
		m.lab.Clock().Pause()
	}
	v.loop.Resync()
	m.changed()
}

// onStepRequest pauses and decides the next request alone.
func (v *labLanes) onStepRequest(ctx app.Context, e app.Event) {
	m := v.M
	m.resumeFromScrub()
	m.lab.Clock().Pause()
	_, ok, err := m.lab.StepRequest()
	if err == nil && !ok {
		err = errors.New("no request is coming: the clients only click and no trace is left to replay; send one with Space or Burst ×N")
	}
	m.setErr("step", err)
	m.changed()
}

func (v *labLanes) onSpeed(ctx app.Context, e app.Event) {
	m := v.M
	x, _ := strconv.ParseFloat(browser.FieldText(ctx.JSSrc()), 64)
	m.setErr("clock", m.lab.Clock().SetSpeed(x))
	m.changed()
}

// onReset starts the run over at 0: same setup, same seed.
func (v *labLanes) onReset(ctx app.Context, e app.Event) {
	m := v.M
	m.live()
	m.clearSel()
	m.setErr("clock", m.lab.Reset())
	m.changed()
}

// onScrub shows every lane as it was at the timeline's instant.
func (v *labLanes) onScrub(ctx app.Context, e app.Event) {
	m := v.M
	x, err := strconv.ParseFloat(browser.FieldText(ctx.JSSrc()), 64)
	hi, err2 := strconv.Atoi(ctx.JSSrc().Get("max").String())
	if err == nil && err2 == nil {
		scrubToMs(m, int(x), hi)
	}
}

func (v *labLanes) onLive(ctx app.Context, e app.Event) { v.M.live() }

// behindFrames is how many frames (about a second) the clock keeps saying
// it is behind after a tick last stopped short.
const behindFrames = 20

func (v *labLanes) step(d time.Duration) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		m := v.M
		m.resumeFromScrub()
		m.lab.Clock().Pause()
		m.setErr("clock", m.lab.Step(d))
		m.changed()
	}
}

// legend names the lines and marks, and the client whose state is drawn
// (one of the setup's clients, or of the trace's).
func (v *labLanes) legend(l *sim.Lab, setup sim.Setup, rmax float64) app.UI {
	sent := 0
	if v.totals != nil {
		sent = v.totals.Clients // twice a second: the picker lists them anew
	}
	return app.Elem("div").Class("legend lab-legend").Body(
		app.Elem("span").Class("key ok").Text("✓ allowed"),
		app.Elem("span").Class("key no").Text("✕ denied"),
		app.Elem("span").Class("key worst").Text("▮ worst-case stretch (all clients)"),
		app.Elem("span").Class("key stack").Text("≡ a burst at one instant: one bar per request"),
		app.Elem("span").Class("key offered").Text("— offered rate (all clients)"),
		app.Elem("span").Class("key admitted").Text("— admitted rate (all clients)"),
		app.Elem("span").Class("key tok").Text("— state of one client (tokens, level, count)"),
		app.Elem("span").ID("rate-scale").Text("rate scale 0–"+units.Num(rmax)+"/s"),
		&clientPicker{M: v.M, Focus: l.Focus(), Sent: sent},
	)
}

// axisSVG draws the shared time axis's labels. It takes the zoom's keys
// (+, −, 0, ← and → pan), wheel and pinch.
func (v *labLanes) axisSVG(a ui.Axis) app.UI {
	var ticks []app.UI
	for _, l := range axisLabels(a) {
		anchor := "middle"
		switch {
		case l.x < 20: // "0 s" centred on the left edge would lose its "0"
			anchor = "start"
		case l.x > laneW-20:
			anchor = "end"
		}
		ticks = append(ticks, ui.SVG("text").Attr("x", ui.F1(l.x)).Attr("y", 13).Attr("font-size", 11).Attr("text-anchor", anchor).Attr("fill", "#57606a").Text(l.text))
	}
	svg := ui.SVG("svg").ID("axis").Attr("viewBox", "0 0 600 18").Attr("width", "100%").TabIndex(0).
		Attr("aria-label", "Time axis of every lane: + and − zoom, ← and → pan, 0 fits").
		DataSet("keys", "ArrowLeft ArrowRight "+ui.ZoomKeys).
		OnKeyDown(func(ctx app.Context, e app.Event) { v.zoomKey(ctx, e, true) })
	return v.zoomable(svg).Body(ticks...)
}

// axisLabel is one label of the time axis, at x in SVG units.
type axisLabel struct {
	x    float64
	text string
}

// axisCharW is the width of a label's character in SVG units at the axis's
// font size (15 units, web/app.css), with some room to spare.
const axisCharW = 9.5

// axisLabels names every tick of a's step (ui.TickStep, at most 10 a
// span) whose labels fit side by side, else every k-th tick, k the
// smallest that leaves a gap: late in a long run ("39559 s") the labels ran
// together. The ticks kept are the multiples of k steps, so they stay put
// as time moves. Labels have the decimals the step needs (units.FormatAxis).
func axisLabels(a ui.Axis) []axisLabel {
	w := ui.TimeWindow{From: a.From, To: a.To}
	step := ui.TickStep(w.Span(), 10)
	widest := len(units.FormatAxis(a.To, step))
	spacing := a.X(a.From+step) - a.X(a.From)
	k := max(1, int(math.Ceil((float64(widest)*axisCharW+10)/spacing)))
	var labels []axisLabel
	for _, t := range w.Ticks(10) {
		if int64(t.At/step)%int64(k) == 0 {
			labels = append(labels, axisLabel{a.X(t.At), t.Label})
		}
	}
	return labels
}

func niceCeil(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, f := range []float64{1, 2, 5, 10} {
		if x <= f*p {
			return f * p
		}
	}
	return 10 * p
}

// tierOf maps the clients of s that have a tier to it, for a lane with
// tiers (nil otherwise: the lanes draw every frame).
func tierOf(s sim.Setup, spec sim.LaneSpec) map[string]string {
	if len(spec.Tiers) == 0 {
		return nil
	}
	m := map[string]string{}
	for _, c := range s.Clients {
		if c.Tier != "" {
			m[c.Name] = c.Tier
		}
	}
	return m
}

// lane draws lane i: its editor, counts, worst case, live state, and the
// strip and charts on the shared axis.
func (v *labLanes) lane(i int, ln *sim.Lane, l *sim.Lab, a ui.Axis, rmax float64, s sim.Setup, n int) app.UI {
	id := "lane-" + strconv.Itoa(i)
	spec := ln.Spec()
	if i < len(s.Lanes) {
		spec = s.Lanes[i]
	}
	wc := ln.Worst()
	st := ln.State(l.Now(), l.Focus())
	stateText, gauge := stateLine(st, l.Now())
	return app.Elem("div").ID(id).Class("lane").Body(
		app.Elem("div").Class("lane-side").Body(
			&laneEditor{M: v.M, I: i, N: n, Spec: spec, TierOf: tierOf(s, spec), Err: laneErrs(v.M, i)},
			laneAggregates(id, ln, l.Now()),
			app.Elem("div").Class("lane-state").Body(
				app.Elem("span").ID(id+"-state-of").Class("state-of").Title(l.Focus()).Text(l.Focus()+": "),
				app.Elem("span").ID(id+"-state").Text(stateText),
				app.Elem("div").Class("gauge").Body(app.Elem("div").Class("gauge-fill").Style("width", ui.F1(gauge*100)+"%")),
			),
			v.selLine(id, i, ln),
		),
		v.laneSVG(i, id, ln, l, a, rmax, st, wc),
	)
}

// laneErrs joins the messages of lane i's controls (so its editor redraws
// when they change).
func laneErrs(m *labModel, i int) string {
	p := "lane-" + strconv.Itoa(i) + "-"
	var s string
	for _, k := range []string{"kind", "p1", "p2"} {
		if e, ok := m.errs[p+k]; ok {
			s += k + "\x00" + e + "\x00"
		}
	}
	return s
}

// stateLine describes a strategy's state in the field's terms, and how
// full it is (0 to 1) for the gauge.
func stateLine(st limiter.State, now sim.Instant) (string, float64) {
	frac := func(x float64) float64 {
		if st.Limit <= 0 {
			return 0
		}
		return min(max(x/float64(st.Limit), 0), 1)
	}
	lim := strconv.Itoa(st.Limit)
	switch st.Kind {
	case limiter.KindTokenBucket:
		return "tokens " + units.FormatTokens(st.Tokens) + " of " + lim + " · refill " + units.Num(math.Round(st.Rate*100)/100) + "/s", frac(st.Tokens)
	case limiter.KindGCRA:
		ahead := max(st.TAT-now, 0)
		return "TAT − now = " + units.FormatSeconds(ahead) + " of tolerance " + units.FormatSeconds(st.Tolerance) + " → " + units.FormatTokens(st.Tokens) + " tokens", frac(st.Tokens)
	case limiter.KindLeakyBucket:
		var delay time.Duration
		if st.Rate > 0 {
			delay = time.Duration(st.Level / st.Rate * float64(time.Second))
		}
		return "water level " + units.FormatTokens(st.Level) + " of " + lim + " · queue delay " + units.FormatRetry(delay), frac(st.Level)
	case limiter.KindFixedWindow:
		return "window [" + units.FormatSecs(st.WindowStart) + " s, " + units.FormatSecs(st.WindowStart+st.Window) + " s): " + strconv.Itoa(st.Count) + " of " + lim, frac(float64(st.Count))
	case limiter.KindSlidingWindowLog:
		return strconv.Itoa(len(st.Log)) + " timestamps in the last " + units.FormatWindow(st.Window) + " (of " + lim + ")", frac(float64(st.Count))
	case limiter.KindSlidingWindowCounter:
		w := 0.0
		if st.Window > 0 {
			w = 1 - float64(now-st.WindowStart)/float64(st.Window)
		}
		return "previous " + strconv.Itoa(st.Previous) + " × " + strconv.Itoa(int(math.Round(w*100))) + "% + current " + strconv.Itoa(st.Count) +
			" = " + units.FormatTokens(st.Weighted) + " of " + lim, frac(st.Weighted)
	}
	return "", 0
}

// laneSVG draws the strategy's window or timestamps, the allowed and denied
// marks (merged per column: a few paths, not one node per request), the
// worst-case stretch, the offered and admitted rates and the state.
//
// It is split into small functions on purpose: it runs every frame, so V8
// soon optimises it, and its optimising compiler takes far longer on one
// large function than on several small ones (the lab's start-up was waiting
// for cores busy compiling it).
func (v *labLanes) laneSVG(i int, id string, ln *sim.Lane, l *sim.Lab, a ui.Axis, rmax float64, st limiter.State, wc sim.WorstCase) app.UI {
	now := l.Now()
	v.hist = ln.History(v.hist[:0])
	okPath, noPath, okStack, noStack := v.markPaths(a)
	off, adm, stp := v.ratePaths(ln, l, a, rmax, st)
	band, marks := v.stateBand(st, a, now)
	svg := ui.SVG("svg").ID(id+"-svg").Attr("viewBox", "0 0 600 140").Attr("width", "100%").
		TabIndex(0).Role("application").
		Attr("aria-label", "Lane "+strconv.Itoa(i+1)+" requests: ←/→ choose a request, Enter explains it (or click a mark); + and − zoom every lane, Shift+←/→ pan, 0 fits").
		DataSet("keys", "ArrowLeft ArrowRight Home End "+ui.ZoomKeys).OnClick(v.onStripClick(i), i).OnFocus(v.onStripFocus(i), i).OnKeyDown(v.onStripKey(i), i)
	return v.zoomable(svg).Body(
		band,
		worstBand(id, a, wc, now),
		svgEl("path", "id", id+"-bounds", "d", marks, "stroke", "#0969da", "stroke-width", "1", "stroke-dasharray", "3 2", "fill", "none"),
		svgEl("path", "id", id+"-ok", "d", okPath, "stroke", "#1a7f37", "stroke-width", "1.8", "fill", "none", "stroke-linecap", "round"),
		svgEl("path", "id", id+"-no", "d", noPath, "stroke", "#cf222e", "stroke-width", "1.8", "fill", "none", "stroke-linecap", "round"),
		svgEl("path", "id", id+"-stack-ok", "d", okStack, "stroke", "#1a7f37", "stroke-width", ui.F1(rungW), "fill", "none"),
		svgEl("path", "id", id+"-stack-no", "d", noStack, "stroke", "#cf222e", "stroke-width", ui.F1(rungW), "fill", "none"),
		svgEl("rect", "x", "0", "y", "56", "width", "600", "height", "40", "fill", "#f6f8fa"), // rateTop to rateBot
		svgEl("polyline", "points", off, "fill", "none", "stroke", "#8c959f", "stroke-width", "1.5"),
		svgEl("polyline", "points", adm, "fill", "none", "stroke", "#1a7f37", "stroke-width", "1.5"),
		svgEl("text", "x", "3", "y", "66", "font-size", "9", "fill", "#57606a").Text("rate /s"),
		svgEl("rect", "x", "0", "y", "104", "width", "600", "height", "32", "fill", "#fffbf0"), // stateTop to stateBot
		svgEl("line", "x1", "0", "x2", "600", "y1", "104", "y2", "104", "stroke", "#d4a72c", "stroke-dasharray", "3 3"),
		svgEl("polyline", "points", stp, "fill", "none", "stroke", "#9a6700", "stroke-width", "1.5"),
		svgEl("text", "x", "3", "y", "114", "font-size", "9", "fill", "#57606a").Text("state (max "+strconv.Itoa(st.Limit)+")"),
		nowLine(ui.F1(a.X(now))),
		v.selMark(id, i, ln, v.hist, a),
	)
}

// svgEl is an SVG element with attributes given as name, value pairs.
func svgEl(tag string, attrs ...string) app.HTMLElem {
	e := ui.SVG(tag)
	for k := 0; k+1 < len(attrs); k += 2 {
		e = e.Attr(attrs[k], attrs[k+1])
	}
	return e
}

func nowLine(x string) app.UI {
	return svgEl("line", "x1", x, "x2", x, "y1", "0", "y2", "140", "stroke", "#1f2328", "stroke-width", "1")
}

// markPaths draws v.hist's allowed and denied requests on the strip: one
// check or cross per column of markCol units (ok, no) where the column's
// requests are at several instants, and where they are all at one instant
// (a burst), a stack of one rung per request (okStack, noStack), in the
// order decided from the bottom up. Zoomed in, requests 1 ms apart are
// columns apart, so every burst is its own stack: the window-edge attack's
// 10 at 0.990 s and 10 at 1.000 s are 20 rungs.
func (v *labLanes) markPaths(a ui.Axis) (ok, no, okStack, noStack string) {
	v.okCol, v.noCol = [nCols]int32{}, [nCols]int32{}
	v.stacks = v.stacks[:0]
	lo := visibleRange(v.hist, a)
	for i := lo; i < len(v.hist); {
		r := v.hist[i]
		if r.At > a.To {
			break
		}
		c := min(int(a.X(r.At)/markCol), nCols-1)
		j, one := i+1, true
		for ; j < len(v.hist) && v.hist[j].At <= a.To && min(int(a.X(v.hist[j].At)/markCol), nCols-1) == c; j++ {
			one = one && v.hist[j].At == r.At
		}
		if one && j-i > 1 && j-i <= maxRungs {
			v.stacks = append(v.stacks, [2]int{i, j})
		} else {
			for _, r := range v.hist[i:j] {
				if r.Allowed {
					v.okCol[c]++
				} else {
					v.noCol[c]++
				}
			}
		}
		i = j
	}
	b := appendMarks(v.buf[:0], v.okCol[:], -3.5, okY, "l2.5 3.5l5-7")
	ok = string(b)
	b = appendMarks(b[:0], v.noCol[:], -3, noY-3, "l6 6m0-6l-6 6")
	no = string(b)
	b = v.appendRungs(b[:0], a, true)
	okStack = string(b)
	b = v.appendRungs(b[:0], a, false)
	v.buf = b
	return ok, no, okStack, string(b)
}

// A stack's geometry: rungs rungW thick, from the strip's foot (stackBot)
// up, at most rungStep apart and closer when the burst is taller than the
// strip; a burst of more than maxRungs is drawn as one mark per kind.
const (
	rungW, rungHalf    = 2.0, 4.0 // thickness, half width
	rungStep           = 4.0
	stackTop, stackBot = 4.0, 52.0
	maxRungs           = int((stackBot-stackTop)/(rungW+1)) + 1
)

// rungAt is the centre of history index k's rung when it is drawn in a
// stack of v.stacks (drawn last for this lane by markPaths).
func (v *labLanes) rungAt(k int, a ui.Axis) (x, y float64, ok bool) {
	for _, st := range v.stacks {
		if k >= st[0] && k < st[1] {
			step := min(rungStep, (stackBot-stackTop)/float64(st[1]-st[0]-1))
			return a.X(v.hist[k].At), stackBot - float64(k-st[0])*step, true
		}
	}
	return 0, 0, false
}

// appendRungs appends the rungs of the allowed (or denied) requests of
// v.stacks: "M x0 y h8" each, centred on the instant.
func (v *labLanes) appendRungs(b []byte, a ui.Axis, allowed bool) []byte {
	for _, st := range v.stacks {
		n := st[1] - st[0]
		step := min(rungStep, (stackBot-stackTop)/float64(n-1))
		x := a.X(v.hist[st[0]].At) - rungHalf
		for k, r := range v.hist[st[0]:st[1]] {
			if r.Allowed != allowed {
				continue
			}
			b = append(b, 'M')
			b = appendF(b, x)
			b = append(b, ' ')
			b = appendF(b, stackBot-float64(k)*step)
			b = append(b, 'h')
			b = appendF(b, 2*rungHalf)
		}
	}
	return b
}

// appendMarks appends to b an SVG path of one mark for every column with a
// count: the mark's path drawn from the column's centre moved by dx, at y.
func appendMarks(b []byte, cols []int32, dx, y float64, mark string) []byte {
	for c, k := range cols {
		if k > 0 {
			b = append(b, 'M')
			b = appendF(b, float64(c)*markCol+markCol/2+dx)
			b = append(b, ' ')
			b = appendF(b, y)
			b = append(b, mark...)
		}
	}
	return b
}

// ratePaths are the polylines of the offered rate, the admitted rate and
// the strategy's state, one point per chart bucket.
func (v *labLanes) ratePaths(ln *sim.Lane, l *sim.Lab, a ui.Axis, rmax float64, st limiter.State) (off, adm, stp string) {
	width := l.Options().ChartBucket
	v.bks = ln.Buckets(v.bks[:0])
	smax := max(float64(st.Limit), 1)
	var out [3]string
	for pass := range out {
		b := v.buf[:0]
		for _, bk := range v.bks {
			if bk.Start+width < a.From {
				continue
			}
			o, ad := bk.Rates(width)
			var y float64
			switch pass {
			case 0:
				y = rateBot - min(o/rmax, 1)*(rateBot-rateTop)
			case 1:
				y = rateBot - min(ad/rmax, 1)*(rateBot-rateTop)
			default:
				y = stateBot - min(max(bk.State/smax, 0), 1)*(stateBot-stateTop)
			}
			b = appendF(b, a.X(bk.Start+width/2))
			b = append(b, ',')
			b = appendF(b, y)
			b = append(b, ' ')
		}
		out[pass] = string(b)
		v.buf = b
	}
	return out[0], out[1], out[2]
}

// stateBand draws the strategy's own state on the strip: the window (fixed
// window, sliding window counter), the window and its timestamps (sliding
// window log), or TAT against now (GCRA); marks is the path of the window
// boundaries, timestamps or TAT.
func (v *labLanes) stateBand(st limiter.State, a ui.Axis, now sim.Instant) (band app.UI, marks string) {
	b := v.buf[:0]
	band = app.Text("")
	switch st.Kind {
	case limiter.KindFixedWindow, limiter.KindSlidingWindowCounter:
		b = windowLines(b, st, a)
		x0, x1 := st.WindowStart, st.WindowStart+st.Window
		fill := "#ddf4ff"
		if st.Kind == limiter.KindSlidingWindowCounter {
			// The sliding window [now − W, now) over the two fixed ones.
			x0, x1, fill = now-st.Window, now, "#fbefff"
		}
		band = stripRect(a, x0, x1, 0, "46", fill) // to stripBot
	case limiter.KindSlidingWindowLog:
		band = stripRect(a, now-st.Window, now, 0, "46", "#ddf4ff")
		for _, t := range st.Log {
			if t >= a.From && t <= a.To {
				b = append(b, 'M')
				b = appendF(b, a.X(t))
				b = append(b, " 2v7"...)
			}
		}
	case limiter.KindGCRA:
		if st.TAT > now {
			band = stripRect(a, now, st.TAT, 1, "8", "#fff1e5")
		}
		b = append(b, 'M')
		b = appendF(b, min(max(a.X(st.TAT), 0), laneW))
		b = append(b, " 2V"...)
		b = appendF(b, stripBot)
	}
	v.buf = b
	return band, string(b)
}

// windowLines appends the path of the window boundaries on the axis.
func windowLines(b []byte, st limiter.State, a ui.Axis) []byte {
	if st.Window <= 0 {
		return b
	}
	start := st.WindowStart - (st.WindowStart-a.From)/st.Window*st.Window
	if start > a.From {
		start -= st.Window
	}
	n := 0
	for t := start; t <= a.To && n < 400; t += st.Window {
		if t >= a.From {
			b = append(b, 'M')
			b = appendF(b, a.X(t))
			b = append(b, " 2V"...)
			b = appendF(b, stripBot)
		}
		n++
	}
	return b
}

// stripRect is the band from t0 to t1 at the top of the strip, at least
// minW units wide.
func stripRect(a ui.Axis, t0, t1 sim.Instant, minW float64, height, fill string) app.UI {
	x0, x1 := min(max(a.X(t0), 0), laneW), min(max(a.X(t1), 0), laneW)
	return svgEl("rect", "x", ui.F1(x0), "y", "2", "width", ui.F1(max(x1-x0, minW)), "height", height, "fill", fill)
}

// worstBand marks the worst-case stretch, when it is on the axis, up to now
// while its window is still open.
func worstBand(id string, a ui.Axis, wc sim.WorstCase, now sim.Instant) app.UI {
	wx0, wx1 := a.X(wc.Start), a.X(min(wc.End, now))
	if wc.Units <= 0 || wx1 < 0 || wx0 > laneW {
		return nil
	}
	return svgEl("rect", "id", id+"-worst-band", "x", ui.F1(max(wx0, 0)), "y", "10", "width", ui.F1(max(min(wx1, laneW)-max(wx0, 0), 2)),
		"height", "40", "fill", "#fff8c5", "stroke", "#d4a72c", "stroke-width", "1.5", "rx", "3")
}

func appendF(b []byte, x float64) []byte {
	return strconv.AppendFloat(b, math.Round(x*10)/10, 'f', -1, 64)
}

// focusAfterLaneAction keeps the keyboard's place after a lane button: ↑
// and ↓ follow the lane they moved, ✕ goes to the next lane's ✕ (or the
// one before, or "+ Add a lane…" when none is left), Dup that reaches the
// lane limit to the lane's strategy, so that the focus never falls back to
// the page's start. n is the number of lanes after
// the action. It focuses at once: the lane editors are drawn by index, so
// the button focused now is the one the new lane at that index gets, and
// only the last editor's buttons leave the page.
func focusAfterLaneAction(i, n int, act string) {
	lane := func(j int, b string) string { return "lane-" + strconv.Itoa(j) + "-" + b }
	var ids []string
	switch act {
	case "up":
		ids = []string{lane(i-1, "up"), lane(i-1, "down")}
	case "down":
		ids = []string{lane(i+1, "down"), lane(i+1, "up")}
	case "dup":
		if n >= sim.MaxLanes { // Dup is disabled at the limit, and would drop the focus
			ids = []string{lane(i, "kind")} // not its ✕: one Enter too many would remove the lane
		}
	case "remove":
		switch {
		case i < n:
			ids = []string{lane(i, "remove")}
		case n > 0:
			ids = []string{lane(n-1, "remove")}
		default:
			ids = []string{"add-lane"}
		}
	}
	browser.FocusFirst(ids...)
}

// laneEditor is one lane's strategy and parameters, with the buttons that
// move, duplicate and remove it. It redraws only when its spec or messages
// change.
type laneEditor struct {
	app.Compo
	M    *labModel
	I, N int
	Spec sim.LaneSpec
	// TierOf gives each client's tier, for the lane's Go code.
	TierOf map[string]string
	Err    string

	sliders []ui.SliderPos
	moved   ui.SliderMemory
}

func (e *laneEditor) OnMount(ctx app.Context)  { ui.SyncSliders(ctx, e.sliders) }
func (e *laneEditor) OnUpdate(ctx app.Context) { ui.SyncSliders(ctx, e.sliders) }

// param is the field of the lane's parameter which (0 or 1), lp, in config
// c.
func (e *laneEditor) param(which int, lp laneParam, c limiter.Config) app.UI {
	m, i := e.M, e.I
	return ui.ParamField{P: lp.Param, Value: lp.get(c), Errs: m.errs, Moved: &e.moved, Sliders: &e.sliders, Compact: true,
		OnValue: func(ctx app.Context, v float64) { m.setLaneParam(i, which, v) },
		OnError: func(ctx app.Context, err error) { m.setErr(lp.ID, err); m.changed() },
	}.UI()
}

func (e *laneEditor) Render() app.UI {
	m, i := e.M, e.I
	id := "lane-" + strconv.Itoa(i)
	c := e.Spec.Config
	e.sliders = e.sliders[:0]
	var kinds []app.UI
	for _, k := range limiter.Kinds {
		kinds = append(kinds, ui.BoolAttr(app.Elem("option").Attr("value", string(k)), "selected", k == c.Kind).Text(k.Name()))
	}
	btn := func(act, label, title string, disabled bool) app.UI {
		return ui.BoolAttr(app.Elem("button").ID(id+"-"+act).Class("btn icon").Title(title).Attr("aria-label", title), "disabled", disabled).Text(label).
			OnClick(func(ctx app.Context, ev app.Event) {
				m.laneAction(i, act)
				focusAfterLaneAction(i, len(m.lab.Lanes()), act)
			}, id, act)
	}
	ps := laneParams(i, c.Kind)
	presets := presetsOf(c)
	var tiers []app.UI
	for _, name := range slices.Sorted(maps.Keys(e.Spec.Tiers)) { // a stable order: no churn per frame
		tiers = append(tiers, app.Elem("div").ID(id+"-tier-"+name).Class("small mono").Text("tier "+name+": "+explain.ConfigText(e.Spec.Tiers[name])))
	}
	return app.Elem("div").Class("lane-editor").Body(
		app.Elem("div").Class("row tight").Body(
			app.Elem("span").Class("lane-num").Text("#"+strconv.Itoa(i+1)),
			app.Elem("select").ID(id+"-kind").Class("select kind").Attr("aria-label", "Strategy of lane "+strconv.Itoa(i+1)).Body(kinds...).
				OnChange(func(ctx app.Context, ev app.Event) {
					m.setLaneKind(i, limiter.Kind(browser.FieldText(ctx.JSSrc())))
				}, id),
			app.Elem("span").Class("lane-btns").Body( // wrap together, never one by one
				btn("up", "↑", "Move lane up", i == 0),
				btn("down", "↓", "Move lane down", i == e.N-1),
				btn("dup", "Dup", "Dup: duplicate lane", e.N >= sim.MaxLanes),
				btn("remove", "✕", "Remove lane", false),
			),
		),
		app.Elem("div").ID(id+"-config").Class("lane-config mono small").Text(explain.ConfigText(c)),
		e.param(0, ps[0], c),
		e.param(1, ps[1], c),
		ui.ErrorLine(m.errs, id+"-kind"),
		app.If(len(tiers) > 0, app.Elem("div").Body(tiers...)),
		app.If(len(presets) > 0, presetNote(id, presets)),
		&ui.GoCode{ID: id + "-go", Setup: explain.GoSetup{From: "lane " + strconv.Itoa(i+1) + " of the comparison lab", Config: c, Tiers: e.Spec.Tiers, TierOf: e.TierOf}},
	)
}

// presetNote names the presets a lane's limits are, with their sources and
// notes. Several share one lane when they differ only outside it (the lab
// does not know which of them was picked): each is named.
func presetNote(id string, ps []sim.Preset) app.UI {
	if len(ps) == 0 {
		return nil // not drawn (app.If)
	}
	names := make([]string, len(ps))
	body := []app.UI{nil}
	for i, p := range ps {
		names[i] = p.Name
		note := p.Note
		if len(ps) > 1 {
			note = p.Name + ": " + note
		}
		body = append(body,
			app.Elem("p").Class("small").Body(app.Text("Source: "), app.Elem("a").Attr("href", p.Source).Attr("target", "_blank").Attr("rel", "noopener").Text(p.Source)),
			app.Elem("p").Class("small").Text(note))
		if i > 0 && p.Source == ps[i-1].Source {
			body = append(body[:len(body)-2], body[len(body)-1]) // one source line is enough
		}
	}
	summary := "Preset: " + names[0]
	if len(ps) > 1 {
		summary = "Preset: " + strings.Join(names, ", or ") + " (the same lane: the same decisions)"
	}
	body[0] = app.Elem("summary").Text(summary)
	return app.Elem("details").ID(id + "-preset").Class("preset-note").Body(body...)
}

// totalsSnap is the per-client table, refreshed a few times a second.
type totalsSnap struct {
	Lanes   []string
	Totals  []sim.Counts
	Rows    []totalsRow
	Top     []totalsTop
	Clients int
}

// totalsTop is the client a lane throttles most ("" for nobody) and what
// follows its name (": 3 of 5 denied", or "nobody denied").
type totalsTop struct {
	Client, Text string
}

type totalsRow struct {
	Client string
	Cells  []sim.Counts
}

// maxTotalsRows is how many clients the table lists (a trace has
// thousands): those denied most, across lanes.
const maxTotalsRows = 10

func snapTotals(l *sim.Lab) *totalsSnap {
	names := l.Clients()
	s := &totalsSnap{Clients: len(names)}
	lanes := l.Lanes()
	for i, ln := range lanes {
		s.Lanes = append(s.Lanes, "#"+strconv.Itoa(i+1)+" "+ln.Spec().Config.Kind.Name())
		s.Totals = append(s.Totals, ln.Total())
	}
	// One pass over the clients by index (a trace may bring 200,000 of
	// them), keeping the most denied in order, and each lane's most denied.
	best := make([]scoredClient, 0, maxTotalsRows+1)
	topDenied := make([]int64, len(lanes))
	top := make([]int, len(lanes))
	for i := range top {
		top[i] = -1
	}
	for id := range names {
		sc := scoredClient{id: id}
		for i, ln := range lanes {
			c := ln.ClientAt(id)
			sc.denied += c.Denied
			sc.total += c.Allowed + c.Denied
			if c.Denied > topDenied[i] {
				topDenied[i], top[i] = c.Denied, id
			}
		}
		best = keepBest(best, sc, names)
	}
	for _, b := range best {
		row := totalsRow{Client: names[b.id]}
		for _, ln := range lanes {
			row.Cells = append(row.Cells, ln.ClientAt(b.id))
		}
		s.Rows = append(s.Rows, row)
	}
	for i := range lanes {
		s.Top = append(s.Top, topOf(lanes[i], names, top[i]))
	}
	return s
}

// scoredClient is a client's denied and total requests over every lane.
type scoredClient struct {
	id            int
	denied, total int64
}

// before reports whether a ranks before b in the totals: more denied, then
// busier, then first by name.
func (a scoredClient) before(b scoredClient, names []string) bool {
	if a.denied != b.denied {
		return a.denied > b.denied
	}
	if a.total != b.total {
		return a.total > b.total
	}
	return names[a.id] < names[b.id]
}

// keepBest inserts sc into best, which stays in order and at most
// maxTotalsRows long.
func keepBest(best []scoredClient, sc scoredClient, names []string) []scoredClient {
	if len(best) == maxTotalsRows && !sc.before(best[len(best)-1], names) {
		return best
	}
	k := len(best)
	for k > 0 && sc.before(best[k-1], names) {
		k--
	}
	best = slices.Insert(best, k, sc)
	if len(best) > maxTotalsRows {
		best = best[:maxTotalsRows]
	}
	return best
}

// topOf is the "throttles most" cell of a lane whose most denied client is
// id (-1: none denied).
func topOf(ln *sim.Lane, names []string, id int) totalsTop {
	if id < 0 {
		return totalsTop{Text: "nobody denied"}
	}
	c := ln.ClientAt(id)
	return totalsTop{names[id], ": " + strconv.FormatInt(c.Denied, 10) + " of " + strconv.FormatInt(c.Allowed+c.Denied, 10) + " denied"}
}

// labTotals is the per-client totals table: which clients each strategy
// throttles most.
type labTotals struct {
	app.Compo
	M    *labModel
	Snap *totalsSnap
}

func (t *labTotals) Render() app.UI {
	s := t.Snap
	if s == nil {
		return app.Elem("section").Class("card totals")
	}
	cell := func(c sim.Counts) app.UI {
		return app.Elem("td").Class("num-cell").Body(
			app.Elem("span").Class("ok").Text(strconv.FormatInt(c.Allowed, 10)),
			app.Elem("span").Class("sep").Text(" / "),
			app.Elem("span").Class("no").Text(strconv.FormatInt(c.Denied, 10)),
		)
	}
	head := []app.UI{app.Elem("th").Text("client")}
	for _, n := range s.Lanes {
		head = append(head, app.Elem("th").Text(n))
	}
	total := []app.UI{app.Elem("th").Text("all " + units.Plural(s.Clients, "client"))}
	for _, c := range s.Totals {
		total = append(total, cell(c))
	}
	// A trace's client names may be of any length (an IPv6 address has up
	// to 45 characters, a file anything): each is cut with an ellipsis
	// (web/app.css) and whole in its title, so a long one does not widen
	// the table beyond a phone's screen.
	name := func(n string) app.UI { return clientLink(t.M, n) }
	top := []app.UI{app.Elem("th").Text("throttles most")}
	for _, x := range s.Top {
		if x.Client == "" {
			top = append(top, app.Elem("td").Class("small").Text(x.Text))
		} else {
			top = append(top, app.Elem("td").Class("small").Body(name(x.Client), app.Text(x.Text)))
		}
	}
	rows := []app.UI{app.Elem("tr").Class("total").Body(total...), app.Elem("tr").Class("top").Body(top...)}
	for _, r := range s.Rows {
		tds := []app.UI{app.Elem("th").Class("mono").Body(name(r.Client))}
		for _, c := range r.Cells {
			tds = append(tds, cell(c))
		}
		rows = append(rows, app.Elem("tr").Body(tds...))
	}
	more := ""
	if s.Clients > len(s.Rows) {
		more = " (the " + strconv.Itoa(len(s.Rows)) + " denied most of " + strconv.Itoa(s.Clients) + ")"
	}
	return app.Elem("section").Class("card totals").Attr("aria-label", "Per-client totals").Body(
		app.Elem("h2").Text("Per-client totals: allowed / denied"+more),
		// Focusable, so that the keyboard can scroll to the columns that a
		// narrow screen or six lanes push out of view.
		app.Elem("div").ID("totals-wrap").Class("table-wrap").TabIndex(0).Attr("role", "region").Attr("aria-label", "Per-client totals, scrollable").Body(
			app.Elem("table").ID("totals").Body(app.Elem("thead").Body(app.Elem("tr").Body(head...)), app.Elem("tbody").Body(rows...)),
		),
	)
}
