package playground

import (
	"strconv"

	"github.com/ratelab/ratelab/app/units"
)

// announce is the playground's latest decision for the live region.
func (p *Page) announce() (int, string) {
	e, ok := p.sim.Last()
	if !ok {
		return 0, ""
	}
	msg := "Request " + strconv.Itoa(e.Seq) + " at " + units.FormatClock(e.At) + ": "
	if e.Allowed {
		msg += "allowed, " + units.Remaining(e.Remaining)
	} else {
		msg += "denied, retry after " + units.FormatRetry(e.RetryAfter)
	}
	return e.Seq, msg
}
