package learn

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/ui"
)

// The time axes of lessons 3 and 6 zoom and pan with ui.TimeWindow and its
// inputs (ui.ZoomBar's buttons; + − 0 and ← → on a focused picture; Ctrl or
// Shift + wheel), down to 1 ms per 20 of the picture's units. Lesson 5's
// axis is its wave's first 5 µs already, and does not zoom.

// window is the visible stretch of the open lesson's time axis: the whole
// lesson until zoomed, and again for another lesson.
func (v *lessonView) window() ui.TimeWindow {
	if v.winFor != v.run.lesson.ID {
		g := v.geom()
		v.win = ui.FullWindow(0, v.run.lesson.Until, ui.MinSpanFor(g.Right-g.Left))
		v.winFor = v.run.lesson.ID
	}
	return v.win
}

// zoomBar is the pictures' zoom buttons and what the window shows.
func (v *lessonView) zoomBar() app.UI {
	return ui.ZoomBar{ID: "lesson-zoom", W: v.window(), OnAction: func(ctx app.Context, a ui.ZoomAction) {
		v.win = a.Apply(v.window(), 0.5)
	}}.UI()
}

// zoomBox holds a zoomable picture: its keys and the wheel zoom and pan
// its time axis (browser.InstallWheelGuard keeps the page from scrolling
// for a wheel the picture takes).
func (v *lessonView) zoomBox(svg app.UI) app.UI {
	return app.Elem("div").Class("pic-scroll").TabIndex(0).DataSet("zoom", true).DataSet("keys", ui.ZoomKeys+" ArrowLeft ArrowRight").
		Attr("aria-label", "Picture: + and − zoom its time axis, ← and → move it, 0 shows it all").
		OnKeyDown(v.onZoomKey).On("wheel", v.onZoomWheel).Body(svg)
}

func (v *lessonView) onZoomKey(ctx app.Context, e app.Event) {
	a, ok := ui.ZoomKey(e.Get("key").String(), e.Get("shiftKey").Bool(), true)
	if ok {
		v.win = a.Apply(v.window(), 0.5)
	}
}

// onZoomWheel zooms about the pointer: its place on the time axis, from
// the picture's drawn box (Left to Right of its W units, picGeom).
func (v *lessonView) onZoomWheel(ctx app.Context, e app.Event) {
	box := ctx.JSSrc()
	if !ui.WheelZooms(e, ui.ChartFocused(box)) {
		return
	}
	svg := box.Get("firstElementChild")
	if !svg.Truthy() {
		return
	}
	r := svg.Call("getBoundingClientRect")
	width := r.Get("width").Float()
	if width <= 0 {
		return
	}
	g := v.geom()
	plot := width * (g.Right - g.Left) / g.W
	a := ui.WheelZoom(e.Get("deltaX").Float(), e.Get("deltaY").Float(), e.Get("deltaMode").Int(), e.Get("shiftKey").Bool(), plot)
	x := (e.Get("clientX").Float()-r.Get("left").Float())*g.W/width - g.Left
	v.win = a.Apply(v.window(), ui.TimeAnchor(x/(g.Right-g.Left)))
}

// windowTicks labels the window's axis at nice steps, at y.
func windowTicks(g picGeom, w ui.TimeWindow, y float64) []app.UI {
	ax := w.Axis(g.Left, g.Right)
	var out []app.UI
	for _, t := range w.Ticks(g.ticks()) {
		out = append(out, svgLine(ax.X(t.At), y-4, ax.X(t.At), y+2, "pic-tick"),
			tickLabel(ax, t.At, y+16, t.Label))
	}
	return out
}
