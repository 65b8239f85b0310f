package learn

import (
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
)

// TestLockWave: the lock lesson's picture shows the wave of the clock's
// instant, and from the lesson's end (30 µs, after the third wave) on, the
// last wave rather than a fourth that never comes.
func TestLockWave(t *testing.T) {
	us := time.Microsecond
	for _, c := range []struct {
		t        sim.Instant
		from, to sim.Instant
		n        int
	}{
		{-us, 0, 5 * us, 1},
		{0, 0, 5 * us, 1},
		{9999, 0, 5 * us, 1},
		{10 * us, 10 * us, 15 * us, 2},
		{25 * us, 20 * us, 25 * us, 3},
		{30 * us, 20 * us, 25 * us, 3},
		{time.Hour, 20 * us, 25 * us, 3},
	} {
		from, to, n := lockWave(c.t)
		if from != c.from || to != c.to || n != c.n {
			t.Errorf("lockWave(%v) = %v, %v, wave %d; want %v, %v, wave %d", c.t, from, to, n, c.from, c.to, c.n)
		}
	}
}
