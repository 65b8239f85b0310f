package learn

import (
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// Lessons with a picture, by ID: the picture is drawn at the lesson
// clock's instant.
const (
	lessonClockID = "monotonic-clock"
	lessonLocksID = "lock-design"
	lessonQueueID = "queue-vs-meter"
)

func (v *lessonView) pictures() app.UI {
	switch v.run.lesson.ID {
	case lessonClockID:
		return v.clockPicture()
	case lessonLocksID:
		return app.Elem("div").Body(v.lockPicture(), v.raceStepper())
	case lessonQueueID:
		return v.queuePicture()
	}
	return app.If(false, nil)
}

// picBox holds a picture that does not zoom; it is drawn for the card's
// width (picGeom), so it fits.
func picBox(svg app.UI) app.UI {
	return app.Elem("div").Class("pic-fit").Body(svg)
}

// svgText is an SVG text at (x, y).
func svgText(x, y float64, anchor, cls, text string) app.UI {
	return ui.SVG("text").Attr("x", ui.F1(x)).Attr("y", ui.F1(y)).Attr("text-anchor", anchor).Attr("data-c", cls).Text(text)
}

func svgLine(x1, y1, x2, y2 float64, cls string) app.UI {
	return ui.SVG("line").Attr("x1", ui.F1(x1)).Attr("y1", ui.F1(y1)).Attr("x2", ui.F1(x2)).Attr("y2", ui.F1(y2)).Attr("data-c", cls)
}

// cursor is the lesson clock's instant drawn as a vertical line from y0 to
// y1 (none before the start, or outside the axis).
func (v *lessonView) cursor(ax ui.Axis, y0, y1 float64) app.UI {
	t := v.run.clock.Now()
	if t < ax.From || t > ax.To {
		return app.If(false, nil)
	}
	return svgLine(ax.X(t), y0, ax.X(t), y1, "pic-now")
}

// secondTicks labels the axis at each whole second (each µs for a lesson
// under a millisecond).
func secondTicks(ax ui.Axis, y float64, step time.Duration, unit string, div time.Duration) []app.UI {
	var out []app.UI
	for t := ax.From; t <= ax.To; t += step {
		out = append(out, svgLine(ax.X(t), y-4, ax.X(t), y+2, "pic-tick"),
			tickLabel(ax, t, y+16, strconv.FormatInt(int64(t/div), 10)+" "+unit))
	}
	return out
}

// tickLabel is an axis label under its tick at t: centred, but a label
// within 24 units of the axis' right end ends at its tick, so that it stays
// inside the picture, whose edge the phone layout puts 16 units past the
// axis (half of "25 µs" in 15-unit text is about 20).
func tickLabel(ax ui.Axis, t limiter.Instant, y float64, text string) app.UI {
	anchor := "middle"
	if ax.X1-ax.X(t) < 24 {
		anchor = "end"
	}
	return svgText(ax.X(t), y, anchor, "pic-label", text)
}

// clockPicture is lesson 3: the monotonic clock and the naive wall-clock
// elapsed time against monotonic time, the wall clock's steps drawn, and
// each lane's decisions under them, in the zoomable window.
func (v *lessonView) clockPicture() app.UI {
	r := v.run
	until := r.lesson.Until
	g := v.geom()
	w := v.window()
	ax := w.Axis(g.Left, g.Right)
	// y: readings from −8 s to 14 s over 20 to 220.
	yOf := func(d time.Duration) float64 { return 220 - (d.Seconds()+8)/22*200 }
	mono := &limiter.ManualClock{}
	wall := &explain.NaiveWallClock{Mono: mono, Start: time.Date(2025, 10, 26, 1, 59, 0, 0, time.UTC), Jumps: explain.ClockLessonJumps}
	reading := func(t sim.Instant) sim.Instant { mono.Set(t); return wall.Now() }
	now := r.clock.Now()
	readings := "Before the start: both clocks read 0."
	if now >= 0 {
		readings = "At t = " + lessonTime(now, until) + " (monotonic): the monotonic clock reads " + units.TwoDecimals(now) +
			"; the naive wall-clock elapsed time reads " + units.TwoDecimals(reading(now)) + "."
	}
	body := []app.UI{
		svgLine(g.Left, yOf(0), g.Right, yOf(0), "pic-axis"),
		svgText(g.Left-8, yOf(0)+4, "end", "pic-label", "0 s"),
		svgText(g.Left-8, yOf(10*time.Second)+4, "end", "pic-label", "10 s"),
		svgText(g.Left-8, yOf(-5*time.Second)+4, "end", "pic-label", "−5 s"),
		svgLine(ax.X(w.From), yOf(w.From), ax.X(w.To), yOf(w.To), "pic-mono"),
		svgText(g.Right-4, yOf(w.To)+18, "end", "pic-label mono-label", "monotonic clock"),
		svgText(g.Left+8, 40, "start", "pic-label wall-label", "wall clock (naive elapsed)"),
	}
	body = append(body, wallLines(g, ax, w, yOf, reading)...)
	body = append(body, windowTicks(g, w, 236)...)
	marks, h := v.clockMarks(g, ax)
	body = append(body, marks...)
	body = append(body, v.cursor(ax, 20, h-4))
	return app.Elem("figure").ID("clock-picture").Class("lesson-picture").Body(
		v.zoomBar(),
		v.zoomBox(ui.SVG("svg").ID("clock-svg").Attr("viewBox", g.viewBox(h)).Attr("role", "img").
			Attr("aria-label", "The two clocks against monotonic time: the wall clock is set back 10 s at 4 s and jumps forward 1 h at 8 s").Body(body...)),
		app.Elem("figcaption").ID("clock-readings").Class("hint").Text(readings),
	)
}

// wallLines draws the naive wall-clock reading within the window: a
// segment between jumps (along the top, dashed, where it is off the
// chart), and each jump as a dotted step with its name.
func wallLines(g picGeom, ax ui.Axis, w ui.TimeWindow, yOf func(time.Duration) float64, reading func(sim.Instant) sim.Instant) []app.UI {
	var out []app.UI
	from := sim.Instant(0)
	for _, j := range append(explain.ClockLessonJumps, explain.Jump{At: w.Hi}) {
		a, b := max(from, w.From), min(j.At, w.To)
		if a < b {
			if y0 := yOf(reading(a)); y0 >= 20 {
				out = append(out, svgLine(ax.X(a), y0, ax.X(b), yOf(reading(b-1)), "pic-wall"))
			} else {
				out = append(out, svgLine(ax.X(a), 24, ax.X(b), 24, "pic-wall off"))
			}
		}
		if j.By != 0 && j.At >= w.From && j.At <= w.To {
			y1, to := min(yOf(reading(j.At-1)), 220), max(yOf(reading(j.At)), 24)
			out = append(out, svgLine(ax.X(j.At), y1, ax.X(j.At), to, "pic-jump"), jumpLabel(g, ax.X(j.At), (y1+to)/2, jumpText(j)))
		}
		from = j.At
	}
	return out
}

// jumpLabel is a wall-clock step's name beside its step at x: to its right
// on one line, or in the phone layout on two lines (its "(off the chart)"
// under it), on the side of the step with more room.
func jumpLabel(g picGeom, x, y float64, text string) app.UI {
	if !g.Narrow {
		return svgText(x+6, y, "start", "pic-label", text)
	}
	anchor, tx := "start", x+6
	if x > (g.Left+g.Right)/2 {
		anchor, tx = "end", x-6
	}
	first, second, two := strings.Cut(text, " (")
	lines := []app.UI{ui.SVG("tspan").Attr("x", ui.F1(tx)).Attr("y", ui.F1(y)).Text(first)}
	if two {
		lines = append(lines, ui.SVG("tspan").Attr("x", ui.F1(tx)).Attr("y", ui.F1(y+18)).Text("("+second))
	}
	return ui.SVG("text").Attr("text-anchor", anchor).Attr("data-c", "pic-label").Body(lines...)
}

// jumpText names a wall-clock step: "set back 10 s at 4 s", "forward 1 h
// at 8 s (off the chart)".
func jumpText(j explain.Jump) string {
	at := " at " + units.Num(j.At.Seconds()) + " s"
	by := units.Num(max(j.By, -j.By).Seconds()) + " s"
	if j.By%time.Hour == 0 {
		by = units.Num(max(j.By, -j.By).Hours()) + " h"
	}
	if j.By < 0 {
		return "set back " + by + at
	}
	return "forward " + by + at + " (off the chart)"
}

// clockMarks draws each lane's decisions known at the clock's instant, in
// two rows under the clocks: ✓ allowed, ✕ denied; each row's name is left
// of it, or above it in the phone layout. It returns the picture's height.
func (v *lessonView) clockMarks(g picGeom, ax ui.Axis) ([]app.UI, float64) {
	r := v.run
	n := r.rowsKnown()
	rowY := [2]float64{270, 294}
	out := []app.UI{
		svgText(g.Left-8, rowY[0], "end", "pic-label", "monotonic lane"),
		svgText(g.Left-8, rowY[1], "end", "pic-label", "wall-clock lane"),
	}
	if g.Narrow {
		rowY = [2]float64{286, 330}
		out = []app.UI{
			svgText(4, rowY[0]-20, "start", "pic-label", "monotonic lane"),
			svgText(4, rowY[1]-20, "start", "pic-label", "wall-clock lane"),
		}
	}
	for i := range n {
		if at := r.full.RowAt[i]; at < ax.From || at > ax.To {
			continue
		}
		x := ax.X(r.full.RowAt[i])
		for lane, col := range []int{3, 4} {
			sym, cls := "✕", "pic-mark no"
			if strings.HasPrefix(r.full.Rows[i][col], "allowed") {
				sym, cls = "✓", "pic-mark ok"
			}
			out = append(out, svgText(x, rowY[lane], "middle", cls, sym))
		}
	}
	return out, rowY[1] + 10
}

// lockWave is the lock lesson's wave at instant t: its start (waves are
// explain.LockWaveGap apart) and the picture's window, the first 5 µs of it. After the
// last wave (the lesson's end) it stays on the last.
func lockWave(t sim.Instant) (from, to sim.Instant, n int) {
	w := min(max(t, 0)/explain.LockWaveGap, explain.LockWaves-1)
	from = w * explain.LockWaveGap
	return from, from + 5*time.Microsecond, int(w) + 1
}

// lockPicture is lesson 5: the two cores over time under one global lock
// and under a lock per key, each decision a bar while it holds its lock,
// and at the clock's instant who holds which lock and who waits.
func (v *lessonView) lockPicture() app.UI {
	t := v.run.clock.Now()
	from, to, wave := lockWave(t)
	g := v.geom()
	ax := ui.Axis{X0: g.Left, X1: g.Right, From: from, To: to}
	b := explain.RecordedLockBench
	reqs := explain.LockRequests()
	design := func(id, title string, perKey bool, hold time.Duration) app.UI {
		slots := explain.LockTimeline(reqs, perKey, b.Cores, hold)
		st := explain.LockAt(slots, perKey, b.Cores, hold, t)
		body := []app.UI{}
		for c := range b.Cores {
			y := 30 + float64(c)*40
			body = append(body, svgText(g.Left-8, y+20, "end", "pic-label", "core "+strconv.Itoa(c+1)),
				svgLine(g.Left, y+34, g.Right, y+34, "pic-axis"))
		}
		for _, s := range slots {
			if s.Start > t || s.Start < from || s.Start >= to {
				continue
			}
			y := 30 + float64(s.Core)*40
			x0, x1 := ax.X(s.Start), ax.X(min(s.Start+hold, to))
			cls := "pic-slot"
			if perKey {
				cls += " key-" + s.Key
			}
			body = append(body, ui.SVG("rect").Attr("data-c", cls).Attr("x", ui.F1(x0)).Attr("y", ui.F1(y+4)).Attr("width", ui.F1(x1-x0-2)).Attr("height", "28"),
				svgText((x0+x1)/2, y+23, "middle", "pic-label slot-label", s.Client))
		}
		body = append(body, secondTicks(ax, 124, time.Microsecond, "µs", time.Microsecond)...)
		body = append(body, v.cursor(ax, 24, 112))
		return app.Elem("div").ID("lock-"+id).Class("lock-design").Body(
			app.Elem("h3").Text(title+" (each decision holds it "+strconv.FormatInt(hold.Nanoseconds(), 10)+" ns)"),
			picBox(ui.SVG("svg").ID("lock-"+id+"-svg").Attr("viewBox", g.viewBox(144)).Attr("role", "img").
				Attr("aria-label", title+": the two cores over the wave's first 5 µs").Body(body...)),
			app.Elem("ul").Class("lock-now").Body(
				app.Elem("li").ID("lock-"+id+"-core-0").Text(st.CoreText(0)),
				app.Elem("li").ID("lock-"+id+"-core-1").Text(st.CoreText(1)),
				app.Elem("li").ID("lock-"+id+"-wait").Text(st.WaitText()),
				app.Elem("li").ID("lock-"+id+"-done").Text(strconv.Itoa(st.Done)+" of "+strconv.Itoa(st.Total)+" decisions done"),
			),
		)
	}
	return app.Elem("figure").ID("lock-picture").Class("lesson-picture").Body(
		app.Elem("figcaption").ID("lock-window").Class("hint").Text("Wave "+strconv.Itoa(wave)+" of "+strconv.Itoa(explain.LockWaves)+": "+lessonTime(from, time.Microsecond)+
			" to "+lessonTime(to, time.Microsecond)+" (its 9 decisions arrive at once, at "+lessonTime(from, time.Microsecond)+")"),
		design("global", "One global lock", false, b.GlobalLock1),
		design("perkey", "A lock per key (limiter.Keyed)", true, b.PerKey1),
	)
}

// queuePicture is lesson 6: in each lane, every admitted request as a bar
// from its arrival to when it leaves (arrival + queue delay; a meter's
// leave at once), one row per request, and who waits at the clock's
// instant.
func (v *lessonView) queuePicture() app.UI {
	r := v.run
	if r.lab == nil {
		return app.If(false, nil)
	}
	until := r.lesson.Until
	g := v.geom()
	w := v.window()
	ax := w.Axis(g.Left, g.Right)
	now := r.clock.Now()
	var lanes []app.UI
	for i, ln := range r.lab.Lanes() {
		var body []app.UI
		row, waiting, longest := 0, 0, time.Duration(0)
		for _, rec := range ln.History(nil) {
			rec = r.shown(i, rec)
			if !rec.Allowed {
				continue
			}
			y := 12 + float64(row)*7
			row++
			if a, b := max(rec.At, w.From), min(rec.At+rec.Delay, w.To); rec.Delay > 0 && a < b {
				body = append(body, svgLine(ax.X(a), y, ax.X(b), y, "pic-wait"))
			}
			if leave := rec.At + rec.Delay; leave >= w.From && leave <= w.To {
				body = append(body, ui.SVG("circle").Attr("data-c", "pic-leave").Attr("cx", ui.F1(ax.X(leave))).Attr("cy", ui.F1(y)).Attr("r", "3"))
			}
			if now < rec.At+rec.Delay {
				waiting++
			}
			longest = max(longest, rec.Delay)
		}
		h := 12 + float64(max(row, 1))*7 + 8
		body = append(body, svgLine(g.Left, h-4, g.Right, h-4, "pic-axis"))
		body = append(body, windowTicks(g, w, h+8)...)
		body = append(body, v.cursor(ax, 4, h))
		title := "lane 1: as a queue (nginx without nodelay)"
		say := "waiting in the queue at t = " + lessonTime(max(now, 0), until) + ": " + units.Plural(waiting, "request") + "; longest wait so far " + units.TwoDecimals(longest)
		if r.meter(i) {
			title = "lane 2: as a meter (nginx nodelay)"
			say = "waiting: none; a meter lets every admitted request pass at once"
		}
		lanes = append(lanes, app.Elem("div").ID("queue-"+strconv.Itoa(i)).Class("queue-lane").Body(
			app.Elem("h3").Text(title),
			v.zoomBox(ui.SVG("svg").ID("queue-"+strconv.Itoa(i)+"-svg").Attr("viewBox", g.viewBox(h+28)).Attr("role", "img").
				Attr("aria-label", title+": each admitted request from its arrival to when it leaves").Body(body...)),
			app.Elem("p").ID("queue-"+strconv.Itoa(i)+"-now").Class("hint").Text(say),
		))
	}
	return app.Elem("figure").ID("queue-picture").Class("lesson-picture").Body(
		v.zoomBar(),
		app.Elem("figcaption").Class("hint").Text("Each admitted request is a row: a line from its arrival to the dot where it leaves the limiter. Without nodelay the burst drains at 10 per second; with nodelay every dot is at its arrival."),
		app.Elem("div").Body(lanes...),
	)
}
