package learn

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
)

// address is what a /learn address asks for: ?lesson=<id>,
// ?mode=quiz&seed=42 (also ?seed=42), ?mode=cards, and for the quiz a lab
// setup; notice says what was wrong with it, and what is shown instead.
type address struct {
	mode, lesson string
	notice       string
	// The quiz's (mode quiz only): its setup, the lab's defaults or the
	// one in the link; whether the link carried its own clients, and the
	// built-in trace it named (kept in the quiz's links, not replayed).
	setup       sim.Setup
	fromLink    bool
	linkClients bool
	linkTrace   string
	seed        uint64
	// rewrite: the seed in use is not in the address (none, or a bad
	// one), so the address is to be written again with it.
	rewrite bool
	// start is where the open lesson's clock starts (paused=1&t=1.5).
	start lessonStart
}

// lessonStart is the instant a lesson link opens its clock at: set when
// the link names paused or t; paused unless it says paused=0.
type lessonStart struct {
	set, play bool
	at        sim.Instant
}

// parseAddress reads a /learn query. A part that cannot be read is left
// out and said in the notice; fresh gives the seed of a quiz whose link
// names none.
func parseAddress(rawQuery string, fresh func() uint64) address {
	q, linkErr := sim.ParseLink(rawQuery)
	a := address{}
	notes := a.section(q)
	notes = append(notes, a.lessonStart(q)...)
	if linkErr != nil {
		notes = append([]string{"Part of this link could not be read (" + linkErr.Error() + "); that part was ignored."}, notes...)
	}
	if a.mode == modeQuiz {
		notes = append(notes, a.quizSetup(q)...)
		notes = append(notes, a.quizSeed(q, linkErr != nil, fresh)...)
	}
	a.notice = strings.Join(notes, " ")
	return a
}

// section reads the mode and the lesson, and returns what was wrong with
// them.
func (a *address) section(q url.Values) []string {
	var notes []string
	a.mode = modeLessons
	badLesson := false
	if l, ok := explain.LessonByID(q.Get("lesson")); ok {
		a.lesson = l.ID
	} else if q.Has("lesson") {
		badLesson = true
	}
	switch m := q.Get("mode"); m {
	case modeQuiz, modeCards:
		a.mode = m
	case "", modeLessons:
		if q.Has("seed") && m == "" {
			a.mode = modeQuiz
		}
	default:
		notes = append(notes, fmt.Sprintf("There is no section %s; showing the lessons.", clip(m)))
	}
	if badLesson {
		// Said after the section is known: the list is shown only there.
		where := "here is the list."
		if a.mode != modeLessons {
			where = "showing the " + a.mode + "."
		}
		notes = append([]string{fmt.Sprintf("There is no lesson %s; %s", clip(q.Get("lesson")), where)}, notes...)
	}
	return notes
}

// quizSetup reads the lab setup a quiz link carries (the defaults when it
// carries no lanes or clients); a bad part falls back to its default, and
// is said.
func (a *address) quizSetup(q url.Values) []string {
	a.setup = sim.DefaultSetup()
	if !q.Has("lane") && !q.Has("client") {
		return nil
	}
	var notes []string
	s, err := sim.DecodeSetup(q)
	if err != nil {
		for _, e := range units.Unjoin(err) {
			notes = append(notes, e.Error()+".")
		}
	}
	// The quiz asks about the clients' traffic only.
	a.linkClients, a.linkTrace = q.Has("client"), s.Trace
	s.Trace = ""
	a.setup, a.fromLink = s, true
	return notes
}

// quizSeed reads the quiz's seed. A bad seed, or none in a link with an
// unreadable part (which may have been the seed), falls back to the
// default one, not to a fresh one: everyone who opens the same link still
// gets the same questions.
func (a *address) quizSeed(q url.Values, unreadable bool, fresh func() uint64) []string {
	var notes []string
	seed, err := sim.ParseSeed(q.Get("seed"))
	switch {
	case err != nil && q.Has("seed"):
		seed = sim.DefaultSetup().Seed
		// The value is quoted as clip cuts it (a link can carry anything).
		why := "The seed " + strings.Replace(err.Error(), strconv.Quote(q.Get("seed")), clip(q.Get("seed")), 1)
		if e := err.Error(); strings.HasPrefix(e, "seed ") { // "seed is empty; …"
			why = "The " + e
		}
		notes = append(notes, why+"; using the default seed "+strconv.FormatUint(seed, 10)+", so everyone who opens this link gets the same questions.")
	case !q.Has("seed") && unreadable:
		seed = sim.DefaultSetup().Seed
		notes = append(notes, "Using the default seed "+strconv.FormatUint(seed, 10)+", so everyone who opens this link gets the same questions.")
	case !q.Has("seed"):
		seed = fresh()
	}
	a.rewrite = err != nil || !q.Has("seed")
	a.seed = seed
	if a.fromLink {
		a.setup.Seed = seed // the traffic's seed is the link's seed too
	}
	return notes
}

// lessonStart reads where a lesson link opens the lesson's clock: t, in
// seconds ("1.5", "0.0000024") or as a Go duration ("700ms", "2.4us"), and
// paused (1, the default when t is given, or 0 to play from t). A bad part
// is said and left out; the rest is kept.
func (a *address) lessonStart(q url.Values) []string {
	if !q.Has("paused") && !q.Has("t") {
		return nil
	}
	if a.lesson == "" || a.mode != modeLessons {
		return []string{"paused and t set a lesson's clock; no lesson is open, so they were ignored."}
	}
	l, _ := explain.LessonByID(a.lesson)
	var notes []string
	a.start.set = true
	switch p := q.Get("paused"); p {
	case "", "1":
	case "0":
		a.start.play = true
	default:
		notes = append(notes, fmt.Sprintf("paused=%s is not 0 or 1; opening paused.", clip(p)))
	}
	if !q.Has("t") {
		return notes
	}
	raw := q.Get("t")
	t, err := parseInstant(raw)
	switch {
	case err != nil:
		notes = append(notes, fmt.Sprintf("The instant t=%s is not a time; want seconds (1.5) or a duration (700ms); opening at the start.", clip(raw)))
		a.start.at = beforeStart
	case t < 0:
		notes = append(notes, fmt.Sprintf("The instant t=%s is before the start; opening at the start.", clip(raw)))
		a.start.at = beforeStart
	case t > l.Until:
		notes = append(notes, fmt.Sprintf("The instant t=%s is after the lesson's end (%s); opening at its end.", clip(raw), strconv.FormatFloat(l.Until.Seconds(), 'f', -1, 64)+" s"))
		a.start.at = l.Until
	default:
		a.start.at = t
	}
	return notes
}

// parseInstant reads a link's t: seconds, or a Go duration with its unit.
func parseInstant(s string) (sim.Instant, error) {
	if x, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsNaN(x) || math.Abs(x) > 1e9 {
			return 0, fmt.Errorf("t %q is out of range", s)
		}
		return sim.Instant(math.Round(x * 1e9)), nil
	}
	return time.ParseDuration(s)
}

// lessonQuery is the query of a link to lesson id paused at instant t.
func lessonQuery(id string, t sim.Instant) string {
	return url.Values{"lesson": {id}, "paused": {"1"}, "t": {strconv.FormatFloat(t.Seconds(), 'f', -1, 64)}}.Encode()
}
