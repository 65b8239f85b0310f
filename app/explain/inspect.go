package explain

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// Outcome is what became of a request, in the terms the inspector and the
// source highlights use.
type Outcome string

// The outcomes of a request.
const (
	// Allowed: admitted (n ≥ 1).
	Allowed Outcome = "allowed"
	// Denied: not admitted now; the same request is allowed after RetryAfter.
	Denied Outcome = "denied"
	// Never: not admitted, ever (n above the limit, or rate 0 with the
	// burst spent); RetryAfter is limiter.Never.
	Never Outcome = "never"
	// Peek: n = 0, allowed, changes nothing.
	Peek Outcome = "peek"
)

// OutcomeOf classifies decision d of a request of n units.
func OutcomeOf(d limiter.Decision, n int) Outcome {
	switch {
	case n == 0:
		return Peek
	case d.Allowed:
		return Allowed
	case d.RetryAfter == limiter.Never:
		return Never
	}
	return Denied
}

// Step is one line of a worked decision: a label ("tokens now"), the
// formula filled in with the real values ("min(5, 0.5 + 0.75)"; may be
// empty) and the result ("1.25").
type Step struct {
	Label, Formula, Value string
}

// String renders the step as one line: "label: formula = value".
func (s Step) String() string {
	if s.Formula == "" {
		return s.Label + ": " + s.Value
	}
	return s.Label + ": " + s.Formula + " = " + s.Value
}

// Input is one decision and the state views around it, all read from the
// limiter. Build it with [Replay] or by hand: State(At) before AllowN(At, N),
// the Decision, State(At) after.
type Input struct {
	Config limiter.Config
	// At is the request's stamp and N its units.
	At limiter.Instant
	N  int
	// HasLast reports that a request was admitted before this one; Last is
	// the latest instant admitted at (the limiter's "last update") and
	// LastState the state read at Last right after that admission.
	HasLast   bool
	Last      limiter.Instant
	LastState limiter.State
	// Before and After are State(At) read just before and just after the
	// request; Decision is what AllowN(At, N) returned.
	Before   limiter.State
	Decision limiter.Decision
	After    limiter.State
}

// Explanation is one decision worked out with its real numbers, for the
// inspector panel: a title, steps, the outcome in one sentence, and the
// source that took it.
type Explanation struct {
	Kind limiter.Kind
	// Title names the strategy and its parameters: "token bucket: 2/s, burst 3".
	Title string
	At    limiter.Instant
	N     int
	// Steps are the worked lines, in the order the algorithm takes them.
	Steps []Step
	// Outcome classifies the decision; Verdict says it in one sentence
	// ("allowed: 2 remaining", "denied: retry after 250 ms (Retry-After: 1)").
	Outcome  Outcome
	Verdict  string
	Decision limiter.Decision
	// Source points at the limiter files and lines that took this decision.
	Source Source
}

// Text renders the explanation as plain text, one line per step: what the
// tests assert and what a screen reader can announce.
func (e Explanation) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s — request of %d at %s\n", e.Title, e.N, units.FormatDuration(e.At))
	for _, s := range e.Steps {
		b.WriteString(s.String())
		b.WriteByte('\n')
	}
	b.WriteString("→ " + e.Verdict + "\n")
	return b.String()
}

// Explain works out the decision in in, with its real numbers.
func Explain(in Input) Explanation {
	e := Explanation{Kind: in.Config.Kind, Title: ConfigText(in.Config), At: in.At, N: in.N,
		Outcome: OutcomeOf(in.Decision, in.N), Decision: in.Decision}
	e.Source, _ = SourceOf(in.Config.Kind)
	x := &explainer{in: in, e: &e, now: in.At}
	if in.HasLast && in.At < in.Last {
		x.now = in.Last
	}
	x.step("now", x.nowFormula(), units.FormatDuration(x.now))
	switch in.Config.Kind {
	case limiter.KindTokenBucket:
		x.tokenBucket()
	case limiter.KindGCRA:
		x.gcra()
	case limiter.KindLeakyBucket:
		x.leakyBucket()
	case limiter.KindFixedWindow:
		x.fixedWindow()
	case limiter.KindSlidingWindowLog:
		x.slidingLog()
	case limiter.KindSlidingWindowCounter:
		x.slidingCounter()
	}
	x.verdict()
	return e
}

