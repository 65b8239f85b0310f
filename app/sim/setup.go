package sim

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// MaxLanes is the most lanes a lab holds.
const MaxLanes = 6

// MaxClients is the most named clients a setup holds (a trace may bring
// more).
const MaxClients = 16

// MaxNameLen is the longest client or tier name, in bytes (names are ASCII
// words): a name is a label in menus and tables, not a key.
const MaxNameLen = 32

// MaxBurst is the most requests one Fire sends.
const MaxBurst = 1000

// MaxManual is the most manual requests a run remembers (they are replayed
// by the scrubber); Fire beyond it returns an error until Reset.
const MaxManual = 100000

// Setup is everything that determines a run: lanes, clients and their
// traffic, the seed, the speed, the built-in trace, and the worst-case
// window. It round-trips through a URL (Values, DecodeSetup).
type Setup struct {
	Lanes   []LaneSpec
	Clients []Client
	Seed    uint64
	Speed   float64
	// Trace names a built-in trace replayed with the clients' traffic ("" for
	// none; "nasa" for the NASA 1995 trace). The UI loads it and passes it
	// to New; a user's own file is not part of the link.
	Trace string
	// Worst is the window length W of the worst-case figure.
	Worst time.Duration
	// Tiers holds each tier's multiple of a lane's budget (see SetTier),
	// so that a lane added later gets the tier, even with no lane left
	// that shows it. A tier only the lanes name (a link before this field)
	// has its multiple read from them (see New). In a link: tier=pro,5.
	Tiers map[string]float64
	// Focus is the client whose state the charts sample, "" for the first
	// client (or the trace's first). In a link: focus=bob.
	Focus string
}

// MinWorst and MaxWorst bound the worst-case figure's window W: the same
// range as the "Same budget" window.
const (
	MinWorst = time.Millisecond
	MaxWorst = 24 * time.Hour
)

func checkWorst(w time.Duration) error {
	if w < MinWorst || w > MaxWorst {
		return fmt.Errorf("window %v is out of range; want %v to %v", w, MinWorst, MaxWorst)
	}
	return nil
}

// DefaultBudget is the default lanes' budget: 10 requests per second.
const (
	DefaultLimit  = 10
	DefaultWindow = time.Second
)

// DefaultSetup returns the lab's opening setup: fixed window, sliding
// window log and token bucket on the same budget (10 per second), one client
// "alice" sending 8 requests per second (Poisson), seed 1, speed 1×, worst
// case over 1 s.
func DefaultSetup() Setup {
	return Setup{
		Lanes:   DefaultLanes(),
		Clients: DefaultClients(),
		Seed:    1,
		Speed:   1,
		Worst:   DefaultWindow,
	}
}

// DefaultLanes returns the default lanes (see DefaultSetup).
func DefaultLanes() []LaneSpec {
	var ls []LaneSpec
	for _, k := range []limiter.Kind{limiter.KindFixedWindow, limiter.KindSlidingWindowLog, limiter.KindTokenBucket} {
		c, _ := SameBudget(k, DefaultLimit, DefaultWindow)
		ls = append(ls, LaneSpec{Config: c})
	}
	return ls
}

// DefaultClients returns the default clients (see DefaultSetup).
func DefaultClients() []Client {
	return []Client{{Name: "alice", Pattern: Pattern{Kind: PatternPoisson, Rate: 8}, Weight: 1}}
}

// Validate returns the first thing wrong with s, naming the part.
func (s Setup) Validate() error {
	if len(s.Lanes) > MaxLanes {
		return fmt.Errorf("lanes: %d lanes; want at most %d", len(s.Lanes), MaxLanes)
	}
	for i, l := range s.Lanes {
		if err := l.validate(); err != nil {
			return fmt.Errorf("lane %d: %w", i+1, err)
		}
	}
	if len(s.Clients) > MaxClients {
		return fmt.Errorf("clients: %d clients; want at most %d", len(s.Clients), MaxClients)
	}
	seen := map[string]bool{}
	for i, c := range s.Clients {
		if err := c.validateAt(i, seen); err != nil {
			return err
		}
	}
	if err := checkSpeed(s.Speed); err != nil {
		return fmt.Errorf("speed: %w", err)
	}
	if err := checkWorst(s.Worst); err != nil {
		return fmt.Errorf("worst: %w", err)
	}
	for _, name := range slices.Sorted(maps.Keys(s.Tiers)) {
		if err := checkTierName(name); err != nil {
			return fmt.Errorf("tier: %w", err)
		}
		if f := s.Tiers[name]; !(f > 0 && f <= MaxTierFactor) {
			return fmt.Errorf("tier %s: multiple %g is out of range; want more than 0 and at most %d", name, f, MaxTierFactor)
		}
	}
	return nil
}

// validateAt checks client c, the (i+1)th of a setup whose earlier clients'
// names are in seen, and adds its name there.
func (c Client) validateAt(i int, seen map[string]bool) error {
	if c.Name == "" {
		return fmt.Errorf("client %d: name is empty; want a name", i+1)
	}
	if err := c.checkFields(); err != nil {
		return fmt.Errorf("client %d (%s): %w", i+1, c.Name, err)
	}
	if !isWord(c.Name) {
		return fmt.Errorf("client %d: name %q is not a word; want letters, digits, '-' or '_'", i+1, c.Name)
	}
	if len(c.Name) > MaxNameLen {
		return fmt.Errorf("client %d: name is %d characters long; want at most %d", i+1, len(c.Name), MaxNameLen)
	}
	if c.Tier != "" && !isWord(c.Tier) {
		return fmt.Errorf("client %d: tier %q is not a word; want letters, digits, '-' or '_'", i+1, c.Tier)
	}
	if len(c.Tier) > MaxNameLen {
		return fmt.Errorf("client %d: tier is %d characters long; want at most %d", i+1, len(c.Tier), MaxNameLen)
	}
	if seen[c.Name] {
		return fmt.Errorf("client %d: name %q is used twice; want distinct names", i+1, c.Name)
	}
	seen[c.Name] = true
	return nil
}

// ClientNames returns the clients' names, in order.
func (s Setup) ClientNames() []string {
	names := make([]string, len(s.Clients))
	for i, c := range s.Clients {
		names[i] = c.Name
	}
	return names
}

func (s Setup) clone() Setup {
	s.Lanes = append([]LaneSpec(nil), s.Lanes...)
	for i := range s.Lanes {
		s.Lanes[i] = s.Lanes[i].clone()
	}
	s.Clients = append([]Client(nil), s.Clients...)
	s.Tiers = maps.Clone(s.Tiers)
	return s
}
