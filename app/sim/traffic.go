package sim

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// Instant is a point on the simulated clock: the time since the simulation
// began (instant 0), as in package limiter.
type Instant = limiter.Instant

// never is the instant of an event that does not exist.
const never = Instant(math.MaxInt64)

// Event is one request: n units for one client at one instant.
type Event struct {
	At     Instant
	Client string
	N      int
}

// PatternKind names a traffic pattern.
type PatternKind string

// The traffic patterns.
const (
	// PatternNone sends nothing automatically (the client only clicks).
	PatternNone PatternKind = "none"
	// PatternSteady sends Rate requests per second, evenly spaced, the first
	// at instant 0.
	PatternSteady PatternKind = "steady"
	// PatternPoisson sends Rate requests per second on average, with
	// exponential gaps drawn from a seeded PCG generator.
	PatternPoisson PatternKind = "poisson"
	// PatternOnOff sends Rate requests per second, evenly spaced, for On,
	// then nothing for Off, and again.
	PatternOnOff PatternKind = "onoff"
	// PatternRamp sends a rate that grows (or falls) linearly from Rate to
	// To requests per second over Ramp, then stays at To.
	PatternRamp PatternKind = "ramp"
	// PatternEdge is the window-edge attack: a burst of Size requests Gap
	// before a window boundary and Size more at the boundary, around every
	// other boundary (W, 3W, 5W, …), so each pair straddles two aligned
	// windows of length Window.
	PatternEdge PatternKind = "edge"
)

// PatternKinds lists the patterns in the order the UI offers them.
var PatternKinds = []PatternKind{PatternNone, PatternSteady, PatternPoisson, PatternOnOff, PatternRamp, PatternEdge}

// MaxRate is the highest rate, in requests per second, one client may send
// (after its weight), so that one frame at 100× cannot produce millions of
// events.
const MaxRate = 10000

// Pattern is one client's automatic traffic. Only the fields of Kind are
// read. Every generated request is of 1 unit.
type Pattern struct {
	Kind PatternKind
	// Rate is in requests per second: steady, Poisson, on/off (while on),
	// ramp (at the start).
	Rate float64
	// To is the ramp's final rate in requests per second, reached after Ramp.
	To   float64
	Ramp time.Duration
	// On and Off are the on/off pattern's phases.
	On, Off time.Duration
	// Size is the window-edge attack's burst size, Window the window length
	// it targets and Gap how long before each boundary the first burst lands.
	Size   int
	Window time.Duration
	Gap    time.Duration
}

// Client is one named source of requests with its own pattern, weight and
// tier.
type Client struct {
	Name    string
	Pattern Pattern
	// Weight multiplies the pattern's rates (and the edge attack's burst
	// size, rounded); 0 means 1.
	Weight float64
	// Tier selects the lane's LaneSpec.Tiers entry for this client; "" or an
	// unknown tier means the lane's Config.
	Tier string
}

func (c Client) weight() float64 {
	if c.Weight == 0 {
		return 1
	}
	return c.Weight
}

// validate returns an error naming the client and the field out of range.
func (c Client) validate() error {
	if c.Name == "" {
		return fmt.Errorf("client name is empty; want a name")
	}
	if err := c.checkFields(); err != nil {
		return fmt.Errorf("client %s: %w", c.Name, err)
	}
	return nil
}

// checkFields returns an error naming the field out of range (the caller
// names the client).
func (c Client) checkFields() error {
	w := c.weight()
	if !(w > 0) || math.IsInf(w, 0) || w > MaxRate {
		return fmt.Errorf("weight %g is out of range; want > 0 and <= %d", c.Weight, MaxRate)
	}
	p := c.Pattern
	switch p.Kind {
	case PatternNone, "":
		return nil
	case PatternSteady, PatternPoisson:
		return checkRate("rate", p.Rate, w, false)
	case PatternOnOff:
		return p.checkOnOff(w)
	case PatternRamp:
		return p.checkRamp(w)
	case PatternEdge:
		return p.checkEdge(w)
	}
	return fmt.Errorf("pattern %q is unknown; want one of %v", string(p.Kind), PatternKinds)
}

// checkRate checks a rate r (requests/s) of a client of weight w.
func checkRate(name string, r, w float64, zeroOK bool) error {
	if math.IsNaN(r) || r < 0 || (!zeroOK && r == 0) || r*w > MaxRate {
		want := "> 0"
		if zeroOK {
			want = ">= 0"
		}
		return fmt.Errorf("%s %g/s is out of range; want %s and, times weight %g, <= %d", name, r, want, w, MaxRate)
	}
	return nil
}

// checkPhase checks a phase or window: at least 1 ms, since a generator
// steps through them one by one, and nanosecond phases would make it step
// forever.
func checkPhase(name string, d time.Duration) error {
	if d < time.Millisecond {
		return fmt.Errorf("%s %v is below 1ms; want >= 1ms", name, d)
	}
	return nil
}

