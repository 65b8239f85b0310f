package lab

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// labControls is the lab's left column: the budget, the lanes to add, the
// traffic and its clients, real traffic, sharing and the presets. It
// changes the model; the lanes view redraws it.
type labControls struct {
	app.Compo
	M *labModel
	// Loads is the model's count of loaded links: a new one redraws.
	Loads uint64

	exportURL string
	// addKeys is set while "+ Add a lane…" is being chosen with the
	// keyboard: an arrow or a letter fires its change event at each step,
	// which would add a lane per key; Enter adds the choice instead.
	addKeys bool
}

func (c *labControls) OnMount(ctx app.Context) {
	c.M.redrawControls = c.Update
	browser.InstallKeyGuard()
}
func (c *labControls) OnDismount() { c.M.redrawControls = nil }

func (c *labControls) Render() app.UI {
	m := c.M
	s := m.lab.Setup()
	budget := sim.LaneRanges(limiter.KindFixedWindow) // limit per window
	return app.Elem("aside").Class("lab-controls").Body(
		app.Elem("section").Class("card").Attr("aria-label", "Lanes").Body(
			app.Elem("h2").Text("Same budget"),
			app.Elem("p").Class("explain").Text("Set every lane to the same nominal limit, so the differences come from the algorithm alone."),
			app.Elem("div").Class("row").Body(
				m.markInvalid(app.ElemSelfClosing("input").Attr("type", "number").ID("budget-limit").Class("num").Attr("min", budget[0].Min).Attr("max", budget[0].Max).Attr("step", 1.0).Attr("value", m.budgetL).Attr("aria-label", "Budget: requests"), "budget"),
				app.Elem("span").Class("inline-label").Text("requests per"),
				m.markInvalid(app.ElemSelfClosing("input").Attr("type", "number").ID("budget-window").Class("num").Attr("min", budget[1].Min).Attr("max", budget[1].Max).Attr("step", 0.001).Attr("value", units.Num(m.budgetW.Seconds())).Attr("aria-label", "Budget: window (s)"), "budget"),
				app.Elem("span").Class("inline-label").Text("s"),
				app.Elem("button").ID("budget-apply").Class("btn primary").Text("Apply to all lanes").OnClick(c.onBudget),
			),
			ui.ErrorLine(m.errs, "budget"),
			app.Elem("h2").Text("Lanes"),
			app.Elem("div").Class("row").Body(
				ui.BoolAttr(app.Elem("select").ID("add-lane").Class("select").Attr("aria-label", "Add a lane").DataSet("keys", "Enter").
					Title("Add a lane: choose with the mouse, or with the arrow keys and Enter"), "disabled", len(s.Lanes) >= sim.MaxLanes).
					OnChange(c.onAddLane).OnKeyDown(c.onAddLaneKey).On("mousedown", c.onAddLaneMouse).On("blur", c.onAddLaneBlur).
					Body(addLaneOptions()...),
				app.Elem("span").ID("lane-count").Class("hint").Text(strconv.Itoa(len(s.Lanes))+" of "+strconv.Itoa(sim.MaxLanes)+" lanes"),
			),
			ui.ErrorLine(m.errs, "lanes"),
		),
		c.traffic(s),
		c.realTraffic(),
		c.share(),
		c.presets(),
	)
}

func addLaneOptions() []app.UI {
	opts := []app.UI{app.Elem("option").Attr("value", "").Attr("selected", true).Text("+ Add a lane…")}
	for _, k := range limiter.Kinds {
		opts = append(opts, app.Elem("option").Attr("value", string(k)).Text(k.Name()+" (same budget)"))
	}
	for _, p := range sim.Presets() {
		opts = append(opts, app.Elem("option").Attr("value", "preset:"+p.ID).Text("Preset: "+p.Name))
	}
	return opts
}

// invalid marks the field in as invalid, described by the message under
// key (see ui.ErrorLine), while that message is shown.
func (m *labModel) markInvalid(in app.HTMLElemSelfClosing, key string) app.HTMLElemSelfClosing {
	_, shown := m.errs[key]
	return ui.Invalid(in, shown, key+"-error")
}

func (c *labControls) onBudget(ctx app.Context, e app.Event) {
	doc := browser.Document()
	lt := browser.FieldText(doc.Call("getElementById", "budget-limit"))
	wt := browser.FieldText(doc.Call("getElementById", "budget-window"))
	r := sim.LaneRanges(limiter.KindFixedWindow) // limit per window, as a window lane's fields
	l, err := fieldOf(r[0], "", 0, false).Parse(lt)
	if err != nil {
		c.M.setErr("budget", err)
		return
	}
	w, err := fieldOf(r[1], "", 0, false).Parse(wt)
	if err != nil {
		c.M.setErr("budget", err)
		return
	}
	c.M.setSameBudget(int(l), units.Seconds(w))
}

func (c *labControls) onAddLane(ctx app.Context, e app.Event) {
	if c.addKeys {
		return // the keyboard is choosing: Enter adds (onAddLaneKey)
	}
	c.addChosen(ctx.JSSrc())
}

// onAddLaneKey: arrows, letters and the like only choose; Enter adds the
// choice; Escape drops it.
func (c *labControls) onAddLaneKey(ctx app.Context, e app.Event) {
	switch e.Get("key").String() {
	case "Enter":
		if c.addKeys { // its default, opening the list, is stopped by data-keys
			c.addKeys = false
			c.addChosen(ctx.JSSrc())
		}
	case "Escape":
		c.addKeys = false
		ctx.JSSrc().Set("value", "")
	case "Tab", "Shift", "Control", "Alt", "Meta":
	default:
		// Space, F4 and Alt+↓ too: the list they open commits its
		// highlighted option with a change event when it closes, by Enter,
		// Escape or Tab alike, so that change cannot mean "add" (an Escape
		// added a lane); Enter on the select afterwards adds.
		c.addKeys = true
	}
}

func (c *labControls) onAddLaneMouse(ctx app.Context, e app.Event) { c.addKeys = false }

// onAddLaneBlur: a choice left without Enter is not added.
func (c *labControls) onAddLaneBlur(ctx app.Context, e app.Event) {
	if c.addKeys {
		c.addKeys = false
		ctx.JSSrc().Set("value", "")
	}
}

// addChosen adds the lane chosen in the select sel, if any, and shows the
// select's placeholder again.
func (c *labControls) addChosen(sel app.Value) {
	v := browser.FieldText(sel)
	sel.Set("value", "")
	if v != "" {
		c.M.addLane(v)
		if n := len(c.M.lab.Lanes()); n >= sim.MaxLanes {
			// The select is disabled at the limit, and would drop the
			// focus: the strategy of the lane before the new one takes it
			// (the new lane's editor is drawn only at the next frame).
			browser.FocusFirst("lane-" + strconv.Itoa(n-2) + "-kind")
		}
	}
}
