package learn

import (
	"math"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
)

// quizView is the predict-then-reveal quiz for one seed: the clock pauses
// before each asked request, the learner predicts, the reveal shows the
// inspector; a running score and streak, and a review of mistakes.
type quizView struct {
	app.Compo
	Seed uint64
	Link string
	// NewLink is the same quiz with the next seed (the lab setup kept).
	NewLink string
	// Setup is the configuration and traffic asked about: the comparison
	// lab's defaults, or the lab setup the link carries (FromLink).
	Setup sim.Setup
	// Source says where the questions come from (see quizSource).
	Source string

	quiz  *explain.Quiz
	built string // the setup and seed the quiz was built for
	// lab is the same traffic run through the lanes up to the last question's
	// request (quiz.Requests(), at most explain.QuizRequests), for the
	// decisions shown before each question: no further, so that the work is
	// bounded by the quiz's requests, not by the clients' rates (16 clients
	// of 10,000 requests/s on 6 lanes, run to QuizHorizon, would be millions
	// of decisions), and its history holds every request from the first.
	lab      *sim.Lab
	err      string
	choice   string // "allowed", "denied" or ""
	formErr  string
	feedback *explain.Feedback
	said     string // the last prediction, in words
}

func (v *quizView) ensure() {
	key := v.Setup.Values().Encode() + "|" + strconv.FormatUint(v.Seed, 10)
	if v.built == key && (v.quiz != nil || v.err != "") {
		return
	}
	v.built = key
	v.quiz, v.lab, v.err, v.feedback, v.choice, v.formErr = nil, nil, "", nil, "", ""
	clearTokens()
	q, err := explain.NewQuiz(v.Setup, v.Seed)
	if err != nil {
		v.err = err.Error()
		return
	}
	v.quiz = q
	if lab, err := quizLab(v.Setup, q.Requests()); err == nil {
		v.lab = lab
	}
}

// quizLab runs setup's traffic through its lanes, the first n requests
// exactly (those at the last one's instant after it wait), and keeps every
// decision: History(nil)[i] is request i's.
func quizLab(setup sim.Setup, n int) (*sim.Lab, error) {
	lab, err := sim.New(setup, nil, sim.Options{History: max(n, 1)})
	for err == nil && lab.Processed() < n {
		var ok bool
		if _, ok, err = lab.StepRequest(); !ok {
			break
		}
	}
	return lab, err
}

func (v *quizView) restart(ctx app.Context, e app.Event) {
	v.quiz = nil
	v.ensure()
}

func (v *quizView) Render() app.UI {
	v.ensure()
	head := app.Elem("div").Class("quiz-head").Body(
		app.Elem("h2").Text("Quiz: predict, then reveal"),
		app.Elem("p").ID("quiz-source").Class("hint").Text(v.Source),
		app.Elem("div").Class("row share-row").Body(
			app.Elem("label").Attr("for", "quiz-link").Class("inline-label").Text("Share these questions:"),
			app.ElemSelfClosing("input").ID("quiz-link").Class("text share").Attr("readonly", true).Attr("value", v.Link),
			app.Elem("span").ID("quiz-seed").Class("badge run").Text("seed "+strconv.FormatUint(v.Seed, 10)),
		),
	)
	if v.err != "" {
		return app.Elem("section").ID("quiz").Class("card quiz").Body(head, app.Elem("p").ID("quiz-error").Class("param-error").Role("alert").Text("⚠ "+v.err))
	}
	q := v.quiz
	var body app.UI
	switch {
	case v.feedback != nil:
		body = v.reveal()
	case q.Done():
		body = v.results()
	default:
		body = v.ask()
	}
	return app.Elem("section").ID("quiz").Class("card quiz").Body(
		head,
		v.scoreBar(),
		body,
	)
}

func (v *quizView) scoreBar() app.UI {
	q := v.quiz
	n := len(q.Questions)
	at := n
	if cur, ok := q.Current(); ok {
		at = cur.Number
		if v.feedback != nil {
			at = v.feedback.Question.Number
		}
	} else if v.feedback != nil {
		at = v.feedback.Question.Number
	}
	// The stats, then how the points are counted: "1 of 10" beside
	// "0 / 13" said nothing of the questions worth 2 points.
	return app.Div().Body(
		app.Elem("div").Class("stats quiz-stats").Body(
			ui.Stat("Question", app.Elem("span").ID("quiz-progress").Class("big").Text(strconv.Itoa(at)+" of "+strconv.Itoa(n))),
			ui.Stat("Score", app.Elem("span").ID("quiz-score").Class("big").Text(strconv.Itoa(q.Score)+" / "+strconv.Itoa(q.MaxScore))),
			ui.Stat("Streak", app.Elem("span").ID("quiz-streak").Class("big").Text(strconv.Itoa(q.Streak))),
			ui.Stat("Best streak", app.Elem("span").ID("quiz-best").Class("big").Text(strconv.Itoa(q.Best))),
		),
		app.Elem("p").ID("quiz-scoring").Class("hint quiz-scoring").Text("Scoring: "+q.ScoringText()),
	)
}

