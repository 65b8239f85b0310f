package lab

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
)

// laneAggregates are a lane's counts and worst cases, each saying over what
// it is counted: the counts and one worst case over all clients, the other
// worst case over one client. A limit of "20 per 1 min" binds each client:
// 166 in 1 min over every client of a trace is no breach of it, 40 for one
// client is (a fixed window's edge).
func laneAggregates(id string, ln *sim.Lane, now sim.Instant) app.UI {
	tot := ln.Total()
	return app.Elem("div").Class("lane-aggregates").Body(
		app.Elem("div").Class("lane-counts").Body(
			app.Elem("span").ID(id+"-counts-over").Class("stat-label counts-over").Text("all clients"),
			app.Elem("span").Class("ok").Body(app.Text("✓ "), app.Elem("span").ID(id+"-allowed").Text(strconv.FormatInt(tot.Allowed, 10)), app.Text(" allowed")),
			app.Elem("span").Class("no").Body(app.Text("✕ "), app.Elem("span").ID(id+"-denied").Text(strconv.FormatInt(tot.Denied, 10)), app.Text(" denied")),
		),
		app.Elem("div").Class("lane-worst").Body(
			app.Elem("span").Class("stat-label").Text("Worst case, most admitted in any "+units.FormatWindow(ln.Worst().Window)+":"),
			clientWorstLine(id, ln.ClientWorst(), now),
			app.Elem("span").ID(id+"-worst").Class("worst-line").Text(formatWorst("all clients", ln.Worst(), now)),
		),
	)
}

// clientWorstLine is formatClientWorst with the client's name cut with an
// ellipsis (web/app.css) and whole in its title: a trace's name may be
// 60,000 characters long.
func clientWorstLine(id string, w sim.ClientWorst, now sim.Instant) app.UI {
	text := formatClientWorst(w, now)
	before, after, ok := strings.Cut(text, w.Client)
	if w.Client == "" || !ok {
		return app.Elem("span").ID(id + "-worst-client").Class("worst-line").Text(text)
	}
	return app.Elem("span").ID(id+"-worst-client").Class("worst-line").Body(
		app.Text(before), app.Elem("span").Class("worst-name").Title(w.Client).Text(w.Client), app.Text(after))
}

// formatClientWorst is the per-client worst-case line: "one client
// (c0557): 28 in 1 min at 18690–18750 s".
func formatClientWorst(w sim.ClientWorst, now sim.Instant) string {
	if w.Units == 0 {
		return formatWorst("one client", w.WorstCase, now)
	}
	return formatWorst("one client ("+w.Client+")", w.WorstCase, now)
}

// formatWorst is a worst-case line, over: "all clients: 20 in 1 s at
// 0.99–1.99 s".
func formatWorst(over string, w sim.WorstCase, now sim.Instant) string {
	if w.Units == 0 {
		return over + ": nothing admitted yet"
	}
	s := over + ": " + strconv.FormatInt(w.Units, 10) + " in " + units.FormatWindow(w.Window)
	if w.End > now {
		// The window has not ended: more may still be admitted in it (a
		// window longer than the run so far, or the latest burst).
		return s + " from " + units.FormatSecs(w.Start) + " s, window open until " + units.FormatSecs(w.End) + " s"
	}
	return s + " at " + units.FormatSecs(w.Start) + "–" + units.FormatSecs(w.End) + " s"
}
