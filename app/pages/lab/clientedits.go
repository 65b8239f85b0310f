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
)

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
