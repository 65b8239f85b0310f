package lab

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/template"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/site"
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

// traffic: manual requests, traffic presets, the seed and the clients.
func (c *labControls) traffic(s sim.Setup) app.UI {
	m := c.M
	return app.Elem("section").Class("card").Attr("aria-label", "Traffic").Body(
		app.Elem("h2").Text("Traffic"),
		app.Elem("div").Class("row").Body(
			app.Elem("button").ID("fire").Class("btn primary").Text("Send request").OnClick(func(ctx app.Context, e app.Event) { m.fire(1) }),
			app.Elem("button").ID("burst").Class("btn").Text("Burst ×"+strconv.Itoa(m.burstN)).OnClick(func(ctx app.Context, e app.Event) { m.fire(m.burstN) }),
			m.markInvalid(app.ElemSelfClosing("input").Attr("type", "number").ID("burst-n").Class("num small").Attr("min", 1).Attr("max", sim.MaxBurst).Attr("step", 1.0).Attr("value", m.burstN).Attr("aria-label", "Burst size"), "burst-n").
				OnChange(c.onBurstN),
		),
		app.Elem("div").Class("row").Body(
			app.Elem("label").Attr("for", "fire-as").Class("inline-label").Text("as client"),
			app.Elem("select").ID("fire-as").Class("select").Body(fireAsOptions(s.Clients, m.fireClient())...).OnChange(func(ctx app.Context, e app.Event) {
				m.fireAs = browser.FieldText(ctx.JSSrc())
			}),
			app.Elem("span").Class("hint").Body(app.Elem("kbd").Text("Space"), app.Text(" also sends")),
		),
		ui.ErrorLine(m.errs, "burst-n"),
		ui.ErrorLine(m.errs, "fire"),
		app.Elem("h3").Text("Presets"),
		app.Elem("div").Class("row").Body(
			app.Elem("button").ID("preset-edge").Class("btn").Title("One client, mallory: a burst of L just before every other window boundary and L more right at it").
				Text("Window-edge attack").OnClick(func(ctx app.Context, e app.Event) { m.setClients("clients", m.edgeAttack()) }),
			app.Elem("button").ID("preset-noisy").Class("btn").Title("Five clients on Poisson traffic; c1 sends 8× the others").
				Text("Noisy neighbour").OnClick(c.onNoisyNeighbour),
		),
		app.Elem("div").Class("row").Body(
			app.Elem("label").Attr("for", "seed").Class("inline-label").Text("Seed"),
			m.markInvalid(app.ElemSelfClosing("input").Attr("type", "number").ID("seed").Class("num").Attr("min", 0).Attr("step", 1.0).Attr("value", strconv.FormatUint(s.Seed, 10)), "seed").
				OnChange(c.onSeed),
			app.Elem("span").Class("hint").Text("same setup + same seed ⇒ same decisions"),
		),
		ui.ErrorLine(m.errs, "seed"),
		app.Elem("h3").Text("Clients"),
		app.Elem("div").ID("clients").Class("clients").Body(
			app.Range(s.Clients).Slice(func(j int) app.UI { return c.client(j, s.Clients) }),
		),
		ui.ErrorLine(m.errs, "clients"),
		app.Elem("div").Class("row").Body(
			ui.BoolAttr(app.Elem("button").ID("add-client").Class("btn"), "disabled", len(s.Clients) >= sim.MaxClients).Text("+ Add client").
				OnClick(c.onAddClient),
		),
		c.tiers(),
	)
}

// fireAsOptions are the clients a click may send as, fireAs selected ("you"
// when there is none).
func fireAsOptions(clients []sim.Client, fireAs string) []app.UI {
	var opts []app.UI
	for _, cl := range clients {
		opts = append(opts, ui.BoolAttr(app.Elem("option").Attr("value", cl.Name), "selected", cl.Name == fireAs).Text(cl.Name))
	}
	if len(clients) == 0 {
		opts = append(opts, app.Elem("option").Attr("value", "you").Text("you"))
	}
	return opts
}

