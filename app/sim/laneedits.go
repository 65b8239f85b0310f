package sim

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// rebuild replays the run so far (the same number of requests, then the
// clock's instant) into fresh lanes, keeping the clock.
func (l *Lab) rebuild() error {
	now, n := l.clock.now, l.processed
	if err := l.restart(); err != nil {
		return err
	}
	l.horizon = now
	for range n {
		e, ok := l.src.pop()
		if !ok {
			break
		}
		if err := l.process(e); err != nil {
			return err
		}
	}
	for _, ln := range l.lanes {
		ln.roll(now, l.focus)
	}
	return nil
}

// AddLane appends a lane, replayed so far so that it has seen exactly the
// requests the other lanes have. A spec with no tiers gets every tier of
// the lab, at the tier's multiple of its own Config (see SetTier).
func (l *Lab) AddLane(spec LaneSpec) error {
	if len(l.setup.Lanes) >= MaxLanes {
		return fmt.Errorf("lanes: already %d lanes; want at most %d", len(l.setup.Lanes), MaxLanes)
	}
	spec = spec.clone()
	if spec.Tiers == nil {
		var err error
		if spec, err = l.retier(spec, l.TierNames()); err != nil {
			return fmt.Errorf("lane %d: %w", len(l.setup.Lanes)+1, err)
		}
	}
	if err := spec.validate(); err != nil {
		return fmt.Errorf("lane %d: %w", len(l.setup.Lanes)+1, err)
	}
	l.setup.Lanes = append(l.setup.Lanes, spec)
	return l.rebuild()
}

// SetLane replaces lane i's strategy and replays the run so far through it,
// as if it had had these parameters from the start (every lane keeps seeing
// the same requests). When the Config changes and the tiers do not, each
// tier is set again at its multiple of the new Config, so that a tier keeps
// the lane's strategy and its share of the budget.
func (l *Lab) SetLane(i int, spec LaneSpec) error {
	if err := l.checkLane(i); err != nil {
		return err
	}
	old := l.setup.Lanes[i]
	spec = spec.clone()
	if spec.Config != old.Config && maps.Equal(spec.Tiers, old.Tiers) {
		var err error
		if spec, err = l.retier(spec, slices.Sorted(maps.Keys(old.Tiers))); err != nil {
			return fmt.Errorf("lane %d: %w", i+1, err)
		}
	}
	if err := spec.validate(); err != nil {
		return fmt.Errorf("lane %d: %w", i+1, err)
	}
	l.setup.Lanes[i] = spec
	return l.rebuild()
}

// DuplicateLane inserts a copy of lane i after it.
func (l *Lab) DuplicateLane(i int) error {
	if err := l.checkLane(i); err != nil {
		return err
	}
	if len(l.setup.Lanes) >= MaxLanes {
		return fmt.Errorf("lanes: already %d lanes; want at most %d", len(l.setup.Lanes), MaxLanes)
	}
	ls := l.setup.Lanes
	ls = append(ls[:i+1], append([]LaneSpec{ls[i].clone()}, ls[i+1:]...)...)
	l.setup.Lanes = ls
	return l.rebuild()
}

// RemoveLane removes lane i.
func (l *Lab) RemoveLane(i int) error {
	if err := l.checkLane(i); err != nil {
		return err
	}
	l.setup.Lanes = append(l.setup.Lanes[:i], l.setup.Lanes[i+1:]...)
	l.lanes = append(l.lanes[:i], l.lanes[i+1:]...)
	return nil
}

// MoveLane moves lane from to position to (both 0-based), shifting the
// lanes in between.
func (l *Lab) MoveLane(from, to int) error {
	if err := l.checkLane(from); err != nil {
		return err
	}
	if err := l.checkLane(to); err != nil {
		return err
	}
	spec, ln := l.setup.Lanes[from], l.lanes[from]
	l.setup.Lanes = append(l.setup.Lanes[:from], l.setup.Lanes[from+1:]...)
	l.lanes = append(l.lanes[:from], l.lanes[from+1:]...)
	l.setup.Lanes = append(l.setup.Lanes[:to], append([]LaneSpec{spec}, l.setup.Lanes[to:]...)...)
	l.lanes = append(l.lanes[:to], append([]*Lane{ln}, l.lanes[to:]...)...)
	return nil
}

func (l *Lab) checkLane(i int) error {
	if i < 0 || i >= len(l.lanes) {
		return fmt.Errorf("lane %d does not exist; want 1 to %d", i+1, len(l.lanes))
	}
	return nil
}

// SetSameBudget sets every lane, keeping its kind, to the budget "limit
// requests per window" (see SameBudget), sets the worst-case window to
// window, and replays the run so far. Each tier is set again at its multiple
// of the new budget.
func (l *Lab) SetSameBudget(limit int, window time.Duration) error {
	lanes := l.setup.clone().Lanes
	for i := range lanes {
		c, err := SameBudget(lanes[i].Config.Kind, limit, window)
		if err != nil {
			return err
		}
		lanes[i].Config = c
		if lanes[i], err = l.retier(lanes[i], slices.Sorted(maps.Keys(lanes[i].Tiers))); err != nil {
			return fmt.Errorf("lane %d: %w", i+1, err)
		}
	}
	l.setup.Lanes, l.setup.Worst = lanes, window
	return l.rebuild()
}
