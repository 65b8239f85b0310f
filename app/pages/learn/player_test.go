package learn

import (
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
)

// TestLessonClock: play, pause, steps, scrub and speed move the clock to
// exact instants.
func TestLessonClock(t *testing.T) {
	ms := time.Millisecond
	c := newLessonClock(3*time.Second, []sim.Instant{1500 * ms, 0, 1500 * ms, -5, 4 * time.Second})
	check := func(what string, at sim.Instant, playing bool, event int) {
		t.Helper()
		if c.Now() != at || c.Playing() != playing || c.Event() != event {
			t.Errorf("%s: at %v, playing %v, event %d; want %v, %v, %d", what, c.Now(), c.Playing(), c.Event(), at, playing, event)
		}
	}
	check("new", beforeStart, false, 0)
	if c.Events() != 2 {
		t.Errorf("events %d, want 2 (0 and 1.5 s)", c.Events())
	}
	c.StepForward()
	check("step", 0, false, 1)
	c.StepForward()
	check("step", 1500*ms, false, 2)
	c.StepForward()
	check("step past the last event", 3*time.Second, false, 2)
	if !c.Ended() {
		t.Error("not ended at 3 s")
	}
	c.StepBack()
	check("back", 1500*ms, false, 2)
	c.StepBack()
	check("back", 0, false, 1)
	c.StepBack()
	check("back before the first event", beforeStart, false, 0)
	c.StepBack()
	check("back at the start", beforeStart, false, 0)
	c.Play()
	// 1× plays 3 s in 2.5 s: 100 ms of real time is 120 ms.
	c.Tick(100 * ms)
	check("tick at 1×", 120*ms, true, 1)
	c.SetSpeed(2)
	c.Tick(100 * ms)
	check("tick at 2×", 360*ms, true, 1)
	c.Pause()
	if c.Tick(100*ms) || c.Now() != 360*ms {
		t.Errorf("a paused clock moved to %v", c.Now())
	}
	c.SeekScrub(500)
	check("scrub to 500 of 1000", 1500*ms, false, 2)
	if c.ScrubValue() != 500 {
		t.Errorf("scrub value %d, want 500", c.ScrubValue())
	}
	c.Play()
	c.Tick(time.Hour)
	check("tick past the end", 3*time.Second, false, 2)
	c.Play() // from the start again
	check("play at the end", beforeStart, true, 0)
	c.SetSpeed(0)
	if c.Speed() != 2 {
		t.Errorf("speed %v after SetSpeed(0), want 2 kept", c.Speed())
	}
}

// TestLessonSteps: lesson 1 stepped one event at a time shows its lanes as
// they are at each instant, forward and back, and a scrub back replays the
// lab from the start.
func TestLessonSteps(t *testing.T) {
	l, _ := explain.LessonByID("burst-vs-rate")
	r := newLessonRun(l)
	if r.clock.Events() != 101 {
		t.Fatalf("%d events, want 101 (one request every 50 ms from 0 to 5 s)", r.clock.Events())
	}
	counts := func() [4]int64 {
		a, b := r.lab.Lanes()[0].Total(), r.lab.Lanes()[1].Total()
		return [4]int64{a.Allowed, a.Denied, b.Allowed, b.Denied}
	}
	for _, c := range []struct {
		move string
		at   sim.Instant
		want [4]int64
	}{
		{"", beforeStart, [4]int64{0, 0, 0, 0}},
		{"forward", 0, [4]int64{1, 0, 1, 0}},
		{"forward", 50 * time.Millisecond, [4]int64{2, 0, 1, 1}},
		{"back", 0, [4]int64{1, 0, 1, 0}},
		{"back", beforeStart, [4]int64{0, 0, 0, 0}},
		{"scrub 200", time.Second, [4]int64{15, 6, 6, 15}},
		{"forward", 1050 * time.Millisecond, [4]int64{15, 7, 6, 16}},
		{"scrub 100", 500 * time.Millisecond, [4]int64{11, 0, 3, 8}},
		{"end", 5 * time.Second, [4]int64{35, 66, 26, 75}},
	} {
		switch c.move {
		case "forward":
			r.clock.StepForward()
		case "back":
			r.clock.StepBack()
		case "scrub 200":
			r.clock.SeekScrub(200)
		case "scrub 100":
			r.clock.SeekScrub(100)
		case "end":
			r.clock.Seek(l.Until)
		}
		r.sync()
		if r.clock.Now() != c.at || counts() != c.want {
			t.Errorf("%s: at %v, lanes %v; want %v, %v", c.move, r.clock.Now(), counts(), c.at, c.want)
		}
	}
	if !r.done || !r.ok {
		t.Errorf("at the end: done %v, check %v %q", r.done, r.ok, r.msg)
	}
}

// TestLessonTableRows: an own-simulation lesson's table shows the rows known
// at the clock's instant (lesson 3: one row per request, 4 per second).
func TestLessonTableRows(t *testing.T) {
	l, _ := explain.LessonByID(lessonClockID)
	r := newLessonRun(l)
	for _, c := range []struct {
		at   sim.Instant
		rows int
	}{{beforeStart, 0}, {0, 1}, {time.Second, 5}, {3900 * time.Millisecond, 16}, {12 * time.Second, 48}} {
		r.clock.Seek(c.at)
		r.sync()
		if got := r.rowsKnown(); got != c.rows {
			t.Errorf("at %v: %d rows, want %d", c.at, got, c.rows)
		}
	}
}

// TestSecondLabel: a second's marks are labelled by the instant of their
// burst, or by the second they fall in when they are spread over it.
func TestSecondLabel(t *testing.T) {
	const ms = time.Millisecond
	burst := []sim.Record{{At: 900 * ms}, {At: 900 * ms}, {At: 1000 * ms}}
	spread := []sim.Record{{At: 1050 * ms}, {At: 1100 * ms}, {At: 2000 * ms}}
	for _, c := range []struct {
		name  string
		hist  []sim.Record
		until sim.Instant
		want  string
	}{
		{"burst at 0.9 s", burst, 2 * time.Second, "0.90 s"},
		{"burst at 1 s", burst[2:], 2 * time.Second, "1.00 s"},
		{"spread over 1–2 s", spread, 5 * time.Second, "1–2 s"},
		{"one request", spread[2:], 5 * time.Second, "2.00 s"},
	} {
		if got := secondLabel(c.hist, c.until); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