func (c *labControls) onBurstN(ctx app.Context, e app.Event) {
	v, err := (units.Param{Name: "N", Unit: "requests", Min: 1, Max: sim.MaxBurst, Integer: true}).Parse(browser.FieldText(ctx.JSSrc()))
	if c.M.setErr("burst-n", err) {
		c.M.burstN = int(v)
	}
}

// onSeed takes a new seed: the same setup and seed give the same decisions.
func (c *labControls) onSeed(ctx app.Context, e app.Event) {
	m := c.M
	text := strings.TrimSpace(browser.FieldText(ctx.JSSrc()))
	v, err := sim.ParseSeed(text)
	switch {
	case text == units.Unreadable:
		err = errors.New("seed is not a number the browser can read (too large, or not a number); want " + sim.SeedRange)
	case text == "":
		err = errors.New("seed is empty; want " + sim.SeedRange)
	case err != nil:
		err = fmt.Errorf("seed %w", err)
	}
	if err != nil {
		m.setErr("seed", err)
		return
	}
	m.live()
	m.setErr("seed", m.lab.SetTraffic(m.clients(), v))
	m.changed()
}

func (c *labControls) onAddClient(ctx app.Context, e app.Event) {
	cs := c.M.clients()
	cs = append(cs, sim.Client{Name: newClientName(cs), Pattern: c.M.defaultPattern(sim.PatternPoisson), Weight: 1})
	c.M.setClients("clients", cs)
}

func (c *labControls) onNoisyNeighbour(ctx app.Context, e app.Event) {
	m := c.M
	m.setClients("clients", sim.NoisyNeighbour(5, float64(m.budgetL)/m.budgetW.Seconds()/4))
}

// tiers: named tiers (a client's tier field picks one), each a multiple of
// every lane's budget, e.g. "pro" = 5× the limits.
func (c *labControls) tiers() app.UI {
	m := c.M
	names := m.lab.TierNames()
	var chips []app.UI
	for _, name := range names {
		// The chip names the tier and its multiple: "pro ×5".
		label := name
		if f, ok := m.lab.TierFactor(name); ok {
			label += " ×" + strconv.FormatFloat(f, 'f', -1, 64)
		}
		chips = append(chips, app.Elem("span").Class("chip").Body(
			app.Elem("span").ID("tier-chip-"+name).Text(label),
			app.Elem("button").ID("tier-remove-"+name).Class("btn icon small").Attr("aria-label", "Remove tier "+name).Text("✕").
				OnClick(func(ctx app.Context, e app.Event) {
					// The names now, not names: go-app keeps a handler
					// whose scope (name) is unchanged, with what it captured.
					ids := nextChipIDs(m.lab.TierNames(), name)
					m.setTier(name, 0)
					// The chip and its ✕ are gone: the focus goes to the
					// next chip's ✕, the one before, or the tier name field.
					browser.FocusFirst(ids...)
				}, name),
		))
	}
	return app.Elem("div").ID("tiers").Class("tiers").Body(
		app.Elem("h3").Text("Tiers"),
		app.Elem("p").Class("hint").Text("A client whose tier is set gets that multiple of every lane's budget (rate and burst, capacity and leak rate, or window limit)."),
		// Always drawn, empty when there is no tier: inserted by the first
		// tier, it shifted the row below, which go-app then redrew in
		// place, and "Set tier" lost the focus.
		app.Elem("div").ID("tier-chips").Class("row chips").Body(chips...),
		app.Elem("div").Class("row").Body(
			app.Elem("label").Attr("for", "tier-name").Class("inline-label").Text("tier"),
			m.markInvalid(app.ElemSelfClosing("input").Attr("type", "text").ID("tier-name").Class("text small").Attr("placeholder", "pro").Attr("aria-label", "Tier name"), "tier"),
			app.Elem("label").Attr("for", "tier-factor").Class("inline-label").Text("×"),
			m.markInvalid(app.ElemSelfClosing("input").Attr("type", "number").ID("tier-factor").Class("num small").Attr("min", 0.01).Attr("max", sim.MaxTierFactor).Attr("step", 0.5).Attr("value", 5).Attr("aria-label", "Tier budget multiple"), "tier"),
			app.Elem("button").ID("tier-apply").Class("btn").Text("Set tier").OnClick(c.onTier),
		),
		ui.ErrorLine(m.errs, "tier"),
	)
}

