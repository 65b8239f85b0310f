package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/ui"
)

// TestAxisLabelsLeaveAGap: the time axis names every second early in a run
// and every other second late in a long one, where "39559 s" is wider than
// a second's 60 units.
func TestAxisLabelsLeaveAGap(t *testing.T) {
	texts := func(a ui.Axis) string {
		var s []string
		for _, l := range axisLabels(a) {
			s = append(s, l.text)
		}
		return strings.Join(s, " ")
	}
	if got, want := texts(ui.Axis{X0: 0, X1: laneW, From: 0, To: 10 * time.Second}), "0 s 1 s 2 s 3 s 4 s 5 s 6 s 7 s 8 s 9 s 10 s"; got != want {
		t.Errorf("0–10 s: %q, want %q", got, want)
	}
	late := ui.Axis{X0: 0, X1: laneW, From: 39558500 * time.Millisecond, To: 39568500 * time.Millisecond}
	if got, want := texts(late), "39560 s 39562 s 39564 s 39566 s 39568 s"; got != want {
		t.Errorf("late: %q, want %q", got, want)
	}
	ls := axisLabels(late)
	for i := 1; i < len(ls); i++ {
		if gap := ls[i].x - ls[i-1].x; gap < float64(len(ls[i].text))*axisCharW {
			t.Errorf("labels %q and %q are %.0f units apart", ls[i-1].text, ls[i].text, gap)
		}
	}
}
