package lab

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
)

// maxPickerMatches is the most names the client picker's list holds: a
// trace brings up to 200,000 clients, and a list of them all would take
// the browser seconds to build for every keystroke.
const maxPickerMatches = 50

// clientPicker is the "state of client" field: a text field with a list of
// suggestions (a datalist, the browser's own keyboard handling), that
// holds at most maxPickerMatches of the clients whose name contains what
// is typed. Enter, leaving the field or picking a suggestion chooses the
// client of that exact name; any client of the setup or of the trace can
// be chosen, however many.
type clientPicker struct {
	app.Compo
	M *labModel
	// Focus is the client whose state is drawn; Sent how many clients have
	// sent, so that the suggestions follow a running trace.
	Focus string
	Sent  int

	query    string
	err      string
	chosen   string   // Focus when query and err were last cleared
	all      []string // AllClients, kept while the run's clients are the same
	allSent  int
	allOf    *sim.Lab
	allEdits uint64
}

// OnUpdate forgets what was typed when the focus changed elsewhere (a
// name in the totals, a link).
func (p *clientPicker) OnUpdate(ctx app.Context) {
	if p.Focus != p.chosen {
		p.query, p.err, p.chosen = "", "", p.Focus
	}
}

func (p *clientPicker) Render() app.UI {
	l := p.M.shown()
	matches, total, n := p.matches(l)
	opts := make([]app.UI, len(matches))
	for i, name := range matches {
		opts[i] = app.Elem("option").Attr("value", name)
	}
	hint := units.Plural(n, "client")
	if p.query != "" {
		hint += ", " + strconv.Itoa(total) + " matching “" + p.query + "”"
	}
	if total > len(matches) {
		hint += " (the list shows " + strconv.Itoa(len(matches)) + ": type more)"
	}
	return app.Elem("span").Class("client-picker").Body(
		app.Elem("label").Attr("for", "focus").Class("inline-label").Text("state of client"),
		// Its width is bounded (web/app.css): a name can be long.
		app.ElemSelfClosing("input").ID("focus").Class("select").Attr("type", "text").Attr("list", "focus-list").
			Attr("autocomplete", "off").Attr("spellcheck", "false").Attr("value", p.Focus).Title(p.Focus).
			Attr("aria-describedby", "focus-count").
			OnInput(p.onInput).OnChange(p.onChange).
			OnFocus(func(ctx app.Context, e app.Event) { ctx.JSSrc().Call("select") }),
		app.Elem("datalist").ID("focus-list").Body(opts...),
		app.Elem("span").ID("focus-count").Class("hint").Text(hint),
		app.If(p.err != "", app.Elem("span").ID("focus-error").Class("param-error").Role("alert").Text("⚠ "+p.err)),
	)
}

// matches returns the first maxPickerMatches clients whose name contains
// the query (every client for none), how many match, and how many clients
// there are. The names are gathered once per change of the run's clients,
// not per keystroke.
func (p *clientPicker) matches(l *sim.Lab) (names []string, total, n int) {
	// A change of the setup or the trace (edits) or a client's first
	// request (Sent) may change the names.
	if p.all == nil || p.allSent != len(l.Clients()) || p.allOf != l || p.allEdits != p.M.edits {
		p.all, p.allSent, p.allOf, p.allEdits = l.AllClients(), len(l.Clients()), l, p.M.edits
	}
	q := strings.ToLower(p.query)
	for _, name := range p.all {
		if q == "" || strings.Contains(strings.ToLower(name), q) {
			total++
			if len(names) < maxPickerMatches {
				names = append(names, name)
			}
		}
	}
	return names, total, len(p.all)
}

// onInput filters the suggestions; a suggestion picked from the list (an
// input event without a keystroke's inputType, or a replacement) chooses at
// once.
func (p *clientPicker) onInput(ctx app.Context, e app.Event) {
	v := browser.FieldText(ctx.JSSrc())
	p.query, p.err = v, ""
	if it := e.Get("inputType"); !it.Truthy() || it.String() == "insertReplacementText" {
		p.choose(v)
	}
}

func (p *clientPicker) onChange(ctx app.Context, e app.Event) {
	p.choose(browser.FieldText(ctx.JSSrc()))
}

// choose focuses the client named exactly name, or says why it cannot.
func (p *clientPicker) choose(name string) {
	if name == p.Focus {
		p.query, p.err = "", ""
		return
	}
	p.query = name // the message counts the names that contain it
	_, total, _ := p.matches(p.M.shown())
	for _, c := range p.all {
		if c == name {
			p.query, p.err = "", ""
			p.M.setFocus(name)
			return
		}
	}
	p.err = "no client is named “" + name + "”; " + strconv.Itoa(total) + " contain it: pick one from the list"
	if total == 0 {
		p.err = "no client is named “" + name + "”, and none contains it"
	}
}

// setFocus draws client's state in every lane, live and scrubbed (the
// live lab too, so the link carries it).
func (m *labModel) setFocus(client string) {
	err := m.lab.SetFocus(client)
	if m.scrub != nil && err == nil {
		err = m.scrub.SetFocus(client)
	}
	m.setErr("clock", err)
	m.changed()
}

// clientLink is a client's name in the totals: a button that draws its
// state in every lane and brings the lanes into view. The name is cut with
// an ellipsis (web/app.css) and whole in its title.
func clientLink(m *labModel, name string) app.UI {
	return app.Elem("button").Class("client-name btn link").Attr("type", "button").Title(name).Text(name).
		OnClick(func(ctx app.Context, e app.Event) {
			m.setFocus(name)
			if el := browser.ByID("focus"); el.Truthy() {
				el.Set("value", name) // over what was typed there, even for the same client
				el.Call("scrollIntoView", map[string]any{"block": "start"})
			}
		})
}
