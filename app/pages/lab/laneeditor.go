package lab

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/limiter"
)

// focusAfterLaneAction keeps the keyboard's place after a lane button: ↑
// and ↓ follow the lane they moved, ✕ goes to the next lane's ✕ (or the
// one before, or "+ Add a lane…" when none is left), Dup that reaches the
// lane limit to the lane's strategy, so that the focus never falls back to
// the page's start. n is the number of lanes after
// the action. It focuses at once: the lane editors are drawn by index, so
// the button focused now is the one the new lane at that index gets, and
// only the last editor's buttons leave the page.
func focusAfterLaneAction(i, n int, act string) {
	lane := func(j int, b string) string { return "lane-" + strconv.Itoa(j) + "-" + b }
	var ids []string
	switch act {
	case "up":
		ids = []string{lane(i-1, "up"), lane(i-1, "down")}
	case "down":
		ids = []string{lane(i+1, "down"), lane(i+1, "up")}
	case "dup":
		if n >= sim.MaxLanes { // Dup is disabled at the limit, and would drop the focus
			ids = []string{lane(i, "kind")} // not its ✕: one Enter too many would remove the lane
		}
	case "remove":
		switch {
		case i < n:
			ids = []string{lane(i, "remove")}
		case n > 0:
			ids = []string{lane(n-1, "remove")}
		default:
			ids = []string{"add-lane"}
		}
	}
	browser.FocusFirst(ids...)
}

// laneEditor is one lane's strategy and parameters, with the buttons that
// move, duplicate and remove it. It redraws only when its spec or messages
// change.
type laneEditor struct {
	app.Compo
	M    *labModel
	I, N int
	Spec sim.LaneSpec
	// TierOf gives each client's tier, for the lane's Go code.
	TierOf map[string]string
	Err    string

	sliders []ui.SliderPos
	moved   ui.SliderMemory
}

func (e *laneEditor) OnMount(ctx app.Context) { ui.SyncSliders(ctx, e.sliders) }

func (e *laneEditor) OnUpdate(ctx app.Context) { ui.SyncSliders(ctx, e.sliders) }

// param is the field of the lane's parameter which (0 or 1), lp, in config
// c.
func (e *laneEditor) param(which int, lp laneParam, c limiter.Config) app.UI {
	m, i := e.M, e.I
	return ui.ParamField{P: lp.Param, Value: lp.get(c), Errs: m.errs, Moved: &e.moved, Sliders: &e.sliders, Compact: true,
		OnValue: func(ctx app.Context, v float64) { m.setLaneParam(i, which, v) },
		OnError: func(ctx app.Context, err error) { m.setErr(lp.ID, err); m.changed() },
	}.UI()
}

func (e *laneEditor) Render() app.UI {
	m, i := e.M, e.I
	id := "lane-" + strconv.Itoa(i)
	c := e.Spec.Config
	e.sliders = e.sliders[:0]
	var kinds []app.UI
	for _, k := range limiter.Kinds {
		kinds = append(kinds, ui.BoolAttr(app.Elem("option").Attr("value", string(k)), "selected", k == c.Kind).Text(k.Name()))
	}
	btn := func(act, label, title string, disabled bool) app.UI {
		return ui.BoolAttr(app.Elem("button").ID(id+"-"+act).Class("btn icon").Title(title).Attr("aria-label", title), "disabled", disabled).Text(label).
			OnClick(func(ctx app.Context, ev app.Event) {
				m.laneAction(i, act)
				focusAfterLaneAction(i, len(m.lab.Lanes()), act)
			}, id, act)
	}
	ps := laneParams(i, c.Kind)
	presets := presetsOf(c)
	var tiers []app.UI
	for _, name := range slices.Sorted(maps.Keys(e.Spec.Tiers)) { // a stable order: no churn per frame
		tiers = append(tiers, app.Elem("div").ID(id+"-tier-"+name).Class("small mono").Text("tier "+name+": "+explain.ConfigText(e.Spec.Tiers[name])))
	}
	return app.Elem("div").Class("lane-editor").Body(
		app.Elem("div").Class("row tight").Body(
			app.Elem("span").Class("lane-num").Text("#"+strconv.Itoa(i+1)),
			app.Elem("select").ID(id+"-kind").Class("select kind").Attr("aria-label", "Strategy of lane "+strconv.Itoa(i+1)).Body(kinds...).
				OnChange(func(ctx app.Context, ev app.Event) {
					m.setLaneKind(i, limiter.Kind(browser.FieldText(ctx.JSSrc())))
				}, id),
			app.Elem("span").Class("lane-btns").Body( // wrap together, never one by one
				btn("up", "↑", "Move lane up", i == 0),
				btn("down", "↓", "Move lane down", i == e.N-1),
				btn("dup", "Dup", "Dup: duplicate lane", e.N >= sim.MaxLanes),
				btn("remove", "✕", "Remove lane", false),
			),
		),
		app.Elem("div").ID(id+"-config").Class("lane-config mono small").Text(explain.ConfigText(c)),
		e.param(0, ps[0], c),
		e.param(1, ps[1], c),
		ui.ErrorLine(m.errs, id+"-kind"),
		app.If(len(tiers) > 0, app.Elem("div").Body(tiers...)),
		app.If(len(presets) > 0, presetNote(id, presets)),
		&ui.GoCode{ID: id + "-go", Setup: explain.GoSetup{From: "lane " + strconv.Itoa(i+1) + " of the comparison lab", Config: c, Tiers: e.Spec.Tiers, TierOf: e.TierOf}},
	)
}

// presetNote names the presets a lane's limits are, with their sources and
// notes. Several share one lane when they differ only outside it (the lab
// does not know which of them was picked): each is named.
func presetNote(id string, ps []sim.Preset) app.UI {
	if len(ps) == 0 {
		return nil // not drawn (app.If)
	}
	names := make([]string, len(ps))
	body := []app.UI{nil}
	for i, p := range ps {
		names[i] = p.Name
		note := p.Note
		if len(ps) > 1 {
			note = p.Name + ": " + note
		}
		body = append(body,
			app.Elem("p").Class("small").Body(app.Text("Source: "), app.Elem("a").Attr("href", p.Source).Attr("target", "_blank").Attr("rel", "noopener").Text(p.Source)),
			app.Elem("p").Class("small").Text(note))
		if i > 0 && p.Source == ps[i-1].Source {
			body = append(body[:len(body)-2], body[len(body)-1]) // one source line is enough
		}
	}
	summary := "Preset: " + names[0]
	if len(ps) > 1 {
		summary = "Preset: " + strings.Join(names, ", or ") + " (the same lane: the same decisions)"
	}
	body[0] = app.Elem("summary").Text(summary)
	return app.Elem("details").ID(id + "-preset").Class("preset-note").Body(body...)
}