func (p Pattern) checkOnOff(w float64) error {
	if err := checkRate("rate", p.Rate, w, false); err != nil {
		return err
	}
	if err := checkPhase("on", p.On); err != nil {
		return err
	}
	if p.Off < 0 {
		return fmt.Errorf("off %v is negative; want >= 0", p.Off)
	}
	return nil
}

func (p Pattern) checkRamp(w float64) error {
	if err := checkRate("rate", p.Rate, w, true); err != nil {
		return err
	}
	if err := checkRate("to", p.To, w, true); err != nil {
		return err
	}
	if p.Rate == 0 && p.To == 0 {
		return fmt.Errorf("ramp from 0/s to 0/s sends nothing; want a rate > 0 at one end")
	}
	return checkPhase("ramp", p.Ramp)
}

func (p Pattern) checkEdge(w float64) error {
	k := int(math.Round(float64(p.Size) * w))
	if p.Size < 1 || k < 1 || k > MaxRate {
		return fmt.Errorf("burst size %d (×%g) is out of range; want 1 to %d", p.Size, w, MaxRate)
	}
	if err := checkPhase("window", p.Window); err != nil {
		return err
	}
	if p.Gap <= 0 || p.Gap >= p.Window {
		return fmt.Errorf("gap %v is out of range; want > 0 and < window %v", p.Gap, p.Window)
	}
	return nil
}

// Generator emits one client's automatic requests in time order,
// deterministically from its pattern and the seed. It computes each instant
// from the event's index (or, for Poisson, from the seeded generator), so no
// rounding error accumulates.
type Generator struct {
	client string
	p      Pattern
	w      float64
	i      int64 // index of the next event
	next   Instant
	rng    *rand.Rand // Poisson only
	edge   int        // edge: burst size after weight
	perOn  int64      // on/off: events per on phase
}

// NewGenerator returns the generator of c's pattern with the given seed. The
// Poisson stream depends on the seed and on the client's name (not its
// position), so reordering clients changes nothing.
func NewGenerator(c Client, seed uint64) (*Generator, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	g := &Generator{client: c.Name, p: c.Pattern, w: c.weight()}
	switch g.p.Kind {
	case PatternPoisson:
		h := fnv.New64a()
		h.Write([]byte(c.Name))
		g.rng = rand.New(rand.NewPCG(seed, h.Sum64()))
	case PatternOnOff:
		// Events per on phase: those with k × interval < On.
		r := g.p.Rate * g.w
		g.perOn = int64(math.Ceil(g.p.On.Seconds() * r))
		for g.perOn > 0 && nsPer(g.perOn-1, r) >= g.p.On {
			g.perOn--
		}
		for nsPer(g.perOn, r) < g.p.On {
			g.perOn++
		}
	case PatternEdge:
		g.edge = int(math.Round(float64(g.p.Size) * g.w))
	}
	g.next = g.at(0)
	return g, nil
}

// Peek returns the next event without consuming it, and false when the
// pattern sends nothing more.
func (g *Generator) Peek() (Event, bool) {
	if g.next == never {
		return Event{}, false
	}
	return Event{At: g.next, Client: g.client, N: 1}, true
}

// Next appends to dst every event at or before until not yet emitted, in
// time order, and returns the extended slice.
func (g *Generator) Next(until Instant, dst []Event) []Event {
	for g.next <= until && g.next != never {
		dst = append(dst, Event{At: g.next, Client: g.client, N: 1})
		g.advance()
	}
	return dst
}

func (g *Generator) advance() {
	g.i++
	g.next = g.at(g.i)
}

// nsPer returns i events' worth of time at r events per second, rounded to
// the nearest nanosecond. (One multiplication and one division: no fused
// multiply-add can make wasm and amd64 disagree.)
func nsPer(i int64, r float64) Instant {
	return Instant(math.Round(float64(i) * 1e9 / r))
}

// at returns the instant of event i (for Poisson: of the next event, given
// the previous one).
func (g *Generator) at(i int64) Instant {
	p := g.p
	switch p.Kind {
	case PatternSteady:
		return nsPer(i, p.Rate*g.w)
	case PatternPoisson:
		// The first request, too, comes after an exponential gap.
		prev := Instant(0)
		if i > 0 {
			prev = g.next
		}
		gap := Instant(math.Round(g.rng.ExpFloat64() * 1e9 / (p.Rate * g.w)))
		if prev > never-gap {
			return never
		}
		return prev + gap
	case PatternOnOff:
		cycle, k := i/g.perOn, i%g.perOn
		return Instant(cycle)*(p.On+p.Off) + nsPer(k, p.Rate*g.w)
	case PatternRamp:
		return g.rampAt(i)
	case PatternEdge:
		pair, k := i/int64(2*g.edge), i%int64(2*g.edge)
		boundary := Instant(2*pair+1) * p.Window
		if k < int64(g.edge) {
			return boundary - p.Gap
		}
		return boundary
	}
	return never
}

