package pages

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/pages/lab"
	"github.com/ratelab/ratelab/app/pages/playground"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/site"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/units"
)

// Gallery is the page at site.GalleryPath, not in the navigation: every
// shared widget and every strategy's drawing, alone, with fixed inputs.
// It is where a change is seen first, and where a teacher takes a picture.
type Gallery struct {
	app.Compo
	errs    map[string]string
	moved   ui.SliderMemory
	sliders []ui.SliderPos
}

// The gallery's parameter fields: one in force, one refusing a value.
var (
	galleryRate  = units.Param{ID: "gallery-rate", Name: "refill rate", Unit: "tokens/s", Min: 0, Max: 50, Step: 0.1, Gap: 0.001}
	galleryBurst = units.Param{ID: "gallery-burst", Name: "burst", Unit: "tokens", Min: 1, Max: 100, Step: 1, Integer: true, Log: true}
)

func (g *Gallery) OnInit() {
	_, err := galleryBurst.Parse("0")
	g.errs = map[string]string{galleryBurst.ID: err.Error()}
}

func (g *Gallery) OnMount(ctx app.Context) { ui.SyncSliders(ctx, g.sliders) }

// OnPreRender and OnNav name the gallery in the document's title.
func (g *Gallery) OnPreRender(ctx app.Context) { ctx.Page().SetTitle(galleryTitle) }
func (g *Gallery) OnNav(ctx app.Context)       { ctx.Page().SetTitle(galleryTitle) }

const galleryTitle = "Component gallery: ratelab"

func (g *Gallery) Render() app.UI {
	g.sliders = g.sliders[:0]
	keep := func(ctx app.Context, v float64) {}
	refuse := func(ctx app.Context, err error) {}
	return app.Elem("div").Class("page").ID("gallery").Body(
		site.Header("gallery", "Component gallery", "Every widget and every strategy's drawing, alone, with fixed inputs."),
		app.Elem("main").Class("gallery").Body(
			app.Elem("h2").Text("Widgets"),
			app.Elem("section").ID("gallery-widgets").Class("card").Body(
				ui.ParamField{P: galleryRate, Label: "Refill rate", Value: 2.5, Errs: g.errs, Moved: &g.moved, Sliders: &g.sliders, OnValue: keep, OnError: refuse}.UI(),
				ui.ParamField{P: galleryBurst, Value: 5, Errs: g.errs, Moved: &g.moved, Sliders: &g.sliders, Compact: true, OnValue: keep, OnError: refuse}.UI(),
				app.Elem("div").ID("gallery-stat").Body(ui.Stat("Allowed", app.Text("7"))),
				galleryInspector(),
				&ui.Announcer{Source: func() (int, string) { return 1, "A request was allowed." }},
			),
			app.Elem("h2").Text("Playground: token bucket and sliding window log"),
			app.Elem("section").ID("gallery-playground").Class("gallery-figures").Body(playground.Gallery()...),
			app.Elem("h2").Text("Comparison lab: every strategy"),
			app.Elem("section").ID("gallery-lab").Body(lab.Gallery()),
		),
	)
}

// galleryInspector explains the first question of the default setup's quiz
// with seed 1.
func galleryInspector() app.UI {
	q, err := explain.NewQuiz(sim.DefaultSetup(), 1)
	if err != nil || len(q.Questions) == 0 {
		return ui.ErrorLine(map[string]string{"gallery-inspector": units.ErrText(err)}, "gallery-inspector")
	}
	return &ui.Inspector{Key: "gallery", Heading: "Decision inspector", Exp: q.Questions[0].Explanation}
}