// nextChipIDs lists, for the focus after removing tier name, focused at
// once: the chips are drawn by index, so the removed chip's own ✕ becomes
// the next chip's; with no next chip, the ✕ before it; else the tier name
// field.
func nextChipIDs(names []string, name string) []string {
	var ids []string
	if i := slices.Index(names, name); i >= 0 {
		if i+1 < len(names) {
			ids = append(ids, "tier-remove-"+name)
		} else if i > 0 {
			ids = append(ids, "tier-remove-"+names[i-1])
		}
	}
	return append(ids, "tier-name")
}

func (c *labControls) onTier(ctx app.Context, e app.Event) {
	doc := browser.Document()
	name := strings.TrimSpace(browser.FieldText(doc.Call("getElementById", "tier-name")))
	f, err := (units.Param{Name: "tier multiple", Unit: "×", Min: 0.01, Max: sim.MaxTierFactor}).Parse(browser.FieldText(doc.Call("getElementById", "tier-factor")))
	if err != nil {
		c.M.setErr("tier", err)
		return
	}
	c.M.setTier(name, f)
}

// client is one row of the clients list.
func (c *labControls) client(j int, cs []sim.Client) app.UI {
	ce := clientEditor{m: c.M, j: j, cl: cs[j], id: "client-" + strconv.Itoa(j)}
	params := patternParams(j, ce.cl.Pattern.Kind)
	return app.Elem("div").ID(ce.id).Class("client").Body(
		ce.head(),
		app.Elem("div").Class("row tight").Body(ce.patternFields(params)...),
		ce.weightAndTier(),
		app.If(ce.cl.Tier != "" && !slices.Contains(ce.m.lab.TierNames(), ce.cl.Tier),
			app.Elem("p").ID(ce.id+"-tier-note").Class("hint").Text("No lane has tier "+ce.cl.Tier+": "+ce.cl.Name+" gets each lane's own budget until it is set below."),
		),
		app.Elem("div").Class("client-errors").Body(ce.messages(params)...),
	)
}

// clientEditor draws client j (cl) of the lab's traffic, whose element
// ids start with id.
type clientEditor struct {
	m  *labModel
	j  int
	cl sim.Client
	id string
}

// edit applies a change made in the field fid: a refused value keeps the
// client as it was and shows its message under the client, one message per
// field, so a good change to another field does not take it away while the
// refused text is still in its field.
func (ce clientEditor) edit(fid string, f func(*sim.Client) error) app.EventHandler {
	m, j := ce.m, ce.j
	return func(ctx app.Context, e app.Event) {
		cs := m.clients()
		if j >= len(cs) {
			return
		}
		if err := f(&cs[j]); err != nil {
			m.setErr(fid, err)
			return
		}
		m.setClients(fid, cs)
	}
}

// head is the client's name, pattern and remove button.
func (ce clientEditor) head() app.UI {
	m, id, cl := ce.m, ce.id, ce.cl
	var pats []app.UI
	for _, k := range sim.PatternKinds {
		pats = append(pats, ui.BoolAttr(app.Elem("option").Attr("value", string(k)), "selected", k == cl.Pattern.Kind).Text(explain.PatternName(k)))
	}
	return app.Elem("div").Class("row tight").Body(
		m.markInvalid(app.ElemSelfClosing("input").Attr("type", "text").ID(id+"-name").Class("text").Attr("value", cl.Name).Attr("aria-label", "Client name"), id+"-name").
			OnChange(ce.onName, id),
		app.Elem("select").ID(id+"-pattern").Class("select").Attr("aria-label", "Pattern").Body(pats...).
			OnChange(ce.edit(id+"-pattern", ce.setPattern), id),
		app.Elem("button").ID(id+"-remove").Class("btn icon").Title("Remove "+cl.Name).Attr("aria-label", "Remove "+cl.Name).Text("✕").
			OnClick(ce.onRemove, id),
	)
}

func (ce clientEditor) onName(ctx app.Context, e app.Event) {
	m, j := ce.m, ce.j
	cs := m.clients()
	if j >= len(cs) {
		return
	}
	old, focused := cs[j].Name, m.lab.Focus() == cs[j].Name
	cs[j].Name = strings.TrimSpace(browser.FieldText(ctx.JSSrc()))
	if m.setClients(ce.id+"-name", cs) {
		m.renamed(old, cs[j].Name, focused)
	}
}

