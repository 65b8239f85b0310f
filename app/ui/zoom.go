package ui

import (
	"math"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
)

// The inputs of a zoomable time axis (TimeWindow), one meaning everywhere:
// the buttons halve and double the span about its middle; the keys + and −
// do the same, 0 fits, ← and → (Shift+← and Shift+→ on a chart whose arrows
// choose a request) pan by a tenth of the span; Ctrl+wheel (or any wheel
// over a focused chart, and a trackpad's pinch, which the browser sends as
// Ctrl+wheel) zooms about the pointer, Shift+wheel pans; two fingers pinch.
const (
	ZoomStep = 0.5 // one button press or key: half the span (or twice, out)
	PanStep  = 0.1 // one arrow: a tenth of the span
	// WheelPxPerDoubling: 300 px of wheel (three notches of 100 px) double
	// or halve the span.
	WheelPxPerDoubling = 300.0
)

// ZoomKeys are the keys ZoomKey acts on, for a chart's data-keys (see
// browser.InstallKeyGuard; Shift+arrows are arrows there).
const ZoomKeys = "+ = - _ 0"

// ZoomAction is what one input asks of a TimeWindow: a zoom by Factor about
// the anchor the input gives, a pan by Pan spans, or Fit (all of the
// bounds). The zero value asks nothing.
type ZoomAction struct {
	Factor float64
	Pan    float64
	Fit    bool
}

// Apply applies a to w, zooming about anchor.
func (a ZoomAction) Apply(w TimeWindow, anchor TimeAnchor) TimeWindow {
	switch {
	case a.Fit:
		return FullWindow(w.Lo, w.Hi, w.MinSpan)
	case a.Factor > 0:
		return w.Zoom(w.At(float64(anchor)), a.Factor)
	case a.Pan != 0:
		return w.Pan(time.Duration(a.Pan * float64(w.Span())))
	}
	return w
}

// TimeAnchor is a fraction of the window's width (0 its left edge, 1 its
// right) that a zoom keeps in place: 0.5 for buttons and keys, the pointer
// for the wheel, the fingers' middle for a pinch.
type TimeAnchor float64

// ZoomKey is what key means on a zoomable chart; arrowsPan is false on a
// chart whose plain arrows choose a request (Shift+arrows pan there).
func ZoomKey(key string, shift, arrowsPan bool) (ZoomAction, bool) {
	switch key {
	case "+", "=":
		return ZoomAction{Factor: ZoomStep}, true
	case "-", "_", "−":
		return ZoomAction{Factor: 1 / ZoomStep}, true
	case "0":
		return ZoomAction{Fit: true}, true
	case "ArrowLeft", "ArrowRight":
		if !arrowsPan && !shift {
			return ZoomAction{}, false
		}
		if key == "ArrowLeft" {
			return ZoomAction{Pan: -PanStep}, true
		}
		return ZoomAction{Pan: PanStep}, true
	}
	return ZoomAction{}, false
}

// WheelZoom is what a wheel event means: deltaY in pixels (deltaMode 0; a
// line, mode 1, counts 40 px, a page, mode 2, 800) zooms out when positive,
// by 2^(deltaY/WheelPxPerDoubling); with Shift (either delta), or deltaX
// alone, it pans by the delta as a fraction of the chart's widthPx.
func WheelZoom(deltaX, deltaY float64, mode int, shift bool, widthPx float64) ZoomAction {
	unit := [...]float64{1, 40, 800}[min(max(mode, 0), 2)]
	dx, dy := deltaX*unit, deltaY*unit
	if shift { // Shift turns the wheel sideways: both deltas pan
		dx, dy = dx+dy, 0
	}
	if dy == 0 {
		if dx == 0 || widthPx <= 0 {
			return ZoomAction{}
		}
		return ZoomAction{Pan: dx / widthPx}
	}
	return ZoomAction{Factor: math.Exp2(dy / WheelPxPerDoubling)}
}

// WheelZooms reports whether a wheel event over a chart is the chart's (and
// not the page's scroll): with Ctrl or ⌘ (a trackpad's pinch too), with
// Shift, or while the chart has the focus.
func WheelZooms(e app.Event, focused bool) bool {
	return e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() || e.Get("shiftKey").Bool() || focused
}

// ZoomTarget is a chart whose time axis zooms: MeasureAxis gives the
// axis's left edge and width on screen, in px, for the chart element el (an
// event's target); ApplyZoom applies an action about an anchor.
type ZoomTarget interface {
	MeasureAxis(el app.Value) (left, width float64)
	ApplyZoom(act ZoomAction, anchor TimeAnchor)
}

// ZoomOnWheel is a chart's wheel handler: it zooms t about the pointer
// (Ctrl+wheel, a trackpad's pinch, or any wheel while the chart has the
// focus; browser.InstallWheelGuard keeps the page from scrolling then) and
// pans with Shift+wheel. Any other wheel scrolls the page.
func ZoomOnWheel(t ZoomTarget, ctx app.Context, e app.Event) {
	el := ctx.JSSrc()
	if !WheelZooms(e, ChartFocused(el)) {
		return
	}
	left, width := t.MeasureAxis(el)
	act := WheelZoom(e.Get("deltaX").Float(), e.Get("deltaY").Float(), e.Get("deltaMode").Int(), e.Get("shiftKey").Bool(), width)
	if width <= 0 || act == (ZoomAction{}) {
		return
	}
	t.ApplyZoom(act, TimeAnchor((e.Get("clientX").Float()-left)/width))
}

