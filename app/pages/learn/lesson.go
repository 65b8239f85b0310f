package learn

import (
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
)

// lessonFrame is the period of a playing lesson's animation loop.
const lessonFrame = 50 * time.Millisecond

// lessonView is one open lesson: its texts, the run (lane strips of ✓ / ✕
// marks for a lab lesson, the result table otherwise), the check, and the
// inspector for a selected request.
type lessonView struct {
	app.Compo
	ID string
	// Start is where the link opened the lesson's clock; applied once per
	// link (started holds the one applied).
	Start lessonStart

	started lessonStart
	race    raceState
	win     ui.TimeWindow // the pictures' time axis (zoom.go)
	cardW   float64       // the card's content width in px, 0 until measured (picfit.go)
	winFor  string        // the lesson win is for
	run     *lessonRun
	loop    ui.Frames
	scrub   ui.RangeValue         // the timeline's value, set past go-app's attribute order
	sel     struct{ lane, k int } // selected mark, k < 0 for none
	stop    map[int]int           // each lane's one mark in the Tab order (roving tab stop); 0 when unset
	selExp  explain.Explanation
	selErr  string
}

func (v *lessonView) ensure() *lessonRun {
	if v.run == nil || v.run.lesson.ID != v.ID {
		l, _ := explain.LessonByID(v.ID)
		v.run = newLessonRun(l)
		v.sel.k = -1
		v.stop = nil
		v.selErr = ""
		v.started = lessonStart{}
	}
	if v.Start.set && v.Start != v.started {
		v.started = v.Start
		v.run.seek(v.Start.at)
		if v.Start.play && !v.run.clock.Ended() {
			v.run.clock.Play()
		}
		v.sel.k = -1
	}
	return v.run
}

func (v *lessonView) OnMount(ctx app.Context) {
	v.ensure()
	if !app.IsClient {
		return
	}
	browser.InstallKeyGuard()
	browser.InstallWheelGuard()
	v.loop.Start(ctx, v, lessonFrame, v.frame)
	// Measured once the card is in the document, then drawn again for it.
	ctx.Defer(func(c app.Context) { c.Dispatch(func(app.Context) { v.measure() }) })
	ctx.Defer(func(app.Context) { showLesson() })
}

// showLesson scrolls the lesson card to the top of the window when it
// starts below the window's first 60 %: on a narrow screen the card stands
// under the list of lessons, a screen or more down, and a link to a lesson
// (a teacher's "link to this instant") should open on the lesson itself.
// Beside the list, on a wide screen, it is already in view.
func showLesson() {
	if top, _, ok := browser.Box("lesson"); ok && top > 0.6*browser.InnerHeight() {
		browser.ScrollToTop("lesson")
	}
}

// frame moves a playing lesson by the real time elapsed (clamped:
// background tabs throttle timers).
func (v *lessonView) frame(ctx app.Context, _ time.Time, dt time.Duration) bool {
	r := v.ensure()
	v.scrub.Sync("lesson-scrub", r.clock.ScrubValue())
	return r.tick(min(dt, 200*time.Millisecond))
}

func (v *lessonView) onRun(ctx app.Context, e app.Event) {
	r := v.ensure()
	r.start()
	v.loop.Resync()
	v.sel.k = -1
	v.stop = nil // the new run's marks start at their first
	ctx.Defer(func(app.Context) { showPlayer() })
}

// showPlayer scrolls the lesson's clock to the top of the window when what
// it plays does not show whole under it: the lanes, pictures and check
// come after the lesson's texts, below the first screen at 1024×768, and
// Run seemed to change only its own label and the clock.
func showPlayer() {
	top, _, ok := browser.Box("lesson-player")
	_, bottom, _ := browser.Box("lesson")
	if ok && (top <= 0 || bottom > browser.InnerHeight()) {
		browser.ScrollToTop("lesson-player")
	}
}

func (v *lessonView) onSkip(ctx app.Context, e app.Event) { v.ensure().finish() }

