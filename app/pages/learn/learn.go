package learn

import (
	"net/url"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/site"
	"github.com/ratelab/ratelab/app/ui/browser"
)

// learn is the /learn page: the guided lessons, the predict-then-reveal
// quiz and the interview drill cards. Its state is the URL:
// ?lesson=<id>, ?mode=quiz&seed=42 (also ?seed=42), ?mode=cards.
type Page struct {
	app.Compo

	mode   string // "lessons", "quiz", "cards"
	lesson string // open lesson's ID, "" for none
	seed   uint64
	origin string // for the quiz's shareable link
	notice string // what was wrong with the link, shown above the page
	start  lessonStart
	// The quiz's setup: the lab's defaults, or the lab setup in the link.
	setup    sim.Setup
	fromLink bool
	// What the link carried besides its lanes: its own clients, and a
	// built-in trace, which the quiz does not replay but keeps in its links
	// so that it can say so.
	linkClients bool
	linkTrace   string
}

const (
	modeLessons = "lessons"
	modeQuiz    = "quiz"
	modeCards   = "cards"
)

// OnNav takes the page's state from its address (parseAddress), and writes
// the seed in use back into the address when the link named none or a bad
// one, so that it can be shared.
func (p *Page) OnNav(ctx app.Context) {
	headOnNav(ctx)
	u := ctx.Page().URL()
	a := parseAddress(u.RawQuery, freshSeed)
	p.mode, p.lesson, p.notice, p.start = a.mode, a.lesson, a.notice, a.start
	if app.IsClient {
		p.origin = browser.Origin()
	}
	if a.mode != modeQuiz {
		return
	}
	p.setup, p.fromLink, p.linkClients, p.linkTrace, p.seed = a.setup, a.fromLink, a.linkClients, a.linkTrace, a.seed
	if a.rewrite {
		nu := *u
		nu.RawQuery = p.quizQuery(a.seed).Encode()
		ctx.Page().ReplaceURL(&nu)
	}
}

// freshSeed is a new quiz seed, 1 to 100000. In milliseconds: the
// browser's clock has no finer grain, so UnixNano % 100000 was always 0.
func freshSeed() uint64 { return uint64(time.Now().UnixMilli()%100000) + 1 }

// quizQuery is the query of the quiz link for seed: the lab setup when the
// quiz came from one.
func (p *Page) quizQuery(seed uint64) url.Values {
	v := url.Values{}
	if p.fromLink {
		s := p.setup
		s.Seed = seed
		v = s.Values()
		if !p.linkClients {
			v.Del("client") // the default traffic, as the link had it
		}
		if p.linkTrace != "" {
			v.Set("trace", p.linkTrace)
		}
	}
	v.Set("mode", modeQuiz)
	v.Set("seed", strconv.FormatUint(seed, 10))
	return v
}

// clip quotes a value from a link for a message, cut to 40 characters.
func clip(v string) string { return strconv.Quote(sim.Clip(v)) }

// quizLink is the shareable link to the quiz.
func (p *Page) quizLink() string {
	return p.origin + site.Href("/learn?"+p.quizQuery(p.seed).Encode())
}

func (p *Page) Render() app.UI {
	var body app.UI
	switch p.mode {
	case modeQuiz:
		body = &quizView{Seed: p.seed, Link: p.quizLink(), NewLink: site.Href("/learn?" + p.quizQuery(p.seed+1).Encode()), Setup: p.setup, Source: quizSource(p.fromLink, p.linkClients, p.linkTrace)}
	case modeCards:
		body = &cardsView{}
	default:
		body = p.lessons()
	}
	return app.Elem("div").Class("page learn-page").Body(
		site.Header("learn", "Learn rate limiting", "Guided lessons, a predict-then-reveal quiz and interview drill cards: every number comes from the real limiter."),
		app.Elem("nav").Class("tabs").Attr("aria-label", "Learn sections").Body(
			p.tab(modeLessons, "/learn", "Guided lessons"),
			p.tab(modeQuiz, "/learn?mode=quiz", "Quiz: predict, then reveal"),
			p.tab(modeCards, "/learn?mode=cards", "Interview drill cards"),
		),
		app.If(p.notice != "", app.Elem("p").ID("learn-notice").Class("banner warn").Role("status").Text("⚠ "+p.notice)),
		app.Elem("main").ID("learn-main").Body(body),
		app.Elem("footer").Class("foot").Body(
			app.Text("Lessons run the ratelab limiter package compiled to WebAssembly on a simulated clock (nothing leaves this page). Keyboard: Tab to a request mark, Enter to explain it; ? lists the shortcuts."),
		),
	)
}

func (p *Page) tab(mode, href, text string) app.UI {
	a := app.Elem("a").ID("tab-"+mode).Class("tab").Attr("href", site.Href(href)).Text(text)
	if p.mode == mode {
		a = a.Class("tab on").Attr("aria-current", "page")
	}
	return a
}

func (p *Page) lessons() app.UI {
	ls := explain.Lessons()
	var open app.UI = app.Elem("section").ID("lesson-intro").Class("card lesson").Body(
		app.Elem("h2").Text(strconv.Itoa(len(ls))+" guided lessons"),
		app.Elem("p").Text("Each lesson is a preset scenario on the real limiter: read what to watch, run it, then see the check of what you should have seen. Click any ✓ or ✕ request mark (or Tab to it and press Enter) to see that decision worked out with its numbers and the Go code that took it."),
		app.Elem("p").Body(app.Elem("a").ID("start-lesson").Attr("href", site.Href("/learn?lesson="+ls[0].ID)).Text("Start with lesson "+strconv.Itoa(ls[0].Number)+": "+ls[0].Title+" →")),
	)
	if p.lesson != "" {
		open = &lessonView{ID: p.lesson, Start: p.start}
	}
	return app.Elem("div").Class("learn-layout").Body(
		app.Elem("nav").Class("card lesson-nav").Attr("aria-label", "Lessons").Body(
			app.Elem("h2").Text("Lessons"),
			app.Elem("ol").ID("lesson-list").Class("lesson-list").Body(
				app.Range(ls).Slice(func(i int) app.UI {
					l := ls[i]
					a := app.Elem("a").ID("lesson-link-"+l.ID).Attr("href", site.Href("/learn?lesson="+l.ID)).Text(l.Title)
					if l.ID == p.lesson {
						a = a.Class("on").Attr("aria-current", "page")
					}
					return app.Elem("li").Body(a)
				}),
			),
		),
		open,
	)
}
