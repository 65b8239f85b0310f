package main

import (
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
)

// TestLabLanesWindowEdge renders the lanes after the window-edge attack on
// the default lanes (fixed window, sliding window log, token bucket, 10 per
// 1 s) for 10 s: the counts and worst cases app/sim's tests established.
func TestLabLanesWindowEdge(t *testing.T) {
	m := newLabModel()
	if !m.setClients("clients", m.edgeAttack()) {
		t.Fatal(m.errs)
	}
	m.lab.Clock().Pause()
	if err := m.lab.Step(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	html := mount(t, &labLanes{M: m})
	wantTexts(t, html, map[string]string{
		"lab-clock":      "t = 10.000 s",
		"lane-0-allowed": "100",
		"lane-0-denied":  "0",
		"lane-0-worst":   "fixed window: 20 in 1 s at 0.99–1.99 s",
		"lane-1-allowed": "50",
		"lane-1-denied":  "50",
		"lane-1-worst":   "sliding window log: 10 in 1 s at 0.99–1.99 s",
		"lane-2-allowed": "50",
		"lane-2-worst":   "token bucket: 10 in 1 s at 0.99–1.99 s",
	})
}

// TestLabModelBadLink: a tampered part falls back alone and is reported.
func TestLabModelBadLink(t *testing.T) {
	m := newLabModel()
	m.loadSetup(map[string][]string{"lane": {"token_bucket,-5,10"}, "seed": {"9"}})
	if len(m.linkErrs) != 1 || m.lab.Setup().Seed != 9 || len(m.lab.Lanes()) != len(sim.DefaultLanes()) {
		t.Fatalf("link errors %q, seed %d, %d lanes", m.linkErrs, m.lab.Setup().Seed, len(m.lab.Lanes()))
	}
}

// TestLabLaneParamKeepsLastGood: a value the limiter refuses keeps the lane
// and shows the limiter's message next to the field.
func TestLabLaneParamKeepsLastGood(t *testing.T) {
	m := newLabModel()
	before := m.lab.Setup().Lanes[0]
	m.setLaneParam(0, 1, -1) // window -1 s
	if got := m.lab.Setup().Lanes[0]; got.Config != before.Config {
		t.Errorf("lane changed to %v", got.Config)
	}
	if m.errs["lane-0-p2"] == "" {
		t.Error("no message next to the window field")
	}
}
