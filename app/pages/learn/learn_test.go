package learn

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui/uitest"
	"github.com/ratelab/ratelab/limiter"
)

// TestLessonRuns plays every lesson the way the page does (lab lessons
// frame by frame through sim) and checks that explain's check passes, and
// which lessons the page draws as lanes of request marks.
func TestLessonRuns(t *testing.T) {
	lab := map[string]bool{"burst-vs-rate": true, "boundary-burst": true, "queue-vs-meter": true}
	for _, l := range explain.Lessons() {
		r := newLessonRun(l)
		if r.err != nil {
			t.Fatalf("%s: %v", l.ID, r.err)
		}
		if r.isLab() != lab[l.ID] {
			t.Errorf("%s: drawn as lanes %v; want %v", l.ID, r.isLab(), lab[l.ID])
		}
		r.start()
		for step := l.Until / 37; !r.done; {
			r.advance(r.now() + step)
		}
		want, _ := l.Run()
		_, wantMsg := l.Check(want)
		if !r.ok || r.msg != wantMsg {
			t.Errorf("%s: check %v %q; want true %q", l.ID, r.ok, r.msg, wantMsg)
		}
	}
}

// TestMarkLabel checks a request mark's accessible name and the inspector
// behind it for lesson 1's request 15.
func TestMarkLabel(t *testing.T) {
	l, _ := explain.LessonByID("burst-vs-rate")
	r := newLessonRun(l)
	r.start()
	r.finish()
	e, rec, err := r.explainMark(0, 14)
	if err != nil {
		t.Fatal(err)
	}
	if got := markLabel(14, rec); got != "request 15 at 0.70 s: denied" {
		t.Errorf("label %q", got)
	}
	if e.Verdict != "denied: retry after 100 ms (HTTP 429, Retry-After: 1)" {
		t.Errorf("verdict %q", e.Verdict)
	}
}

func TestTokensLeft(t *testing.T) {
	for x, want := range map[float64]string{1: "1 token left", 0.5: "0.5 tokens left", 0: "0 tokens left", 2: "2 tokens left"} {
		if got := tokensLeft(x); got != want {
			t.Errorf("tokensLeft(%v) = %q, want %q", x, got, want)
		}
	}
}

// Lesson 6: the same request 21 (t = 0, the bucket's 21st unit) waits 2 s in
// the queue lane and passes at once in the meter lane (nginx nodelay), in
// the mark's name and in the inspector.
func TestLessonQueueVersusMeter(t *testing.T) {
	l, _ := explain.LessonByID("queue-vs-meter")
	r := newLessonRun(l)
	r.start()
	r.finish()
	for _, c := range []struct {
		lane           int
		label, verdict string
		queueStep      bool
	}{
		{0, "request 21 at 0.00 s: allowed, waits 2.00 s", "allowed: 0 remaining, served after 2 s in a queue", true},
		{1, "request 21 at 0.00 s: allowed", "allowed: 0 remaining", false},
	} {
		e, rec, err := r.explainMark(c.lane, 20)
		if err != nil {
			t.Fatal(err)
		}
		if got := markLabel(20, rec); got != c.label {
			t.Errorf("lane %d: label %q, want %q", c.lane+1, got, c.label)
		}
		if e.Verdict != c.verdict {
			t.Errorf("lane %d: verdict %q, want %q", c.lane+1, e.Verdict, c.verdict)
		}
		if got := strings.Contains(e.Text(), "queue delay"); got != c.queueStep {
			t.Errorf("lane %d: queue delay step shown %v, want %v:\n%s", c.lane+1, got, c.queueStep, e.Text())
		}
	}
}

