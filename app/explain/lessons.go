package explain

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// Lesson is one guided lesson: a preset scenario, a short text, and a "what
// you should have seen" check on the outcome.
//
// A lab lesson (Setup not nil) is played in the comparison lab: build a
// sim.Lab from Setup, fire Script's requests at their instants, run to
// Until, then call Check(FromLab(lab)). Run does exactly that without a UI.
// The other lessons (monotonic clock, eviction, locks, many gateways) run
// their own deterministic simulation in Run, which returns the table the
// page draws; Setup is then nil and Traffic describes the clients.
type Lesson struct {
	// ID is the lesson's stable name, for links ("#lesson=boundary-burst").
	ID string
	// Number is the lesson's place in Lessons(), from 1; Lessons sets it.
	Number int
	Title  string
	// Watch says what to look at, Shows what it demonstrates, Interview
	// the point to make in an interview.
	Watch, Shows, Interview string
	// Setup is the lab scenario (nil for a lesson with its own simulation).
	Setup *sim.Setup
	// Script holds manual requests: N requests of 1 unit for Client, fired
	// at At (in the lab: AdvanceTo(At), then Fire(Client, N)).
	Script []sim.Event
	// Until is how long the scenario runs.
	Until limiter.Instant
	// Shaping marks, per lane of Setup, a leaky bucket used as a queue
	// (admitted requests wait Record.Delay) rather than as a meter.
	Shaping []bool

	run   func(Lesson) (Result, error)
	check func(Result) (bool, string)
}

// Result is what a lesson's run produced: per-lane totals (lab lessons),
// named facts, and a table for the page.
type Result struct {
	Lesson string
	Lanes  []LaneResult
	Facts  []Fact
	// Columns and Rows are a table the page draws (a timeline, a
	// comparison); Rows hold display strings.
	Columns []string
	Rows    [][]string
	// RowAt is the instant each row is known at, for a page that plays the
	// lesson on a clock (empty: every row at the lesson's end); Events are
	// the instants at which something happens, where a step stops (empty:
	// those of RowAt).
	RowAt  []limiter.Instant
	Events []limiter.Instant
}

// LaneResult is one lab lane at the end of a lesson.
type LaneResult struct {
	Title           string
	Allowed, Denied int64
	// Worst is the most units admitted within any window of the setup's
	// worst-case length.
	Worst sim.WorstCase
	// MaxDelay is the longest queue Delay among the lane's remembered
	// decisions.
	MaxDelay time.Duration
}

// Fact is one named number a lesson measured, with a sentence for it.
type Fact struct {
	Name  string
	Value int64
	Text  string
}

// Fact returns the value of the named fact, and false if there is none.
func (r Result) Fact(name string) (int64, bool) {
	for _, f := range r.Facts {
		if f.Name == name {
			return f.Value, true
		}
	}
	return 0, false
}

func (r *Result) add(name string, v int64, format string, args ...any) {
	r.Facts = append(r.Facts, Fact{Name: name, Value: v, Text: fmt.Sprintf(format, args...)})
}

func (r Result) f(name string) int64 { v, _ := r.Fact(name); return v }

// FromLab reads a lab lesson's result from the lab it was played in.
func FromLab(lesson string, lab *sim.Lab) Result {
	r := Result{Lesson: lesson, Columns: []string{"lane", "allowed", "denied", "worst case"}}
	for _, ln := range lab.Lanes() {
		lr := LaneResult{Title: ConfigText(ln.Spec().Config), Allowed: ln.Total().Allowed, Denied: ln.Total().Denied, Worst: ln.Worst()}
		for _, rec := range ln.History(nil) {
			lr.MaxDelay = max(lr.MaxDelay, rec.Delay)
		}
		r.Lanes = append(r.Lanes, lr)
		r.Rows = append(r.Rows, []string{lr.Title, strconv.FormatInt(lr.Allowed, 10), strconv.FormatInt(lr.Denied, 10),
			fmt.Sprintf("%d in [%s, %s)", lr.Worst.Units, units.FormatDuration(lr.Worst.Start), units.FormatDuration(lr.Worst.End))})
	}
	return r
}

// Run runs the lesson to its end, without a UI, and returns its result.
func (l Lesson) Run() (Result, error) {
	if l.run != nil {
		return l.run(l)
	}
	lab, err := sim.New(*l.Setup, nil, sim.Options{})
	if err != nil {
		return Result{}, err
	}
	for _, e := range l.Script {
		if err := lab.AdvanceTo(e.At); err != nil {
			return Result{}, err
		}
		if err := lab.Fire(e.Client, e.N); err != nil {
			return Result{}, err
		}
	}
	if err := lab.AdvanceTo(l.Until); err != nil {
		return Result{}, err
	}
	return FromLab(l.ID, lab), nil
}

