package playground

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/limiter"
)

// figZoom is the timeline's zoom. The timeline follows the clock: its
// unzoomed window is the last 10 s (token bucket; the sliding window log:
// 1.4 windows) with now near the right edge, and a zoomed window is kept
// relative to now (From − now, To − now), so that it slides with the clock
// inside the unzoomed one.
type figZoom struct {
	zoomed         bool
	fromOff, toOff limiter.Instant // From − now, To − now
	widthPx        float64         // the timeline's width on screen at the last input
	pinch          ui.Pinch
}

// window is the timeline's window over auto, the unzoomed axis, at now.
func (z *figZoom) window(auto ui.Axis, now limiter.Instant) ui.TimeWindow {
	px := z.widthPx
	if px <= 0 {
		px = auto.X1 - auto.X0 // before a measure: the SVG's own units
	}
	w := ui.TimeWindow{From: auto.From, To: auto.To, Lo: auto.From, Hi: auto.To, MinSpan: ui.MinSpanFor(px)}
	if z.zoomed {
		w.From, w.To = now+z.fromOff, now+z.toOff
	}
	return w.Clamp()
}

// ApplyZoom applies an input's action about anchor; the whole unzoomed window
// is unzoomed again.
func (v *view) ApplyZoom(act ui.ZoomAction, anchor ui.TimeAnchor) {
	auto, now := v.autoAxis(), v.Sim.Now()
	w := act.Apply(v.zoom.window(auto, now), anchor)
	v.zoom.zoomed = !w.Full()
	v.zoom.fromOff, v.zoom.toOff = w.From-now, w.To-now
}

// MeasureAxis records the timeline's width on screen (the figure's SVG is
// scaled to its box) and returns its left edge and width in px.
func (v *view) MeasureAxis(svg app.Value) (left, width float64) {
	if !svg.Truthy() {
		return 0, 0
	}
	a := v.autoAxis()
	r := svg.Call("getBoundingClientRect")
	scale := r.Get("width").Float() / figW
	left, width = r.Get("left").Float()+a.X0*scale, (a.X1-a.X0)*scale
	if width > 0 {
		v.zoom.widthPx = width
	}
	return left, width
}

func (v *view) onZoomWheel(ctx app.Context, e app.Event) { ui.ZoomOnWheel(v, ctx, e) }

func (v *view) onZoomTouch(ctx app.Context, e app.Event) { ui.ZoomOnTouch(v, &v.zoom.pinch, ctx, e) }

func (v *view) onZoomKey(ctx app.Context, e app.Event) {
	act, ok := ui.ZoomKey(e.Get("key").String(), e.Get("shiftKey").Bool(), true)
	if !ok {
		return
	}
	v.MeasureAxis(ctx.JSSrc())
	v.ApplyZoom(act, v.nowAnchor())
}

// nowAnchor is where the keys and buttons zoom about: now, where the next
// request lands, when it is in the window, else the middle.
func (v *view) nowAnchor() ui.TimeAnchor {
	now := v.Sim.Now()
	w := v.zoom.window(v.autoAxis(), now)
	if now < w.From || now > w.To {
		return 0.5
	}
	return ui.TimeAnchor(float64(now-w.From) / float64(w.Span()))
}

// zoomable gives the figure the zoom's keys, wheel and pinch.
func (v *view) zoomable(svg app.HTMLElem) app.HTMLElem {
	return svg.TabIndex(0).DataSet("zoom", "time").DataSet("keys", "ArrowLeft ArrowRight "+ui.ZoomKeys).Style("touch-action", "pan-y").
		OnKeyDown(v.onZoomKey).On("wheel", v.onZoomWheel).On("touchstart", v.onZoomTouch).On("touchmove", v.onZoomTouch).On("touchend", v.onZoomTouch)
}

// zoomBar is the timeline's buttons, under the figure.
func (v *view) zoomBar(w ui.TimeWindow) app.UI {
	px := v.zoom.widthPx
	if px <= 0 {
		a := v.autoAxis()
		px = a.X1 - a.X0
	}
	return ui.ZoomBar{ID: "fig-zoom", W: w, WidthPx: px,
		OnAction: func(ctx app.Context, a ui.ZoomAction) {
			v.MeasureAxis(browser.ByID("figure"))
			v.ApplyZoom(a, v.nowAnchor())
		},
	}.UI()
}