// "New questions" keeps the lab setup the quiz came from: only the seed
// moves (it dropped the lanes and clients, and the next quiz was on the
// defaults).
func TestQuizQueryKeepsSetup(t *testing.T) {
	s := sim.DefaultSetup()
	s.Lanes = s.Lanes[:1]
	p := &Page{setup: s, fromLink: true, linkClients: true}
	q := p.quizQuery(6)
	if q.Get("seed") != "6" || q.Get("mode") != "quiz" || len(q["lane"]) != 1 || q["lane"][0] != s.Values()["lane"][0] || len(q["client"]) != len(s.Clients) {
		t.Errorf("quizQuery(6) = %v; want lane %v, the clients, seed 6", q, s.Values()["lane"])
	}
	if got := (&Page{}).quizQuery(43).Encode(); got != "mode=quiz&seed=43" {
		t.Errorf("default quiz's query %q", got)
	}
	// A link with lanes only, from a lab with a trace: the next quiz keeps
	// the default traffic and the trace's name.
	p = &Page{setup: s, fromLink: true, linkTrace: "nasa"}
	q = p.quizQuery(7)
	if q.Has("client") || q.Get("trace") != "nasa" || len(q["lane"]) != 1 {
		t.Errorf("quizQuery(7) without the link's clients = %v; want lane, trace=nasa, no client", q)
	}
}

// The quiz says where its questions come from, and that it does not replay
// a trace.
func TestQuizSource(t *testing.T) {
	const seed = ", drawn with the seed below: the same link gives every student the same questions."
	for _, c := range []struct {
		fromLink, clients bool
		trace, want       string
	}{
		{false, false, "", "Questions come from the comparison lab's default lanes and traffic" + seed + ` To be quizzed on your own setup, use "Quiz me on this setup" in the comparison lab.`},
		{true, true, "", "Questions come from the comparison lab setup in this link (its lanes, clients and traffic)" + seed},
		{true, false, "", "Questions come from the lanes in this link, fed the comparison lab's default traffic (alice, Poisson (seeded), 8 requests/s)" + seed},
		{true, true, "nasa", "Questions come from the comparison lab setup in this link (its lanes, clients and traffic)" + seed + " The quiz does not replay the lab's trace (nasa): it asks only about the clients' generated traffic."},
	} {
		if got := quizSource(c.fromLink, c.clients, c.trace); got != c.want {
			t.Errorf("quizSource(%v, %v, %q) =\n%s\nwant\n%s", c.fromLink, c.clients, c.trace, got, c.want)
		}
	}
}

// The quiz says under its score how points are counted: "1 of 10" beside
// "0 / 13" needs the questions worth 2 points named. The tokens field says
// the tolerance is around the exact value, and that it may be left empty.
func TestQuizScoringLine(t *testing.T) {
	html := uitest.Mount(t, &quizView{Seed: 29391, Setup: sim.DefaultSetup()})
	uitest.WantTexts(t, html, map[string]string{
		"quiz-progress": "1 of 10",
		"quiz-score":    "0 / 13",
		"quiz-scoring": "Scoring: 1 point per question for allowed or denied, and 1 more for the tokens left on questions 5, 6 and 7 " +
			"(token buckets): 13 in all.",
	})
	// Seed 2's first question asks for the tokens left.
	html = uitest.Mount(t, &quizView{Seed: 2, Setup: sim.DefaultSetup()})
	uitest.WantTexts(t, html, map[string]string{
		"quiz-tokens-unit": "tokens (right within ±0.05 of the exact value; optional: left empty, the answer is scored on allowed or denied alone)",
	})
}

