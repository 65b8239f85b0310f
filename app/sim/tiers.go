package sim

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/ratelab/ratelab/limiter"
)

// retier gives spec the tiers names, each at its multiple (tierFactor) of
// spec.Config.
func (l *Lab) retier(spec LaneSpec, names []string) (LaneSpec, error) {
	if len(names) == 0 {
		return spec, nil
	}
	spec.Tiers = make(map[string]limiter.Config, len(names))
	for _, name := range names {
		c, err := ScaleConfig(spec.Config, l.tierFactor(name))
		if err != nil {
			return spec, fmt.Errorf("tier %s: %w", name, err)
		}
		spec.Tiers[name] = c
	}
	return spec, nil
}

// tierFactor is tier name's multiple: the one SetTier gave it, or else the
// one its lanes show (a tier that came with a link), read from the most
// exact: a bucket's rate keeps any multiple, while a count (a window's
// limit, a burst) was rounded to a whole number (10 × 0.25 became 3).
func (l *Lab) tierFactor(name string) float64 {
	if f, ok := l.setup.Tiers[name]; ok {
		return f
	}
	best, rank := 1.0, 0
	for _, s := range l.setup.Lanes {
		t, ok := s.Tiers[name]
		if !ok {
			continue
		}
		r := 1 // a count
		switch k := s.Config.Kind; {
		case (k == limiter.KindTokenBucket || k == limiter.KindGCRA) && s.Config.Rate > 0 && !math.IsInf(s.Config.Rate, 0):
			r = 3 // a rate, exact
		case k == limiter.KindLeakyBucket:
			r = 2 // a leak interval, to the ns
		}
		if r > rank {
			best, rank = FactorOf(s.Config, t), r
		}
	}
	return best
}

// SetTier gives every lane a tier named name whose budget is factor times
// the lane's own Config (see ScaleConfig), and replays the run so far.
// Clients whose Tier is name then get it. factor 0 removes the tier. The lab
// keeps the multiple: a lane added later gets the tier, and a lane whose
// Config changes (SetLane, SetSameBudget) gets it again at that multiple.
func (l *Lab) SetTier(name string, factor float64) error {
	if err := checkTierName(name); err != nil {
		return err
	}
	lanes := l.setup.clone().Lanes
	for i := range lanes {
		if factor == 0 {
			delete(lanes[i].Tiers, name)
			continue
		}
		c, err := ScaleConfig(lanes[i].Config, factor)
		if err != nil {
			return fmt.Errorf("lane %d: %w", i+1, err)
		}
		if lanes[i].Tiers == nil {
			lanes[i].Tiers = map[string]limiter.Config{}
		}
		lanes[i].Tiers[name] = c
	}
	l.setup.Lanes = lanes
	if err := l.rebuild(); err != nil {
		return err
	}
	if l.setup.Tiers == nil {
		l.setup.Tiers = map[string]float64{}
	}
	if factor == 0 {
		delete(l.setup.Tiers, name)
	} else {
		l.setup.Tiers[name] = factor
	}
	return nil
}

// TierFactor returns tier name's multiple of a lane's budget, when the
// setup keeps one (see Setup.Tiers).
func (l *Lab) TierFactor(name string) (float64, bool) {
	f, ok := l.setup.Tiers[name]
	return f, ok
}

// TierNames returns the names of the tiers, sorted: those SetTier set (kept
// with no lane left) and those any lane defines.
func (l *Lab) TierNames() []string {
	seen := map[string]bool{}
	var names []string
	for name := range l.setup.Tiers {
		seen[name] = true
		names = append(names, name)
	}
	for _, s := range l.setup.Lanes {
		for name := range s.Tiers {
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	return names
}

// checkTierName reports what is wrong with a tier's name, if anything.
func checkTierName(name string) error {
	switch name {
	case "":
		return errors.New("tier name is empty; want a word of letters, digits, '-' or '_'")
	case "default":
		return errors.New(`tier name "default" reads as no tier (a client's own lane budget); want another word`)
	}
	if !isWord(name) {
		return fmt.Errorf("tier name %q is not a word; want letters, digits, '-' or '_'", name)
	}
	if len(name) > MaxNameLen {
		return fmt.Errorf("tier name is %d characters long; want at most %d", len(name), MaxNameLen)
	}
	return nil
}
