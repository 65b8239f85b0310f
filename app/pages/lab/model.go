package lab

import (
	"fmt"
	"maps"
	"math"
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
}

func newLabModel() *labModel {
	s := sim.DefaultSetup()
	l, _ := sim.New(s, nil, labOptions)
	return &labModel{lab: l, errs: map[string]string{}, budgetL: sim.DefaultLimit, budgetW: sim.DefaultWindow, burstN: defaultBurstN, sel: labSel{lane: -1}}
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

// clients returns a copy of the setup's clients.
func (m *labModel) clients() []sim.Client { return m.lab.Setup().Clients }

// quietClients switches every client with generated traffic to clicks only
// (the run starts over), so that the lanes hear a trace being loaded: the
// default client's 8 requests a second would be most of what the lanes see
// beside the NASA trace's half a request a second. traceNote says so.
func (m *labModel) quietClients() {
	cs := slices.Clone(m.clients())
	var names []string
	took := map[string]sim.Pattern{}
	for i := range cs {
		if cs[i].Pattern.Kind != sim.PatternNone {
			took[cs[i].Name] = cs[i].Pattern
			cs[i].Pattern = sim.Pattern{Kind: sim.PatternNone}
			names = append(names, cs[i].Name)
		}
	}
	if len(names) == 0 || !m.setErr("clients", m.lab.SetTraffic(cs, m.lab.Setup().Seed)) {
		return
	}
	if m.quieted == nil {
		m.quieted = map[string]sim.Pattern{}
	}
	maps.Copy(m.quieted, took) // a second trace keeps what the first took
}

// traceNote says which clients a trace quieted still send only on clicks,
// or "": worked out as drawn, so it drops a client that picked a pattern
// again and stays through a second trace.
func (m *labModel) traceNote() string {
	var names []string
	for _, c := range m.clients() {
		if _, ok := m.quieted[c.Name]; ok && c.Pattern.Kind == sim.PatternNone {
			names = append(names, c.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	one := len(names) == 1
	return "So that the lanes hear the trace, " + strings.Join(names, ", ") + " now " + map[bool]string{true: "sends", false: "send"}[one] +
		" only on clicks; pick a pattern again to mix generated traffic in, or remove the trace to have " +
		map[bool]string{true: "it", false: "them"}[one] + " back."
}

// unquietClients gives the clients quietClients quieted, and that still
// send only on clicks, their patterns back (the run starts over).
func (m *labModel) unquietClients() {
	cs := slices.Clone(m.clients())
	back := false
	for i := range cs {
		if p, ok := m.quieted[cs[i].Name]; ok && cs[i].Pattern.Kind == sim.PatternNone {
			cs[i].Pattern, back = p, true
		}
	}
	m.quieted = nil
	if back {
		m.setErr("clients", m.lab.SetTraffic(cs, m.lab.Setup().Seed))
	}
}

// patternFor is the pattern of kind k for client name: the one a trace
// took from it, if of that kind, else the default one.
func (m *labModel) patternFor(name string, k sim.PatternKind) sim.Pattern {
	if p, ok := m.quieted[name]; ok && p.Kind == k {
		return p
	}
	return m.defaultPattern(k)
}

// renamed carries what the page keeps by a client's name over a rename: the
// pattern a trace took from it, whether clicks send as it, and whether its
// state is drawn (focused: it was before the rename).
func (m *labModel) renamed(old, name string, focused bool) {
	if old == name {
		return
	}
	if p, ok := m.quieted[old]; ok {
		delete(m.quieted, old)
		m.quieted[name] = p
	}
	if m.fireAs == old {
		m.fireAs = name
	}
	if focused && m.lab.Focus() != name {
		m.setErr("clock", m.lab.SetFocus(name))
	}
}

// setClients replaces the clients (the run starts over).
func (m *labModel) setClients(id string, cs []sim.Client) bool {
	m.live()
	m.clearSel()
	ok := m.setErr(id, m.lab.SetTraffic(cs, m.lab.Setup().Seed))
	m.changed()
	return ok
}

// setTier gives every lane the tier name at factor × its budget (0 removes
// it); clients whose tier is name get it.
func (m *labModel) setTier(name string, factor float64) {
	m.live()
	m.setErr("tier", m.lab.SetTier(name, factor))
	m.changed()
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

// runToEnd is "Run to end" under way: the lab decides the trace's requests
// up to to, begun at from, a few parts a frame (see runStep), so that the
// page stays responsive. It ends exactly where one sim.Lab.RunTrace would
// (sim.Lab.AdvanceToward).
type runToEnd struct {
	from, to sim.Instant
	// open is the link's clock when the run opens a paused=1&t=… link
	// (openAt): at to, the clock stays paused, or runs for paused=0.
	open *sim.ClockLink
}

// A frame of "Run to end" decides parts of runPart decisions until it has
// spent runFrameTime or made sim.MaxTickDecisions decisions: with many new
// clients (each a new limiter in every lane) a part costs far more than
// its count says, so the frame watches the time too.
const (
	runPart      = 2000
	runFrameTime = 40 * time.Millisecond
)

// startRunToEnd pauses the clock and starts "Run to end", deciding the
// first frame's parts at once (a short trace ends there). While one is
// under way, it does nothing.
func (m *labModel) startRunToEnd() {
	if m.toEnd != nil {
		return
	}
	m.live()
	m.lab.Clock().Pause()
	delete(m.errs, "trace")
	m.toEnd = &runToEnd{from: m.lab.Now(), to: m.lab.TraceEnd()}
	m.runStep()
}

// runStep decides the next frame of "Run to end", if one is under way (see
// runPart). At the end (or on an error, shown by the trace's controls) the
// run is over and the controls are redrawn.
func (m *labModel) runStep() {
	r := m.toEnd
	if r == nil || m.scrub != nil {
		return
	}
	now := m.now
	if now == nil {
		now = time.Now
	}
	start := now()
	per := max(1, len(m.lab.Lanes())) // decisions per request
	for used := 0; ; {
		before := m.lab.Processed()
		done, err := m.lab.AdvanceToward(r.to, min(runPart, sim.MaxTickDecisions-used))
		used += (m.lab.Processed() - before) * per
		if done || err != nil {
			if r.open != nil && !r.open.Paused && err == nil {
				m.lab.Clock().Resume()
			}
			m.toEnd = nil
			m.setErr("trace", err)
			m.changed()
			break
		}
		if sim.MaxTickDecisions-used < per || now().Sub(start) >= runFrameTime {
			break
		}
	}
	m.moved()
}

// stopRun stops "Run to end" where it got to: every request up to the
// clock decided (some of those at its instant may wait, as after "Step 1
// request"), the clock paused.
func (m *labModel) stopRun() {
	if m.toEnd != nil {
		m.toEnd = nil
		m.changed()
	}
}

// runProgress is how far "Run to end" has got, in whole percent of its
// simulated time (0 to 99 while under way).
func (m *labModel) runProgress() int {
	r := m.toEnd
	if r == nil || r.to <= r.from {
		return 0
	}
	return min(99, int(float64(m.lab.Now()-r.from)/float64(r.to-r.from)*100))
}

// setSameBudget sets every lane to "limit per window".
func (m *labModel) setSameBudget(limit int, window time.Duration) {
	m.live()
	if m.setErr("budget", m.lab.SetSameBudget(limit, window)) {
		m.budgetL, m.budgetW = limit, window
	}
	m.changed()
}

// laneParam is one of a lane's two parameters.
type laneParam struct {
	units.Param
	get func(limiter.Config) float64
	set func(*limiter.Config, float64)
}

// laneParams returns the two parameters of kind, with element ids for lane i.
// Their ranges are sim.LaneRanges, which a link's lane is held to as well.
func laneParams(i int, k limiter.Kind) [2]laneParam {
	id := func(s string) string { return "lane-" + strconv.Itoa(i) + "-" + s }
	r := sim.LaneRanges(k)
	switch k {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		return [2]laneParam{
			{fieldOf(r[0], id("p1"), 0.00001, true),
				func(c limiter.Config) float64 { return c.Rate }, func(c *limiter.Config, v float64) { c.Rate = v }},
			{fieldOf(r[1], id("p2"), 1, true),
				func(c limiter.Config) float64 { return float64(c.Burst) }, func(c *limiter.Config, v float64) { c.Burst = int(v) }},
		}
	case limiter.KindLeakyBucket:
		return [2]laneParam{
			{fieldOf(r[0], id("p1"), 1, true),
				func(c limiter.Config) float64 { return float64(c.Capacity) }, func(c *limiter.Config, v float64) { c.Capacity = int(v) }},
			{fieldOf(r[1], id("p2"), 0.000001, true),
				func(c limiter.Config) float64 { return msOf(c.LeakInterval) },
				func(c *limiter.Config, v float64) { c.LeakInterval = fromMs(v) }},
		}
	}
	return [2]laneParam{
		{fieldOf(r[0], id("p1"), 1, true),
			func(c limiter.Config) float64 { return float64(c.Limit) }, func(c *limiter.Config, v float64) { c.Limit = int(v) }},
		{fieldOf(r[1], id("p2"), 0.001, true),
			func(c limiter.Config) float64 { return c.Window.Seconds() }, func(c *limiter.Config, v float64) { c.Window = units.Seconds(v) }},
	}
}

// fieldOf is the field of range r (its term, unit and bounds are sim's),
// with element id, step and slider scale.
func fieldOf(r sim.Range, id string, step float64, log bool) units.Param {
	p := units.Param{ID: id, Name: r.Name, Unit: r.Unit, Min: r.Min, Max: r.Max, Step: step, Integer: r.Integer, Log: log}
	if r.Dur == time.Second {
		p.Grain = 0.001 // taken to the millisecond (Seconds)
	}
	return p
}

// setLaneParam sets parameter p (0 or 1) of lane i to v; a value the
// limiter refuses keeps the last good one and shows its message.
func (m *labModel) setLaneParam(i, p int, v float64) {
	m.live()
	spec := m.lab.Setup().Lanes[i]
	lp := laneParams(i, spec.Config.Kind)[p]
	lp.set(&spec.Config, v)
	m.setErr(lp.ID, m.lab.SetLane(i, spec))
	m.changed()
}

// setLaneKind switches lane i to kind on the lane's own budget (a fixed
// window of 12 per 1 s becomes a token bucket of 12/s, burst 12), or, when
// its config has none (rate 0 or +Inf, burst 0) or the new kind's fields
// cannot hold it, on the same-budget values.
func (m *labModel) setLaneKind(i int, k limiter.Kind) {
	m.live()
	spec := m.lab.Setup().Lanes[i]
	c, err := sim.SameBudget(k, m.budgetL, m.budgetW)
	if l, w, ok := sim.BudgetOf(spec.Config); ok {
		// Only within the new kind's fields (which a link is held to): a
		// token bucket of 0.00001/s and burst 10 is 10 per 11.6 days, a
		// window its field would refuse.
		if own, e := sim.SameBudget(k, l, w); e == nil && sim.CheckLane(own) == nil {
			c, err = own, nil
		}
	}
	if err == nil {
		spec.Config = c
		err = m.lab.SetLane(i, spec)
	}
	// This lane's messages were about its old kind's fields; the other
	// controls' messages (the same budget's, another lane's) still hold.
	prefix := "lane-" + strconv.Itoa(i) + "-"
	m.dropErrs(prefix)
	m.setErr(prefix+"kind", err)
	m.changed()
}

// laneAction runs one of the lane buttons.
func (m *labModel) laneAction(i int, act string) {
	m.live()
	m.clearSel()
	var err error
	n := len(m.lab.Lanes())
	switch act {
	case "up":
		if i > 0 {
			err = m.lab.MoveLane(i, i-1)
		}
	case "down":
		if i < n-1 {
			err = m.lab.MoveLane(i, i+1)
		}
	case "dup":
		err = m.lab.DuplicateLane(i)
	case "remove":
		err = m.lab.RemoveLane(i)
	}
	clear(m.errs)
	m.setErr("lanes", err)
	m.changed()
}

// addLane appends a lane: a preset's, or kind on the same budget.
func (m *labModel) addLane(choice string) {
	m.live()
	var c limiter.Config
	var err error
	if p, ok := sim.PresetByID(strings.TrimPrefix(choice, "preset:")); ok && strings.HasPrefix(choice, "preset:") {
		c = p.Config
	} else {
		c, err = sim.SameBudget(limiter.Kind(choice), m.budgetL, m.budgetW)
	}
	if err == nil {
		err = m.lab.AddLane(sim.LaneSpec{Config: c})
	}
	m.setErr("lanes", err)
	m.changed()
}

// presetsOf returns the presets whose limits lane config has: none, one, or
// several that differ only outside the lane (nginx's limit_req with and
// without nodelay make the same decisions; only the latency differs).
func presetsOf(c limiter.Config) []sim.Preset {
	var ps []sim.Preset
	for _, p := range sim.Presets() {
		if p.Config == c {
			ps = append(ps, p)
		}
	}
	return ps
}

// patternParams are the parameters of a traffic pattern, for client j.
type patternParam struct {
	units.Param
	get func(sim.Pattern) float64
	set func(*sim.Pattern, float64)
}

func msOf(d time.Duration) float64 { return d.Seconds() * 1000 }
func fromMs(v float64) time.Duration {
	return time.Duration(math.Round(v * 1e6))
}

// patternParams are the fields of pattern k for client j. Their ranges are
// sim.PatternRanges, which a link's client is held to as well; the rate
// times the weight is checked by sim (Client.validate), with a message
// naming both.
func patternParams(j int, k sim.PatternKind) []patternParam {
	id := func(s string) string { return "client-" + strconv.Itoa(j) + "-" + s }
	r := sim.PatternRanges(k)
	if len(r) == 0 { // clicks only
		return nil
	}
	param := func(i int, key string, step float64) units.Param { return fieldOf(r[i], id(key), step, false) }
	rate := patternParam{param(0, "rate", 0.001),
		func(p sim.Pattern) float64 { return p.Rate }, func(p *sim.Pattern, v float64) { p.Rate = v }}
	switch k {
	case sim.PatternSteady, sim.PatternPoisson:
		return []patternParam{rate}
	case sim.PatternOnOff:
		return []patternParam{rate,
			{param(1, "on", 0.001),
				func(p sim.Pattern) float64 { return msOf(p.On) }, func(p *sim.Pattern, v float64) { p.On = fromMs(v) }},
			{param(2, "off", 0.001),
				func(p sim.Pattern) float64 { return msOf(p.Off) }, func(p *sim.Pattern, v float64) { p.Off = fromMs(v) }},
		}
	case sim.PatternRamp:
		return []patternParam{rate,
			{param(1, "to", 0.001),
				func(p sim.Pattern) float64 { return p.To }, func(p *sim.Pattern, v float64) { p.To = v }},
			{param(2, "ramp", 0.001),
				func(p sim.Pattern) float64 { return msOf(p.Ramp) }, func(p *sim.Pattern, v float64) { p.Ramp = fromMs(v) }},
		}
	case sim.PatternEdge:
		return []patternParam{
			{param(0, "size", 1),
				func(p sim.Pattern) float64 { return float64(p.Size) }, func(p *sim.Pattern, v float64) { p.Size = int(v) }},
			{param(1, "window", 0.001),
				func(p sim.Pattern) float64 { return msOf(p.Window) }, func(p *sim.Pattern, v float64) { p.Window = fromMs(v) }},
			{param(2, "gap", 0.001),
				func(p sim.Pattern) float64 { return msOf(p.Gap) }, func(p *sim.Pattern, v float64) { p.Gap = fromMs(v) }},
		}
	}
	return nil
}

// defaultPattern is a fresh pattern of kind k on the current budget.
func (m *labModel) defaultPattern(k sim.PatternKind) sim.Pattern {
	p := sim.Pattern{Kind: k}
	r := float64(m.budgetL) / m.budgetW.Seconds()
	switch k {
	case sim.PatternSteady, sim.PatternPoisson:
		p.Rate = r
	case sim.PatternOnOff:
		p.Rate, p.On, p.Off = 3*r, 2*time.Second, 3*time.Second
	case sim.PatternRamp:
		p.Rate, p.To, p.Ramp = 0, 3*r, 10*time.Second
	case sim.PatternEdge:
		p.Size, p.Window, p.Gap = m.budgetL, m.budgetW, m.budgetW/100
	}
	return p
}

// edgeAttack is the window-edge attack preset: one client, "mallory",
// sending bursts of L just before and at every other boundary of W.
func (m *labModel) edgeAttack() []sim.Client {
	return []sim.Client{{Name: "mallory", Pattern: m.defaultPattern(sim.PatternEdge), Weight: 1}}
}

// newClientName returns the first unused name "client-N".
func newClientName(cs []sim.Client) string {
	for n := len(cs) + 1; ; n++ {
		name := fmt.Sprintf("client-%d", n)
		used := false
		for _, c := range cs {
			used = used || c.Name == name
		}
		if !used {
			return name
		}
	}
}
