package lab

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
)

// labZoom is the lanes' one time window: zooming or panning any lane, or
// the axis above them, moves every lane's, so they stay comparable. Unzoomed
// (win nil), the axis follows the clock (axisOf); zoomed, it stays on the
// instants chosen while the clock runs on, until Fit (or zooming out to the
// whole axis) follows the clock again.
type labZoom struct {
	win     *ui.TimeWindow
	widthPx float64 // the charts' width on screen at the last input (0: not measured yet)
	pinch   ui.Pinch
}

// defaultChartPx is the width assumed before a chart has been measured: the
// SVG's own width in user units.
const defaultChartPx = laneW

// window is the lanes' time window for the lab l: the zoomed one, its
// bounds from 0 to the end of the unzoomed axis, or the unzoomed axis.
func (z *labZoom) window(l *sim.Lab) ui.TimeWindow {
	auto := axisOf(l)
	px := z.widthPx
	if px <= 0 {
		px = defaultChartPx
	}
	full := ui.TimeWindow{From: auto.From, To: auto.To, Lo: auto.From, Hi: auto.To, MinSpan: ui.MinSpanFor(px)}
	if z.win == nil {
		return full
	}
	w := *z.win
	w.Lo, w.Hi, w.MinSpan = 0, auto.To, full.MinSpan
	return w.Clamp()
}

// axis is the lanes' shared axis for the lab l.
func (z *labZoom) axis(l *sim.Lab) ui.Axis { return z.window(l).Axis(0, laneW) }

// ApplyZoom applies an input's action about anchor (a fraction of the width)
// and redraws the lanes. A window as wide as the unzoomed axis follows the
// clock again.
func (v *labLanes) ApplyZoom(act ui.ZoomAction, anchor ui.TimeAnchor) {
	l := v.M.shown()
	w := v.M.zoom.window(l)
	if v.M.zoom.win == nil {
		// Zoomed out from the unzoomed axis: every instant since 0.
		w.Lo = 0
	}
	next := act.Apply(w, anchor)
	auto := axisOf(l)
	if act.Fit || next.Span() >= auto.To-auto.From && next.To >= auto.To {
		v.M.zoom.win = nil
	} else {
		v.M.zoom.win = &next
	}
	v.M.moved()
}

// MeasureAxis records the width on screen of the chart el (an event's target
// chart), for the zoom's limit of 1 ms = 20 px; it returns its left edge
// and width.
func (v *labLanes) MeasureAxis(el app.Value) (left, width float64) {
	r := el.Call("getBoundingClientRect")
	left, width = r.Get("left").Float(), r.Get("width").Float()
	if width > 0 {
		v.M.zoom.widthPx = width
	}
	return left, width
}

func (v *labLanes) onZoomWheel(ctx app.Context, e app.Event) { ui.ZoomOnWheel(v, ctx, e) }

func (v *labLanes) onZoomTouch(ctx app.Context, e app.Event) {
	ui.ZoomOnTouch(v, &v.M.zoom.pinch, ctx, e)
}

// zoomKey applies a zoom key pressed on a chart (arrowsPan: plain arrows pan
// it; on a lane, whose arrows choose a request, Shift+arrows do) and
// reports whether it was one.
func (v *labLanes) zoomKey(ctx app.Context, e app.Event, arrowsPan bool) bool {
	act, ok := ui.ZoomKey(e.Get("key").String(), e.Get("shiftKey").Bool(), arrowsPan)
	if !ok {
		return false
	}
	e.PreventDefault()
	v.MeasureAxis(ctx.JSSrc())
	v.ApplyZoom(act, v.keyAnchor())
	return true
}

// keyAnchor is where the keys and buttons zoom about: the selected request
// when it is in view (click the burst, press +), else the middle.
func (v *labLanes) keyAnchor() ui.TimeAnchor {
	m := v.M
	l, ln, hist, ok := m.stripLane(m.sel.lane)
	if !ok {
		return 0.5
	}
	k, sel := m.selIndex(m.sel.lane, ln, hist)
	w := v.M.zoom.window(l)
	if !sel || hist[k].At < w.From || hist[k].At > w.To {
		return 0.5
	}
	return ui.TimeAnchor(float64(hist[k].At-w.From) / float64(w.Span()))
}

// zoomable gives a chart the zoom's wheel, pinch and keys (its own keys
// are handled by its own handler, which calls zoomKey first).
func (v *labLanes) zoomable(e app.HTMLElem) app.HTMLElem {
	return e.DataSet("zoom", "time").Style("touch-action", "pan-y").
		On("wheel", v.onZoomWheel).On("touchstart", v.onZoomTouch).On("touchmove", v.onZoomTouch).On("touchend", v.onZoomTouch)
}

// zoomBar is the buttons above the lanes.
func (v *labLanes) zoomBar(l *sim.Lab) app.UI {
	px := v.M.zoom.widthPx
	if px <= 0 {
		px = defaultChartPx
	}
	return ui.ZoomBar{ID: "lab-zoom", W: v.M.zoom.window(l), WidthPx: px,
		OnAction: func(ctx app.Context, a ui.ZoomAction) {
			if el := browser.ByID("axis"); el.Truthy() {
				v.MeasureAxis(el)
			}
			v.ApplyZoom(a, v.keyAnchor())
		},
	}.UI()
}