// ask shows the paused clock, the lane's earlier decisions for context,
// and the prediction form.
func (v *quizView) ask() app.UI {
	qu, _ := v.quiz.Current()
	return app.Elem("div").ID("quiz-form").Class("quiz-q").Body(
		app.Elem("p").ID("quiz-paused").Class("badge pause").Text("Clock paused at "+units.FormatClock(qu.Request.At)+", just before this request"),
		app.Elem("p").ID("quiz-prompt").Class("quiz-prompt").Text(qu.Prompt),
		v.context(qu),
		app.Elem("fieldset").Class("guess").Body(
			app.Elem("legend").Text("Your prediction"),
			app.Elem("label").Class("choice").Body(
				app.ElemSelfClosing("input").Attr("type", "radio").Attr("name", "quiz-guess").ID("quiz-allowed").Attr("value", "allowed").Attr("checked", v.choice == "allowed").
					OnChange(v.onChoice("allowed")),
				app.Text(" ✓ allowed"),
			),
			app.Elem("label").Class("choice").Body(
				app.ElemSelfClosing("input").Attr("type", "radio").Attr("name", "quiz-guess").ID("quiz-denied").Attr("value", "denied").Attr("checked", v.choice == "denied").
					OnChange(v.onChoice("denied")),
				app.Text(" ✕ denied"),
			),
			app.If(qu.AskTokens && qu.Given != "", app.Elem("p").ID("quiz-given").Class("hint").Text(qu.Given)),
			app.If(qu.AskTokens, app.Elem("div").Class("row").Body(
				app.Elem("label").Attr("for", "quiz-tokens").Class("inline-label").Text("Tokens left after it:"),
				// Not bound to a field of the view: writing the text back while
				// it is typed would replace "-" or "1e" (not yet numbers) with
				// nothing. Reveal reads it; a new question clears it.
				ui.Invalid(app.ElemSelfClosing("input").Attr("type", "number").ID("quiz-tokens").Class("num").Attr("min", 0).Attr("max", qu.Config.Burst).Attr("step", 0.01),
					strings.HasPrefix(v.formErr, "tokens left"), "quiz-form-error").
					// As in a form, Enter reveals: on its keyup, once the key's
					// keypress has gone to this field. go-app runs handlers
					// after the browser's dispatch, so PreventDefault here came
					// too late to stop that keypress, and on keydown the
					// "Next" button drawn meanwhile took the focus and then the
					// keypress, which skipped the question just revealed.
					OnKeyUp(func(ctx app.Context, e app.Event) {
						if e.Get("key").String() == "Enter" {
							v.onReveal(ctx, e)
						}
					}),
				app.Elem("span").ID("quiz-tokens-unit").Class("unit").Text("tokens (right within ±0.05 of the exact value; optional: left empty, the answer is scored on allowed or denied alone)"),
			)),
		),
		app.If(v.formErr != "", app.Elem("p").ID("quiz-form-error").Class("param-error").Role("alert").Text("⚠ "+v.formErr)),
		app.Elem("div").Class("row").Body(
			app.Elem("button").ID("quiz-reveal").Attr("type", "button").Class("btn primary").Text("Reveal").OnClick(v.onReveal),
		),
	)
}

func (v *quizView) onChoice(c string) app.EventHandler {
	return func(ctx app.Context, e app.Event) { v.choice, v.formErr = c, "" }
}

