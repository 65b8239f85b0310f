package learn

import (
	"slices"
	"time"

	"github.com/ratelab/ratelab/app/sim"
)

// beforeStart is a lesson clock's instant before anything has happened: no
// request decided, no row of the table known. Instant 0 is after the
// requests at 0 (lesson 6 fires 30 there).
const beforeStart sim.Instant = -1

// lessonClock is the clock a lesson plays on, driven like the lab's: play,
// pause, step one event forward or back, a speed, and a scrubber. It is a
// pure model: the lesson run reads its instant and shows the lesson as it
// is then (every event at or before it has happened).
//
// Events are the instants at which something happens (requests decided, a
// lock taken, a row of the table): a step moves to the next or previous
// one. Speed multiplies the lesson's pace, the whole lesson in
// lessonPlayTime at 1×: lessons last from 30 µs to 12 s, so real time would
// show either nothing or too little.
type lessonClock struct {
	until   sim.Instant
	events  []sim.Instant // sorted, distinct, within [0, until]
	t       sim.Instant   // beforeStart, or 0 to until
	playing bool
	speed   float64
}

// newLessonClock is a paused clock before the start of a lesson of length
// until whose events are at the given instants (in any order; repeats and
// instants outside [0, until] are dropped).
func newLessonClock(until sim.Instant, events []sim.Instant) *lessonClock {
	evs := make([]sim.Instant, 0, len(events))
	for _, e := range events {
		if e >= 0 && e <= until {
			evs = append(evs, e)
		}
	}
	slices.Sort(evs)
	return &lessonClock{until: until, events: slices.Compact(evs), t: beforeStart, speed: 1}
}

// Now is the clock's instant: beforeStart, or 0 to until.
func (c *lessonClock) Now() sim.Instant { return c.t }

// Started reports that the clock has left the start (played, stepped or
// scrubbed); Ended that it is at the lesson's end.
func (c *lessonClock) Started() bool { return c.t != beforeStart }
func (c *lessonClock) Ended() bool   { return c.t >= c.until }

// Playing reports that the clock runs; it stops at the end.
func (c *lessonClock) Playing() bool { return c.playing }

// Restart goes back before the start and plays.
func (c *lessonClock) Restart() { c.t, c.playing = beforeStart, true }

// Play runs the clock from where it is (from the start once at the end).
func (c *lessonClock) Play() {
	if c.Ended() {
		c.t = beforeStart
	}
	c.playing = true
}

// Pause stops the clock where it is.
func (c *lessonClock) Pause() { c.playing = false }

// Speed is the multiple of the lesson's pace; SetSpeed takes any x > 0.
func (c *lessonClock) Speed() float64 { return c.speed }
func (c *lessonClock) SetSpeed(x float64) {
	if x > 0 {
		c.speed = x
	}
}

// Tick moves a playing clock by real time dt at its speed: the lesson's
// length takes lessonPlayTime at 1×. It moves at least 1 ns (a frame of a
// 30 µs lesson at 0.1× is under 1 ns), and stops playing at the end. It
// reports whether the instant changed.
func (c *lessonClock) Tick(dt time.Duration) bool {
	if !c.playing {
		return false
	}
	d := sim.Instant(float64(dt) * c.speed * float64(c.until) / float64(lessonPlayTime))
	c.Seek(max(c.t, 0) + max(d, 1))
	return true
}

// Seek moves the clock to t, within beforeStart and the end; at the end it
// stops playing.
func (c *lessonClock) Seek(t sim.Instant) {
	c.t = min(max(t, beforeStart), c.until)
	if c.Ended() {
		c.playing = false
	}
}

// StepForward pauses and moves to the next event after the instant (the
// end when none is left).
func (c *lessonClock) StepForward() {
	c.playing = false
	i, _ := slices.BinarySearch(c.events, c.t+1)
	if i < len(c.events) {
		c.Seek(c.events[i])
		return
	}
	c.Seek(c.until)
}

// StepBack pauses and moves to the event before the instant: the state
// just after it, so the events at the instant are undone. Before the first
// event it goes back before the start.
func (c *lessonClock) StepBack() {
	c.playing = false
	i, _ := slices.BinarySearch(c.events, c.t)
	if i > 0 {
		c.Seek(c.events[i-1])
		return
	}
	c.Seek(beforeStart)
}

// Event is the number of events that have happened (0 before the first),
// and Events how many the lesson has.
func (c *lessonClock) Event() int {
	i, _ := slices.BinarySearch(c.events, c.t+1)
	return i
}
func (c *lessonClock) Events() int { return len(c.events) }

// scrubSteps is the scrubber's resolution: its value is the instant in
// thousandths of the lesson.
const scrubSteps = 1000

// ScrubValue is the scrubber's position for the instant (0 before the
// start), and SeekScrub moves to a position: instant until × v / 1000.
func (c *lessonClock) ScrubValue() int {
	if c.t <= 0 || c.until <= 0 {
		return 0
	}
	return int(int64(c.t) * scrubSteps / int64(c.until))
}

func (c *lessonClock) SeekScrub(v int) {
	c.playing = false
	v = min(max(v, 0), scrubSteps)
	c.Seek(sim.Instant(int64(c.until) * int64(v) / scrubSteps))
}