type explainer struct {
	in  Input
	e   *Explanation
	now limiter.Instant // the instant the request is evaluated at
}

func (x *explainer) step(label, formula, value string) {
	x.e.Steps = append(x.e.Steps, Step{label, formula, value})
}

func (x *explainer) nowFormula() string {
	if x.now != x.in.At {
		return fmt.Sprintf("stamp %s is before the latest admission %s: evaluated at %s (time never runs backwards)",
			units.FormatDuration(x.in.At), units.FormatDuration(x.in.Last), units.FormatDuration(x.now))
	}
	return ""
}

// elapsed is the time since the last update (0 before any).
func (x *explainer) elapsed() time.Duration {
	if !x.in.HasLast {
		return 0
	}
	return x.now - x.in.Last
}

func (x *explainer) elapsedStep() {
	x.step("elapsed since last update", fmt.Sprintf("now − last = %s − %s", units.FormatDuration(x.now), units.FormatDuration(x.in.Last)), units.FormatDuration(x.elapsed()))
}

// test records the comparison that decided, with its truth from the
// decision itself.
func (x *explainer) test(formula string) {
	d, n := x.in.Decision, x.in.N
	switch {
	case n == 0:
		x.step("test", "n = 0 is a peek: allowed, changes nothing", "true")
	case x.e.Outcome == Never && n > x.in.Before.Limit:
		x.step("test", fmt.Sprintf("n ≤ limit: %d ≤ %d", n, x.in.Before.Limit), "false (never: more than the limiter can ever hold)")
	case x.e.Outcome == Never:
		x.step("test", formula, "false (never: nothing is ever refilled)")
	default:
		x.step("test", formula, holds(d.Allowed))
	}
}

// waits adds the retry-after (denied) and the remaining / reset lines.
func (x *explainer) waits(retryFormula string) {
	d := x.in.Decision
	if x.e.Outcome == Denied {
		x.step("retry after", retryFormula, units.FormatDuration(d.RetryAfter))
		x.step("Retry-After header", "seconds, rounded up, at least 1", limiter.RetryAfterSeconds(d))
	}
	x.step("remaining", "whole units that still fit now", itoa(d.Remaining))
}

func (x *explainer) verdict() { x.e.Verdict = verdictOf(x.e.Outcome, x.in.Decision) }

// verdictOf says a decision in one sentence.
func verdictOf(o Outcome, d limiter.Decision) string {
	switch o {
	case Peek:
		return fmt.Sprintf("peek: allowed, nothing taken, %d remaining", d.Remaining)
	case Allowed:
		v := fmt.Sprintf("allowed: %d remaining", d.Remaining)
		if d.Delay > 0 {
			v += fmt.Sprintf(", served after %s in a queue", units.FormatDuration(d.Delay))
		}
		return v
	case Denied:
		return fmt.Sprintf("denied: retry after %s (HTTP 429, Retry-After: %s)", units.FormatDuration(d.RetryAfter), limiter.RetryAfterSeconds(d))
	case Never:
		return "denied for good: retrying never helps (HTTP 429 without Retry-After)"
	}
	return ""
}

// queueStep labels a leaky bucket's queue delay step.
const queueStep = "queue delay (as a queue; a meter passes it at once)"

// AsMeter is e for a leaky bucket used as a meter (nginx limit_req with
// nodelay): the same decision, but an admitted request passes at once, so
// there is no queue delay step and the verdict names no wait.
func (e Explanation) AsMeter() Explanation {
	e.Steps = slices.DeleteFunc(slices.Clone(e.Steps), func(s Step) bool { return s.Label == queueStep })
	e.Decision.Delay = 0
	e.Verdict = verdictOf(e.Outcome, e.Decision)
	return e
}

