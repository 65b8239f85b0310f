package playground

import (
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// Figure geometry (SVG user units). Each side of the axis has room for
// markRows marks stacked at one instant, clear of the time labels at the
// bottom even at their phone size (24 units, web/app.css).
const (
	figW, figH  = 760.0, 300.0
	axisY       = 150.0
	markStep    = 17.0 // vertical distance between stacked marks
	markRows    = 6    // marks of one instant stack this high; beyond, the last row counts the rest
	bucketL     = 44.0
	bucketR     = 176.0
	bucketTop   = 76.0
	bucketBot   = 234.0
	tbTimelineL = 236.0
	timelineR   = 740.0
)

// autoAxis is the unzoomed timeline: the last 10 s (token bucket) or 1.4
// windows (sliding window log) with now near the right edge.
func (v *view) autoAxis() ui.Axis {
	now := v.Sim.Now()
	if v.Sim.Kind() == limiter.KindTokenBucket {
		span := 10 * time.Second
		return ui.Axis{X0: tbTimelineL, X1: timelineR, From: now - span*19/20, To: now + span/20}
	}
	w := v.state.Window
	return ui.Axis{X0: 24, X1: timelineR, From: now - w*7/5, To: now + w/10}
}

// figure draws the limiter at the current instant, on the timeline's
// window (zoomable: see figZoom).
func (v *view) figure(tb bool) app.UI {
	auto := v.autoAxis()
	w := v.zoom.window(auto, v.Sim.Now())
	a := w.Axis(auto.X0, auto.X1)
	var body []app.UI
	if tb {
		body = append(body, v.bucket(a))
	} else {
		body = append(body, v.window(a))
	}
	body = append(body, v.ticks(a), v.marks(a, tb))
	if tb {
		body = append(body, v.flying(a))
	}
	title := "Token bucket: tokens in the bucket, and each request on a timeline (✓ allowed above the line, ✕ denied below)"
	if !tb {
		title = "Sliding window log: the window slides with the clock; each allowed request is an entry that expires when it leaves the window (✓ allowed above the line, ✕ denied below)"
	}
	return app.Elem("figure").Class("figure").Body(
		v.zoomable(ui.SVG("svg").ID("figure").Attr("viewBox", "0 0 "+ui.F1(figW)+" "+ui.F1(figH)).
			Attr("role", "img").Attr("aria-label", title+"; + and − zoom the timeline, ← and → pan, 0 fits")).Body(
			append([]app.UI{defs(), timelineClip(a)}, body...)...,
		),
		v.zoomBar(w),
		app.Elem("figcaption").Class("legend").Body(
			app.Elem("span").Class("key ok").Text("✓ allowed"),
			app.Elem("span").Class("key no").Text("✕ denied"),
			app.If(!tb, app.Elem("span").Class("key old").Text("◌ expired from the log")),
			app.If(tb, app.Elem("span").Class("key tok").Text("● token leaving the bucket")),
		),
	)
}

// defs holds the request marks, drawn with <use> (one node per mark), and
// the backdrop of their counts.
func defs() app.UI {
	return ui.SVG("defs").Body(
		ui.SVG("g").ID("m-ok").Body(
			ui.SVG("circle").Attr("r", 8).Attr("fill", "#1a7f37"),
			ui.SVG("path").Attr("d", "M-4 0.5 L-1.2 3.3 L4.2 -2.8").Attr("stroke", "#fff").Attr("stroke-width", 2.2).Attr("fill", "none").Attr("stroke-linecap", "round").Attr("stroke-linejoin", "round"),
		),
		ui.SVG("g").ID("m-no").Body(
			ui.SVG("rect").Attr("x", -7.5).Attr("y", -7.5).Attr("width", 15).Attr("height", 15).Attr("rx", 3).Attr("fill", "#cf222e"),
			ui.SVG("path").Attr("d", "M-3.5 -3.5 L3.5 3.5 M3.5 -3.5 L-3.5 3.5").Attr("stroke", "#fff").Attr("stroke-width", 2.2).Attr("stroke-linecap", "round"),
		),
		ui.SVG("g").ID("m-old").Body(
			ui.SVG("circle").Attr("r", 7).Attr("fill", "#fff").Attr("stroke", "#8c959f").Attr("stroke-width", 1.6).Attr("stroke-dasharray", "2.5 2"),
			ui.SVG("path").Attr("d", "M-3.5 0.5 L-1 3 L3.5 -2.5").Attr("stroke", "#8c959f").Attr("stroke-width", 1.8).Attr("fill", "none").Attr("stroke-linecap", "round"),
		),
		// The backdrop of a stack's count ("+20"): an opaque box the size
		// of the text's own box, a little wider, whatever its length and
		// font size (24 units on a phone), so the dashed "now" line does
		// not run through the digits. White, like the panel: the dark
		// theme inverts both.
		ui.SVG("filter").ID("count-bg").Attr("x", "-0.1").Attr("y", "0").Attr("width", "1.2").Attr("height", "1").Body(
			ui.SVG("feFlood").Attr("flood-color", "#fff").Attr("flood-opacity", "1"),
			ui.SVG("feComposite").Attr("in", "SourceGraphic").Attr("operator", "over"),
		),
		ui.SVG("linearGradient").ID("water").Attr("x1", 0).Attr("y1", 0).Attr("x2", 0).Attr("y2", 1).Body(
			ui.SVG("stop").Attr("offset", 0).Attr("stop-color", "#54aeff"),
			ui.SVG("stop").Attr("offset", 1).Attr("stop-color", "#0969da"),
		),
	)
}

// ticks draws the time axis: "now" and whole steps before it (ui.TickStep,
// at most 8 on the window), those in the window. They are fixed relative to
// now; the marks slide under them.
func (v *view) ticks(a ui.Axis) app.UI {
	step := ui.TickStep(a.To-a.From, 8)
	now := v.Sim.Now()
	var ks []limiter.Instant // the ticks' distances before now
	for d := max(now-a.To, 0) / step * step; now-d >= a.From; d += step {
		if now-d <= a.To {
			ks = append(ks, d)
		}
	}
	nowX := ui.F1(min(max(a.X(now), a.X0), a.X1))
	return ui.SVG("g").ID("ticks").Body(
		ui.SVG("line").Attr("x1", a.X0).Attr("x2", a.X1).Attr("y1", axisY).Attr("y2", axisY).Attr("stroke", "#8c959f").Attr("stroke-width", 1.5),
		app.Range(ks).Slice(func(k int) app.UI {
			x := a.X(now - ks[k])
			label := "now"
			if ks[k] > 0 {
				label = "−" + units.FormatAxis(ks[k], step)
			}
			return ui.SVG("g").Body(
				ui.SVG("line").Attr("x1", ui.F1(x)).Attr("x2", ui.F1(x)).Attr("y1", axisY-4).Attr("y2", axisY+4).Attr("stroke", "#8c959f"),
				ui.SVG("text").Attr("x", ui.F1(x)).Attr("y", figH-8).Attr("text-anchor", "middle").Attr("font-size", 11).Attr("fill", "#57606a").Text(label),
			)
		}),
		app.If(a.X(now) <= a.X1, ui.SVG("line").Attr("x1", nowX).Attr("x2", nowX).Attr("y1", 24).Attr("y2", figH-22).Attr("stroke", "#24292f").Attr("stroke-width", 1.2).Attr("stroke-dasharray", "4 3")),
	)
}

// timelineClip is the timeline's area, which clips its marks and window
// (zoomed in, they reach past its edges).
func timelineClip(a ui.Axis) app.UI {
	return ui.SVG("clipPath").ID("timeline-clip").Body(
		ui.SVG("rect").Attr("x", ui.F1(a.X0-10)).Attr("y", 0).Attr("width", ui.F1(a.X1-a.X0+20)).Attr("height", figH),
	)
}

// marks draws each request at its instant: allowed above the axis, denied
// below; requests at one instant, or closer than markGap, stack. A stack is
// at most markRows high: when more requests share it, its last row is a
// count ("+20") instead of a mark, so every request is drawn or counted.
// For the sliding window log, the entries still in the window come from the
// limiter's own log; history only adds the expired entries and the denials.
func (v *view) marks(a ui.Axis, tb bool) app.UI {
	s := v.Sim
	st := markStacks{a: a}
	// First remembered event still on screen.
	i0 := s.Events()
	for i0 > 0 && s.Event(i0-1).At >= a.From {
		i0--
	}
	// The history is in time order: the requests of one instant are
	// consecutive.
	for i := i0; i < s.Events(); {
		t := s.Event(i).At
		if t > a.To {
			break
		}
		var ok, no int
		i, ok, no = v.countAt(i, t)
		switch {
		case tb:
			st.stack("#m-ok", t, ok, true)
		case s.Now()-t >= v.state.Window: // expired from the log
			st.stack("#m-old", t, ok, true)
		} // else still in the log: drawn below from the limiter's state
		st.stack("#m-no", t, no, false)
	}
	if !tb {
		log := v.state.Log
		for i := 0; i < len(log); {
			j := i + 1
			for j < len(log) && log[j] == log[i] {
				j++
			}
			st.stack("#m-ok", log[i], j-i, true)
			i = j
		}
	}
	st.flush()
	return ui.SVG("g").ID("marks").Attr("clip-path", "url(#timeline-clip)").Body(st.uses...)
}

// countAt counts the allowed and denied requests at instant t, from the
// history's index i; it returns the index after them.
func (v *view) countAt(i int, t limiter.Instant) (next, ok, no int) {
	s := v.Sim
	if i == 0 { // the oldest instant may have lost requests to the history's size
		ok, no = s.Forgotten(t)
	}
	for ; i < s.Events() && s.Event(i).At == t; i++ {
		if s.Event(i).Allowed {
			ok++
		} else {
			no++
		}
	}
	return i, ok, no
}

// markStacks draws stacks of marks on the axis a. The stacks of one side
// of the line (allowed above, denied below) closer than markGap units
// make one column: requests a few ms apart (1 ms is 0.05 units unzoomed)
// would otherwise be drawn on one another, and the marks would not add up
// to the counters. Each mark stays at its own instant.
type markStacks struct {
	a    ui.Axis
	uses []app.UI
	// The column being drawn on each side (0 above, 1 below).
	col [2]markColumn
}

// markColumn is the stacks of one column: where it starts (x, and the
// index in uses of its first mark), the rows it has drawn, and the
// requests it has not (the first of them at restX), counted in its last
// row.
type markColumn struct {
	started     bool
	x, restX    float64
	start, rows int
	rest        int
	restID      string
}

// markGap is the distance under which two stacks share a column: about a
// mark's width (the ✓ is 16 units across).
const markGap = 12.0

// stack adds n marks id at instant t, above or below the line, to the
// side's column, or starts a new column there.
func (st *markStacks) stack(id string, t limiter.Instant, n int, above bool) {
	if n <= 0 {
		return
	}
	side := 0
	if !above {
		side = 1
	}
	x := st.a.X(t)
	c := &st.col[side]
	if c.started && x-c.x >= markGap {
		st.flushColumn(side)
	}
	if !c.started {
		*c = markColumn{started: true, x: x, start: len(st.uses)}
	}
	for ; n > 0 && c.rows < markRows-1; n-- {
		st.uses = append(st.uses, ui.SVG("use").Attr("href", id).Attr("x", ui.F1(x)).Attr("y", ui.F1(rowY(c.rows, above))))
		c.rows++
	}
	if n > 0 && c.rest == 0 {
		c.restID, c.restX = id, x
	}
	c.rest += n
}

// flush draws the last row of both sides' columns.
func (st *markStacks) flush() {
	st.flushColumn(0)
	st.flushColumn(1)
}

// flushColumn draws the last row of a side's column, a mark when one
// request is left, the count of the rest ("+20") when more are, and ends
// the column.
func (st *markStacks) flushColumn(side int) {
	c := &st.col[side]
	above := side == 0
	switch {
	case c.rest == 1:
		st.uses = append(st.uses, ui.SVG("use").Attr("href", c.restID).Attr("x", ui.F1(c.restX)).Attr("y", ui.F1(rowY(markRows-1, above))))
	case c.rest > 1:
		// The count before the column's marks: its backdrop (see defs)
		// hides the dashed "now" line behind it, and the marks, drawn
		// after, stay whole where a phone's larger text makes the
		// backdrop reach them.
		count := ui.SVG("text").Attr("x", ui.F1(c.x)).Attr("y", ui.F1(rowY(markRows-1, above))).
			Attr("text-anchor", "middle").Attr("dominant-baseline", "central").
			Attr("font-size", 12).Attr("font-weight", 700).Attr("fill", markColor[c.restID]).
			Attr("filter", "url(#count-bg)").
			Text("+" + strconv.Itoa(c.rest))
		st.uses = slices.Insert(st.uses, c.start, app.UI(count))
		if o := &st.col[1-side]; o.started && o.start >= c.start {
			o.start++
		}
	}
	*c = markColumn{}
}

// rowY is the centre of row k (0 next to the axis) of a stack of marks.
func rowY(k int, above bool) float64 {
	if above {
		return axisY - 18 - float64(k)*markStep
	}
	return axisY + 18 + float64(k)*markStep
}

// markColor is the colour of each mark, for the count of a stack's rest.
var markColor = map[string]string{"#m-ok": "#1a7f37", "#m-no": "#cf222e", "#m-old": "#57606a"}

// bucket draws the token bucket: its fill level (fractional), a line per
// whole token, and the refill tap.
func (v *view) bucket(a ui.Axis) app.UI {
	st := v.state
	burst := float64(max(st.Limit, 1))
	frac := min(max(st.Tokens/burst, 0), 1)
	innerH := bucketBot - bucketTop
	h := frac * innerH
	stroke := "#57606a"
	if time.Now().Before(v.flashUntil) {
		stroke = "#cf222e"
	}
	var lines []app.UI
	if st.Limit <= 25 {
		for k := 1; k < st.Limit; k++ {
			y := bucketBot - float64(k)/burst*innerH
			lines = append(lines, ui.SVG("line").Attr("x1", bucketL).Attr("x2", bucketR).Attr("y1", ui.F1(y)).Attr("y2", ui.F1(y)).
				Attr("stroke", "#0969da").Attr("stroke-opacity", 0.25).Attr("stroke-dasharray", "3 3"))
		}
	}
	full := st.Tokens >= burst
	dropY := bucketTop - 14.0
	if !full && st.Rate > 0 {
		phase := math.Mod(v.Sim.Now().Seconds()*math.Min(st.Rate, 3), 1)
		dropY = 34 + phase*(bucketBot-h-34)
	}
	rate := "refill " + units.Num(math.Round(st.Rate*100)/100) + " token/s"
	if st.Rate != 1 {
		rate = "refill " + units.Num(math.Round(st.Rate*100)/100) + " tokens/s"
	}
	return ui.SVG("g").ID("bucket").Body(
		// tap
		ui.SVG("path").Attr("d", "M14 12 H70 Q76 12 76 18 V30 H66 V22 H14 Z").Attr("fill", "#8c959f"),
		app.If(!full && st.Rate > 0, ui.SVG("circle").Attr("cx", 71).Attr("cy", ui.F1(dropY)).Attr("r", 4).Attr("fill", "#54aeff")),
		ui.SVG("text").Attr("x", 86).Attr("y", 26).Attr("font-size", 12).Attr("fill", "#57606a").Text(rate),
		// water
		ui.SVG("rect").ID("water-level").Attr("x", bucketL).Attr("y", ui.F1(bucketBot-h)).Attr("width", bucketR-bucketL).Attr("height", ui.F1(h)).Attr("fill", "url(#water)").Attr("fill-opacity", 0.85),
		ui.SVG("g").Body(lines...),
		// bucket walls
		ui.SVG("path").Attr("d", "M"+ui.F1(bucketL-4)+" "+ui.F1(bucketTop-8)+" V"+ui.F1(bucketBot)+" Q"+ui.F1(bucketL-4)+" "+ui.F1(bucketBot+6)+" "+ui.F1(bucketL+6)+" "+ui.F1(bucketBot+6)+
			" H"+ui.F1(bucketR-6)+" Q"+ui.F1(bucketR+4)+" "+ui.F1(bucketBot+6)+" "+ui.F1(bucketR+4)+" "+ui.F1(bucketBot)+" V"+ui.F1(bucketTop-8)).
			Attr("fill", "none").Attr("stroke", stroke).Attr("stroke-width", 4).Attr("stroke-linejoin", "round"),
		// The level, inside the water when there is room, else above it.
		ui.SVG("text").Attr("x", (bucketL+bucketR)/2).Attr("y", ui.F1(levelY(h))).Attr("text-anchor", "middle").
			Attr("font-size", 22).Attr("font-weight", 700).Attr("fill", levelColor(h)).Text(units.FormatTokens(st.Tokens)),
		ui.SVG("text").Attr("x", (bucketL+bucketR)/2).Attr("y", figH-8).Attr("text-anchor", "middle").Attr("font-size", 12).Attr("fill", "#57606a").
			Text("burst "+strconv.Itoa(st.Limit)),
	)
}

// flying draws the tokens leaving the bucket toward the timeline's "now".
func (v *view) flying(a ui.Axis) app.UI {
	now := time.Now()
	fromX, fromY := (bucketL+bucketR)/2, bucketTop-6
	toX, toY := a.X(v.Sim.Now()), axisY-18
	var coins []app.UI
	for _, f := range v.flyers {
		if f.IsZero() {
			continue
		}
		p := float64(now.Sub(f)) / float64(flightTime)
		if p < 0 || p >= 1 {
			continue
		}
		x := fromX + (toX-fromX)*p
		y := fromY + (toY-fromY)*p - math.Sin(p*math.Pi)*50
		coins = append(coins, ui.SVG("circle").Attr("cx", ui.F1(x)).Attr("cy", ui.F1(y)).Attr("r", 7).
			Attr("fill", "#d4a72c").Attr("stroke", "#9a6700").Attr("stroke-width", 1.5).Attr("opacity", ui.F1(1-p*0.6)))
	}
	return ui.SVG("g").ID("flyers").Body(coins...)
}

// window draws the sliding window: the last window before now, shaded.
func (v *view) window(a ui.Axis) app.UI {
	st := v.state
	now := v.Sim.Now()
	x0, x1 := a.X(now-st.Window), a.X(now)
	full := st.Count >= st.Limit
	fill, stroke := "#ddf4ff", "#0969da"
	if full {
		fill, stroke = "#fff1e5", "#bc4c00"
	}
	label := "window " + units.FormatWindow(st.Window) + ": " + strconv.Itoa(st.Count) + " of " + strconv.Itoa(st.Limit)
	if full {
		label += " (full)"
	}
	return ui.SVG("g").ID("window").Attr("clip-path", "url(#timeline-clip)").Body(
		ui.SVG("rect").Attr("x", ui.F1(x0)).Attr("y", 28).Attr("width", ui.F1(x1-x0)).Attr("height", figH-56).
			Attr("fill", fill).Attr("stroke", stroke).Attr("stroke-width", 1.5).Attr("stroke-dasharray", "6 4").Attr("rx", 6),
		ui.SVG("text").Attr("x", ui.F1((x0+x1)/2)).Attr("y", 20).Attr("text-anchor", "middle").Attr("font-size", 13).Attr("font-weight", 600).Attr("fill", stroke).Text(label),
		ui.SVG("text").Attr("x", ui.F1(x0-6)).Attr("y", 44).Attr("text-anchor", "end").Attr("font-size", 11).Attr("fill", "#57606a").Text("← entries expire"),
	)
}

func levelY(h float64) float64 {
	if h > 40 {
		return bucketBot - h + 28
	}
	return bucketBot - h - 10
}

func levelColor(h float64) string {
	if h > 40 {
		return "#fff"
	}
	return "#24292f"
}
