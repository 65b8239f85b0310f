package ui

import (
	"testing"
	"time"
)

// The live region tells a new decision at most once a second, and empties
// at once when its source is reset, so the first decision after a reset is
// told even though it has the number the last one before it had.
func TestAnnouncerReset(t *testing.T) {
	seq, msg := 0, ""
	a := &Announcer{Source: func() (int, string) { return seq, msg }}
	t0 := time.Unix(100, 0)
	step := func(at time.Duration, wantRedraw bool, wantShown string) {
		t.Helper()
		if got := a.poll(nil, t0.Add(at), 0); got != wantRedraw {
			t.Errorf("at %v: redraw %v, want %v", at, got, wantRedraw)
		}
		if a.shown != wantShown {
			t.Errorf("at %v: shown %q, want %q", at, a.shown, wantShown)
		}
	}
	step(0, false, "")
	seq, msg = 1, "Request 1 at 0.000 s: allowed"
	step(0, true, "Request 1 at 0.000 s: allowed")
	seq, msg = 2, "Request 2 at 0.100 s: allowed"
	step(500*time.Millisecond, false, "Request 1 at 0.000 s: allowed")
	step(time.Second, true, "Request 2 at 0.100 s: allowed")
	seq, msg = 0, "" // Reset
	step(1100*time.Millisecond, true, "")
	step(1200*time.Millisecond, false, "")
	seq, msg = 1, "Request 1 at 0.000 s: denied"
	step(2*time.Second, true, "Request 1 at 0.000 s: denied")
}