// onPause pauses a playing lesson, or plays it from where it is. It is
// disabled once the lesson has ended: "↻ Run it again" starts it over.
func (v *lessonView) onPause(ctx app.Context, e app.Event) {
	r := v.ensure()
	if r.clock.Playing() {
		r.clock.Pause()
		return
	}
	if r.clock.Ended() {
		return
	}
	r.clock.Play()
	r.sync()
	v.loop.Resync()
}

// moved follows a move of the clock by a control: a selected mark that is
// no longer decided is let go.
func (v *lessonView) moved() {
	r := v.run
	if v.sel.k < 0 || r.lab == nil {
		return
	}
	if v.sel.lane >= len(r.lab.Lanes()) || v.sel.k >= len(r.lab.Lanes()[v.sel.lane].History(nil)) {
		v.sel.k = -1
	}
}

func (v *lessonView) onStepBack(ctx app.Context, e app.Event) {
	r := v.ensure()
	r.clock.StepBack()
	r.sync()
	v.moved()
}

func (v *lessonView) onStepForward(ctx app.Context, e app.Event) {
	r := v.ensure()
	r.clock.StepForward()
	r.sync()
}

func (v *lessonView) onSpeed(ctx app.Context, e app.Event) {
	x, err := strconv.ParseFloat(browser.FieldText(ctx.JSSrc()), 64)
	if err == nil {
		v.ensure().clock.SetSpeed(x)
	}
}

func (v *lessonView) onScrub(ctx app.Context, e app.Event) {
	x, err := strconv.Atoi(browser.FieldText(ctx.JSSrc()))
	if err != nil {
		return
	}
	r := v.ensure()
	r.clock.SeekScrub(x)
	r.sync()
	v.moved()
}

// announce feeds the live region: the counts while playing, then the check.
func (v *lessonView) announce() (int, string) {
	r := v.ensure()
	seq := r.decisions()
	if r.lab == nil {
		seq = r.rowsKnown()
	}
	if r.done {
		seq = -seq - 1
	}
	return seq, r.announcement()
}

func (v *lessonView) Render() app.UI {
	r := v.ensure()
	l := r.lesson
	return app.Elem("article").ID("lesson").Class("card lesson").DataSet("lesson", l.ID).Body(
		app.Elem("h2").ID("lesson-title").Class("lesson-title").Text("Lesson "+strconv.Itoa(l.Number)+": "+l.Title),
		app.Elem("dl").Class("lesson-texts").Body(
			app.Elem("dt").Text("What to watch"), app.Elem("dd").ID("lesson-watch").Text(l.Watch),
			app.Elem("dt").Text("What it shows"), app.Elem("dd").ID("lesson-shows").Text(l.Shows),
			app.Elem("dt").Text("The interview point"), app.Elem("dd").ID("lesson-interview").Text(l.Interview),
		),
		ui.When(l.ID == explain.DesignLessonID, func() app.UI { return &designView{} }),
		v.controls(),
		app.If(r.err != nil, app.Elem("p").ID("lesson-error").Class("param-error").Role("alert").Text("⚠ "+units.ErrText(r.err))),
		ui.When(r.lab != nil, v.lanes),
		ui.When(r.err == nil, v.pictures),
		ui.When(r.lab == nil && r.played, v.table),
		ui.When(r.done && r.err == nil, v.check),
		ui.When(r.lab != nil && v.sel.k >= 0, v.inspectorUI),
		&ui.Announcer{Source: v.announce},
	)
}

