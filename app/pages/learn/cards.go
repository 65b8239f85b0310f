package learn

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/site"
)

// cardsView is the interview drill: each card's question, its model answer
// on request, and a link into the lesson that demonstrates it.
type cardsView struct {
	app.Compo
	open map[string]bool
}

func (v *cardsView) Render() app.UI {
	cards := explain.Cards()
	return app.Elem("section").ID("cards").Class("card").Body(
		app.Elem("h2").Text("Interview drill cards"),
		app.Elem("p").Class("hint").Text("Answer out loud first, then compare with the model answer, then watch the lesson that demonstrates it."),
		app.Elem("ol").Class("cards").Body(
			app.Range(cards).Slice(func(i int) app.UI {
				c := cards[i]
				open := v.open[c.ID]
				l, _ := explain.LessonByID(c.Lesson)
				btn := "Show model answer"
				if open {
					btn = "Hide model answer"
				}
				return app.Elem("li").ID("card-"+c.ID).Class("drill").Body(
					app.Elem("h3").Class("drill-q").Text(c.Question),
					app.Elem("div").Class("row").Body(
						app.Elem("button").ID("card-toggle-"+c.ID).Class("btn").Attr("aria-expanded", open).Attr("aria-controls", "card-answer-"+c.ID).
							Text(btn).OnClick(v.toggle(c.ID), c.ID),
						app.Elem("a").ID("card-lesson-"+c.ID).Attr("href", site.Href("/learn?lesson="+c.Lesson)).
							Text("See it in lesson "+strconv.Itoa(l.Number)+": "+l.Title+" →"),
					),
					app.Elem("div").ID("card-answer-"+c.ID).Class("drill-a").Hidden(!open).Body(app.Elem("p").Text(c.Answer)),
				)
			}),
		),
	)
}

func (v *cardsView) toggle(id string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if v.open == nil {
			v.open = map[string]bool{}
		}
		v.open[id] = !v.open[id]
	}
}
