package explain

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// QuizLength is the number of questions a quiz asks (fewer when the traffic
// has fewer requests).
const QuizLength = 10

// Questions are drawn from the first QuizRequests requests of the traffic,
// within QuizHorizon.
const (
	QuizRequests = 400
	QuizHorizon  = 30 * time.Second
)

// Question asks the learner to predict one decision of one lane before it
// is revealed.
type Question struct {
	// Number counts from 1.
	Number int
	// Lane is the lane's index in the setup (0-based); Config its strategy
	// for this client (the tier's, if any).
	Lane   int
	Config limiter.Config
	// Request is the request asked about; Index is its position in the
	// traffic (0-based), so the page can pause the clock just before it.
	Request sim.Event
	Index   int
	Prompt  string
	// AskTokens reports that the learner also predicts the tokens left
	// (token bucket lanes).
	AskTokens bool
	// Allowed and TokensLeft are the answer: the decision, and the exact
	// tokens left after it (AskTokens only), which a guess is compared
	// with: right within TokenTolerance on either side.
	Allowed    bool
	TokensLeft float64
	// Explanation is the inspector's worked decision, shown on reveal.
	Explanation Explanation
	// Given, for a tokens question, is what the learner needs beside the
	// lane's rate and burst: the bucket after the client's latest admitted
	// request ("After alice's latest admitted request, at t = 8.805 s, the
	// bucket held 8.08 tokens."). The earlier decisions show only whole
	// units left, which leaves a range of a whole token.
	Given string
}

// Answer renders the expected answer: "allowed, 8.8254 tokens left". The
// tokens are the exact value the guess is compared with, to 4 decimals
// (rounded to the nearest), not floored to 2 as elsewhere: floored, 8.8254
// read 8.82, which is not the value the tolerance is around.
func (q Question) Answer() string {
	s := "denied"
	if q.Allowed {
		s = "allowed"
	}
	if q.AskTokens {
		s += ", " + exactTokens(q.TokensLeft) + " tokens left"
	}
	return s
}

// exactTokens writes a number of tokens to 4 decimals, rounded to the
// nearest, trailing zeros dropped: 8.825355 → "8.8254", 9 → "9".
func exactTokens(x float64) string { return decimals(x, 4) }

// Guess is a learner's prediction. Tokens is compared as given with the
// exact tokens left.
type Guess struct {
	Allowed bool
	Tokens  float64
	// NoTokens: the tokens left were not predicted (the field left
	// empty); the answer is scored on allowed or denied alone.
	NoTokens bool
}

// Feedback is the result of one answer, with the running totals after it.
type Feedback struct {
	Question Question
	// Guess is the prediction scored.
	Guess Guess
	// AllowedRight and TokensRight say which parts were right (TokensRight
	// is true when tokens were not asked); Correct is both.
	AllowedRight, TokensRight, Correct bool
	// TokensOff is how far the guessed tokens are from the exact tokens
	// left (AskTokens only).
	TokensOff             float64
	Points, Score, Streak int
}

// TokensText says how the guessed tokens were scored, with the exact value
// and the distance to it ("" when tokens were not asked): "Tokens left:
// you said 8.88; the exact value is 8.8254, 0.0546 away: more than 0.05,
// so wrong." Both are written to 4 decimals, or more when the distance
// would read 0.05 without being exactly that (0.05005).
func (f Feedback) TokensText() string {
	if !f.Question.AskTokens {
		return ""
	}
	if f.Guess.NoTokens {
		return "Tokens left: not predicted, so scored on allowed or denied alone; the exact value is " + exactTokens(f.Question.TokensLeft) + "."
	}
	d := 4
	for d < 8 && decimals(f.TokensOff, d) == decimals(TokenTolerance, d) && math.Abs(f.TokensOff-TokenTolerance) > 1e-9 {
		d++
	}
	s := fmt.Sprintf("Tokens left: you said %s; the exact value is %s, %s away: ", strconv.FormatFloat(f.Guess.Tokens, 'f', -1, 64),
		decimals(f.Question.TokensLeft, d), decimals(f.TokensOff, d))
	if f.TokensRight {
		return s + "within " + decimals(TokenTolerance, d) + ", so right."
	}
	return s + "more than " + decimals(TokenTolerance, d) + ", so wrong."
}