func (ce clientEditor) setPattern(c *sim.Client) error {
	c.Pattern = ce.m.patternFor(c.Name, sim.PatternKind(browser.FieldText(browser.ByID(ce.id+"-pattern"))))
	ce.m.dropErrs(ce.id + "-") // the old pattern's fields and their messages are gone
	return nil
}

func (ce clientEditor) onRemove(ctx app.Context, e app.Event) {
	cs := ce.m.clients()
	if ce.j < len(cs) {
		ce.m.setClients("clients", append(cs[:ce.j], cs[ce.j+1:]...))
	}
}

// patternFields are the fields of the client's pattern.
func (ce clientEditor) patternFields(params []patternParam) []app.UI {
	fields := make([]app.UI, 0, len(params))
	for _, pp := range params {
		fields = append(fields, app.Elem("label").Class("field").Body(
			app.Elem("span").Text(pp.Name),
			ce.m.markInvalid(app.ElemSelfClosing("input").Attr("type", "number").ID(pp.ID).Class("num small").Attr("min", pp.Min).Attr("max", pp.Max).Attr("step", "any").Attr("value", units.Num(pp.get(ce.cl.Pattern))), pp.ID).
				OnChange(ce.edit(pp.ID, func(c *sim.Client) error {
					v, err := pp.Parse(browser.FieldText(browser.ByID(pp.ID)))
					if err != nil {
						return err
					}
					pp.set(&c.Pattern, v)
					return nil
				}), pp.ID),
			app.Elem("span").Class("unit").Text(pp.Unit),
		))
	}
	return fields
}

// weightAndTier are the client's weight and tier fields.
func (ce clientEditor) weightAndTier() app.UI {
	id, cl := ce.id, ce.cl
	return app.Elem("div").Class("row tight").Body(
		app.Elem("label").Class("field").Body(
			app.Elem("span").Text("weight"),
			ce.m.markInvalid(app.ElemSelfClosing("input").Attr("type", "number").ID(id+"-weight").Class("num small").Attr("min", sim.WeightRange.Min).Attr("max", sim.WeightRange.Max).Attr("step", "any").Attr("value", units.Num(cl.Weight)), id+"-weight").
				OnChange(ce.edit(id+"-weight", ce.setWeight), id),
			app.Elem("span").Class("unit").Text("×"),
		),
		app.Elem("label").Class("field").Body(
			app.Elem("span").Text("tier"),
			ce.m.markInvalid(app.ElemSelfClosing("input").Attr("type", "text").ID(id+"-tier").Class("text small").Attr("value", cl.Tier).Attr("placeholder", "default"), id+"-tier").
				OnChange(ce.edit(id+"-tier", ce.setTier), id),
		),
	)
}

func (ce clientEditor) setWeight(c *sim.Client) error {
	v, err := fieldOf(sim.WeightRange, "", 0, false).Parse(browser.FieldText(browser.ByID(ce.id + "-weight")))
	c.Weight = v
	return err
}

func (ce clientEditor) setTier(c *sim.Client) error {
	c.Tier = strings.TrimSpace(browser.FieldText(browser.ByID(ce.id + "-tier")))
	if c.Tier == "default" {
		c.Tier = "" // the placeholder's word: no tier, each lane's own budget
	}
	return nil
}

// messages are the client's fields' messages, in the fields' order.
func (ce clientEditor) messages(params []patternParam) []app.UI {
	id := ce.id
	msgs := []app.UI{ui.ErrorLine(ce.m.errs, id+"-name"), ui.ErrorLine(ce.m.errs, id+"-pattern")}
	for _, pp := range params {
		msgs = append(msgs, ui.ErrorLine(ce.m.errs, pp.ID))
	}
	return append(msgs, ui.ErrorLine(ce.m.errs, id+"-weight"), ui.ErrorLine(ce.m.errs, id+"-tier"))
}