// ZoomOnTouch is a chart's touch handler (start, move and end): two
// fingers zoom t about their middle.
func ZoomOnTouch(t ZoomTarget, p *Pinch, ctx app.Context, e app.Event) {
	left, width := t.MeasureAxis(ctx.JSSrc())
	if act, anchor, ok := p.Touch(e, left, width); ok {
		t.ApplyZoom(act, anchor)
	}
}

// Pinch follows two fingers on a chart: each move zooms by the ratio of
// their distances, about their middle.
type Pinch struct {
	dist float64 // the fingers' distance at the last event, 0 when not pinching
}

// Touch reads a touch event (start, move or end) on an element whose left
// edge is at left and which is width px wide; on a move of two fingers it
// returns the zoom and its anchor.
func (p *Pinch) Touch(e app.Event, left, width float64) (ZoomAction, TimeAnchor, bool) {
	ts := e.Get("touches")
	if !ts.Truthy() || ts.Length() != 2 || width <= 0 {
		p.dist = 0
		return ZoomAction{}, 0, false
	}
	x0, x1 := ts.Index(0).Get("clientX").Float(), ts.Index(1).Get("clientX").Float()
	y0, y1 := ts.Index(0).Get("clientY").Float(), ts.Index(1).Get("clientY").Float()
	d := math.Hypot(x1-x0, y1-y0)
	prev := p.dist
	p.dist = d
	if prev <= 0 || d <= 0 || e.Get("type").String() != "touchmove" {
		return ZoomAction{}, 0, false
	}
	return ZoomAction{Factor: prev / d}, TimeAnchor(((x0+x1)/2 - left) / width), true
}

// ZoomBar is the buttons of a zoomable time axis: zoom in (+), zoom out
// (−) and Fit, and what the window shows ("0.98–1.01 s, 1 ms = 20 px").
// Its element ids start with ID: ID-in, ID-out, ID-fit, ID-shown.
type ZoomBar struct {
	ID      string
	W       TimeWindow
	WidthPx float64 // the chart's width, for "1 ms = … px"; 0 leaves it out
	// OnAction applies a button's action (anchor: the window's middle).
	OnAction func(ctx app.Context, a ZoomAction)
}

// UI renders the bar.
func (z ZoomBar) UI() app.UI {
	w := z.W
	btn := func(id, text, title string, a ZoomAction, disabled bool) app.UI {
		return BoolAttr(app.Elem("button").ID(z.ID+"-"+id).Class("btn icon zoom-btn").Title(title).Attr("aria-label", title), "disabled", disabled).
			Text(text).OnClick(func(ctx app.Context, e app.Event) { z.OnAction(ctx, a) })
	}
	return app.Elem("div").ID(z.ID).Class("zoom-bar").Attr("role", "group").Attr("aria-label", "Zoom the time axis").Body(
		btn("out", "−", "Zoom out (−)", ZoomAction{Factor: 1 / ZoomStep}, w.Full()),
		btn("in", "+", "Zoom in (+)", ZoomAction{Factor: ZoomStep}, w.Span() <= w.MinSpan),
		btn("fit", "Fit", "Fit: show the whole time axis (0)", ZoomAction{Fit: true}, w.Full()),
		app.Elem("span").ID(z.ID+"-shown").Class("hint small mono").Attr("aria-live", "polite").Text(z.Shown()),
	)
}

// Shown says what the window shows: "0.98–1.01 s · 1 ms = 20 px", its
// edges with the decimals they need, to the ms.
func (z ZoomBar) Shown() string {
	w := z.W
	step := time.Second
	for step > time.Millisecond && (w.From%step != 0 || w.To%step != 0) {
		step /= 10
	}
	s := trimUnit(units.FormatAxis(w.From, step)) + "–" + units.FormatAxis(w.To, step)
	if z.WidthPx > 0 && w.Span() > 0 {
		s += " · 1 ms = " + units.Num(twoDigits(z.WidthPx*float64(time.Millisecond)/float64(w.Span()))) + " px"
	}
	return s
}

// twoDigits rounds x > 0 to two significant digits (20, 0.023), and to
// the unit from 10 up (a zoom of 20.004 px says 20).
func twoDigits(x float64) float64 {
	if x >= 10 {
		return math.Round(x)
	}
	p := math.Pow(10, math.Floor(math.Log10(x))-1)
	return math.Round(x/p) * p
}

func trimUnit(s string) string { return s[:len(s)-len(" s")] }

// ChartFocused reports whether the element el (a chart) has the focus.
func ChartFocused(el app.Value) bool {
	a := browser.Document().Get("activeElement")
	return a.Truthy() && el.Truthy() && el.Call("contains", a).Bool()
}