// rampAt returns the instant at which the ramp's cumulative count
// N(t) = a·t + (b−a)·t²/(2D) reaches i (event i is sent then), or, after
// the ramp, D + (i − N(D))/b.
func (g *Generator) rampAt(i int64) Instant {
	a, b := g.p.Rate*g.w, g.p.To*g.w
	d := g.p.Ramp.Seconds()
	x := float64(i)
	total := float64(float64(a+b) * d / 2) // N(D)
	if x <= total {
		var t float64
		if a == b {
			t = x / a
		} else {
			k := float64((b - a) / d) // acceleration, requests/s²
			// t = (−a + √(a² + 2kx)) / k, with explicit conversions so no
			// operation is fused.
			t = float64(-a+math.Sqrt(float64(a*a)+float64(2*k*x))) / k
		}
		return Instant(math.Round(t * 1e9))
	}
	if b == 0 {
		return never
	}
	return g.p.Ramp + Instant(math.Round(float64(x-total)*1e9/b))
}

// Source merges the traffic of several clients, a recorded trace and manual
// events into one time-ordered stream. At equal instants, generated events
// come first (in client order), then the trace's, then manual events (in the
// order they were fired: a click at now is decided after everything already
// due at now).
type Source struct {
	gens   []*Generator
	trace  []Event
	ti     int
	manual []Event
	mi     int
}

// NewSource returns the merged stream of clients' patterns (seeded with
// seed), the trace's events (may be nil) and manual events (non-decreasing
// instants).
func NewSource(clients []Client, seed uint64, trace *Trace, manual []Event) (*Source, error) {
	s := &Source{manual: manual}
	if trace != nil {
		s.trace = trace.Events
	}
	for _, c := range clients {
		if c.Pattern.Kind == PatternNone || c.Pattern.Kind == "" {
			if err := c.validate(); err != nil {
				return nil, err
			}
			continue
		}
		g, err := NewGenerator(c, seed)
		if err != nil {
			return nil, err
		}
		s.gens = append(s.gens, g)
	}
	return s, nil
}

// Peek returns the next event without consuming it, and false when there is
// none.
func (s *Source) Peek() (Event, bool) {
	src, gi := s.head()
	switch src {
	case 0:
		e, _ := s.gens[gi].Peek()
		return e, true
	case 1:
		return s.trace[s.ti], true
	case 2:
		return s.manual[s.mi], true
	}
	return Event{}, false
}

// head returns which source holds the next event: 0 a generator (index gi),
// 1 the trace, 2 manual events, -1 none. Ties go to the earlier source.
func (s *Source) head() (src, gi int) {
	src = -1
	var best Instant
	for i, g := range s.gens {
		if g.next != never && (src == -1 || g.next < best) {
			best, src, gi = g.next, 0, i
		}
	}
	if s.ti < len(s.trace) && (src == -1 || s.trace[s.ti].At < best) {
		best, src = s.trace[s.ti].At, 1
	}
	if s.mi < len(s.manual) && (src == -1 || s.manual[s.mi].At < best) {
		src = 2
	}
	return src, gi
}

// pop consumes and returns the next event.
func (s *Source) pop() (Event, bool) {
	src, gi := s.head()
	switch src {
	case 0:
		g := s.gens[gi]
		e, _ := g.Peek()
		g.advance()
		return e, true
	case 1:
		s.ti++
		return s.trace[s.ti-1], true
	case 2:
		s.mi++
		return s.manual[s.mi-1], true
	}
	return Event{}, false
}

// Next appends every event at or before until not yet emitted, in order, and
// returns the extended slice.
func (s *Source) Next(until Instant, dst []Event) []Event {
	for {
		e, ok := s.Peek()
		if !ok || e.At > until {
			return dst
		}
		e, _ = s.pop()
		dst = append(dst, e)
	}
}

// NextN is Next that appends at most n events: the next ones at or before
// until, in order. Events at one instant beyond the n-th are left for
// later, so that taking the first few requests of traffic with large
// bursts (16 clients sending 10,000 requests at one instant) costs only
// those few.
func (s *Source) NextN(until Instant, n int, dst []Event) []Event {
	for range n {
		e, ok := s.Peek()
		if !ok || e.At > until {
			break
		}
		e, _ = s.pop()
		dst = append(dst, e)
	}
	return dst
}

// NoisyNeighbour returns n clients ("c1" … "cn") sending Poisson traffic at
// rate requests per second each, except "c1", whose weight is 8: it sends 8×
// what each of the others sends.
func NoisyNeighbour(n int, rate float64) []Client {
	cs := make([]Client, n)
	for i := range cs {
		cs[i] = Client{Name: fmt.Sprintf("c%d", i+1), Pattern: Pattern{Kind: PatternPoisson, Rate: rate}, Weight: 1}
	}
	if n > 0 {
		cs[0].Weight = 8
	}
	return cs
}
