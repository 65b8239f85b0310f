package lab

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/site"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
)

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
