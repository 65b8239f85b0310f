package lab

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
)

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

// defaultBurstN is the lab's Burst ×N to start with.
const defaultBurstN = 10