// realTraffic: the built-in NASA trace and the user's own file.
func (c *labControls) realTraffic() app.UI {
	m := c.M
	has := m.lab.Trace() != nil
	note := m.traceNote()
	return app.Elem("section").Class("card").Attr("aria-label", "Real traffic").Body(
		app.Elem("h2").Text("Real traffic"),
		app.Elem("div").Class("row").Body(
			app.Elem("button").ID("load-nasa").Class("btn").Text("Replay "+nasaLabel).OnClick(func(ctx app.Context, e app.Event) { loadNASA(ctx, m, true) }),
			ui.BoolAttr(app.Elem("button").ID("run-trace").Class("btn primary"), "disabled", !has).Title("Decide every request of the trace as fast as the page allows, showing how far it has got; Pause stops it").
				Text("Run to end (full speed)").OnClick(func(ctx app.Context, e app.Event) { m.startRunToEnd() }),
		),
		app.Elem("div").Class("row").Body(
			app.Elem("label").Attr("for", "trace-file").Class("inline-label").Text("Load your own:"),
			app.ElemSelfClosing("input").Attr("type", "file").ID("trace-file").Attr("accept", ".csv,.log,.txt,text/csv,text/plain").
				OnChange(func(ctx app.Context, e app.Event) {
					input := ctx.JSSrc()
					browser.ReadFile(input, func(name string, data []byte) {
						ctx.Dispatch(func(ctx app.Context) { m.readTrace(ctx, input, name, data) })
					})
				}),
		),
		app.Elem("p").Class("hint").Text("CSV t_ms,client[,n] (header optional) or an access log in Common / Combined Log Format."),
		ui.ErrorLine(m.errs, "trace"),
		app.If(m.traceReading != "", app.Elem("p").ID("trace-reading").Class("trace-status").Attr("aria-live", "polite").Text(m.traceReading)),
		app.If(m.traceLabel != "",
			app.Elem("p").ID("trace-status").Class("trace-status").Body(
				app.Elem("strong").Text("Replaying: "), app.Text(m.traceLabel),
				app.If(has, app.Elem("button").ID("clear-trace").Class("btn link").Text("remove").OnClick(func(ctx app.Context, e app.Event) {
					m.live()
					m.setErr("trace", m.lab.SetTrace("", nil))
					m.traceLabel, m.traceInfo = "", ""
					m.unquietClients()
					m.changed()
				})),
			),
		),
		app.If(note != "" && m.traceLabel != "", app.Elem("p").ID("trace-note").Class("hint").Text(note)),
		app.If(m.traceInfo != "", app.Elem("p").ID("trace-source").Class("source").Text(m.traceInfo)),
	)
}

// share: the link (copy button and read-only field) and the CSV export.
func (c *labControls) share() app.UI {
	m := c.M
	link := shareLink(m)
	copied := "Copy link"
	if m.copied != "" && m.copied == link {
		copied = "Copied ✓"
	}
	return app.Elem("section").Class("card").Attr("aria-label", "Share").Body(
		app.Elem("h2").Text("Share and export"),
		app.ElemSelfClosing("input").Attr("type", "text").ID("share-link").Class("text share").Attr("readonly", true).Attr("value", shareLink(m)).Attr("aria-label", "Link to this setup").
			OnFocus(func(ctx app.Context, e app.Event) { ctx.JSSrc().Call("select") }),
		app.Elem("div").Class("row").Body(
			app.Elem("button").ID("copy-link").Class("btn").Text(copied).OnClick(func(ctx app.Context, e app.Event) {
				link := shareLink(m)
				browser.CopyText(link, func(err error) {
					ctx.Dispatch(func(ctx app.Context) {
						if err != nil {
							m.copied = ""
							m.setErr("share", fmt.Errorf("the browser did not let the page copy (%v); the link is selected in the field above: copy it from there", err))
							if el := browser.ByID("share-link"); el.Truthy() {
								el.Call("focus")
								el.Call("select")
							}
							return
						}
						m.copied = link
						m.setErr("share", nil)
					})
				})
			}),
			app.Elem("button").ID("export-csv").Class("btn").Text("Export CSV").OnClick(func(ctx app.Context, e app.Event) {
				var b bytes.Buffer
				m.setErr("export", m.shown().ExportCSV(&b))
				c.exportURL = browser.Download("ratelab-results.csv", "text/csv", b.String())
			}),
			app.Elem("a").ID("quiz-this").Class("btn").Attr("href", quizLinkFor(m)).Title("A predict-then-reveal quiz on these lanes and the clients' generated traffic (the default traffic when the clients only click, as after a trace; a trace is not replayed)").Text("Quiz me on this setup"),
			app.If(c.exportURL != "", app.Elem("a").ID("export-link").Attr("href", c.exportURL).Attr("download", "ratelab-results.csv").Text("ratelab-results.csv")),
		),
		app.Elem("p").ID("share-paused").Class("hint").Text("While the clock is paused, the link opens paused at its instant (paused=1&t= seconds, as the clock shows them)."),
		ui.ErrorLine(m.errs, "share"),
		ui.ErrorLine(m.errs, "export"),
	)
}

