package lab

import (
	"time"

	"github.com/ratelab/ratelab/app/sim"
)

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