func (x *explainer) tokenBucket() {
	in, c := x.in, x.in.Config
	if in.HasLast {
		el := x.elapsed()
		refill := el.Seconds() * c.Rate
		x.elapsedStep()
		x.step("tokens at last update", "", Tokens(in.LastState.Tokens))
		x.step("refill", fmt.Sprintf("elapsed × rate = %s × %s", units.FormatDuration(el), rate(c.Rate)), Tokens(refill))
		x.step("tokens now", fmt.Sprintf("min(burst, tokens + refill) = min(%d, %s + %s)", c.Burst, Tokens(in.LastState.Tokens), Tokens(refill)), Tokens(in.Before.Tokens))
	} else {
		x.step("tokens now", "a new bucket starts full: burst", Tokens(in.Before.Tokens))
	}
	x.step("request", "n", itoa(in.N))
	x.test(fmt.Sprintf("tokens ≥ n: %s ≥ %d", Tokens(in.Before.Tokens), in.N))
	if x.e.Outcome == Allowed {
		x.step("tokens after", fmt.Sprintf("%s − %d", Tokens(in.Before.Tokens), in.N), Tokens(in.After.Tokens))
	}
	x.waits(fmt.Sprintf("(n − tokens) ÷ rate = (%d − %s) ÷ %s, rounded up to 1 ns", in.N, Tokens(in.Before.Tokens), rate(c.Rate)))
}

func (x *explainer) gcra() {
	in := x.in
	b, T, tau := in.Before, in.Before.EmissionInterval, in.Before.Tolerance
	x.step("emission interval T", fmt.Sprintf("1 ÷ rate = 1 ÷ %s", rate(in.Config.Rate)), units.FormatDuration(T))
	x.step("tolerance τ", fmt.Sprintf("burst × T = %d × %s", in.Config.Burst, units.FormatDuration(T)), units.FormatDuration(tau))
	x.step("TAT (theoretical arrival time)", "when the bucket would be full again (now if it is full)", units.FormatDuration(b.TAT))
	newTAT := max(b.TAT, x.now) + time.Duration(in.N)*T
	if x.e.Outcome == Allowed {
		newTAT = in.After.TAT
	}
	x.step("new TAT", fmt.Sprintf("max(TAT, now) + n × T = max(%s, %s) + %d × %s", units.FormatDuration(b.TAT), units.FormatDuration(x.now), in.N, units.FormatDuration(T)), units.FormatDuration(newTAT))
	x.test(fmt.Sprintf("new TAT − now ≤ τ: %s − %s ≤ %s", units.FormatDuration(newTAT), units.FormatDuration(x.now), units.FormatDuration(tau)))
	if x.e.Outcome == Allowed {
		x.step("TAT after", "", units.FormatDuration(in.After.TAT))
	}
	x.step("tokens (token bucket view)", "burst − (TAT − now) ÷ T, before → after", Tokens(b.Tokens)+" → "+Tokens(in.After.Tokens))
	x.waits(fmt.Sprintf("new TAT − now − τ = %s − %s − %s", units.FormatDuration(newTAT), units.FormatDuration(x.now), units.FormatDuration(tau)))
}