// shareLink is the absolute link to the current setup.
// quizLinkFor is the /learn quiz on the lab's setup (its seed draws the
// questions too).
func quizLinkFor(m *labModel) string {
	s := m.lab.Setup()
	v := s.Values() // a trace stays named: the quiz says it does not replay it
	if !slices.ContainsFunc(s.Clients, func(c sim.Client) bool { return c.Pattern.Kind != sim.PatternNone }) {
		// Clients that only click (as after a trace is loaded) leave the
		// quiz no request to ask about: it takes the default traffic, on
		// these lanes.
		v.Del("client")
	}
	v.Set("mode", "quiz")
	return site.Href("/learn?" + v.Encode())
}

func shareLink(m *labModel) string {
	origin := ""
	if app.IsClient {
		origin = browser.Origin()
	}
	return origin + site.Href("/lab?"+linkQuery(m))
}

// linkQuery is the query of the lab's link: the setup, the client a click
// sends as and the burst size when they are not the defaults (the first
// client, 10), and, while the clock is paused, its instant (paused=1&t=…).
func linkQuery(m *labModel) string {
	s := m.lab.Setup()
	v := s.Values()
	if cs := s.Clients; len(cs) > 0 && m.fireClient() != cs[0].Name {
		v.Set("as", m.fireClient())
	}
	if m.burstN != defaultBurstN {
		v.Set("burst", strconv.Itoa(m.burstN))
	}
	for k, vs := range m.clockLink().Values() { // paused=1&t=…: opens where the clock stands
		v[k] = vs
	}
	return v.Encode()
}

// defaultBurstN is the lab's Burst ×N to start with.
const defaultBurstN = 10

// presets lists the real providers' limits with their sources.
func (c *labControls) presets() app.UI { return app.Raw(presetsHTML()) }

// presetsHTML is the card of real limits. It never changes, so it is one
// piece of HTML the browser parses at once (app.Raw), not some fifty
// elements for the page to create one call at a time while it starts; and
// it is built once (the server pre-renders pages concurrently, hence the
// sync.Once), not on every redraw of the controls.
func presetsHTML() string {
	presetsOnce.Do(func() { presetsCache = buildPresetsHTML() })
	return presetsCache
}

var (
	presetsOnce  sync.Once // zero value: nothing runs at start-up
	presetsCache string
)

func buildPresetsHTML() string {
	var b strings.Builder
	esc := template.HTMLEscapeString // text/template is in every go-app wasm; html's escaper would add strings.Replacer
	b.WriteString(`<section class="card" aria-label="Presets"><h2>Presets: real limits</h2>` +
		`<p class="explain">Add one as a lane from “+ Add a lane…”. Each cites its public source and says where it simplifies.</p>` +
		`<ul id="presets" class="presets">`)
	for _, p := range sim.Presets() {
		b.WriteString(`<li id="preset-` + esc(p.ID) + `"><strong>` + esc(p.Name) + `</strong>` +
			`<div class="mono small">` + esc(explain.ConfigText(p.Config)) + `</div>` +
			`<div class="small">Source: <a href="` + esc(p.Source) + `" target="_blank" rel="noopener">` + esc(p.Source) + `</a></div>` +
			`<details><summary>Where it simplifies</summary><p class="small">` + esc(p.Note) + `</p></details></li>`)
	}
	b.WriteString(`</ul></section>`)
	return b.String()
}
