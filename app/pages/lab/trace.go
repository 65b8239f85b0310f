package lab

import (
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
)

// traceLinesPerPart is how many lines of a user's file the lab reads before
// it lets the browser draw and take input again: a part of a large access
// log stays well within a frame's budget, and the largest file allowed
// (sim.MaxTraceLines) is read in 20 parts.
const traceLinesPerPart = 10000

// readTrace reads a user's trace file in parts, showing how far it has got,
// and then replays it, or shows why it cannot (readTraceDone). A file
// chosen while another is being read replaces it.
func (m *labModel) readTrace(ctx app.Context, input app.Value, name string, data []byte) {
	m.reading++
	gen := m.reading
	r := sim.NewTraceReader(name, data)
	m.traceReading = "reading " + name + "…"
	go func() {
		for !r.Step(traceLinesPerPart) {
			percent := int(r.Progress() * 100)
			ctx.Dispatch(func(app.Context) {
				if gen == m.reading {
					m.traceReading = "reading " + name + "… " + strconv.Itoa(percent) + " %"
				}
			})
			// Sleeping parks the only goroutine, so the wasm returns to the
			// browser until the timer fires: the page draws between parts.
			time.Sleep(time.Millisecond)
		}
		t, err := r.Result()
		ctx.Dispatch(func(app.Context) {
			if gen == m.reading {
				m.traceReading = ""
				m.readTraceDone(input, name, t, err)
			}
		})
	}()
}

// readTraceDone replays the trace t read from the file name, or shows err
// beside the file field and changes nothing else.
func (m *labModel) readTraceDone(input app.Value, name string, t *sim.Trace, err error) {
	if !m.setErr("trace", err) {
		// The field lets the refused file go, so it does not name it
		// beside the trace still replayed.
		input.Set("value", "")
		return
	}
	m.live()
	if m.setErr("trace", m.lab.SetTrace("", t)) {
		m.quietClients()
		first := ""
		if at := t.Events[0].At; at >= time.Minute {
			// A CSV's times are kept as they are: with Unix times the
			// lanes would wait years for the first one.
			first = ", the first at t = " + units.FormatClock(at) + ": “Run to end” gets there at once"
		}
		m.traceLabel, m.traceInfo = name+" ("+units.Plural(len(t.Events), "request")+", "+units.Plural(len(t.Clients), "client")+first+")", "Your file; it is not part of the link."
	} else {
		input.Set("value", "")
	}
	m.changed()
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