// controls is the lesson's clock, driven like the lab's: run, pause, one
// event back or forward, the end, the speed and the scrubber.
func (v *lessonView) controls() app.UI {
	r := v.run
	c := r.clock
	l := r.lesson
	runText := "▶ Run the lesson"
	if r.played {
		runText = "↻ Run it again"
	}
	state, cls, pause := "ready", "badge", "▶ Play"
	switch {
	case c.Playing():
		state, cls, pause = "playing", "badge run", "⏸ Pause"
	case c.Ended():
		state, cls = "ended", "badge"
	case c.Started():
		state, cls, pause = "paused", "badge pause", "▶ Resume"
	}
	return app.Elem("section").ID("lesson-player").Class("lesson-player").Attr("aria-label", "Lesson clock").Body(
		app.Elem("div").Class("row").Body(
			app.Elem("button").ID("lesson-run").Class("btn primary").Text(runText).OnClick(v.onRun),
			ui.BoolAttr(app.Elem("button").ID("lesson-pause").Class("btn").Attr("aria-pressed", !c.Playing() && c.Started() && !c.Ended()).Text(pause), "disabled", c.Ended()).OnClick(v.onPause),
			ui.BoolAttr(app.Elem("button").ID("lesson-step-back").Class("btn").Title("Pause and go back one event").Text("◀ Step back"), "disabled", !c.Started()).OnClick(v.onStepBack),
			ui.BoolAttr(app.Elem("button").ID("lesson-step").Class("btn").Title("Pause and go forward one event").Text("Step ▶"), "disabled", c.Ended()).OnClick(v.onStepForward),
			ui.BoolAttr(app.Elem("button").ID("lesson-skip").Class("btn").Text("Skip to the end"), "disabled", c.Ended()).OnClick(v.onSkip),
			app.Elem("label").Attr("for", "lesson-speed").Class("inline-label").Text("speed"),
			app.Elem("select").ID("lesson-speed").Class("select").Title("1× plays the whole lesson in 2.5 s").Body(ui.SpeedOptions(c.Speed())...).OnChange(v.onSpeed),
		),
		app.Elem("div").Class("row").Body(
			app.Elem("span").ID("lesson-clock").Class("mono clock").Text("t = "+lessonTime(r.now(), l.Until)+" of "+lessonTime(l.Until, l.Until)),
			app.Elem("span").ID("lesson-clock-state").Class(cls).Text(state),
			app.Elem("span").ID("lesson-event").Class("hint").Text("event "+strconv.Itoa(c.Event())+" of "+strconv.Itoa(c.Events())),
		),
		app.Elem("div").Class("row scrub-row").Body(
			app.Elem("label").Attr("for", "lesson-scrub").Class("inline-label").Text("timeline"),
			app.ElemSelfClosing("input").Attr("type", "range").ID("lesson-scrub").Attr("min", 0).Attr("max", scrubSteps).Attr("step", 1).
				Attr("value", c.ScrubValue()).Attr("aria-label", "Lesson timeline: show the lesson as it was at this instant").
				Attr("aria-valuetext", "t = "+lessonTime(r.now(), l.Until)).OnInput(v.onScrub),
			app.Elem("a").ID("lesson-link-here").Class("hint").Attr("href", v.hereLink()).Text("link to this instant (opens paused)"),
		),
	)
}

// hereLink is the address of the lesson paused at the clock's instant.
func (v *lessonView) hereLink() string {
	return "/learn?" + lessonQuery(v.run.lesson.ID, v.run.now())
}

// lessonTime writes an instant of a lesson to two decimals of the unit the
// lesson's length is counted in: "1.20 s", or "2.40 µs" for the 30 µs lock
// lesson, where seconds would all read 0.00 s.
func lessonTime(t, until sim.Instant) string {
	if until < time.Millisecond {
		return strconv.FormatFloat(float64(t)/float64(time.Microsecond), 'f', 2, 64) + " µs"
	}
	return units.TwoDecimals(t)
}

func (v *lessonView) check() app.UI {
	r := v.run
	cls, head := "check pass", "✓ Check passed: this is what you should have seen"
	if !r.ok {
		cls, head = "check fail", "✕ Check failed: this is not what the lesson expects"
	}
	return app.Elem("section").ID("lesson-check").Class(cls).DataSet("ok", r.ok).Attr("aria-label", "What you should have seen").Body(
		app.Elem("p").ID("lesson-check-head").Class("check-head").Text(head),
		app.Elem("p").ID("lesson-check-msg").Text(r.msg),
	)
}

