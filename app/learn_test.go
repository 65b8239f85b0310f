package main

import (
	"strings"
	"testing"

	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
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
	p := &learn{setup: s, fromLink: true, linkClients: true}
	q := p.quizQuery(6)
	if q.Get("seed") != "6" || q.Get("mode") != "quiz" || len(q["lane"]) != 1 || q["lane"][0] != s.Values()["lane"][0] || len(q["client"]) != len(s.Clients) {
		t.Errorf("quizQuery(6) = %v; want lane %v, the clients, seed 6", q, s.Values()["lane"])
	}
	if got := (&learn{}).quizQuery(43).Encode(); got != "mode=quiz&seed=43" {
		t.Errorf("default quiz's query %q", got)
	}
	// A link with lanes only, from a lab with a trace: the next quiz keeps
	// the default traffic and the trace's name.
	p = &learn{setup: s, fromLink: true, linkTrace: "nasa"}
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
// the tolerance is around the exact value.
func TestQuizScoringLine(t *testing.T) {
	html := mount(t, &quizView{Seed: 29391, Setup: sim.DefaultSetup()})
	wantTexts(t, html, map[string]string{
		"quiz-progress": "1 of 10",
		"quiz-score":    "0 / 13",
		"quiz-scoring": "Scoring: 1 point per question for allowed or denied, and 1 more for the tokens left on questions 5, 6 and 7 " +
			"(token buckets): 13 in all.",
	})
	// Seed 2's first question asks for the tokens left.
	html = mount(t, &quizView{Seed: 2, Setup: sim.DefaultSetup()})
	if !strings.Contains(html, `<span class="unit">tokens (right within ±0.05 of the exact value)</span>`) {
		t.Errorf("the tokens field does not say the tolerance around the exact value:\n%s", html)
	}
}
