package lab

import (
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/limiter"
)

// Gallery is the lab's lanes, one per strategy on the same budget (10
// requests per second), fed the default clients with seed 1 and paused at
// t = 5 s.
func Gallery() app.UI {
	var lanes []sim.LaneSpec
	for _, k := range limiter.Kinds {
		c, _ := sim.SameBudget(k, 10, time.Second)
		lanes = append(lanes, sim.LaneSpec{Config: c})
	}
	s := sim.DefaultSetup()
	s.Lanes, s.Seed = lanes, 1
	m := newLabModel()
	m.unlinked = true
	if l, err := sim.New(s, nil, labOptions); err == nil {
		m.lab = l
	}
	m.lab.Clock().Pause()
	m.setErr("clock", m.lab.AdvanceTo(5*time.Second))
	return &labLanes{M: m}
}
