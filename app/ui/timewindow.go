package ui

import (
	"math"
	"math/bits"
	"time"

	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// TimeWindow is the visible stretch [From, To) of a zoomable time axis, in
// exact nanoseconds of simulated time, kept within the bounds [Lo, Hi) and
// never narrower than MinSpan (see MinSpanFor: 1 ms is then at least
// MinPxPerMs pixels wide) nor wider than the bounds.
//
// It is a value: Zoom, Pan and Clamp return a new window and never fail; a
// zoom or pan that would leave the bounds stops at them. One window shared
// by several charts (the lab's lanes) keeps them comparable. Axis maps it
// to x for drawing, Ticks gives labelled ticks at nice steps.
//
//	w := ui.FullWindow(0, 10*time.Second, ui.MinSpanFor(600)) // 0–10 s, at most 30 ms at 600 px
//	w = w.Zoom(990*time.Millisecond, 0.5)                   // 0.495–5.495 s: 0.99 s stays put
//	w = w.Pan(-time.Second)                                 // stops at 0: 0–5 s
type TimeWindow struct {
	From, To limiter.Instant // visible, To − From is the span
	Lo, Hi   limiter.Instant // bounds
	MinSpan  time.Duration
}

// MinPxPerMs is the deepest zoom: 1 ms spans 20 pixels, so that requests
// 1 ms apart are separate marks.
const MinPxPerMs = 20

// MinSpanFor is the narrowest span of a chart widthPx pixels wide: widthPx
// / MinPxPerMs milliseconds, in whole ns rounded down (so 1 ms is at least
// 20 px), and at least 1 ns. At 600 px: 30 ms; at 390 px: 19.5 ms.
func MinSpanFor(widthPx float64) time.Duration {
	return max(time.Duration(widthPx*float64(time.Millisecond)/MinPxPerMs), 1)
}

// FullWindow shows all of [lo, hi) (at least minSpan from lo when the
// bounds are narrower).
func FullWindow(lo, hi limiter.Instant, minSpan time.Duration) TimeWindow {
	return TimeWindow{From: lo, To: hi, Lo: lo, Hi: hi, MinSpan: minSpan}.Clamp()
}

// Span is To − From.
func (w TimeWindow) Span() time.Duration { return w.To - w.From }

// Full reports whether the window shows all of its bounds.
func (w TimeWindow) Full() bool { return w.From <= w.Lo && w.To >= w.Hi }

// Clamp returns w with its span within [MinSpan, Hi − Lo] (when the bounds
// are narrower than MinSpan, MinSpan from Lo) and moved, keeping its span,
// into the bounds.
func (w TimeWindow) Clamp() TimeWindow {
	span := min(w.Span(), w.Hi-w.Lo)
	span = max(span, w.MinSpan, 1)
	from := w.From
	if from+span > w.Hi {
		from = w.Hi - span
	}
	from = max(from, w.Lo)
	w.From, w.To = from, from+span
	return w
}

// Zoom scales the span by factor (½ zooms in twice, 2 out), keeping the
// instant anchor at the same place on the axis (the pointer, a pinch's
// centre, the window's middle for the buttons), then clamps. The new span
// is rounded to the ns; the anchor's offset is computed exactly.
func (w TimeWindow) Zoom(anchor limiter.Instant, factor float64) TimeWindow {
	span := w.Span()
	if span <= 0 || !(factor > 0) || math.IsInf(factor, 0) {
		return w.Clamp()
	}
	ns := float64(span) * factor
	next := time.Duration(min(ns, float64(w.Hi-w.Lo)))
	next = min(max(next, w.MinSpan, 1), max(w.Hi-w.Lo, w.MinSpan))
	anchor = min(max(anchor, w.From), w.To)
	// anchor − from' = (anchor − from) × next / span, in 128 bits.
	hi, lo := bits.Mul64(uint64(anchor-w.From), uint64(next))
	q, _ := bits.Div64(hi, lo, uint64(span))
	w.From = anchor - time.Duration(q)
	w.To = w.From + next
	return w.Clamp()
}

// At is the instant at fraction f of the window's width (0 its left edge, 1
// its right), e.g. under the pointer; f is clamped to [0, 1].
func (w TimeWindow) At(f float64) limiter.Instant {
	f = min(max(f, 0), 1)
	return w.From + time.Duration(math.Round(f*float64(w.Span())))
}

// Pan moves the window by d (negative: to earlier instants), stopping at
// the bounds.
func (w TimeWindow) Pan(d time.Duration) TimeWindow {
	w.From += d
	w.To += d
	return w.Clamp()
}

// CenterOn moves the window, keeping its span, so that t is in its middle
// (as near as the bounds allow).
func (w TimeWindow) CenterOn(t limiter.Instant) TimeWindow {
	span := w.Span()
	w.From = t - span/2
	w.To = w.From + span
	return w.Clamp()
}

// Axis maps the window onto x from x0 to x1.
func (w TimeWindow) Axis(x0, x1 float64) Axis {
	return Axis{X0: x0, X1: x1, From: w.From, To: w.To}
}

// Tick is one tick of a time axis: its instant and label.
type Tick struct {
	At    limiter.Instant
	Label string
}

// TickStep is the smallest nice step (1, 2 or 5 × 10^k ns) that puts at
// most maxTicks steps in span.
func TickStep(span time.Duration, maxTicks int) time.Duration {
	maxTicks = max(maxTicks, 1)
	for step := time.Duration(1); step > 0 && step <= math.MaxInt64/10; step *= 10 {
		for _, f := range []time.Duration{1, 2, 5} {
			if span/(step*f) <= time.Duration(maxTicks) {
				return step * f
			}
		}
	}
	return span
}

// Ticks are the multiples of TickStep(Span, maxTicks) from From to To (both
// included), labelled in seconds with the decimals the step needs
// (units.FormatAxis): "0.99 s", "0.995 s", "1.000 s".
func (w TimeWindow) Ticks(maxTicks int) []Tick {
	step := TickStep(w.Span(), maxTicks)
	first := w.From / step * step
	if first < w.From {
		first += step
	}
	var ts []Tick
	for t := first; t <= w.To; t += step {
		ts = append(ts, Tick{At: t, Label: units.FormatAxis(t, step)})
	}
	return ts
}