// decimals writes x to d decimals, rounded to the nearest, trailing zeros
// dropped.
func decimals(x float64, d int) string {
	s := strconv.FormatFloat(x, 'f', d, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Mistake is a question answered wrongly, with the guess; the question's
// Explanation says why.
type Mistake struct {
	Question Question
	Guess    Guess
}

// Quiz is a predict-then-reveal session: questions generated from a setup
// and a seed, a running score (one point for allow/deny, one for the tokens
// left), a streak of fully correct answers and the mistakes to review.
type Quiz struct {
	Seed      uint64
	Questions []Question
	// Score is the points so far out of MaxScore; Streak the current run of
	// fully correct answers, Best the longest.
	Score, MaxScore, Streak, Best int
	Mistakes                      []Mistake
	next                          int
}

// NewQuiz generates a quiz from the setup's lanes and clients (the
// built-in trace and manual clicks are not part of it) and a seed: the same
// setup and seed give the same questions, so a teacher can share a link. It
// returns an error for an invalid setup or traffic with no requests.
//
// The questions are about the traffic's first QuizRequests requests before
// QuizHorizon, whatever the clients' rates, and the work is bounded by
// those: at most QuizRequests × sim.MaxLanes decisions (2,400), plus the
// replay of each question's client, even for 16 clients sending 10,000
// requests a second or bursts of 10,000 at one instant (their 400 requests
// fall in the first milliseconds).
func NewQuiz(setup sim.Setup, seed uint64) (*Quiz, error) {
	evs, err := quizEvents(setup)
	if err != nil {
		return nil, err
	}
	laneConfig := tierConfigs(setup)
	allowed, denied, err := verdicts(setup, evs, laneConfig)
	if err != nil {
		return nil, err
	}
	q := &Quiz{Seed: seed}
	for _, p := range pickQuestions(seed, allowed, denied, len(evs)*len(setup.Lanes)) {
		idx, ln := p/len(setup.Lanes), p%len(setup.Lanes)
		qu, err := question(ln, laneConfig(ln, evs[idx].Client), evs, idx)
		if err != nil {
			return nil, err
		}
		qu.Number = len(q.Questions) + 1
		if qu.AskTokens {
			q.MaxScore++
		}
		q.MaxScore++
		q.Questions = append(q.Questions, qu)
	}
	return q, nil
}

// quizEvents are the requests the quiz asks about: the setup's traffic
// before QuizHorizon, at most QuizRequests of them.
func quizEvents(setup sim.Setup) ([]sim.Event, error) {
	if err := setup.Validate(); err != nil {
		return nil, err
	}
	if len(setup.Lanes) == 0 {
		return nil, errors.New("quiz: no lanes; want at least one")
	}
	src, err := sim.NewSource(setup.Clients, setup.Seed, nil, nil)
	if err != nil {
		return nil, err
	}
	evs := src.NextN(QuizHorizon-1, QuizRequests, nil) // before QuizHorizon
	if len(evs) == 0 {
		return nil, fmt.Errorf("quiz: the traffic sends no request in the first %v; want a client with a pattern", QuizHorizon)
	}
	return evs, nil
}

// tierConfigs returns the config that lane ln applies to a client: its
// tier's, when the lane has the client's tier, else the lane's own.
func tierConfigs(setup sim.Setup) func(ln int, client string) limiter.Config {
	tiers := map[string]string{}
	for _, c := range setup.Clients {
		tiers[c.Name] = c.Tier
	}
	return func(ln int, client string) limiter.Config {
		spec := setup.Lanes[ln]
		if c, ok := spec.Tiers[tiers[client]]; ok && tiers[client] != "" {
			return c
		}
		return spec.Config
	}
}

// verdicts decides every (request, lane) pair, each client on its own
// limiter in each lane, as the lab decides them; a pair is numbered
// request index × lanes + lane.
func verdicts(setup sim.Setup, evs []sim.Event, laneConfig func(int, string) limiter.Config) (allowed, denied []int, err error) {
	for ln := range setup.Lanes {
		per := map[string]limiter.Strategy{}
		for idx, e := range evs {
			s := per[e.Client]
			if s == nil {
				if s, err = limiter.New(laneConfig(ln, e.Client)); err != nil {
					return nil, nil, err
				}
				per[e.Client] = s
			}
			d, err := s.AllowN(e.At, e.N)
			if err != nil {
				return nil, nil, err
			}
			if d.Allowed {
				allowed = append(allowed, idx*len(setup.Lanes)+ln)
			} else {
				denied = append(denied, idx*len(setup.Lanes)+ln)
			}
		}
	}
	return allowed, denied, nil
}

// pickQuestions picks distinct pairs of total, 3 to 7 of them denied (as
// many as there are, if fewer), so that answering "allowed" every time
// does not score; in time order.
func pickQuestions(seed uint64, allowed, denied []int, total int) []int {
	rng := rand.New(rand.NewPCG(seed, 0x71752a))
	n := min(QuizLength, total)
	nd := min(len(denied), 3+rng.IntN(5), n)
	na := min(len(allowed), n-nd)
	nd = min(len(denied), n-na)
	var picks []int
	for _, k := range rng.Perm(len(denied))[:nd] {
		picks = append(picks, denied[k])
	}
	for _, k := range rng.Perm(len(allowed))[:na] {
		picks = append(picks, allowed[k])
	}
	slices.Sort(picks)
	return picks
}

// question asks about request idx of evs in lane ln, which applies cfg.
func question(ln int, cfg limiter.Config, evs []sim.Event, idx int) (Question, error) {
	in, err := replayTo(cfg, evs, idx)
	if err != nil {
		return Question{}, err
	}
	ev := evs[idx]
	qu := Question{Lane: ln, Config: cfg, Request: ev, Index: idx,
		AskTokens: cfg.Kind == limiter.KindTokenBucket, Allowed: in.Decision.Allowed, Explanation: Explain(in)}
	qu.Prompt = fmt.Sprintf("Lane %d (%s): %s asks for %d at t = %s. Allowed or denied?", ln+1, ConfigText(cfg), ev.Client, ev.N, units.FormatClock(ev.At))
	if qu.AskTokens {
		qu.TokensLeft = in.After.Tokens
		qu.Prompt += " How many tokens are left after it (to within 0.05)?"
		if in.HasLast {
			qu.Given = fmt.Sprintf("After %s's latest admitted request, at t = %s, the bucket held %s tokens.", ev.Client, units.FormatClock(in.Last), Tokens(in.LastState.Tokens))
		} else {
			qu.Given = fmt.Sprintf("%s's bucket has admitted nothing yet: it is full, %d tokens.", ev.Client, cfg.Burst)
		}
	}
	return qu, nil
}

// Requests is how many of the traffic's first requests the questions are
// about: the last question's Index + 1 (0 with no question), at most
// QuizRequests. The decisions before any question are among these, so a
// page that shows them needs to run no more of the traffic than this, at
// any rate (see quizView).
func (q *Quiz) Requests() int {
	if len(q.Questions) == 0 {
		return 0
	}
	return q.Questions[len(q.Questions)-1].Index + 1
}

// ScoringText says how the points are counted, for the line beside the
// score: "1 point per question for allowed or denied, and 1 more for the
// tokens left on questions 5, 6 and 7 (token buckets): 13 in all."
func (q *Quiz) ScoringText() string {
	var nums []string
	for _, qu := range q.Questions {
		if qu.AskTokens {
			nums = append(nums, strconv.Itoa(qu.Number))
		}
	}
	if len(nums) == 0 {
		return fmt.Sprintf("1 point per question, for allowed or denied: %d in all.", q.MaxScore)
	}
	which := "question " + nums[0] + " (a token bucket)"
	if len(nums) > 1 {
		which = "questions " + strings.Join(nums[:len(nums)-1], ", ") + " and " + nums[len(nums)-1] + " (token buckets)"
	}
	return fmt.Sprintf("1 point per question for allowed or denied, and 1 more for the tokens left on %s: %d in all.", which, q.MaxScore)
}

// TokenTolerance is how far, in tokens, a guess of the tokens left may be
// from the exact value, either way, and still count as right.
const TokenTolerance = 0.05

// replayTo replays the requests of evs[k]'s client up to evs[k] and returns
// the inspector's input for evs[k].
func replayTo(cfg limiter.Config, evs []sim.Event, k int) (Input, error) {
	var r Replayer
	if err := r.Reset(cfg); err != nil {
		return Input{}, err
	}
	for i := 0; ; i++ {
		if evs[i].Client != evs[k].Client {
			continue
		}
		in, err := r.Decide(evs[i].At, evs[i].N)
		if err != nil || i == k {
			return in, err
		}
	}
}

// Current returns the question to answer next, and false when the quiz is
// over.
func (q *Quiz) Current() (Question, bool) {
	if q.next >= len(q.Questions) {
		return Question{}, false
	}
	return q.Questions[q.next], true
}

// Done reports whether every question has been answered.
func (q *Quiz) Done() bool { return q.next >= len(q.Questions) }

// Answer scores g against the current question, moves to the next and
// returns the feedback. It returns an error when the quiz is over.
func (q *Quiz) Answer(g Guess) (Feedback, error) {
	qu, ok := q.Current()
	if !ok {
		return Feedback{}, errors.New("quiz: every question is answered; start a new quiz")
	}
	q.next++
	f := Feedback{Question: qu, Guess: g, AllowedRight: g.Allowed == qu.Allowed, TokensRight: true}
	if f.AllowedRight {
		f.Points++
	}
	if qu.AskTokens && !g.NoTokens {
		// Instants are shown to the millisecond, so a guess worked out from
		// the page may differ from the exact level by a few hundredths. The
		// tolerance is around the exact value, the same both ways (around
		// the value floored to hundredths it reached 0.06 below and 0.04
		// above). The 1e-9 absorbs float noise: 8.87 − 8.82 is 0.05.
		f.TokensOff = math.Abs(g.Tokens - qu.TokensLeft)
		f.TokensRight = f.TokensOff <= TokenTolerance+1e-9
		if f.TokensRight {
			f.Points++
		}
	}
	f.Correct = f.AllowedRight && f.TokensRight
	q.Score += f.Points
	if f.Correct {
		q.Streak++
		q.Best = max(q.Best, q.Streak)
	} else {
		q.Streak = 0
		q.Mistakes = append(q.Mistakes, Mistake{Question: qu, Guess: g})
	}
	f.Score, f.Streak = q.Score, q.Streak
	return f, nil
}
