package lab

import (
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
)

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