// lanes draws each lane of the lab as a strip of request marks, in order,
// with a label at each second; the marks are buttons for the inspector.
func (v *lessonView) lanes() app.UI {
	r := v.run
	lanes := r.lab.Lanes()
	return app.Elem("div").ID("lesson-lanes").Class("lesson-lanes").
		OnClick(v.onMark).OnKeyDown(v.onMarkKey).Body(
		app.Elem("div").Class("legend").Body(
			app.Elem("span").Class("key ok").Text("✓ allowed (circle)"),
			app.Elem("span").Class("key no").Text("✕ denied (square)"),
			app.Elem("span").Class("hint").Text("Click a mark, or Tab to a lane's marks, move with ← →, Home, End, and press Enter, to see why."),
		),
		app.Range(lanes).Slice(func(i int) app.UI {
			return v.laneStrip(i, lanes[i])
		}),
	)
}

func (v *lessonView) laneStrip(i int, ln *sim.Lane) app.UI {
	r := v.run
	spec := ln.Spec()
	tot := ln.Total()
	hist := ln.History(nil)
	shaping := i < len(r.lesson.Shaping) && r.lesson.Shaping[i]
	title := explain.ConfigText(spec.Config)
	if i < len(r.lesson.Shaping) {
		if shaping {
			title += " · as a queue (nginx without nodelay)"
		} else {
			title += " · as a meter (nginx nodelay)"
		}
	}
	stop := v.stop[i]
	if stop >= len(hist) {
		stop = 0 // a run that replaced the marks
	}
	marks := make([]app.UI, 0, len(hist)+8)
	sec := time.Duration(-1)
	for k, rec := range hist {
		if s := rec.At.Truncate(time.Second); s != sec {
			sec = s
			marks = append(marks, app.Elem("span").Class("sec").Attr("aria-hidden", true).Text(secondLabel(hist[k:], r.lesson.Until)))
		}
		cls, sym := "mark ok", "✓"
		if !rec.Allowed {
			cls, sym = "mark no", "✕"
		}
		if v.sel.lane == i && v.sel.k == k {
			cls += " sel"
		}
		tab := -1 // one Tab stop per lane; the arrows move within it
		if k == stop {
			tab = 0
		}
		rec = r.shown(i, rec)
		marks = append(marks, app.Elem("span").ID("mark-"+strconv.Itoa(i)+"-"+strconv.Itoa(k)).Class(cls).
			Role("button").TabIndex(tab).DataSet("keys", "ArrowLeft ArrowRight Home End").Attr("aria-label", markLabel(k, rec)).Title(markLabel(k, rec)).
			DataSet("lane", i).DataSet("k", k).Text(sym))
	}
	wc := ln.Worst()
	return app.Elem("section").ID("lstrip-"+strconv.Itoa(i)).Class("lstrip").Attr("aria-label", "Lane "+strconv.Itoa(i+1)+": "+title).Body(
		app.Elem("div").Class("lstrip-head").Body(
			app.Elem("span").Class("lane-num").Text(strconv.Itoa(i+1)),
			app.Elem("span").Class("lstrip-title").Text(title),
			app.Elem("span").Class("lstrip-counts").Body(
				app.Elem("span").ID("lstrip-"+strconv.Itoa(i)+"-allowed").Class("ok").Text("✓ "+strconv.FormatInt(tot.Allowed, 10)+" allowed"),
				app.Elem("span").ID("lstrip-"+strconv.Itoa(i)+"-denied").Class("no").Text("✕ "+strconv.FormatInt(tot.Denied, 10)+" denied"),
				app.Elem("span").ID("lstrip-"+strconv.Itoa(i)+"-worst").Class("hint").Text("busiest "+wcLen(r.lesson)+": "+strconv.FormatInt(wc.Units, 10)),
			),
		),
		app.Elem("div").Class("marks").Body(marks...),
	)
}

