package lab

import (
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
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
