package lab

import (
	"net/url"

	"github.com/ratelab/ratelab/app/sim"
)

// A lab link may open paused at an instant: paused=1&t=12.345 (t in
// seconds, the unit of the lab's clock; see sim.ClockLink). The page
// replays every request up to t in parts, as "Run to end" does, and stays
// paused there; a bad t or paused is said under the clock and the rest of
// the link is kept.

// openClock reads the link q's paused and t once its setup is loaded:
// paused at once (so that nothing moves while a trace arrives), and at t
// now, or, with waitTrace, when the link's trace has arrived (openAt).
func (m *labModel) openClock(q url.Values, waitTrace bool) {
	c, err := sim.ParseClockLink(q)
	m.setErr("clock", err)
	if c.Paused {
		m.lab.Clock().Pause()
	}
	m.opening = &c
	if !waitTrace {
		m.openAt()
	}
}

// openAt moves the clock to the instant the link asked for (see
// openClock), once.
func (m *labModel) openAt() {
	c := m.opening
	if c == nil {
		return
	}
	m.opening = nil
	if c.At <= m.lab.Now() {
		m.changed()
		return
	}
	m.lab.Clock().Pause()
	m.toEnd = &runToEnd{from: m.lab.Now(), to: c.At, open: c}
	m.runStep()
}

// clockLink is the clock's part of the lab's link: where a paused clock
// stands (the scrubbed instant when scrubbed), or the instant a link being
// opened asked for; nothing while the clock runs.
func (m *labModel) clockLink() sim.ClockLink {
	switch {
	case m.opening != nil:
		return *m.opening
	case m.toEnd != nil && m.toEnd.open != nil:
		return *m.toEnd.open
	case m.toEnd == nil && (m.lab.Clock().Paused() || m.scrub != nil):
		return sim.ClockLink{Paused: true, At: m.shown().Now()}
	}
	return sim.ClockLink{}
}