// secondLabel labels the marks of one second of a lane, those of hist
// (from the second's first request on) in the same whole second: the
// instant they share when they are one burst ("0.90 s", as the lesson
// says its requests are sent), or the second they fall in ("1–2 s"). A
// bare "0 s" read as the instant of a burst sent at 0.9 s.
func secondLabel(hist []sim.Record, until sim.Instant) string {
	sec := hist[0].At.Truncate(time.Second)
	for _, r := range hist[1:] {
		if r.At.Truncate(time.Second) != sec {
			break
		}
		if r.At != hist[0].At {
			return units.FormatSecs(sec) + "–" + units.FormatSecs(sec+time.Second) + " s"
		}
	}
	return lessonTime(hist[0].At, until)
}

// wcLen is the worst-case window of a lab lesson: "1 s".
func wcLen(l explain.Lesson) string {
	if l.Setup == nil || l.Setup.Worst <= 0 {
		return "1 s"
	}
	return units.FormatWindow(l.Setup.Worst)
}

// markAt reads the mark an event's target is on, if any.
func markAt(e app.Event) (lane, k int, ok bool) {
	t := e.Get("target")
	if !t.Truthy() {
		return 0, 0, false
	}
	ds := t.Get("dataset")
	if !ds.Truthy() || !ds.Get("k").Truthy() {
		return 0, 0, false
	}
	lane, err1 := strconv.Atoi(ds.Get("lane").String())
	k, err2 := strconv.Atoi(ds.Get("k").String())
	return lane, k, err1 == nil && err2 == nil
}

func (v *lessonView) onMark(ctx app.Context, e app.Event) {
	lane, k, ok := markAt(e)
	if !ok {
		return
	}
	v.selectMark(ctx, lane, k)
}

// onMarkKey handles the keys on a mark. Keys it ignores still re-render
// the lessons (cheap, at a person's pace): go-app v9.8.0 keeps a
// ctx.PreventUpdate() made in an event handler until the component's next
// Update-mode dispatch, so the next event that should redraw (Enter on a
// mark after a Shift, or after ← on the first mark) was not drawn. The
// lab's strip handlers do the same.
func (v *lessonView) onMarkKey(ctx app.Context, e app.Event) {
	key := e.Get("key").String()
	lane, k, ok := markAt(e)
	switch {
	case ok && (key == "Enter" || key == " "):
		e.PreventDefault()
		v.selectMark(ctx, lane, k)
	case ok && (key == "ArrowLeft" || key == "ArrowRight" || key == "Home" || key == "End"):
		e.PreventDefault()
		to, found := markKeyTarget(e.Get("target"), key)
		if !found {
			return
		}
		v.setStop(lane, to)
		// At once, not deferred: the mark is there, and keys pressed
		// before the next frame must reach it.
		browser.FocusFirst("mark-" + strconv.Itoa(lane) + "-" + strconv.Itoa(to))
	case key == "Escape" && v.sel.k >= 0:
		v.closeInspector(ctx)
	}
}

// markKeyTarget finds the mark that key moves to from the mark t, within
// t's lane: the previous or next one (the second labels between them are
// skipped), or the first or last.
func markKeyTarget(t app.Value, key string) (int, bool) {
	var n app.Value
	switch key {
	case "ArrowLeft", "ArrowRight":
		dir := "previousElementSibling"
		if key == "ArrowRight" {
			dir = "nextElementSibling"
		}
		for n = t.Get(dir); n.Truthy() && !n.Get("dataset").Get("k").Truthy(); n = n.Get(dir) {
		}
	default:
		all := t.Get("parentElement").Call("querySelectorAll", "[data-k]")
		if all.Length() == 0 {
			return 0, false
		}
		n = all.Index(0)
		if key == "End" {
			n = all.Index(all.Length() - 1)
		}
	}
	if !n.Truthy() {
		return 0, false
	}
	k, err := strconv.Atoi(n.Get("dataset").Get("k").String())
	return k, err == nil
}

// setStop makes mark k lane's Tab stop.
func (v *lessonView) setStop(lane, k int) {
	if v.stop == nil {
		v.stop = map[int]int{}
	}
	v.stop[lane] = k
}

