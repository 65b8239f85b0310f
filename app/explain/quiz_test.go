package explain

import (
	"fmt"
	"reflect"
	"testing"
	"time"

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
	if len(a.Questions) != QuizLength || a.MaxScore != 13 {
		t.Errorf("%d questions, max score %d; want %d, 13", len(a.Questions), a.MaxScore, QuizLength)
	}
	want := "Lane 3 (token bucket: 10/s, burst 10): alice asks for 1 at t = 9.588 s. Allowed or denied? " +
		"How many tokens are left after it (to within 0.05)?"
	// The answer gives the exact tokens left (7.96875976), to 4 decimals.
	if q := a.Questions[5]; q.Prompt != want || q.Answer() != "allowed, 7.9688 tokens left" || q.Index != 87 {
		t.Errorf("question 6: %q → %q (request %d);\nwant %q → allowed, 7.9688 tokens left (request 87)", q.Prompt, q.Answer(), q.Index, want)
	}
	// What a tokens question gives to work from: 5.03 + (9.588 − 9.195) s ×
	// 10/s − 1 = 7.96, within 0.05 of 7.9688.
	if g := a.Questions[5].Given; g != "After alice's latest admitted request, at t = 9.195 s, the bucket held 5.03 tokens." {
		t.Errorf("question 6 gives %q", g)
	}
	if g := a.Questions[0].Given; g != "" {
		t.Errorf("question 1 (no tokens asked) gives %q", g)
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
	// Expected answers: denied ×5, allowed ×4, denied; questions 6, 8 and
	// 9 ask for the tokens left: exactly 7.96875976, 9 and 8.32682235.
	script := []Guess{
		{Allowed: false},              // 1 right: 1 point
		{Allowed: true},               // 2 wrong
		{Allowed: false},              // 3 right
		{Allowed: false},              // 4 right
		{Allowed: true},               // 5 wrong
		{Allowed: true, Tokens: 7.92}, // 6 right, tokens 0.0488 off (within TokenTolerance): 2 points
		{Allowed: true},               // 7 right
		{Allowed: true, Tokens: 9},    // 8 right, tokens right: 2 points
		{Allowed: true, Tokens: 8.2},  // 9 right, tokens 0.1268 off: 1 point, a mistake
		{Allowed: false},              // 10 right
	}
	wantScore := []int{1, 1, 2, 3, 3, 5, 6, 8, 9, 10}
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
	if !q.Done() || q.Score != 10 || q.MaxScore != 13 || q.Best != 3 || len(q.Mistakes) != 3 {
		t.Errorf("done %v, score %d/%d, best %d, %d mistakes; want true, 10/13, 3, 3", q.Done(), q.Score, q.MaxScore, q.Best, len(q.Mistakes))
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

// TestQuizRequests: a quiz is about its traffic's first requests, up to
// its last question's, at most QuizRequests, at any rate: 16 clients each
// sending bursts of 10,000 at one instant (0.999 s) are asked about there,
// from the first 400 of those 160,000 requests.
func TestQuizRequests(t *testing.T) {
	q, _ := NewQuiz(sim.DefaultSetup(), 7)
	if got := q.Requests(); got != 182 || got != q.Questions[QuizLength-1].Index+1 {
		t.Errorf("seed 7: about %d requests; want 182 (question 10's request, 181, and those before)", got)
	}
	s := sim.DefaultSetup()
	s.Clients = nil
	for i := range sim.MaxClients {
		s.Clients = append(s.Clients, sim.Client{Name: fmt.Sprintf("c%d", i+1), Weight: 1,
			Pattern: sim.Pattern{Kind: sim.PatternEdge, Size: sim.MaxRate, Window: time.Second, Gap: time.Millisecond}})
	}
	q, err := NewQuiz(s, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Requests(); got != 383 {
		t.Errorf("bursts: about %d requests; want 383", got)
	}
	for _, qu := range q.Questions {
		if qu.Request.At != 999*time.Millisecond || qu.Request.Client != "c1" || qu.Index >= QuizRequests {
			t.Errorf("bursts: question %d about %s at %v (request %d); want c1 at 999ms, among the first %d", qu.Number, qu.Request.Client, qu.Request.At, qu.Index, QuizRequests)
		}
	}
	if want := "Lane 2 (sliding window log: 10 per 1 s): c1 asks for 1 at t = 0.999 s. Allowed or denied?"; q.Questions[0].Prompt != want || q.Questions[0].Index != 7 {
		t.Errorf("bursts: question 1 %q (request %d); want %q (request 7)", q.Questions[0].Prompt, q.Questions[0].Index, want)
	}
	if (&Quiz{}).Requests() != 0 {
		t.Error("no question: Requests() != 0")
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

// TestQuizBalanced: a quiz on the default traffic, which admits most
// requests, asks about 3 to 7 denied requests, so that answering "allowed"
// every time does not pass; its questions are distinct and in time order.
func TestQuizBalanced(t *testing.T) {
	counts := map[int]int{}
	for seed := range uint64(60) {
		q, err := NewQuiz(sim.DefaultSetup(), seed)
		if err != nil {
			t.Fatal(err)
		}
		denied := 0
		for i, qu := range q.Questions {
			if !qu.Allowed {
				denied++
			}
			if i > 0 {
				p := q.Questions[i-1]
				if qu.Index < p.Index || (qu.Index == p.Index && qu.Lane <= p.Lane) {
					t.Errorf("seed %d: question %d (request %d, lane %d) after request %d, lane %d", seed, i+1, qu.Index, qu.Lane, p.Index, p.Lane)
				}
			}
		}
		if len(q.Questions) != QuizLength || denied < 3 || denied > 7 {
			t.Errorf("seed %d: %d questions, %d denied; want %d, 3 to 7", seed, len(q.Questions), denied, QuizLength)
		}
		counts[denied]++
	}
	if len(counts) < 4 {
		t.Errorf("denied answers per quiz over 60 seeds: %v; want several different counts", counts)
	}
}

// TestQuizTokenToleranceSymmetric: a guess of the tokens left is right
// within 0.05 of the exact value on either side. Seed 29391's question 5
// leaves exactly 8.82535478 tokens: compared with the value floored to
// 8.82, 8.77 (0.0554 below) scored and 8.88 (0.0546 above) did not.
func TestQuizTokenToleranceSymmetric(t *testing.T) {
	for _, c := range []struct {
		guess  float64
		right  bool
		points int
		text   string
	}{
		{8.77, false, 1, "Tokens left: you said 8.77; the exact value is 8.8254, 0.0554 away: more than 0.05, so wrong."},
		{8.88, false, 1, "Tokens left: you said 8.88; the exact value is 8.8254, 0.0546 away: more than 0.05, so wrong."},
		{8.78, true, 2, "Tokens left: you said 8.78; the exact value is 8.8254, 0.0454 away: within 0.05, so right."},
		{8.87, true, 2, "Tokens left: you said 8.87; the exact value is 8.8254, 0.0446 away: within 0.05, so right."},
		{8.7753, false, 1, "Tokens left: you said 8.7753; the exact value is 8.8254, 0.0501 away: more than 0.05, so wrong."},
		{8.8753, true, 2, "Tokens left: you said 8.8753; the exact value is 8.8254, 0.0499 away: within 0.05, so right."},
		// 0.04995478 and 0.05004522 away: more decimals, so that neither
		// reads "0.05".
		{8.7754, true, 2, "Tokens left: you said 8.7754; the exact value is 8.82535, 0.04995 away: within 0.05, so right."},
		{8.8754, false, 1, "Tokens left: you said 8.8754; the exact value is 8.82535, 0.05005 away: more than 0.05, so wrong."},
	} {
		q, err := NewQuiz(sim.DefaultSetup(), 29391)
		if err != nil {
			t.Fatal(err)
		}
		for range 4 { // questions 1 to 4: not about tokens
			q.Answer(Guess{})
		}
		qu, _ := q.Current()
		if qu.Number != 5 || !qu.AskTokens || qu.Answer() != "allowed, 8.8254 tokens left" || qu.TokensLeft != 8.82535478 {
			t.Fatalf("seed 29391 question 5: %d %v %q %.10f; want 5, tokens asked, allowed, 8.8254 tokens left (8.82535478)",
				qu.Number, qu.AskTokens, qu.Answer(), qu.TokensLeft)
		}
		f, err := q.Answer(Guess{Allowed: true, Tokens: c.guess})
		if err != nil {
			t.Fatal(err)
		}
		if f.TokensRight != c.right || f.Points != c.points || f.TokensText() != c.text {
			t.Errorf("guess %v: tokens right %v, %d points, %q;\nwant %v, %d, %q", c.guess, f.TokensRight, f.Points, f.TokensText(), c.right, c.points, c.text)
		}
	}
}

// TestQuizScoringText: the line beside the score says which questions are
// worth 2 points.
func TestQuizScoringText(t *testing.T) {
	q, _ := NewQuiz(sim.DefaultSetup(), 29391)
	if got, want := q.ScoringText(), "1 point per question for allowed or denied, and 1 more for the tokens left on questions 5, 6 and 7 "+
		"(token buckets): 13 in all."; got != want {
		t.Errorf("seed 29391: %q;\nwant %q", got, want)
	}
	s := sim.DefaultSetup()
	s.Lanes = s.Lanes[:2] // fixed window and sliding window log: no tokens asked
	q, _ = NewQuiz(s, 29391)
	if got, want := q.ScoringText(), "1 point per question, for allowed or denied: 10 in all."; got != want || q.MaxScore != 10 {
		t.Errorf("no token bucket: %q (max %d);\nwant %q (max 10)", got, q.MaxScore, want)
	}
	q = &Quiz{MaxScore: 3, Questions: []Question{{Number: 1}, {Number: 2, AskTokens: true}}}
	if got, want := q.ScoringText(), "1 point per question for allowed or denied, and 1 more for the tokens left on question 2 "+
		"(a token bucket): 3 in all."; got != want {
		t.Errorf("one tokens question: %q;\nwant %q", got, want)
	}
}

// TestQuizNoTokens: a token bucket question answered without the tokens
// left is scored on allowed or denied alone: 1 point when the decision is
// right (not a mistake), 0 when it is wrong.
func TestQuizNoTokens(t *testing.T) {
	for _, c := range []struct {
		allowed, correct bool
		points, mistakes int
	}{{true, true, 1, 0}, {false, false, 0, 1}} {
		q, err := NewQuiz(sim.DefaultSetup(), 29391)
		if err != nil {
			t.Fatal(err)
		}
		for range 4 {
			q.Answer(Guess{Allowed: false, NoTokens: true})
		}
		before, mistakes := q.Score, len(q.Mistakes)
		f, err := q.Answer(Guess{Allowed: c.allowed, NoTokens: true})
		if err != nil {
			t.Fatal(err)
		}
		const text = "Tokens left: not predicted, so scored on allowed or denied alone; the exact value is 8.8254."
		if f.Points != c.points || f.Correct != c.correct || f.Score != before+c.points || len(q.Mistakes)-mistakes != c.mistakes || f.TokensText() != text {
			t.Errorf("allowed %v: %d points, correct %v, score %d, %d new mistakes, %q; want %d, %v, %d, %d, %q",
				c.allowed, f.Points, f.Correct, f.Score, len(q.Mistakes)-mistakes, f.TokensText(), c.points, c.correct, before+c.points, c.mistakes, text)
		}
	}
}
