package lab

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// labOptions bound the lab's memory: 4096 decisions per lane (20 s of the
// strip at 200 requests/s) and one minute of 100 ms chart buckets.
var labOptions = sim.Options{History: 4096}

// NASA trace: where the page fetches it and what the UI says about it.
const (
	nasaURL    = "/web/data/nasa-1995-08-01.csv"
	nasaLabel  = "NASA 1995 trace"
	nasaSource = "Source: NASA Kennedy Space Center WWW server log, 1 August 1995, first 20,000 requests " +
		"(Internet Traffic Archive, https://ita.ee.lbl.gov/html/contrib/NASA-HTTP.html); hosts replaced by ids. " +
		"Terms: free redistribution; use for general traffic patterns only."
)

// labModel is the comparison lab's state, shared by its components: the
// simulation, the scrubbed copy, and what the controls show next to
// themselves. All logic lives in package sim; this only routes the UI's
// actions to it and keeps the messages.
type labModel struct {
	lab   *sim.Lab
	scrub *sim.Lab // the lab as it was at the scrubber's instant; nil when live

	// version moves on every change and every move of the clock; the lanes
	// redraw when it moves. edits moves on the changes only (changed); the
	// left column redraws when it moves.
	version, edits uint64
	// loads counts setups loaded from a link, so the controls redraw.
	loads uint64

	errs       map[string]string // control id → message shown next to it
	linkErrs   []string          // what was wrong with the opened link
	traceLabel string            // what is replayed besides the clients: "" or a name
	traceInfo  string            // its source line
	// traceReading tells how far reading a user's file has got ("" when
	// none is being read); reading counts the files chosen, so that only
	// the latest one's reading reports.
	traceReading string
	reading      uint64
	// quieted holds the patterns loading a trace took from the clients
	// (quietClients): removing the trace gives them back, and picking one's
	// kind again brings its numbers back.
	quieted map[string]sim.Pattern

	// dropped says that a run went on from a scrubbed instant (Resume, a
	// click, a step) and that what came after it is gone, until the next
	// scrub.
	dropped string

	// reveal is the lane to bring into view once it is drawn, or -1: a lane
	// a preset added, from a link or "+ Add a lane…", stands last, a
	// screen or more under the first.
	reveal int

	budgetL int
	budgetW time.Duration
	burstN  int
	fireAs  string

	// copied is the link last put on the clipboard; "Copied ✓" shows while
	// it is still the setup's link.
	copied string

	// behind counts down the frames since a tick last stopped short of the
	// time due (sim.MaxTickDecisions): while it is above 0 the clock says
	// it runs slower than its speed.
	behind int

	// toEnd is "Run to end" under way, nil when none (see startRunToEnd).
	toEnd *runToEnd
	// opening is the clock a link asked for (paused=1&t=…), until its
	// trace has arrived (see openClock).
	opening *sim.ClockLink
	// now is the real clock that bounds a frame of "Run to end" (nil:
	// time.Now; tests set their own).
	now func() time.Time

	// sel is the decision selected in a lane's strip; insp the open
	// inspector (nil when closed).
	sel  labSel
	insp *labInsp

	// redrawControls redraws the left column (set while it is mounted);
	// labLanes.frame calls it when edits moved.
	redrawControls func()
	// unlinked: the lanes are drawn away from /lab (the gallery), so the
	// address is not the lab's link.
	unlinked bool
	// zoom is the lanes' time window, which the lab's link carries
	// (zoom=from,to) so that a shared link opens at the same zoom.
	zoom labZoom
}

func newLabModel() *labModel {
	s := sim.DefaultSetup()
	l, _ := sim.New(s, nil, labOptions)
	return &labModel{lab: l, errs: map[string]string{}, budgetL: sim.DefaultLimit, budgetW: sim.DefaultWindow, burstN: defaultBurstN, sel: labSel{lane: -1}, reveal: -1}
}

// shown is the lab the lanes draw: the scrubbed copy, or the live lab.
func (m *labModel) shown() *sim.Lab {
	if m.scrub != nil {
		return m.scrub
	}
	return m.lab
}

// changed says the model changed: at the next frame (labLanes.frame) the
// lanes redraw, and so does the left column. It is the one call a handler
// makes after changing the model.
func (m *labModel) changed() { m.version++; m.edits++ }

// moved says the simulation moved on by itself (the clock, "Run to end"):
// the lanes redraw, the left column does not.
func (m *labModel) moved() { m.version++ }

// setErr records err (or clears it when nil) for the control id and
// reports whether there was no error.
func (m *labModel) setErr(id string, err error) bool {
	if err != nil {
		m.errs[id] = err.Error()
		return false
	}
	delete(m.errs, id)
	return true
}

