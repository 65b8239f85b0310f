package lab

import (
	"errors"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
)

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
