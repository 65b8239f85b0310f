package explain

import (
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// NaiveWallClock is a deliberately naive demonstration clock for the lesson
// on monotonic time. It is not a library default and must not be copied
// into real code: it computes instants from wall-clock Unix values
// (Wall().UnixNano() − Start.UnixNano()), which the limiter package forbids,
// so when the wall clock is set back or forward (NTP, an operator, a VM
// resumed) its instants jump with it.
//
// Its wall clock is scripted, so the demonstration is exact: Mono stands in
// for the monotonic clock (what limiter.NewMonotonicClock would read) and
// each Jump moves the wall clock by By once Mono reaches At.
type NaiveWallClock struct {
	Mono  *limiter.ManualClock
	Start time.Time
	Jumps []Jump
}

// Jump is a wall-clock step: at monotonic instant At, the wall clock moves
// by By (negative: set back).
type Jump struct {
	At limiter.Instant
	By time.Duration
}

// Wall returns the wall-clock time: Start, plus the monotonic elapsed time,
// plus every jump already made.
func (c *NaiveWallClock) Wall() time.Time {
	now := c.Mono.Now()
	t := c.Start.Add(now)
	for _, j := range c.Jumps {
		if j.At <= now {
			t = t.Add(j.By)
		}
	}
	return t
}

// Now returns the naive instant: wall-clock Unix nanoseconds since Start.
// This is the mistake the lesson shows.
func (c *NaiveWallClock) Now() limiter.Instant {
	return limiter.Instant(c.Wall().UnixNano() - c.Start.UnixNano())
}

var _ limiter.Clock = (*NaiveWallClock)(nil)