// context lists the decisions this client got from the same lane just
// before the question (the lab runs the same traffic through real limiters).
func (v *quizView) context(qu explain.Question) app.UI {
	if v.lab == nil || qu.Lane >= len(v.lab.Lanes()) {
		return app.Text("")
	}
	hist := v.lab.Lanes()[qu.Lane].History(nil)
	var prev []sim.Record
	for i := min(qu.Index, len(hist)) - 1; i >= 0 && len(prev) < 5; i-- {
		if hist[i].Client == qu.Request.Client {
			prev = append(prev, hist[i])
		}
	}
	if len(prev) == 0 {
		return app.Elem("p").ID("quiz-context").Class("hint").Text("This is " + qu.Request.Client + "'s first request to this lane: its limiter starts fresh.")
	}
	return app.Elem("div").ID("quiz-context").Class("quiz-context").Body(
		app.Elem("p").Class("hint").Text("What "+qu.Request.Client+" got from lane "+strconv.Itoa(qu.Lane+1)+" just before (latest first):"),
		app.Elem("ul").Class("log").Body(app.Range(prev).Slice(func(i int) app.UI {
			rec := prev[i]
			verdict, cls, detail := "✓ allowed", "decision ok", units.Remaining(rec.Remaining)
			if !rec.Allowed {
				verdict, cls, detail = "✕ denied", "decision no", "retry after "+units.FormatRetry(rec.RetryAfter)
			}
			return app.Elem("li").Class(cls).Body(
				app.Elem("span").Class("at mono").Text("t = "+units.FormatClock(rec.At)),
				app.Elem("span").Class("verdict").Text(verdict),
				app.Elem("span").Class("detail").Text(detail),
			)
		})),
	)
}

// clearTokens empties the tokens field for a new question.
func clearTokens() {
	if !app.IsClient {
		return
	}
	if el := browser.ByID("quiz-tokens"); el.Truthy() {
		el.Set("value", "")
	}
}

func (v *quizView) onReveal(ctx app.Context, e app.Event) {
	qu, ok := v.quiz.Current()
	if !ok {
		return
	}
	if v.choice == "" {
		v.formErr = "pick allowed or denied first"
		return
	}
	g := explain.Guess{Allowed: v.choice == "allowed"}
	if qu.AskTokens {
		text := ""
		if el := browser.ByID("quiz-tokens"); el.Truthy() {
			text = strings.TrimSpace(browser.FieldText(el))
		}
		// A token bucket holds 0 to burst tokens.
		want := "want 0 to " + strconv.Itoa(qu.Config.Burst) + " (right within ±0.05)"
		x, err := strconv.ParseFloat(text, 64)
		switch {
		case text == units.Unreadable:
			v.formErr = "tokens left is not a number the browser can read; " + want
			return
		case text == "":
			g.NoTokens = true // scored on allowed or denied alone
		case err != nil || math.IsNaN(x) || math.IsInf(x, 0):
			v.formErr = "tokens left " + strconv.Quote(text) + " is not a number; " + want
			return
		case x < 0 || x > float64(qu.Config.Burst):
			v.formErr = "tokens left " + strconv.Quote(text) + " is out of range: the bucket holds 0 to " + strconv.Itoa(qu.Config.Burst) + " tokens; " + want
			return
		default:
			g.Tokens = x
		}
	}
	f, err := v.quiz.Answer(g)
	if err != nil {
		v.formErr = err.Error()
		return
	}
	v.feedback, v.formErr, v.said = &f, "", v.choice
	if qu.AskTokens && !g.NoTokens {
		v.said += ", " + tokensLeft(g.Tokens)
	}
}

// nextButton is "Next question →" (or "See your results →"). It replaces
// Reveal, which had the focus, so it takes the focus when it appears (in
// its own OnMount: a ctx.Defer from Reveal's handler runs before it is on
// the page, and the focus would fall to the page's body).
type nextButton struct {
	app.Compo
	Label   string
	OnClick app.EventHandler
}

func (b *nextButton) OnMount(ctx app.Context) {
	if el := browser.ByID("quiz-next"); el.Truthy() {
		el.Call("focus")
	}
}

func (b *nextButton) Render() app.UI {
	return app.Elem("button").ID("quiz-next").Class("btn primary").Text(b.Label).OnClick(b.OnClick)
}

