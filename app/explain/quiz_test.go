package explain

import (
	"reflect"
	"testing"

	"github.com/ratelab/ratelab/app/sim"
)

// TestQuizSameSeed checks that the same setup and seed ask exactly the same
// questions, and that another seed asks others.
func TestQuizSameSeed(t *testing.T) {
	a, err := NewQuiz(sim.DefaultSetup(), 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewQuiz(sim.DefaultSetup(), 7)
	if !reflect.DeepEqual(a, b) {
		t.Error("seed 7 twice: different quizzes")
	}
	c, _ := NewQuiz(sim.DefaultSetup(), 8)
	if reflect.DeepEqual(a.Questions, c.Questions) {
		t.Error("seeds 7 and 8: same questions")
	}
	if len(a.Questions) != QuizLength || a.MaxScore != 12 {
		t.Errorf("%d questions, max score %d; want %d, 12", len(a.Questions), a.MaxScore, QuizLength)
	}
	want := "Lane 3 (token bucket: 10/s, burst 10): alice asks for 1 at t = 12.207 s. Allowed or denied? " +
		"How many tokens are left after it (to within 0.05)?"
	if q := a.Questions[4]; q.Prompt != want || q.Answer() != "allowed, 6.5 tokens left" || q.Index != 112 {
		t.Errorf("question 5: %q → %q (request %d);\nwant %q → allowed, 6.5 tokens left (request 112)", q.Prompt, q.Answer(), q.Index, want)
	}
}

// TestQuizMatchesLab checks every answer against the lab's own decision for
// the same request and lane.
func TestQuizMatchesLab(t *testing.T) {
	s := sim.DefaultSetup()
	lab, err := sim.New(s, nil, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.AdvanceTo(QuizHorizon); err != nil {
		t.Fatal(err)
	}
	for _, seed := range []uint64{1, 2, 3, 7} {
		q, _ := NewQuiz(s, seed)
		for _, qu := range q.Questions {
			rec := lab.Lanes()[qu.Lane].History(nil)[qu.Index]
			if rec.At != qu.Request.At || rec.Allowed != qu.Allowed {
				t.Errorf("seed %d question %d: lab says %v at %v; quiz %v at %v", seed, qu.Number, rec.Allowed, rec.At, qu.Allowed, qu.Request.At)
			}
		}
	}
}

// TestQuizScoring answers seed 7's questions with a fixed script and checks
// the score, streaks and mistakes exactly.
func TestQuizScoring(t *testing.T) {
	q, _ := NewQuiz(sim.DefaultSetup(), 7)
	// Expected answers: allowed ×6, denied (7), allowed ×3; question 4 has
	// 9 tokens left, question 5 has 6.5.
	script := []Guess{
		{Allowed: true},              // 1 right: 1 point
		{Allowed: false},             // 2 wrong
		{Allowed: true},              // 3 right
		{Allowed: true, Tokens: 9},   // 4 right, tokens right: 2 points
		{Allowed: true, Tokens: 6.4}, // 5 right, tokens 0.1 off (more than 0.05): 1 point, a mistake
		{Allowed: true},              // 6 right
		{Allowed: false},             // 7 right
		{Allowed: true},              // 8 right
		{Allowed: false},             // 9 wrong
		{Allowed: true},              // 10 right
	}
	wantScore := []int{1, 1, 2, 4, 5, 6, 7, 8, 8, 9}
	script[3].Tokens = 9.05 // within TokenTolerance of 9: still right
	wantStreak := []int{1, 0, 1, 2, 0, 1, 2, 3, 0, 1}
	for i, g := range script {
		f, err := q.Answer(g)
		if err != nil {
			t.Fatal(err)
		}
		if f.Score != wantScore[i] || f.Streak != wantStreak[i] {
			t.Errorf("answer %d: score %d streak %d; want %d, %d", i+1, f.Score, f.Streak, wantScore[i], wantStreak[i])
		}
	}
	if !q.Done() || q.Score != 9 || q.MaxScore != 12 || q.Best != 3 || len(q.Mistakes) != 3 {
		t.Errorf("done %v, score %d/%d, best %d, %d mistakes; want true, 9/12, 3, 3", q.Done(), q.Score, q.MaxScore, q.Best, len(q.Mistakes))
	}
	for i, n := range []int{2, 5, 9} {
		if m := q.Mistakes[i]; m.Question.Number != n || m.Question.Explanation.Verdict == "" {
			t.Errorf("mistake %d: question %d; want %d, with its explanation", i+1, m.Question.Number, n)
		}
	}
	if _, err := q.Answer(Guess{}); err == nil {
		t.Error("an 11th answer: no error")
	}
}

// TestQuizNoTraffic checks the error for a setup that sends nothing.
func TestQuizNoTraffic(t *testing.T) {
	s := sim.DefaultSetup()
	s.Clients = []sim.Client{{Name: "idle", Pattern: sim.Pattern{Kind: sim.PatternNone}}}
	if _, err := NewQuiz(s, 1); err == nil {
		t.Error("no traffic: no error")
	}
}