// dropErrs drops the messages of the controls whose ids start with prefix
// (the fields of a lane's or a client's old kind, which are gone).
func (m *labModel) dropErrs(prefix string) {
	for id := range m.errs {
		if strings.HasPrefix(id, prefix) {
			delete(m.errs, id)
		}
	}
}

// live drops the scrubbed copy (and the note of a run continued from one:
// what calls live changes the run), and stops "Run to end".
func (m *labModel) live() {
	m.stopRun()
	m.dropped = ""
	if m.scrub != nil {
		m.scrub = nil
		m.changed()
	}
}

// loadSetup replaces the lab with one for the link's query q: each part
// that is wrong falls back to its default, and the messages are kept for
// the banner. A trace named by the link is loaded by the caller.
func (m *labModel) loadSetup(q map[string][]string) {
	s, err := sim.DecodeSetup(q)
	m.linkErrs = m.linkErrs[:0]
	if err != nil {
		for _, e := range units.Unjoin(err) {
			m.linkErrs = append(m.linkErrs, e.Error())
		}
	}
	want := s.Trace
	s.Trace = "" // the trace arrives later (fetched); the lab starts without it
	l, err := sim.New(s, nil, labOptions)
	if err != nil {
		m.linkErrs = append(m.linkErrs, "link: "+err.Error()+"; using the default setup")
		l, _ = sim.New(sim.DefaultSetup(), nil, labOptions)
	}
	m.lab, m.scrub, m.toEnd, m.opening = l, nil, nil, nil
	m.clearSel()
	m.traceLabel, m.traceInfo, m.quieted, m.dropped = "", "", nil, ""
	if want != "" {
		m.traceLabel = "loading " + nasaLabel + "…"
	}
	clear(m.errs)
	m.budgetL, m.budgetW = budgetOf(l.Setup())
	m.fireAs, m.burstN = "", defaultBurstN
	if as := firstOf(q["as"]); as != "" { // "as=" is the default, the first client
		names := l.Setup().ClientNames()
		if slices.Contains(names, as) {
			m.fireAs = as
		} else {
			m.linkErrs = append(m.linkErrs, fmt.Sprintf("link: as: %q is not a client of the link; want one of %v; sending as %s", as, names, m.fireClient()))
		}
	}
	if q["burst"] != nil {
		v, err := (units.Param{Name: "burst", Unit: "requests", Min: 1, Max: sim.MaxBurst, Integer: true}).Parse(firstOf(q["burst"]))
		if err != nil {
			m.linkErrs = append(m.linkErrs, "link: "+err.Error()+"; using Burst ×"+strconv.Itoa(defaultBurstN))
		} else {
			m.burstN = int(v)
		}
	}
	m.reveal = -1
	m.openPresets(q["preset"])
	m.openZoom(q)
	m.linkErrs = append(m.linkErrs, unknownParts(q)...)
	m.loads++
	m.changed()
}

// budgetOf guesses the "same budget" fields from the first lane.
func budgetOf(s sim.Setup) (int, time.Duration) {
	w := s.Worst
	if len(s.Lanes) == 0 {
		return sim.DefaultLimit, w
	}
	c := s.Lanes[0].Config
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		return c.Burst, w
	case limiter.KindLeakyBucket:
		return c.Capacity, w
	}
	return c.Limit, c.Window
}

// firstOf is a query key's first value.
func firstOf(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

// fireClient is the client a click or a burst sends as.
func (m *labModel) fireClient() string {
	cs := m.lab.Setup().Clients
	for _, c := range cs {
		if c.Name == m.fireAs {
			return c.Name
		}
	}
	if len(cs) > 0 {
		return cs[0].Name
	}
	return "you"
}

// fire sends n requests now (a click, Space, or Burst ×N).
func (m *labModel) fire(n int) {
	m.resumeFromScrub()
	if m.setErr("fire", m.lab.Fire(m.fireClient(), n)) {
		delete(m.errs, "step") // "no request is coming" no longer holds
	}
	m.changed()
}

// resumeFromScrub makes the scrubbed copy the live lab (what happens after
// the scrubbed instant is dropped), keeping the clock paused. Its callers
// take the clock (Resume, a step, a request): "Run to end" stops.
func (m *labModel) resumeFromScrub() {
	m.stopRun()
	if m.scrub != nil {
		m.dropped = "continued from t = " + units.FormatClock(m.scrub.Now()) + ": the run after it, to t = " + units.FormatClock(m.lab.Now()) + ", was dropped"
		m.lab, m.scrub = m.scrub, nil
		m.changed()
	}
}

// scrubTo shows every lane as it was at t (rebuilt by replaying).
func (m *labModel) scrubTo(t sim.Instant) {
	m.stopRun()
	m.dropped = ""
	m.lab.Clock().Pause()
	if t >= m.lab.Now() {
		m.live()
		return
	}
	c, err := m.lab.At(max(t, 0))
	if m.setErr("scrub", err) {
		m.scrub = c
	}
	m.changed()
}
