package limiter

import (
	"testing"
	"time"
)

// The log's ring grows by doubling up to the limit, so a client that sent a
// few requests holds a few instants, and gives back room when the limit is
// lowered once the entries fit.
func TestSlidingWindowLogRingGrows(t *testing.T) {
	sl, err := NewSlidingWindowLog(1000, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	step := func(at Instant, n, wantLen int) {
		t.Helper()
		if d, _ := sl.AllowN(at, n); !d.Allowed {
			t.Fatalf("AllowN(%v, %d) denied", at, n)
		}
		if len(sl.ring) != wantLen {
			t.Errorf("after %d at %v: ring of %d; want %d", n, at, len(sl.ring), wantLen)
		}
	}
	step(0, 1, 1)
	step(1, 1, 2)
	step(2, 1, 4)
	step(3, 5, 8)
	step(4, 100, 108)  // 108 needed, more than twice 8
	step(5, 892, 1000) // capped at the limit
	// Lowered below the 1000 entries in the window: all are kept.
	if err := sl.SetLimit(6, 10); err != nil {
		t.Fatal(err)
	}
	if len(sl.ring) != 1000 || sl.size != 1000 {
		t.Errorf("after SetLimit(10): ring %d, size %d; want 1000, 1000", len(sl.ring), sl.size)
	}
	// Once they have expired, lowering again gives the room back.
	if err := sl.SetLimit(time.Second+5, 10); err != nil {
		t.Fatal(err)
	}
	if len(sl.ring) != 10 || sl.size != 0 {
		t.Errorf("after expiry and SetLimit(10): ring %d, size %d; want 10, 0", len(sl.ring), sl.size)
	}
	step(2*time.Second, 10, 10)
}
