package ui_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/ratelab/ratelab/app/ui"
)

// A chart 600 px wide over 0–10 s: zoom about 0.995 s down to the narrowest
// span (1 ms = 20 px), centre on it, and draw its ticks.
func ExampleTimeWindow() {
	w := ui.FullWindow(0, 10*time.Second, ui.MinSpanFor(600))
	for w.Span() > w.MinSpan {
		w = w.Zoom(995*time.Millisecond, ui.ZoomStep)
	}
	w = w.CenterOn(995 * time.Millisecond)
	a := w.Axis(0, 600)
	fmt.Println(w.From, w.To, a.X(990*time.Millisecond), a.X(time.Second))
	var labels []string
	for _, t := range w.Ticks(3) {
		labels = append(labels, t.Label)
	}
	fmt.Println(strings.Join(labels, "; "))
	fmt.Println(ui.ZoomBar{W: w, WidthPx: 600}.Shown())
	// Output:
	// 980ms 1.01s 200 400
	// 0.98 s; 0.99 s; 1.00 s; 1.01 s
	// 0.98–1.01 s · 1 ms = 20 px
}
