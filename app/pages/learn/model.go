package learn

import (
	"fmt"
	"strconv"
	"time"

	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
)

// lessonPlayTime is how long (real time) a lesson takes to play at 1×.
const lessonPlayTime = 2500 * time.Millisecond

// lessonRun is one guided lesson being played on its lessonClock: a lab
// lesson plays through a sim.Lab built from its setup (script fired at its
// instants; rebuilt and replayed when the clock goes back); a lesson with
// its own simulation is run by explain once, and its table shows the rows
// known at the clock's instant. The "what you should have seen" check
// always comes from explain, at the end.
type lessonRun struct {
	lesson explain.Lesson
	clock  *lessonClock
	lab    *sim.Lab // nil for a lesson with its own simulation
	next   int      // next Script event to fire
	full   explain.Result
	played bool // the clock has left the start
	done   bool // at the end, checked
	result explain.Result
	ok     bool
	msg    string
	err    error
}

// newLessonRun prepares lesson l, paused before its start. Whether it is
// played in the lab is read from its own run: a lab lesson's result has
// lanes (explain.FromLab). The clock's events are the instants of the
// lab's decisions, or those the lesson's own run names.
func newLessonRun(l explain.Lesson) *lessonRun {
	r := &lessonRun{lesson: l}
	res, err := l.Run()
	if err != nil {
		r.err = err
		r.clock = newLessonClock(l.Until, nil)
		return r
	}
	r.full = res
	if l.Setup == nil || len(res.Lanes) == 0 {
		evs := res.Events
		if len(evs) == 0 {
			evs = res.RowAt
		}
		r.clock = newLessonClock(l.Until, evs)
		return r
	}
	r.clock = newLessonClock(l.Until, nil)
	r.reset()
	r.advanceRaw(l.Until)
	var evs []sim.Instant
	if r.lab != nil {
		for _, ln := range r.lab.Lanes() {
			for _, rec := range ln.History(nil) {
				evs = append(evs, rec.At)
			}
		}
	}
	r.clock = newLessonClock(l.Until, evs)
	r.reset()
	return r
}

// isLab reports whether the lesson plays in a lab with lanes of requests.
func (r *lessonRun) isLab() bool { return r.lab != nil }

// reset rebuilds the lab at instant 0, nothing decided.
func (r *lessonRun) reset() {
	lab, err := sim.New(*r.lesson.Setup, nil, sim.Options{History: 4096})
	if err != nil {
		r.err = err
		return
	}
	r.lab, r.next = lab, 0
}

// start begins (or restarts) the run, playing.
func (r *lessonRun) start() {
	r.clock.Restart()
	r.sync()
}

// tick moves a playing run by real time dt, and reports whether it moved.
func (r *lessonRun) tick(dt time.Duration) bool {
	if r.err != nil || !r.clock.Tick(dt) {
		return false
	}
	r.sync()
	return true
}

// advance moves the clock to t (at most Until) and shows the lesson there.
func (r *lessonRun) advance(t sim.Instant) {
	r.clock.Seek(t)
	r.sync()
}

// seek is advance for the controls: step, scrub and links pause first.
func (r *lessonRun) seek(t sim.Instant) {
	r.clock.Pause()
	r.advance(t)
}

// finish runs to the end and takes the check.
func (r *lessonRun) finish() { r.advance(r.lesson.Until) }

// sync shows the lesson at the clock's instant: the lab replayed there
// (rebuilt first when the clock went back), and at the end the check.
func (r *lessonRun) sync() {
	if r.err != nil {
		return
	}
	t := r.clock.Now()
	r.played = r.clock.Started()
	if r.lab != nil {
		if !r.played || t < r.lab.Now() {
			r.reset()
		}
		if r.played {
			r.advanceRaw(t)
		}
	}
	r.done = r.clock.Ended()
	if !r.done {
		r.ok, r.msg = false, ""
		return
	}
	r.result = r.full
	if r.lab != nil {
		r.result = explain.FromLab(r.lesson.ID, r.lab)
	}
	r.ok, r.msg = r.lesson.Check(r.result)
}

// advanceRaw fires the script's requests up to t and runs the lab to t.
func (r *lessonRun) advanceRaw(t sim.Instant) {
	for ; r.next < len(r.lesson.Script) && r.lesson.Script[r.next].At <= t; r.next++ {
		e := r.lesson.Script[r.next]
		if r.err = r.lab.AdvanceTo(e.At); r.err != nil {
			return
		}
		if r.err = r.lab.Fire(e.Client, e.N); r.err != nil {
			return
		}
	}
	r.err = r.lab.AdvanceTo(t)
}

