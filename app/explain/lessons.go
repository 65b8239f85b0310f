package explain

import (
	"fmt"
	"strconv"
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

// events returns the requests of a setup's clients before until.
func events(s *sim.Setup, until limiter.Instant) ([]sim.Event, error) {
	src, err := sim.NewSource(s.Clients, s.Seed, nil, nil)
	if err != nil {
		return nil, err
	}
	return src.Next(until-1, nil), nil
}

func admitted(d limiter.Decision) int64 {
	if d.Allowed {
		return 1
	}
	return 0
}

func admittedIf(ok bool) int64 {
	if ok {
		return 1
	}
	return 0
}
