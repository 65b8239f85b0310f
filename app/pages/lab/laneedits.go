package lab

import (
	"strconv"
	"strings"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

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

// addLane appends a lane, a preset's or kind on the same budget, and
// brings it into view.
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
	if err == nil {
		m.reveal = len(m.lab.Lanes()) - 1
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
