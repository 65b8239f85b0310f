package learn

import (
	"fmt"
	"strconv"
	"time"

	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
)

// lessonPlayTime is how long (real time) a lab lesson takes to play.
const lessonPlayTime = 2500 * time.Millisecond

// lessonRun is one guided lesson being played: a lab lesson plays through a
// sim.Lab built from its setup (script fired at its instants); a lesson with
// its own simulation is run by explain and shown as its table. The "what you
// should have seen" check always comes from explain.
type lessonRun struct {
	lesson explain.Lesson
	lab    *sim.Lab // nil for a lesson with its own simulation
	next   int      // next Script event to fire
	played bool     // the run has started
	done   bool
	result explain.Result
	ok     bool
	msg    string
	err    error
	seq    int // decisions seen, for the live region
}

// newLessonRun prepares lesson l. Whether it is played in the lab is read
// from its own run: a lab lesson's result has lanes (explain.FromLab).
func newLessonRun(l explain.Lesson) *lessonRun {
	r := &lessonRun{lesson: l}
	res, err := l.Run()
	if err != nil {
		r.err = err
		return r
	}
	if l.Setup == nil || len(res.Lanes) == 0 {
		r.result = res // own simulation: shown once started
		return r
	}
	r.reset()
	return r
}

// isLab reports whether the lesson plays in a lab with lanes of requests.
func (r *lessonRun) isLab() bool { return r.lab != nil }

// reset rebuilds the lab at instant 0.
func (r *lessonRun) reset() {
	lab, err := sim.New(*r.lesson.Setup, nil, sim.Options{History: 4096})
	if err != nil {
		r.err = err
		return
	}
	r.lab, r.next, r.played, r.done, r.seq = lab, 0, false, false, 0
}

// start begins (or restarts) the run.
func (r *lessonRun) start() {
	if r.err != nil {
		return
	}
	if r.lab == nil {
		r.played = true
		r.finish()
		return
	}
	r.reset()
	r.played = true
}

// speed is simulated time per real time while playing.
func (r *lessonRun) speed() float64 {
	return float64(r.lesson.Until) / float64(lessonPlayTime)
}

// advance moves a lab lesson's clock to t (at most Until), firing the
// script's requests at their instants; at Until it finishes.
func (r *lessonRun) advance(t sim.Instant) {
	if r.lab == nil || r.done || !r.played || r.err != nil {
		return
	}
	t = min(t, r.lesson.Until)
	for r.next < len(r.lesson.Script) && r.lesson.Script[r.next].At <= t {
		e := r.lesson.Script[r.next]
		if r.err = r.lab.AdvanceTo(e.At); r.err != nil {
			return
		}
		if r.err = r.lab.Fire(e.Client, e.N); r.err != nil {
			return
		}
		r.next++
	}
	if r.err = r.lab.AdvanceTo(t); r.err != nil {
		return
	}
	if t >= r.lesson.Until {
		r.finish()
	}
}

// finish runs to the end and takes the check.
func (r *lessonRun) finish() {
	if r.err != nil {
		return
	}
	if r.lab != nil {
		r.advanceRaw()
		r.result = explain.FromLab(r.lesson.ID, r.lab)
	}
	r.done = true
	r.ok, r.msg = r.lesson.Check(r.result)
}

// advanceRaw fires whatever is left of the script and runs to Until.
func (r *lessonRun) advanceRaw() {
	for ; r.next < len(r.lesson.Script); r.next++ {
		e := r.lesson.Script[r.next]
		if r.err = r.lab.AdvanceTo(e.At); r.err != nil {
			return
		}
		if r.err = r.lab.Fire(e.Client, e.N); r.err != nil {
			return
		}
	}
	r.err = r.lab.AdvanceTo(r.lesson.Until)
}

// now is the lab's clock (0 for an own-simulation lesson).
func (r *lessonRun) now() sim.Instant {
	if r.lab == nil {
		return 0
	}
	return r.lab.Now()
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
	case !r.played || r.lab == nil:
		return ""
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