// Check says whether r shows what the lesson teaches ("what you should have
// seen"), in a sentence with the numbers.
func (l Lesson) Check(r Result) (ok bool, message string) { return l.check(r) }

// Lessons returns the eight guided lessons, in order, each numbered by its
// place in the list (links name a lesson by its ID, never its number).
func Lessons() []Lesson {
	ls := []Lesson{lessonDesign(), lessonBurst(), lessonBoundary(), lessonClock(), lessonEviction(), lessonLocks(), lessonQueue(), lessonGateways()}
	for i := range ls {
		ls[i].Number = i + 1
	}
	return ls
}

// LessonByID returns the lesson with the given ID, and false if none.
func LessonByID(id string) (Lesson, bool) {
	for _, l := range Lessons() {
		if l.ID == id {
			return l, true
		}
	}
	return Lesson{}, false
}

func lane(c limiter.Config) sim.LaneSpec { return sim.LaneSpec{Config: c} }

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

// events returns the requests of a setup's clients before until.
func events(s *sim.Setup, until limiter.Instant) ([]sim.Event, error) {
	src, err := sim.NewSource(s.Clients, s.Seed, nil, nil)
	if err != nil {
		return nil, err
	}
	return src.Next(until-1, nil), nil
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

func admitted(d limiter.Decision) int64 {
	if d.Allowed {
		return 1
	}
	return 0
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

// Lesson 4's scenario.
const (
	evictClients = 5000
	evictTTL     = 2 * time.Second
)

func lessonEviction() Lesson {
	return Lesson{
		ID: "per-client-eviction", Title: "Per-client buckets and idle eviction",
		Watch: "5,000 clients each send one request, one per millisecond over 5 s, to a keyed token bucket (1 per second, " +
			"burst 5, idle TTL 2 s, swept every second). Mallory sends 10 at once at 0 s and 5 more at 3 s. Watch the keys " +
			"held, and compare a naive TTL cache that drops any key idle for 2 s.",
		Shows: "Memory follows the active clients, not every client ever seen: keys are created on first use and swept once " +
			"idle and full again. Mallory, idle but in debt, is kept: at 3 s she has 3 tokens and gets 3. The naive cache " +
			"forgets her at 2 s and hands her a fresh bucket: 5, two of them unearned.",
		Interview: "Bound memory with one small state per active key, lazy creation, and eviction of idle keys, but evict " +
			"only a key whose state equals a fresh one, or eviction becomes a way to reset a limit. At millions of keys, " +
			"shard the map and amortise the sweep.",
		Until: 10 * time.Second,
		run:   runEviction,
		check: func(r Result) (bool, string) {
			ok := r.f("mallory.keyed") == 3 && r.f("mallory.naive") == 5 && r.f("keys.end") == 0 && r.f("keys.peak") < evictClients
			return ok, fmt.Sprintf("keys held peaked at %d of %d clients and fell to %d after the last sweep; Mallory at 3 s: "+
				"%d admitted with eviction that keeps debt, %d with the naive TTL cache (%d unearned).",
				r.f("keys.peak"), evictClients+1, r.f("keys.end"), r.f("mallory.keyed"), r.f("mallory.naive"),
				r.f("mallory.naive")-r.f("mallory.keyed"))
		},
	}
}

func runEviction(l Lesson) (Result, error) {
	cfg := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 5}
	factory := func(string) (limiter.Strategy, error) { return limiter.New(cfg) }
	k, err := limiter.NewKeyed(factory, limiter.KeyedOptions{IdleTTL: evictTTL, SweepEvery: -1})
	if err != nil {
		return Result{}, err
	}
	naive := naiveCache{cfg: cfg, m: map[string]*naiveEntry{}}
	evs := evictionEvents()
	// Both caches counted after their sweep (keys held before it too): the
	// table compared the keyed limiter before its sweep with the naive cache
	// after its own.
	r := Result{Lesson: l.ID, Columns: []string{"second", "keys held before the sweep", "evicted", "keys held after", "naive cache keys after"}}
	var peak, malK, malN int64
	next := time.Second
	sweep := func(until limiter.Instant) {
		for ; next <= until; next += time.Second {
			held := int64(k.Len())
			peak = max(peak, held)
			ev := k.Sweep(next)
			naive.sweep(next)
			r.Rows = append(r.Rows, []string{units.FormatDuration(next), strconv.FormatInt(held, 10), strconv.Itoa(ev), strconv.Itoa(k.Len()), strconv.Itoa(len(naive.m))})
			r.RowAt = append(r.RowAt, next)
		}
	}
	for _, e := range evs {
		sweep(e.At)
		d, err := k.AllowNAt(e.At, e.Client, e.N)
		if err != nil {
			return Result{}, err
		}
		nv := naive.allow(e.At, e.Client)
		if e.Client == "mallory" && e.At == 3*time.Second {
			malK, malN = malK+admitted(d), malN+admittedIf(nv)
		}
	}
	sweep(l.Until)
	r.add("keys.peak", peak, "most keys held at a sweep: %d", peak)
	r.add("keys.end", int64(k.Len()), "keys held at the end: %d", k.Len())
	r.add("mallory.keyed", malK, "Mallory at 3 s, keyed limiter: %d admitted", malK)
	r.add("mallory.naive", malN, "Mallory at 3 s, naive TTL cache: %d admitted", malN)
	return r, nil
}

// naiveCache is the naive per-client cache of the eviction lesson: a map of
// limiters of cfg, each dropped once idle for the TTL, whatever its state.
type naiveCache struct {
	cfg limiter.Config
	m   map[string]*naiveEntry
}

type naiveEntry struct {
	s    limiter.Strategy
	seen limiter.Instant
}

// allow decides one request of key at at, creating key's limiter if the
// cache has none.
func (c naiveCache) allow(at limiter.Instant, key string) bool {
	e := c.m[key]
	if e == nil {
		s, _ := limiter.New(c.cfg)
		e = &naiveEntry{s: s}
		c.m[key] = e
	}
	e.seen = at
	d, _ := e.s.AllowN(at, 1)
	return d.Allowed
}

// sweep drops every limiter idle for evictTTL at now.
func (c naiveCache) sweep(now limiter.Instant) {
	for key, e := range c.m {
		if now-e.seen >= evictTTL {
			delete(c.m, key)
		}
	}
}

func admittedIf(ok bool) int64 {
	if ok {
		return 1
	}
	return 0
}

// evictionEvents are the eviction lesson's requests: Mallory's burst at 0,
// a new client every millisecond, and Mallory again at 3 s.
func evictionEvents() []sim.Event {
	var evs []sim.Event
	for range 10 {
		evs = append(evs, sim.Event{At: 0, Client: "mallory", N: 1})
	}
	for i := range evictClients {
		at := time.Duration(i) * time.Millisecond
		if at == 3*time.Second {
			for range 5 {
				evs = append(evs, sim.Event{At: at, Client: "mallory", N: 1})
			}
		}
		evs = append(evs, sim.Event{At: at, Client: fmt.Sprintf("c%04d", i+1), N: 1})
	}
	return evs
}

// LockBench is one recorded run of the limiter package's own benchmarks
// (limiter/benchmarks, BenchmarkKeyedScaling, `make bench`): the median time
// per decision for distinct keys, with one goroutine and with two, for
// limiter.Keyed (a lock per key in a sharded map) and for one global lock
// around a map of token buckets. Lesson 5's schedule holds each lock for
// the one-goroutine figure of its design, on the machine's cores.
type LockBench struct {
	Machine                  string
	Cores                    int
	PerKey1, PerKey2         time.Duration
	GlobalLock1, GlobalLock2 time.Duration
}

// RecordedLockBench is the run lesson 5 uses (README's Performance section
// quotes its KeyedScaling rows).
var RecordedLockBench = LockBench{
	Machine: "go1.26.8 linux/amd64, AMD EPYC (Oxide Virtual Turin-like), 2 cores, at 2f69143",
	Cores:   2,
	PerKey1: 485 * time.Nanosecond, PerKey2: 226 * time.Nanosecond,
	GlobalLock1: 480 * time.Nanosecond, GlobalLock2: 739 * time.Nanosecond,
}

// LockRequests are lesson 5's decisions: three waves, 10 µs apart, of 9
// simultaneous decisions (8 clients, c1 sends two).
func LockRequests() []LockRequest {
	var rs []LockRequest
	for wave := range LockWaves {
		at := time.Duration(wave) * LockWaveGap
		rs = append(rs, LockRequest{Client: "c1", Key: "c1", Arrive: at})
		for c := 1; c <= 8; c++ {
			name := fmt.Sprintf("c%d", c)
			rs = append(rs, LockRequest{Client: name, Key: name, Arrive: at})
		}
	}
	return rs
}

// The lock lesson sends LockWaves waves of requests, LockWaveGap apart.
const (
	LockWaves   = 3
	LockWaveGap = 10 * time.Microsecond
)

func lessonLocks() Lesson {
	return Lesson{
		ID: "lock-design", Title: "Lock design: one global lock or a lock per key",
		Watch: "Three waves of 9 simultaneous decisions (8 clients, c1 sends two) on the 2 cores of the machine the limiter's " +
			"benchmark ran on, each decision holding its lock for the time that benchmark measured (480 ns under one global " +
			"lock, 485 ns with limiter.Keyed's lock per key). The table gives each decision's start and wait under one " +
			"global lock, then under a lock per key. Then two goroutines create the same key at once.",
		Shows: "With one lock every decision queues behind every other, whatever the cores; with a lock per key only c1's two " +
			"decisions wait for each other, and the rest wait only for a core. The schedule is a model; its hold times and " +
			"the throughput figures are measurements (make bench, recorded with the machine): with 2 goroutines one global " +
			"lock got slower (480 → 739 ns per decision) while the per-key design got faster (485 → 226 ns). The second part shows the check-then-act race: two goroutines both find no limiter, both create " +
			"one, and the key gets two buckets (twice the burst); limiter.Keyed checks again under the shard lock before it inserts, so both share the one inserted first.",
		Interview: "Per-key locks (or a sharded map with a lock per entry) keep unrelated clients from waiting on each other. " +
			"Lazy creation must be atomic: check again under the write lock, or use a load-or-store, so two first requests " +
			"share one limiter.",
		Until: 30 * time.Microsecond,
		run:   runLocks,
		check: func(r Result) (bool, string) {
			ok := r.f("wait.global") > r.f("wait.perkey") && r.f("race.naive") == 10 && r.f("race.keyed") == 5
			b := RecordedLockBench
			return ok, fmt.Sprintf("total waiting: %s with one global lock, %s with a lock per key (longest %s vs %s; "+
				"hold times measured by make bench on %s). Lazy creation, burst 5, 10 first requests: %d admitted with "+
				"check-then-act, %d with limiter.Keyed.",
				units.FormatDuration(time.Duration(r.f("wait.global"))), units.FormatDuration(time.Duration(r.f("wait.perkey"))),
				units.FormatDuration(time.Duration(r.f("max.global"))), units.FormatDuration(time.Duration(r.f("max.perkey"))), b.Machine, r.f("race.naive"), r.f("race.keyed"))
		},
	}
}

func runLocks(l Lesson) (Result, error) {
	reqs := LockRequests()
	bench := RecordedLockBench
	g := LockTimeline(reqs, false, bench.Cores, bench.GlobalLock1)
	p := LockTimeline(reqs, true, bench.Cores, bench.PerKey1)
	r := Result{Lesson: l.ID, Columns: []string{"client", "arrives", "global lock: starts", "waits", "per-key lock: starts", "waits"}}
	var wg, wp, mg, mp time.Duration
	for i := range reqs {
		wg, wp = wg+g[i].Wait, wp+p[i].Wait
		mg, mp = max(mg, g[i].Wait), max(mp, p[i].Wait)
		r.Rows = append(r.Rows, []string{reqs[i].Client, units.FormatDuration(reqs[i].Arrive), units.FormatDuration(g[i].Start), units.FormatDuration(g[i].Wait), units.FormatDuration(p[i].Start), units.FormatDuration(p[i].Wait)})
		r.RowAt = append(r.RowAt, reqs[i].Arrive)
		r.Events = append(r.Events, reqs[i].Arrive, g[i].Start, g[i].Start+bench.GlobalLock1, p[i].Start, p[i].Start+bench.PerKey1)
	}
	r.add("wait.global", int64(wg), "total waiting, one global lock: %s", units.FormatDuration(wg))
	r.add("wait.perkey", int64(wp), "total waiting, a lock per key: %s", units.FormatDuration(wp))
	r.add("max.global", int64(mg), "longest wait, one global lock: %s", units.FormatDuration(mg))
	r.add("max.perkey", int64(mp), "longest wait, a lock per key: %s", units.FormatDuration(mp))

	// The check-then-act race, as a scripted interleaving of two
	// goroutines on a map whose insert does not check again.
	race, err := LazyCreationRace(false)
	if err != nil {
		return Result{}, err
	}
	naive := int64(race.Admitted)
	cfg := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: race.Burst}
	keyed, err := keyedFirstRequests(cfg)
	if err != nil {
		return Result{}, err
	}
	r.add("race.naive", naive, "check-then-act: %d admitted for a burst of 5", naive)
	r.add("race.keyed", keyed, "limiter.Keyed: %d admitted for a burst of 5", keyed)
	return r, nil
}

// keyedFirstRequests: with limiter.Keyed, 10 goroutines send the first
// requests for one key at once; creation is race-free, so they share one
// bucket of cfg. It returns how many were admitted.
func keyedFirstRequests(cfg limiter.Config) (int64, error) {
	k, err := limiter.NewKeyed(func(string) (limiter.Strategy, error) { return limiter.New(cfg) }, limiter.KeyedOptions{SweepEvery: -1})
	if err != nil {
		return 0, err
	}
	var wgrp sync.WaitGroup
	var mu sync.Mutex
	keyed := int64(0)
	for range 10 {
		wgrp.Go(func() {
			if d, _ := k.AllowNAt(0, "alice", 1); d.Allowed {
				mu.Lock()
				keyed++
				mu.Unlock()
			}
		})
	}
	wgrp.Wait()
	return keyed, nil
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