func (v *lessonView) selectMark(ctx app.Context, lane, k int) {
	v.sel.lane, v.sel.k = lane, k
	v.setStop(lane, k)
	exp, _, err := v.run.explainMark(lane, k)
	v.selExp, v.selErr = exp, units.ErrText(err)
	ctx.Defer(func(app.Context) {
		if el := browser.ByID("insp-title"); el.Truthy() {
			el.Call("scrollIntoView", map[string]any{"block": "nearest"})
		}
	})
}

// closeInspector closes the panel and puts the focus back on its mark. At
// once: ctx may be the panel's own, which is gone (with its deferred calls)
// by the next frame, and the mark stays.
func (v *lessonView) closeInspector(ctx app.Context) {
	id := "mark-" + strconv.Itoa(v.sel.lane) + "-" + strconv.Itoa(v.sel.k)
	v.sel.k = -1
	browser.FocusFirst(id)
}

func (v *lessonView) inspectorUI() app.UI {
	if v.selErr != "" {
		return app.Elem("p").ID("inspector").Class("param-error").Role("alert").Text("⚠ " + v.selErr)
	}
	hist := v.run.lab.Lanes()[v.sel.lane].History(nil)
	heading := "Why: lane " + strconv.Itoa(v.sel.lane+1) + ", " + markLabel(v.sel.k, v.run.shown(v.sel.lane, hist[v.sel.k]))
	return &ui.Inspector{Key: strconv.Itoa(v.sel.lane) + "/" + strconv.Itoa(v.sel.k), Heading: heading, Exp: v.selExp,
		OnClose: v.closeInspector}
}

// table draws an own-simulation lesson's result: the rows known at the
// clock's instant, and at the end its facts. A lesson drawn as a picture
// keeps its table, folded, for the exact numbers.
func (v *lessonView) table() app.UI {
	r := v.run
	res := r.full
	rows := res.Rows[:r.rowsKnown()]
	tbl := app.Elem("div").Class("table-wrap result-wrap").TabIndex(0).Attr("aria-label", "Lesson table, scrollable").Body(
		app.Elem("table").ID("lesson-table").Class("result-table").Body(
			app.Elem("thead").Body(app.Elem("tr").Body(
				app.Range(res.Columns).Slice(func(i int) app.UI { return app.Elem("th").Attr("scope", "col").Text(res.Columns[i]) }),
			)),
			app.Elem("tbody").Body(
				app.Range(rows).Slice(func(i int) app.UI {
					row := rows[i]
					return app.Elem("tr").Body(app.Range(row).Slice(func(j int) app.UI {
						c := row[j]
						return app.Elem("td").Class(cellClass(c)).Text(cellText(c))
					}))
				}),
			),
		),
	)
	var shown app.UI = tbl
	if id := r.lesson.ID; id == lessonClockID || id == lessonLocksID {
		shown = app.Elem("details").ID("lesson-table-box").Body(
			app.Elem("summary").Text("The table: "+strconv.Itoa(len(rows))+" of "+strconv.Itoa(len(res.Rows))+" rows so far"), tbl)
	}
	return app.Elem("div").ID("lesson-result").Class("lesson-result").Body(
		app.If(r.done, app.Elem("ul").ID("lesson-facts").Class("facts").Body(
			app.Range(res.Facts).Slice(func(i int) app.UI { return app.Elem("li").Text(res.Facts[i].Text) }),
		)),
		shown,
	)
}

// cellClass and cellText tell allowed and denied cells by symbol as well as
// colour: "allowed, …" and the design lesson's "200 (…", "denied, …" and
// "429 (…".
func cellClass(c string) string {
	switch {
	case strings.HasPrefix(c, "allowed"), strings.HasPrefix(c, "200 ("):
		return "ok"
	case strings.HasPrefix(c, "denied"), strings.HasPrefix(c, "429 ("):
		return "no"
	}
	return ""
}

func cellText(c string) string {
	switch cellClass(c) {
	case "ok":
		return "✓ " + c
	case "no":
		return "✕ " + c
	}
	return c
}