// heavyQuizSetup is the heaviest traffic the lab's fields allow, as "Quiz
// me on this setup" links it: 16 clients of 10,000 requests/s (steady) on
// 6 sliding window log lanes of 10,000 per 1 s.
func heavyQuizSetup(t *testing.T) sim.Setup {
	s := sim.DefaultSetup()
	s.Clients = nil
	for i := 1; i <= sim.MaxClients; i++ {
		s.Clients = append(s.Clients, sim.Client{Name: "c" + strconv.Itoa(i), Weight: 1, Pattern: sim.Pattern{Kind: sim.PatternSteady, Rate: sim.MaxRate}})
	}
	c, err := sim.SameBudget(limiter.KindSlidingWindowLog, 10000, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	s.Lanes = nil
	for range sim.MaxLanes {
		s.Lanes = append(s.Lanes, sim.LaneSpec{Config: c})
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestQuizHeavySetup: the quiz on the heaviest traffic builds from the
// first 400 requests (all in the first 2.5 ms): its questions are
// explain.NewQuiz's, and the lanes behind "what c7 got just before" are run
// through request 400 and no further (to QuizHorizon they decided 4.8
// million requests on each lane, 18 s in the browser, and a history of the
// last 4,096 showed requests from t = 29.99 s before one at 0.001 s).
func TestQuizHeavySetup(t *testing.T) {
	s := heavyQuizSetup(t)
	v := &quizView{Seed: 1, Setup: s}
	html := uitest.Mount(t, v)
	ref, err := explain.NewQuiz(s, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v.quiz.Questions, ref.Questions) {
		t.Error("the page's questions differ from explain.NewQuiz's")
	}
	if got, want := v.quiz.Requests(), explain.QuizRequests; got != want || v.lab.Processed() != want {
		t.Errorf("quiz about %d requests, lab ran %d; want %d, %d", got, v.lab.Processed(), want, want)
	}
	q1 := v.quiz.Questions[0]
	if want := "Lane 3 (sliding window log: 10000 per 1 s): c7 asks for 1 at t = 0.001 s. Allowed or denied?"; q1.Prompt != want || q1.Index != 166 {
		t.Errorf("question 1: %q (request %d); want %q (request 166)", q1.Prompt, q1.Index, want)
	}
	// c7's five requests before its 11th, latest first, each leaving one
	// more of the 10,000.
	ctx := html[strings.Index(html, `id="quiz-context"`):]
	ctx = ctx[:strings.Index(ctx, "</ul>")]
	var got []string
	for _, li := range strings.Split(ctx, "<li")[1:] {
		var parts []string
		for _, cls := range []string{`"at mono">`, `"verdict">`, `"detail">`} {
			k := strings.Index(li, cls) + len(cls)
			parts = append(parts, li[k:k+strings.Index(li[k:], "<")])
		}
		got = append(got, strings.Join(parts, " "))
	}
	want := []string{"t = 0.000 s ✓ allowed 9990 left", "t = 0.000 s ✓ allowed 9991 left", "t = 0.000 s ✓ allowed 9992 left",
		"t = 0.000 s ✓ allowed 9993 left", "t = 0.000 s ✓ allowed 9994 left"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("what c7 got before question 1:\n%q\nwant\n%q", got, want)
	}
}

// TestQuizLabSameContext: on the default traffic, the lanes run only
// through the quiz's requests hold exactly the decisions the page showed
// before each question when it ran them to QuizHorizon.
func TestQuizLabSameContext(t *testing.T) {
	s := sim.DefaultSetup()
	full, err := sim.New(s, nil, sim.Options{History: 4096})
	if err == nil {
		err = full.AdvanceTo(explain.QuizHorizon)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []uint64{1, 2, 7, 29391} {
		q, err := explain.NewQuiz(s, seed)
		if err != nil {
			t.Fatal(err)
		}
		n := q.Requests()
		lab, err := quizLab(s, n)
		if err != nil {
			t.Fatal(err)
		}
		if lab.Processed() != n || n != q.Questions[len(q.Questions)-1].Index+1 {
			t.Errorf("seed %d: lab ran %d requests; want %d", seed, lab.Processed(), n)
		}
		for i, ln := range lab.Lanes() {
			if got, want := ln.History(nil), full.Lanes()[i].History(nil)[:n]; !reflect.DeepEqual(got, want) {
				t.Errorf("seed %d, lane %d: the history of the quiz's %d requests differs from the full run's", seed, i+1, n)
			}
		}
	}
}
