package lab

import (
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
)

// totalsSnap is the per-client table, refreshed a few times a second.
type totalsSnap struct {
	Lanes   []string
	Totals  []sim.Counts
	Rows    []totalsRow
	Top     []totalsTop
	Clients int
}

// totalsTop is the client a lane throttles most ("" for nobody) and what
// follows its name (": 3 of 5 denied", or "nobody denied").
type totalsTop struct {
	Client, Text string
}

type totalsRow struct {
	Client string
	Cells  []sim.Counts
}

// maxTotalsRows is how many clients the table lists (a trace has
// thousands): those denied most, across lanes.
const maxTotalsRows = 10

func snapTotals(l *sim.Lab) *totalsSnap {
	names := l.Clients()
	s := &totalsSnap{Clients: len(names)}
	lanes := l.Lanes()
	for i, ln := range lanes {
		s.Lanes = append(s.Lanes, "#"+strconv.Itoa(i+1)+" "+ln.Spec().Config.Kind.Name())
		s.Totals = append(s.Totals, ln.Total())
	}
	// One pass over the clients by index (a trace may bring 200,000 of
	// them), keeping the most denied in order, and each lane's most denied.
	best := make([]scoredClient, 0, maxTotalsRows+1)
	topDenied := make([]int64, len(lanes))
	top := make([]int, len(lanes))
	for i := range top {
		top[i] = -1
	}
	for id := range names {
		sc := scoredClient{id: id}
		for i, ln := range lanes {
			c := ln.ClientAt(id)
			sc.denied += c.Denied
			sc.total += c.Allowed + c.Denied
			if c.Denied > topDenied[i] {
				topDenied[i], top[i] = c.Denied, id
			}
		}
		best = keepBest(best, sc, names)
	}
	for _, b := range best {
		row := totalsRow{Client: names[b.id]}
		for _, ln := range lanes {
			row.Cells = append(row.Cells, ln.ClientAt(b.id))
		}
		s.Rows = append(s.Rows, row)
	}
	for i := range lanes {
		s.Top = append(s.Top, topOf(lanes[i], names, top[i]))
	}
	return s
}

// scoredClient is a client's denied and total requests over every lane.
type scoredClient struct {
	id            int
	denied, total int64
}

// before reports whether a ranks before b in the totals: more denied, then
// busier, then first by name.
func (a scoredClient) before(b scoredClient, names []string) bool {
	if a.denied != b.denied {
		return a.denied > b.denied
	}
	if a.total != b.total {
		return a.total > b.total
	}
	return names[a.id] < names[b.id]
}

// keepBest inserts sc into best, which stays in order and at most
// maxTotalsRows long.
func keepBest(best []scoredClient, sc scoredClient, names []string) []scoredClient {
	if len(best) == maxTotalsRows && !sc.before(best[len(best)-1], names) {
		return best
	}
	k := len(best)
	for k > 0 && sc.before(best[k-1], names) {
		k--
	}
	best = slices.Insert(best, k, sc)
	if len(best) > maxTotalsRows {
		best = best[:maxTotalsRows]
	}
	return best
}

// topOf is the "throttles most" cell of a lane whose most denied client is
// id (-1: none denied).
func topOf(ln *sim.Lane, names []string, id int) totalsTop {
	if id < 0 {
		return totalsTop{Text: "nobody denied"}
	}
	c := ln.ClientAt(id)
	return totalsTop{names[id], ": " + strconv.FormatInt(c.Denied, 10) + " of " + strconv.FormatInt(c.Allowed+c.Denied, 10) + " denied"}
}

// labTotals is the per-client totals table: which clients each strategy
// throttles most.
type labTotals struct {
	app.Compo
	M    *labModel
	Snap *totalsSnap
}

func (t *labTotals) Render() app.UI {
	s := t.Snap
	if s == nil {
		return app.Elem("section").Class("card totals")
	}
	cell := func(c sim.Counts) app.UI {
		return app.Elem("td").Class("num-cell").Body(
			app.Elem("span").Class("ok").Text(strconv.FormatInt(c.Allowed, 10)),
			app.Elem("span").Class("sep").Text(" / "),
			app.Elem("span").Class("no").Text(strconv.FormatInt(c.Denied, 10)),
		)
	}
	head := []app.UI{app.Elem("th").Text("client")}
	for _, n := range s.Lanes {
		head = append(head, app.Elem("th").Text(n))
	}
	total := []app.UI{app.Elem("th").Text("all " + units.Plural(s.Clients, "client"))}
	for _, c := range s.Totals {
		total = append(total, cell(c))
	}
	// A trace's client names may be of any length (an IPv6 address has up
	// to 45 characters, a file anything): each is cut with an ellipsis
	// (web/app.css) and whole in its title, so a long one does not widen
	// the table beyond a phone's screen.
	name := func(n string) app.UI { return clientLink(t.M, n) }
	top := []app.UI{app.Elem("th").Text("throttles most")}
	for _, x := range s.Top {
		if x.Client == "" {
			top = append(top, app.Elem("td").Class("small").Text(x.Text))
		} else {
			top = append(top, app.Elem("td").Class("small").Body(name(x.Client), app.Text(x.Text)))
		}
	}
	rows := []app.UI{app.Elem("tr").Class("total").Body(total...), app.Elem("tr").Class("top").Body(top...)}
	for _, r := range s.Rows {
		tds := []app.UI{app.Elem("th").Class("mono").Body(name(r.Client))}
		for _, c := range r.Cells {
			tds = append(tds, cell(c))
		}
		rows = append(rows, app.Elem("tr").Body(tds...))
	}
	more := ""
	if s.Clients > len(s.Rows) {
		more = " (the " + strconv.Itoa(len(s.Rows)) + " denied most of " + strconv.Itoa(s.Clients) + ")"
	}
	return app.Elem("section").Class("card totals").Attr("aria-label", "Per-client totals").Body(
		app.Elem("h2").Text("Per-client totals: allowed / denied"+more),
		// Focusable, so that the keyboard can scroll to the columns that a
		// narrow screen or six lanes push out of view.
		app.Elem("div").ID("totals-wrap").Class("table-wrap").TabIndex(0).Attr("role", "region").Attr("aria-label", "Per-client totals, scrollable").Body(
			app.Elem("table").ID("totals").Body(app.Elem("thead").Body(app.Elem("tr").Body(head...)), app.Elem("tbody").Body(rows...)),
		),
	)
}