func (x *explainer) leakyBucket() {
	in, c := x.in, x.in.Config
	if in.HasLast {
		el := x.elapsed()
		leaked := float64(el) / float64(c.LeakInterval)
		x.elapsedStep()
		x.step("level at last update", "", Usage(in.LastState.Level))
		x.step("leaked", fmt.Sprintf("elapsed ÷ leak interval = %s ÷ %s", units.FormatDuration(el), units.FormatDuration(c.LeakInterval)), Tokens(leaked))
		x.step("level now", fmt.Sprintf("max(0, level − leaked) = max(0, %s − %s)", Usage(in.LastState.Level), Tokens(leaked)), Usage(in.Before.Level))
	} else {
		x.step("level now", "a new bucket starts empty", Usage(in.Before.Level))
	}
	x.step("request", "n", itoa(in.N))
	x.test(fmt.Sprintf("level + n ≤ capacity: %s + %d ≤ %d", Usage(in.Before.Level), in.N, c.Capacity))
	if x.e.Outcome == Allowed {
		x.step("level after", fmt.Sprintf("%s + %d", Usage(in.Before.Level), in.N), Usage(in.After.Level))
		x.step(queueStep, fmt.Sprintf("(level after − 1) × leak interval = (%s − 1) × %s",
			Usage(in.After.Level), units.FormatDuration(c.LeakInterval)), units.FormatDuration(in.Decision.Delay))
	}
	x.waits(fmt.Sprintf("(level + n − capacity) × leak interval = (%s + %d − %d) × %s", Usage(in.Before.Level), in.N, c.Capacity, units.FormatDuration(c.LeakInterval)))
}

func (x *explainer) fixedWindow() {
	in, b := x.in, x.in.Before
	end := b.WindowStart + b.Window
	x.step("window index", fmt.Sprintf("⌊now ÷ window⌋ = ⌊%s ÷ %s⌋", units.FormatDuration(x.now), units.FormatDuration(b.Window)), itoa(int(b.WindowStart/b.Window)))
	x.step("window", "[index × window, (index + 1) × window)", fmt.Sprintf("[%s, %s)", units.FormatDuration(b.WindowStart), units.FormatDuration(end)))
	x.step("count", "units admitted in this window", itoa(b.Count))
	x.step("request", "n", itoa(in.N))
	x.test(fmt.Sprintf("count + n ≤ limit: %d + %d ≤ %d", b.Count, in.N, b.Limit))
	if x.e.Outcome == Allowed {
		x.step("count after", fmt.Sprintf("%d + %d", b.Count, in.N), itoa(in.After.Count))
	}
	x.waits(fmt.Sprintf("window end − now = %s − %s", units.FormatDuration(end), units.FormatDuration(x.now)))
}

func (x *explainer) slidingLog() {
	in, b := x.in, x.in.Before
	x.step("window", fmt.Sprintf("entries e with now − e < window: e in (%s − %s, %s]", units.FormatDuration(x.now), units.FormatDuration(b.Window), units.FormatDuration(x.now)),
		fmt.Sprintf("(%s, %s]", units.FormatDuration(x.now-b.Window), units.FormatDuration(x.now)))
	if in.HasLast {
		var expired []limiter.Instant
		if k := len(in.LastState.Log) - len(b.Log); k > 0 {
			expired = in.LastState.Log[:k]
		}
		x.step("expired since last update", "now − e ≥ window", instants(expired))
	}
	x.step("counted", "entries in the window, oldest first", instants(b.Log))
	x.step("count", "", itoa(b.Count))
	x.step("request", "n", itoa(in.N))
	x.test(fmt.Sprintf("count + n ≤ limit: %d + %d ≤ %d", b.Count, in.N, b.Limit))
	retry := ""
	if k := b.Count + in.N - b.Limit; x.e.Outcome == Denied && k >= 1 && k <= len(b.Log) {
		retry = fmt.Sprintf("entry %d (oldest first) + window − now = %s + %s − %s", k, units.FormatDuration(b.Log[k-1]), units.FormatDuration(b.Window), units.FormatDuration(x.now))
	}
	if x.e.Outcome == Allowed {
		x.step("log after", "", instants(in.After.Log))
	}
	x.step("memory", "one instant per admitted unit still in the window (at most limit)", fmt.Sprintf("%d of %d instants", len(in.After.Log), b.Limit))
	x.waits(retry)
}

