package learn

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/ui"
)

// raceState is where lesson 5's race stepper is: with or without the
// re-check under the lock, and how many operations have been done (0 to
// the race's steps).
type raceState struct {
	recheck bool
	done    int
}

// raceStepper shows the lazy-creation race one operation at a time: the
// two goroutines' operations so far, the map and the bucket each uses,
// and at the end what was admitted.
func (v *lessonView) raceStepper() app.UI {
	race, err := explain.LazyCreationRace(v.race.recheck)
	if err != nil {
		return app.Elem("p").ID("race-error").Class("param-error").Text("⚠ " + err.Error())
	}
	n := min(v.race.done, len(race.Steps))
	cur := explain.RaceStep{Map: "empty", A: "nothing", B: "nothing", Text: "Nothing done yet: A and B each hold a first request for alice."}
	if n > 0 {
		cur = race.Steps[n-1]
	}
	column := func(g string) app.UI {
		var items []app.UI
		for i, s := range race.Steps[:n] {
			if s.G == g {
				cls := "race-op"
				if i == n-1 {
					cls += " cur"
				}
				items = append(items, app.Elem("li").Class(cls).Text(strconv.Itoa(i+1)+". "+s.Op+": "+s.Text))
			}
		}
		return app.Elem("div").ID("race-"+g).Class("race-g").Body(
			app.Elem("h4").Text("goroutine "+g),
			app.Elem("ol").ID("race-"+g+"-ops").Class("race-ops").Body(items...),
		)
	}
	mode := func(id, text string, on bool) app.UI {
		return app.Elem("button").ID(id).Class("seg").Attr("aria-pressed", on).Text(text).OnClick(func(ctx app.Context, e app.Event) {
			v.race = raceState{recheck: id == "race-recheck"}
		})
	}
	return app.Elem("section").ID("race").Class("race").Attr("aria-label", "The lazy-creation race").Body(
		app.Elem("h3").Text("The lazy-creation race, one operation at a time"),
		app.Elem("div").Class("segs").Attr("role", "group").Attr("aria-label", "Insert").Body(
			mode("race-naive", "without the re-check (check-then-act)", !v.race.recheck),
			mode("race-recheck", "with the re-check under the lock (limiter.Keyed)", v.race.recheck),
		),
		app.Elem("div").Class("row").Body(
			ui.BoolAttr(app.Elem("button").ID("race-back").Class("btn").Text("◀ Back one operation"), "disabled", n == 0).
				OnClick(func(ctx app.Context, e app.Event) { v.race.done = max(min(v.race.done, len(race.Steps))-1, 0) }),
			ui.BoolAttr(app.Elem("button").ID("race-next").Class("btn primary").Text("Next operation ▶"), "disabled", n == len(race.Steps)).
				OnClick(func(ctx app.Context, e app.Event) { v.race.done = min(v.race.done+1, len(race.Steps)) }),
			app.Elem("span").ID("race-count").Class("hint").Text("operation "+strconv.Itoa(n)+" of "+strconv.Itoa(len(race.Steps))),
		),
		app.Elem("p").ID("race-op").Class("race-now").Role("status").Text(cur.Text),
		app.Elem("div").Class("race-cols").Body(column("A"), column("B")),
		app.Elem("dl").Class("race-state").Body(
			app.Elem("dt").Text("the map"), app.Elem("dd").ID("race-map").Text(cur.Map),
			app.Elem("dt").Text("A uses"), app.Elem("dd").ID("race-a").Text(cur.A),
			app.Elem("dt").Text("B uses"), app.Elem("dd").ID("race-b").Text(cur.B),
			app.Elem("dt").Text("admitted"), app.Elem("dd").ID("race-admitted").Text("A "+strconv.Itoa(cur.AdmittedA)+", B "+strconv.Itoa(cur.AdmittedB)),
		),
		app.If(n == len(race.Steps), app.Elem("p").ID("race-outcome").Class(raceClass(race)).Text(race.Outcome()+".")),
	)
}

func raceClass(r explain.Race) string {
	if r.Buckets > 1 {
		return "check fail"
	}
	return "check pass"
}