func (v *quizView) reveal() app.UI {
	f := v.feedback
	qu := f.Question
	cls, head := "check pass", "✓ Right"
	if !f.Correct {
		cls, head = "check fail", "✕ Not quite"
	}
	if f.AllowedRight && !f.TokensRight {
		head = "½ Decision right, tokens wrong"
	}
	next := "Next question →"
	if v.quiz.Done() {
		next = "See your results →"
	}
	return app.Elem("div").ID("quiz-reveal-panel").Body(
		app.Elem("p").ID("quiz-prompt").Class("quiz-prompt").Text(qu.Prompt),
		app.Elem("div").ID("quiz-feedback").Class(cls).Role("status").Body(
			app.Elem("p").Class("check-head").Text(head+": +"+strconv.Itoa(f.Points)+" point"+plural1(f.Points)),
			app.Elem("p").ID("quiz-said").Text("You said: "+v.said+"."),
			app.Elem("p").ID("quiz-answer").Text("The answer: "+qu.Answer()+"."),
			app.If(qu.AskTokens, app.Elem("p").ID("quiz-tokens-off").Text(f.TokensText())),
		),
		&ui.Inspector{Key: "quiz-" + strconv.Itoa(qu.Number), Heading: "Why: question " + strconv.Itoa(qu.Number) + " worked out", Exp: qu.Explanation},
		app.Elem("div").Class("row").Body(
			&nextButton{Label: next, OnClick: func(ctx app.Context, e app.Event) { v.feedback, v.choice = nil, ""; clearTokens() }},
		),
	)
}

func plural1(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func (v *quizView) results() app.UI {
	q := v.quiz
	return app.Elem("div").ID("quiz-results").Body(
		app.Elem("p").ID("quiz-final").Class("check pass check-head").Text("Final score "+strconv.Itoa(q.Score)+" of "+strconv.Itoa(q.MaxScore)+
			" · best streak "+strconv.Itoa(q.Best)+" · "+strconv.Itoa(len(q.Mistakes))+" to review"),
		app.Elem("h3").Text("Review your mistakes"),
		app.If(len(q.Mistakes) == 0, app.Elem("p").Text("None: every prediction was right.")),
		app.Elem("ol").ID("quiz-mistakes").Class("mistakes").Body(
			app.Range(q.Mistakes).Slice(func(i int) app.UI {
				m := q.Mistakes[i]
				said := "denied"
				if m.Guess.Allowed {
					said = "allowed"
				}
				if m.Question.AskTokens && !m.Guess.NoTokens {
					said += ", " + tokensLeft(m.Guess.Tokens)
				}
				return app.Elem("li").Body(
					app.Elem("p").Class("quiz-prompt").Text("Question "+strconv.Itoa(m.Question.Number)+": "+m.Question.Prompt),
					app.Elem("p").Body(app.Elem("span").Class("no").Text("✕ you said "+said), app.Text(" · "), app.Elem("span").Class("ok").Text("✓ answer: "+m.Question.Answer())),
					app.Elem("details").Body(
						app.Elem("summary").Text("Why (worked out)"),
						app.Elem("pre").Class("mono why").Text(m.Question.Explanation.Text()),
					),
				)
			}),
		),
		app.Elem("div").Class("row").Body(
			app.Elem("button").ID("quiz-again").Class("btn").Text("↻ Same questions again").OnClick(v.restart),
			app.Elem("a").ID("quiz-new").Class("btn").Attr("href", v.NewLink).Text("New questions (seed "+strconv.FormatUint(v.Seed+1, 10)+")"),
		),
	)
}

// quizSource says where the questions come from: the lab's defaults, or the
// lab setup in the link, with its own clients or, when it carried none (as
// from a lab whose clients only click after a trace), the default traffic;
// and that a trace the link names is not replayed.
func quizSource(fromLink, clients bool, trace string) string {
	const seed = ", drawn with the seed below: the same link gives every student the same questions."
	if !fromLink {
		return "Questions come from the comparison lab's default lanes and traffic" + seed + " To be quizzed on your own setup, use \"Quiz me on this setup\" in the comparison lab."
	}
	s := "Questions come from the comparison lab setup in this link (its lanes, clients and traffic)" + seed
	if !clients {
		s = "Questions come from the lanes in this link, fed the comparison lab's default traffic (" + defaultTraffic() + ")" + seed
	}
	if trace != "" {
		s += " The quiz does not replay the lab's trace (" + trace + "): it asks only about the clients' generated traffic."
	}
	return s
}

// defaultTraffic names the default clients and their patterns: "alice,
// Poisson (seeded), 8 requests/s".
func defaultTraffic() string {
	var parts []string
	for _, c := range sim.DefaultClients() {
		parts = append(parts, c.Name+", "+explain.PatternName(c.Pattern.Kind)+", "+strconv.FormatFloat(c.Pattern.Rate, 'f', -1, 64)+" requests/s")
	}
	return strings.Join(parts, "; ")
}

// tokensLeft is a prediction of the tokens left: "1 token left", "0.5
// tokens left".
func tokensLeft(x float64) string {
	if x == 1 {
		return "1 token left"
	}
	return strconv.FormatFloat(x, 'f', -1, 64) + " tokens left"
}