func (x *explainer) slidingCounter() {
	in, b := x.in, x.in.Before
	el := x.now - b.WindowStart
	x.step("window", "[start, start + window)", fmt.Sprintf("[%s, %s)", units.FormatDuration(b.WindowStart), units.FormatDuration(b.WindowStart+b.Window)))
	x.step("elapsed in window", fmt.Sprintf("now − start = %s − %s", units.FormatDuration(x.now), units.FormatDuration(b.WindowStart)), units.FormatDuration(el))
	x.step("previous window count", fmt.Sprintf("units admitted in [%s, %s)", units.FormatDuration(b.WindowStart-b.Window), units.FormatDuration(b.WindowStart)), itoa(b.Previous))
	x.step("current window count", "", itoa(b.Count))
	x.step("weighted estimate", fmt.Sprintf("prev × (window − elapsed) ÷ window + curr = %d × (%s − %s) ÷ %s + %d",
		b.Previous, units.FormatDuration(b.Window), units.FormatDuration(el), units.FormatDuration(b.Window), b.Count), Usage(b.Weighted))
	x.step("request", "n", itoa(in.N))
	x.test(fmt.Sprintf("estimate + n ≤ limit: %s + %d ≤ %d", Usage(b.Weighted), in.N, b.Limit))
	if x.e.Outcome == Allowed {
		x.step("estimate after", "", Usage(in.After.Weighted))
	}
	x.waits(fmt.Sprintf("earliest e with prev × (window − e) + (curr + n) × window ≤ limit × window, minus elapsed: %d × (%s − e) + (%d + %d) × %s ≤ %d × %s",
		b.Previous, units.FormatDuration(b.Window), b.Count, in.N, units.FormatDuration(b.Window), b.Limit, units.FormatDuration(b.Window)))
}

// Replay rebuilds one client's limiter from cfg by replaying its requests
// (events, in order; the events of other clients are skipped when client is
// not "") and explains request k (0-based, counted among that client's
// requests). Each lane of a sim.Lab keeps one limiter per client, and
// evicting one only when it is fresh changes no decision, so replaying a
// client's own requests gives exactly the lane's decisions.
func Replay(cfg limiter.Config, client string, events []sim.Event, k int) (Explanation, error) {
	var r Replayer
	if err := r.Reset(cfg); err != nil {
		return Explanation{}, err
	}
	i := 0
	for _, ev := range events {
		if client != "" && ev.Client != client {
			continue
		}
		in, err := r.Decide(ev.At, ev.N)
		if err != nil {
			return Explanation{}, err
		}
		if i == k {
			return Explain(in), nil
		}
		i++
	}
	return Explanation{}, fmt.Errorf("replay: request %d of client %q does not exist; want 0 to %d", k, client, i-1)
}

// Replayer drives one real strategy and records, for each request, the
// Input the inspector needs.
type Replayer struct {
	cfg     limiter.Config
	s       limiter.Strategy
	hasLast bool
	last    limiter.Instant
	lastSt  limiter.State
}

// Reset starts over with a new strategy built from cfg.
func (r *Replayer) Reset(cfg limiter.Config) error {
	s, err := limiter.New(cfg)
	if err != nil {
		return err
	}
	*r = Replayer{cfg: cfg, s: s}
	return nil
}

// Strategy returns the strategy being driven.
func (r *Replayer) Strategy() limiter.Strategy { return r.s }

// Decide sends a request of n at at to the strategy and returns the Input
// for the inspector.
func (r *Replayer) Decide(at limiter.Instant, n int) (Input, error) {
	in := Input{Config: r.cfg, At: at, N: n, HasLast: r.hasLast, Last: r.last, LastState: r.lastSt}
	in.Before = r.s.State(at)
	d, err := r.s.AllowN(at, n)
	if err != nil {
		return Input{}, err
	}
	in.Decision = d
	in.After = r.s.State(at)
	if d.Allowed && n > 0 {
		t := at
		if r.hasLast && t < r.last {
			t = r.last
		}
		r.hasLast, r.last, r.lastSt = true, t, in.After
	}
	return in, nil
}
