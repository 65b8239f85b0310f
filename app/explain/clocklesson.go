package explain

import (
	"fmt"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// lessonClock is the monotonic-clock lesson: two token buckets, one fed
// monotonic instants, one a naive wall clock's (runClock).
func lessonClock() Lesson {
	return Lesson{
		ID: "monotonic-clock", Title: "Why a monotonic clock",
		Watch: "One client sends 4 requests per second for 12 s (48 requests) to two identical token buckets (2 per second, burst 4). The first gets " +
			"instants from the monotonic clock; the second from a deliberately naive demo clock that subtracts wall-clock " +
			"Unix times. At 4 s the wall clock is set back 10 s; at 8 s it jumps forward 1 hour.",
		Shows: "Set back, the naive elapsed time goes negative. The limiter never runs backwards: a request stamped before the " +
			"latest instant it has admitted a request at is evaluated at that instant. Here that is 3.5 s, when the bucket was " +
			"empty: the request at 3.75 s saw 0.5 tokens but was denied, and a denial changes nothing. So nothing breaks, but " +
			"until the wall clock is back past 3.5 s every request finds the bucket as it was at 3.5 s, 0 left: the client is " +
			"starved (the table gives the instant each such request was evaluated at). Jumped forward, an hour of refill that " +
			"was never earned fills the bucket at once. The monotonic lane never notices.",
		Interview: "Measure elapsed time with a monotonic clock (Go's time.Now carries one; time.Since uses it). Wall-clock time " +
			"is for display and for absolute deadlines; NTP steps, leap seconds and operators setting the date move it (daylight saving does not: it changes the local time zone, not the clock).",
		Setup: &sim.Setup{
			Lanes:   []sim.LaneSpec{lane(limiter.Config{Kind: limiter.KindTokenBucket, Rate: 2, Burst: 4})},
			Clients: []sim.Client{{Name: "alice", Pattern: sim.Pattern{Kind: sim.PatternSteady, Rate: 4}, Weight: 1}},
			Seed:    1, Speed: 1, Worst: time.Second,
		},
		Until: 12 * time.Second,
		run:   runClock,
		check: func(r Result) (bool, string) {
			ok := r.f("stall.wall") == 0 && r.f("stall.mono") > 0 && r.f("jump.wall") > r.f("jump.mono")
			return ok, fmt.Sprintf("while the wall clock was behind (4 s to 8 s): monotonic %d admitted, wall clock %d (starved; "+
				"naive elapsed reached %s). In the second after the 1 h jump: monotonic %d, wall clock %d (an unearned full "+
				"bucket). In 12 s: monotonic %d, wall clock %d.",
				r.f("stall.mono"), r.f("stall.wall"), units.FormatDuration(time.Duration(r.f("elapsed.min"))), r.f("jump.mono"), r.f("jump.wall"),
				r.f("mono.allowed"), r.f("wall.allowed"))
		},
	}
}

// ClockLessonJumps are lesson 3's wall-clock steps: set back 10 s at 4 s,
// forward 1 h at 8 s.
var ClockLessonJumps = []Jump{{At: 4 * time.Second, By: -10 * time.Second}, {At: 8 * time.Second, By: time.Hour}}

func runClock(l Lesson) (Result, error) {
	cfg := l.Setup.Lanes[0].Config
	mono, err := limiter.New(cfg)
	if err != nil {
		return Result{}, err
	}
	wall, _ := limiter.New(cfg)
	clock := &NaiveWallClock{Mono: &limiter.ManualClock{}, Start: time.Date(2025, 10, 26, 1, 59, 0, 0, time.UTC), Jumps: ClockLessonJumps}
	evs, err := events(l.Setup, l.Until)
	if err != nil {
		return Result{}, err
	}
	r := Result{Lesson: l.ID, Columns: []string{"monotonic instant", "wall-clock instant", "naive elapsed", "monotonic lane", "wall-clock lane"}}
	t := clockTally{stallOne: true}
	prev := limiter.Instant(0)
	// The instant the wall-clock lane evaluates a request at: its stamp, or
	// the latest instant the lane has admitted a request at when the stamp
	// is earlier (package limiter never runs time backwards). The table
	// shows the tokens at that instant, and names it when it is not the
	// stamp.
	wallLast, wallUsed := limiter.Instant(0), false
	for i, e := range evs {
		clock.Mono.Set(e.At)
		w := clock.Now()
		el := w - prev
		if i == 0 {
			el = 0
		}
		prev = w
		t.minEl, t.maxEl = min(t.minEl, el), max(t.maxEl, el)
		at := w
		if wallUsed && at < wallLast {
			at = wallLast
		}
		dm, _ := mono.AllowN(e.At, e.N)
		dw, _ := wall.AllowN(w, e.N)
		if dw.Allowed {
			wallLast, wallUsed = at, true
		}
		ws := wall.State(at)
		wcell := clockVerdict(dw, ws)
		if at != w {
			wcell += " (evaluated at " + units.FormatDuration(at) + ")"
		}
		r.Rows = append(r.Rows, []string{units.FormatDuration(e.At), units.FormatDuration(w), units.FormatDuration(el), clockVerdict(dm, mono.State(e.At)), wcell})
		r.RowAt = append(r.RowAt, e.At)
		t.count(e.At, at, dm, dw, ws.Tokens)
	}
	t.facts(&r)
	return r, nil
}

// clockVerdict is a clock lesson's table cell: the decision and the tokens
// left.
func clockVerdict(d limiter.Decision, s limiter.State) string {
	if d.Allowed {
		return "allowed, " + Tokens(s.Tokens) + " left"
	}
	return "denied, " + Tokens(s.Tokens) + " left"
}

// clockTally counts the clock lesson's admissions: in all, while the wall
// clock is set back (4 s to 8 s) and after it jumps (8 s to 9 s).
type clockTally struct {
	monoN, wallN, stallM, stallW, jumpM, jumpW int64
	minEl, maxEl                               time.Duration
	stallAt                                    limiter.Instant
	stallTokens                                float64
	stallSeen, stallOne                        bool
}

// count counts a request stamped mono, which the wall-clock lane evaluated
// at at, with tokens left.
func (t *clockTally) count(mono, at limiter.Instant, dm, dw limiter.Decision, tokens float64) {
	t.monoN, t.wallN = t.monoN+admitted(dm), t.wallN+admitted(dw)
	if mono >= 4*time.Second && mono < 8*time.Second {
		t.stallM, t.stallW = t.stallM+admitted(dm), t.stallW+admitted(dw)
		if !t.stallSeen {
			t.stallAt, t.stallTokens, t.stallSeen = at, tokens, true
		} else if at != t.stallAt {
			t.stallOne = false // not one instant: the fact says so
		}
	}
	if mono >= 8*time.Second && mono < 9*time.Second {
		t.jumpM, t.jumpW = t.jumpM+admitted(dm), t.jumpW+admitted(dw)
	}
}

// facts adds the lesson's facts to r.
func (t *clockTally) facts(r *Result) {
	r.add("mono.allowed", t.monoN, "monotonic lane: %d admitted", t.monoN)
	r.add("wall.allowed", t.wallN, "wall-clock lane: %d admitted", t.wallN)
	r.add("stall.mono", t.stallM, "4 s to 8 s, monotonic: %d admitted", t.stallM)
	r.add("stall.wall", t.stallW, "4 s to 8 s, wall clock set back: %d admitted", t.stallW)
	if t.stallSeen && t.stallOne {
		r.add("stall.at", int64(t.stallAt), "4 s to 8 s, the wall-clock lane evaluated every request at %s, the latest instant it "+
			"had admitted a request at (every stamp was earlier), when its bucket held %s tokens", units.FormatDuration(t.stallAt), Tokens(t.stallTokens))
	} else {
		r.add("stall.at", -1, "4 s to 8 s, the wall-clock lane evaluated its requests at different instants")
	}
	r.add("jump.mono", t.jumpM, "8 s to 9 s, monotonic: %d admitted", t.jumpM)
	r.add("jump.wall", t.jumpW, "8 s to 9 s, after the 1 h jump: %d admitted", t.jumpW)
	r.add("elapsed.min", int64(t.minEl), "most negative naive elapsed: %s", units.FormatDuration(t.minEl))
	r.add("elapsed.max", int64(t.maxEl), "largest naive elapsed: %s", units.FormatDuration(t.maxEl))
}
