package explain

import (
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
)

// verdictText is a decision in words: "allowed", "allowed, waits 0.50 s"
// (a leaky bucket's queue) or "denied".
func VerdictText(rec sim.Record) string {
	if !rec.Allowed {
		return "denied"
	}
	if rec.Delay > 0 {
		return "allowed, waits " + units.TwoDecimals(rec.Delay)
	}
	return "allowed"
}

func PatternName(k sim.PatternKind) string {
	switch k {
	case sim.PatternNone:
		return "clicks only"
	case sim.PatternSteady:
		return "steady"
	case sim.PatternPoisson:
		return "Poisson (seeded)"
	case sim.PatternOnOff:
		return "on/off bursts"
	case sim.PatternRamp:
		return "ramp"
	case sim.PatternEdge:
		return "window-edge attack"
	}
	return string(k)
}
