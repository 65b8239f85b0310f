package sim

import (
	"fmt"
	"math"
	"time"
)

// MaxFrame is the most real time one Advance counts: a tab that was in the
// background (timers throttled for minutes) resumes where it left off
// instead of jumping ahead.
const MaxFrame = 250 * time.Millisecond

// MinSpeed and MaxSpeed bound the clock's speed, in simulated seconds per
// real second.
const (
	MinSpeed = 0.1
	MaxSpeed = 100
)

// Clock is the lab's simulated clock. It never reads the time itself: the UI
// passes in the real time elapsed between frames, and the clock turns it
// into simulated time at its speed, unless paused. Its zero value is paused
// at instant 0 at speed 0; use NewClock.
type Clock struct {
	now    Instant
	speed  float64
	paused bool
}

// NewClock returns a running clock at instant 0 and speed 1×.
func NewClock() *Clock { return &Clock{speed: 1} }

// Now returns the simulated instant.
func (c *Clock) Now() Instant { return c.now }

// Speed returns the speed in simulated seconds per real second.
func (c *Clock) Speed() float64 { return c.speed }

// Paused reports whether the clock is paused.
func (c *Clock) Paused() bool { return c.paused }

// SetSpeed sets the speed, from MinSpeed to MaxSpeed; out of range (or NaN)
// it returns an error and keeps the current speed.
func (c *Clock) SetSpeed(x float64) error {
	if err := checkSpeed(x); err != nil {
		return err
	}
	c.speed = x
	return nil
}

func checkSpeed(x float64) error {
	if !(x >= MinSpeed && x <= MaxSpeed) {
		return fmt.Errorf("speed %g× is out of range; want %g× to %g×", x, float64(MinSpeed), float64(MaxSpeed))
	}
	return nil
}

// Pause stops the clock; Advance then moves nothing.
func (c *Clock) Pause() { c.paused = true }

// Resume restarts the clock.
func (c *Clock) Resume() { c.paused = false }

// Advance counts real elapsed time (clamped to [0, MaxFrame]) at the
// clock's speed, unless paused, and returns the new instant.
func (c *Clock) Advance(real time.Duration) Instant {
	if c.paused || real <= 0 {
		return c.now
	}
	real = min(real, MaxFrame)
	c.now += Instant(math.Round(float64(real) * c.speed))
	return c.now
}

// Step moves the clock forward by d (≥ 0), paused or not, and returns the
// new instant.
func (c *Clock) Step(d time.Duration) Instant {
	if d > 0 {
		c.now += d
	}
	return c.now
}

// set moves the clock to t (for stepping to the next request and for the
// scrubber).
func (c *Clock) set(t Instant) { c.now = t }

// Reset moves the clock back to instant 0; speed and pause are kept.
func (c *Clock) Reset() { c.now = 0 }
