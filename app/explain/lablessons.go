package explain

import (
	"fmt"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// lessonBurst, lessonBoundary and lessonQueue are the lessons played in the
// comparison lab: their Setup is a sim.Setup and their result FromLab.
func lessonBurst() Lesson {
	return Lesson{
		ID: "burst-vs-rate", Title: "Burst versus sustained rate",
		Watch: "Both lanes refill 5 tokens per second; the first holds 10, the second 1. One client sends 20 requests per second, one every 50 ms " +
			"from 0 s to 5 s, both included: 101 requests. Watch the first second, then the steady state.",
		Shows: "The bucket size (burst) is not a per-second cap: in the first second the full bucket is spent and the refill " +
			"comes on top, so 14 of the first 20 requests pass within one second. After that both lanes admit the rate, 5 per second (and 1 more at 5 s): 35 in all with a burst of 10, 26 with a burst of 1.",
		Interview: "A token bucket has two knobs: the rate bounds the long-run average, the burst bounds how far ahead of it a " +
			"client may get. In any interval of length L at most burst + rate × L pass.",
		Setup: &sim.Setup{
			Lanes: []sim.LaneSpec{
				lane(limiter.Config{Kind: limiter.KindTokenBucket, Rate: 5, Burst: 10}),
				lane(limiter.Config{Kind: limiter.KindTokenBucket, Rate: 5, Burst: 1}),
			},
			Clients: []sim.Client{{Name: "alice", Pattern: sim.Pattern{Kind: sim.PatternSteady, Rate: 20}, Weight: 1}},
			Seed:    1, Speed: 1, Worst: time.Second,
		},
		Until: 5 * time.Second,
		check: func(r Result) (bool, string) {
			if len(r.Lanes) != 2 {
				return false, "expected two lanes"
			}
			a, b := r.Lanes[0], r.Lanes[1]
			ok := a.Worst.Units > 10 && b.Worst.Units <= 6 && a.Allowed-b.Allowed == 9
			return ok, fmt.Sprintf("burst 10: %d admitted in the busiest second (more than the burst of 10) and %d in 5 s; "+
				"burst 1: %d in the busiest second and %d in 5 s. The difference, %d, is the extra burst spent once.",
				a.Worst.Units, a.Allowed, b.Worst.Units, b.Allowed, a.Allowed-b.Allowed)
		},
	}
}

func lessonBoundary() Lesson {
	budget := func(k limiter.Kind) sim.LaneSpec {
		c, _ := sim.SameBudget(k, 10, time.Second)
		return lane(c)
	}
	return Lesson{
		ID: "boundary-burst", Title: "The fixed-window boundary burst",
		Watch: "Three lanes with the same budget, 10 per second. Mallory sends 10 requests 100 ms before a window boundary (at " +
			"0.9 s) and 10 more at the boundary (at 1 s): 20 requests. Watch the worst case: the most admitted within any 1 s.",
		Shows: "The fixed window admits both bursts, all 20 within 100 ms: twice the limit inside one window length. The sliding window " +
			"log admits 10 and denies 10 (it remembers each instant, up to 10 per client); the sliding window counter admits 10 here too, " +
			"with two counters instead of a log (its bound is 2 × limit − 1 in the worst timing).",
		Interview: "Fixed windows are cheap but allow 2× the limit around a boundary. A sliding log is exact at O(limit) memory per " +
			"key; a sliding counter approximates it in O(1), which is what large systems use.",
		Setup: &sim.Setup{
			Lanes: []sim.LaneSpec{budget(limiter.KindFixedWindow), budget(limiter.KindSlidingWindowLog), budget(limiter.KindSlidingWindowCounter)},
			Clients: []sim.Client{{Name: "mallory", Weight: 1, Pattern: sim.Pattern{Kind: sim.PatternEdge, Size: 10,
				Window: time.Second, Gap: 100 * time.Millisecond}}},
			Seed: 1, Speed: 1, Worst: time.Second,
		},
		// One pair of bursts (0.9 s and 1 s): the next pair would come at
		// 2.9 s and 3 s, and the texts speak of one.
		Until: 2 * time.Second,
		check: func(r Result) (bool, string) {
			if len(r.Lanes) != 3 {
				return false, "expected three lanes"
			}
			fw, log, sc := r.Lanes[0].Worst, r.Lanes[1].Worst, r.Lanes[2].Worst
			ok := fw.Units == 20 && log.Units == 10 && sc.Units <= 19
			return ok, fmt.Sprintf("fixed window: %d within 1 s, in [%s, %s) (2 × the limit of 10); sliding window log: %d; "+
				"sliding window counter: %d. Memory per client: the log up to 10 instants, the counter 2 counts.",
				fw.Units, units.FormatDuration(fw.Start), units.FormatDuration(fw.End), log.Units, sc.Units)
		},
	}
}

func lessonQueue() Lesson {
	nodelay, _ := sim.PresetByID("nginx-nodelay")
	delay, _ := sim.PresetByID("nginx-delay")
	return Lesson{
		ID: "queue-vs-meter", Title: "Leaky bucket: a queue or a meter",
		Watch: "nginx limit_req rate=10r/s burst=20, with and without nodelay. A client fires 30 requests at once, then 5 more at 1.5 s. " +
			"Compare the decisions, then the delay of each admitted request.",
		Shows: "Both lanes make the same decisions: 21 of 30 pass (the burst of 20 plus the one the rate allows at once) and " +
			"the other 9 are rejected; 1.5 s later the bucket has drained enough for all 5. Without nodelay the bucket is a queue: the 21st request (the last of " +
			"the burst of 30 to be admitted) waits 2 s so that they leave at 10 per second (the 5 at 1.5 s wait 0.6 s to 1 s). With nodelay it is a meter: the same requests pass at once.",
		Interview: "A leaky bucket either shapes traffic (queue: smooth output, added latency) or polices it (meter: " +
			"decisions only, equivalent to a token bucket). nginx's nodelay switches between the two.",
		Setup: &sim.Setup{
			Lanes:   []sim.LaneSpec{lane(delay.Config), lane(nodelay.Config)},
			Clients: []sim.Client{{Name: "client", Pattern: sim.Pattern{Kind: sim.PatternNone}, Weight: 1}},
			Seed:    1, Speed: 1, Worst: time.Second,
		},
		Script:  []sim.Event{{At: 0, Client: "client", N: 30}, {At: 1500 * time.Millisecond, Client: "client", N: 5}},
		Until:   3 * time.Second,
		Shaping: []bool{true, false},
		check: func(r Result) (bool, string) {
			if len(r.Lanes) != 2 {
				return false, "expected two lanes"
			}
			q, m := r.Lanes[0], r.Lanes[1]
			ok := q.Allowed == m.Allowed && q.Denied == m.Denied && q.MaxDelay == 2*time.Second
			return ok, fmt.Sprintf("both lanes: %d admitted, %d rejected. As a queue the longest wait is %s (the 21st request, "+
				"(21 − 1) × 100 ms); as a meter every admitted request passes at once.", q.Allowed, q.Denied, units.FormatDuration(q.MaxDelay))
		},
	}
}
