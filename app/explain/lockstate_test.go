package explain

import (
	"testing"
	"time"
)

// TestLockAt: lesson 5's first wave at exact instants, under one global
// lock and under a lock per key: what each core runs, who waits and for
// what, how many decisions are done.
func TestLockAt(t *testing.T) {
	b := RecordedLockBench
	reqs := LockRequests()
	for _, c := range []struct {
		perKey       bool
		at           time.Duration
		core1, core2 string
		wait         string
		done         int
	}{
		{false, 0, "core 1: c1 holds the global lock", "core 2: idle",
			"waiting for the global lock: c1, c2, c3, c4, c5, c6, c7, c8; waiting for a core: none", 0},
		{false, 500 * time.Nanosecond, "core 1: idle", "core 2: c1 holds the global lock",
			"waiting for the global lock: c2, c3, c4, c5, c6, c7, c8; waiting for a core: none", 1},
		{false, 2 * time.Microsecond, "core 1: c4 holds the global lock", "core 2: idle",
			"waiting for the global lock: c5, c6, c7, c8; waiting for a core: none", 4},
		{false, 5 * time.Microsecond, "core 1: idle", "core 2: idle",
			"waiting for the global lock: none; waiting for a core: none", 9},
		{true, 0, "core 1: c1 holds lock c1", "core 2: c2 holds lock c2",
			"waiting for their key's lock: c1; waiting for a core: c3, c4, c5, c6, c7, c8", 0},
		{true, 500 * time.Nanosecond, "core 1: c1 holds lock c1", "core 2: c3 holds lock c3",
			"waiting for their key's lock: none; waiting for a core: c4, c5, c6, c7, c8", 2},
		{true, 2 * time.Microsecond, "core 1: c8 holds lock c8", "core 2: idle",
			"waiting for their key's lock: none; waiting for a core: none", 8},
	} {
		hold := b.GlobalLock1
		if c.perKey {
			hold = b.PerKey1
		}
		s := LockAt(LockTimeline(reqs, c.perKey, b.Cores, hold), c.perKey, b.Cores, hold, c.at)
		if s.CoreText(0) != c.core1 || s.CoreText(1) != c.core2 || s.WaitText() != c.wait || s.Done != c.done {
			t.Errorf("per key %v at %v: %q, %q, %q, %d done; want %q, %q, %q, %d",
				c.perKey, c.at, s.CoreText(0), s.CoreText(1), s.WaitText(), s.Done, c.core1, c.core2, c.wait, c.done)
		}
	}
}