// now is the lesson clock's instant, 0 before the start.
func (r *lessonRun) now() sim.Instant { return max(r.clock.Now(), 0) }

// rowsKnown is how many rows of an own-simulation lesson's table are known
// at the clock's instant (all of them when the run gives no instants).
func (r *lessonRun) rowsKnown() int {
	if !r.played {
		return 0
	}
	if len(r.full.RowAt) != len(r.full.Rows) {
		return len(r.full.Rows)
	}
	n := 0
	for _, at := range r.full.RowAt {
		if at <= r.clock.Now() {
			n++
		}
	}
	return n
}

// decisions counts the decisions made so far, all lanes.
func (r *lessonRun) decisions() int {
	n := 0
	if r.lab != nil {
		for _, ln := range r.lab.Lanes() {
			t := ln.Total()
			n += int(t.Allowed + t.Denied)
		}
	}
	return n
}

// announcement is what the live region says about the run now.
func (r *lessonRun) announcement() string {
	switch {
	case r.err != nil:
		return "The lesson failed to run: " + r.err.Error()
	case r.done && r.ok:
		return "Lesson finished. Check passed: " + r.msg
	case r.done:
		return "Lesson finished. Check failed: " + r.msg
	case !r.played:
		return ""
	case r.lab == nil:
		return "t = " + lessonTime(r.now(), r.lesson.Until) + ": " + strconv.Itoa(r.rowsKnown()) + " of " +
			strconv.Itoa(len(r.full.Rows)) + " rows of the table."
	}
	s := "t = " + units.TwoDecimals(r.lab.Now()) + "."
	for i, ln := range r.lab.Lanes() {
		t := ln.Total()
		s += fmt.Sprintf(" Lane %d: %d allowed, %d denied.", i+1, t.Allowed, t.Denied)
	}
	return s
}

// explainMark works out request k of lane i with explain.Replay on that
// lane's own history (the lane keeps one limiter per client).
func (r *lessonRun) explainMark(lane, k int) (explain.Explanation, sim.Record, error) {
	if r.lab == nil || lane < 0 || lane >= len(r.lab.Lanes()) {
		return explain.Explanation{}, sim.Record{}, fmt.Errorf("no lane %d", lane+1)
	}
	e, rec, err := explainRecord(r.lab.Lanes()[lane], k)
	if r.meter(lane) {
		e = e.AsMeter()
	}
	return e, r.shown(lane, rec), err
}

// meter reports that the lesson uses lane i's leaky bucket as a meter (nginx
// nodelay): its admitted requests pass at once, whatever queue delay the
// limiter reports for them.
func (r *lessonRun) meter(i int) bool {
	return i < len(r.lesson.Shaping) && !r.lesson.Shaping[i]
}

// shown is lane i's record as the lesson shows it (marks, the inspector's
// heading): no queue delay in a meter lane.
func (r *lessonRun) shown(i int, rec sim.Record) sim.Record {
	if r.meter(i) {
		rec.Delay = 0
	}
	return rec
}

// explainRecord replays the client of record k of ln and explains it.
func explainRecord(ln *sim.Lane, k int) (explain.Explanation, sim.Record, error) {
	hist := ln.History(nil)
	if k < 0 || k >= len(hist) {
		return explain.Explanation{}, sim.Record{}, fmt.Errorf("no request %d", k+1)
	}
	rec := hist[k]
	events := make([]sim.Event, 0, k+1)
	ck := 0
	for i, h := range hist[:k+1] {
		if h.Client == rec.Client {
			if i < k {
				ck++
			}
			events = append(events, sim.Event{At: h.At, Client: h.Client, N: h.N})
		}
	}
	spec := ln.Spec()
	cfg := spec.Config
	e, err := explain.Replay(cfg, rec.Client, events, ck)
	return e, rec, err
}

// markLabel is a request mark's accessible name: "request 7 at 1.20 s: denied".
func markLabel(k int, rec sim.Record) string {
	return "request " + strconv.Itoa(k+1) + " at " + units.TwoDecimals(rec.At) + ": " + explain.VerdictText(rec)
}
