package learn

import (
	"testing"

	"github.com/ratelab/ratelab/app/explain"
)

// TestDesignPlayerSteps: the design lesson's clock steps through alice's
// requests, one instant at a time (3 at 0 s, 3 at 0.6 s, 3 at 1 s, 2 at
// 1.1 s, 3 at 1.5 s), each step showing the rows decided by then, and the
// live region says how far it has got.
func TestDesignPlayerSteps(t *testing.T) {
	l, _ := explain.LessonByID(explain.DesignLessonID)
	r := newLessonRun(l)
	if r.clock.Events() != 5 {
		t.Fatalf("%d events, want 5", r.clock.Events())
	}
	for i, want := range []struct {
		rows  int
		event int
		say   string
	}{
		{3, 1, "t = 0.00 s: 3 of 14 rows of the table."},
		{6, 2, "t = 0.60 s: 6 of 14 rows of the table."},
		{9, 3, "t = 1.00 s: 9 of 14 rows of the table."},
		{11, 4, "t = 1.10 s: 11 of 14 rows of the table."},
		{14, 5, "t = 1.50 s: 14 of 14 rows of the table."},
	} {
		r.clock.StepForward()
		r.sync()
		if got := r.rowsKnown(); got != want.rows || r.clock.Event() != want.event || r.announcement() != want.say || r.done {
			t.Errorf("step %d: %d rows, event %d, %q, done %v; want %d, %d, %q, not done", i+1, got, r.clock.Event(), r.announcement(), r.done, want.rows, want.event, want.say)
		}
	}
	r.clock.StepForward()
	r.sync()
	if !r.done || !r.ok {
		t.Errorf("after the last step: done %v, check %v %q", r.done, r.ok, r.msg)
	}
}

// TestReplyCells: the design table's replies are told by symbol.
func TestReplyCells(t *testing.T) {
	for c, want := range map[string]string{
		"200 (4 left)":             "✓ 200 (4 left)",
		"429 (retry after 200 ms)": "✕ 429 (retry after 200 ms)",
		"allowed, 2 left":          "✓ allowed, 2 left",
		"denied, 0 left":           "✕ denied, 0 left",
		"1 s":                      "1 s",
		"2000":                     "2000",
	} {
		if got := cellText(c); got != want {
			t.Errorf("cellText(%q) = %q, want %q", c, got, want)
		}
	}
}
