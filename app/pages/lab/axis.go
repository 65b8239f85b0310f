package lab

import (
	"math"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/units"
)

// axisOf is the shared time axis: the last span of the run (at least W ×
// 10, at most the minute of chart buckets kept), now near the right edge.
func axisOf(l *sim.Lab) ui.Axis {
	span := min(max(10*l.Setup().Worst, 2*time.Second), 60*time.Second)
	now := l.Now()
	from := max(0, now-span*19/20)
	return ui.Axis{X0: 0, X1: laneW, From: from, To: from + span}
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
