package sim

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Options tune a lab's memory; the zero value gives the defaults.
type Options struct {
	// History is the number of decisions each lane remembers; 0 means 512.
	History int
	// ChartBucket is the width of a chart bucket; 0 means 100 ms.
	ChartBucket time.Duration
	// ChartLen is the number of closed chart buckets each lane keeps; 0
	// means 600 (one minute of 100 ms buckets).
	ChartLen int
}

func (o Options) withDefaults() Options {
	if o.History <= 0 {
		o.History = 512
	}
	if o.ChartBucket <= 0 {
		o.ChartBucket = 100 * time.Millisecond
	}
	if o.ChartLen <= 0 {
		o.ChartLen = 600
	}
	return o
}

// Lab runs one stream of requests through up to MaxLanes lanes. All lanes
// receive exactly the same requests at the same instants, in the same order.
// A Lab is used from one goroutine.
type Lab struct {
	setup Setup
	opts  Options
	trace *Trace
	clock *Clock

	lanes     []*Lane
	src       *Source
	manual    []Event
	processed int // events decided so far (each by every lane)

	ids   map[string]int    // client → id, in order of first request
	names []string          // id → client
	tiers map[string]string // client → tier
	focus string
	// horizon is the instant the lab is moving to (charts skip sampling
	// buckets that will be overwritten before it).
	horizon Instant

	// OnDecision, when set, is called for every decision of every lane, in
	// order (lane index, then the record).
	OnDecision func(lane int, r Record)
}

// New returns a lab for s at instant 0, with trace's requests (nil for none)
// merged into the clients' traffic. It returns an error naming the part of s
// that is wrong.
func New(s Setup, trace *Trace, opts Options) (*Lab, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	l := &Lab{setup: s.clone(), opts: opts.withDefaults(), trace: trace, clock: NewClock(), focus: s.Focus}
	l.setup.Focus = "" // l.focus is the focus; Setup fills it in
	l.clock.speed = s.Speed
	// A tier that only lanes name (a link made before Setup.Tiers): its
	// multiple read from them, kept like SetTier's.
	for _, spec := range l.setup.Lanes {
		for name := range spec.Tiers {
			if _, ok := l.setup.Tiers[name]; !ok {
				f := l.tierFactor(name)
				if l.setup.Tiers == nil {
					l.setup.Tiers = map[string]float64{}
				}
				l.setup.Tiers[name] = f
			}
		}
	}
	if err := l.restart(); err != nil {
		return nil, err
	}
	return l, nil
}

// restart rebuilds everything at instant 0, keeping manual events.
func (l *Lab) restart() error {
	l.tiers = map[string]string{}
	for _, c := range l.setup.Clients {
		l.tiers[c.Name] = c.Tier
	}
	l.ids, l.names = map[string]int{}, nil
	if l.focus == "" {
		l.focus = l.firstClient()
	}
	l.lanes = l.lanes[:0]
	for _, spec := range l.setup.Lanes {
		ln, err := newLane(l, spec)
		if err != nil {
			return err
		}
		l.lanes = append(l.lanes, ln)
	}
	src, err := l.newSource()
	if err != nil {
		return err
	}
	l.src, l.processed = src, 0
	return nil
}

func (l *Lab) newSource() (*Source, error) {
	return NewSource(l.setup.Clients, l.setup.Seed, l.trace, l.manual)
}

// Clock returns the lab's clock (for speed and pause; move time with the
// lab's Tick, Step and StepRequest).
func (l *Lab) Clock() *Clock { return l.clock }

// Now returns the lab's current instant.
func (l *Lab) Now() Instant { return l.clock.now }

// Setup returns the lab's current setup, with its lanes and speed.
func (l *Lab) Setup() Setup {
	s := l.setup.clone()
	s.Speed = l.clock.speed
	if l.focus != l.firstClient() {
		s.Focus = l.focus
	}
	return s
}

// firstClient is the default focus: the first client, or the trace's first.
func (l *Lab) firstClient() string {
	if len(l.setup.Clients) > 0 {
		return l.setup.Clients[0].Name
	}
	if l.trace != nil && len(l.trace.Clients) > 0 {
		return l.trace.Clients[0]
	}
	return ""
}

// sends reports whether name is a client of the setup or of the trace.
func (l *Lab) sends(name string) bool {
	return slices.ContainsFunc(l.setup.Clients, func(c Client) bool { return c.Name == name }) ||
		l.trace != nil && slices.Contains(l.trace.Clients, name)
}

// Options returns the lab's options, with defaults filled in.
func (l *Lab) Options() Options { return l.opts }

// Trace returns the trace replayed with the clients' traffic, or nil.
func (l *Lab) Trace() *Trace { return l.trace }

// Lanes returns the lanes, in order. The slice is the lab's: do not modify.
func (l *Lab) Lanes() []*Lane { return l.lanes }

// Clients returns every client that has sent a request, in order of first
// request.
func (l *Lab) Clients() []string { return l.names }

// AllClients returns every client whose state can be drawn: the setup's,
// in order, then the others that have sent (in order of first request),
// then the trace's that have not sent yet (in the trace's order). Each name
// once.
func (l *Lab) AllClients() []string {
	names := l.setup.ClientNames()
	own := len(names) // at most MaxClients: a short search
	for _, n := range l.names {
		if !slices.Contains(names[:own], n) {
			names = append(names, n)
		}
	}
	if l.trace != nil {
		for _, n := range l.trace.Clients {
			if _, sent := l.ids[n]; !sent && !slices.Contains(names[:own], n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// Processed returns the number of requests decided so far.
func (l *Lab) Processed() int { return l.processed }

// Focus returns the client whose state the charts sample.
func (l *Lab) Focus() string { return l.focus }

// SetFocus chooses the client whose state the charts sample, and rebuilds
// the charts by replaying the run so far.
func (l *Lab) SetFocus(client string) error {
	l.focus = client
	return l.rebuild()
}

// AdvanceTo decides every request due at or before t, in order, and moves
// the clock to t (never backwards: an earlier t moves nothing).
func (l *Lab) AdvanceTo(t Instant) error {
	if t < l.clock.now {
		return nil
	}
	l.horizon = t
	for {
		e, ok := l.src.Peek()
		if !ok || e.At > t {
			break
		}
		l.src.pop()
		if err := l.process(e); err != nil {
			return err
		}
	}
	for _, ln := range l.lanes {
		ln.roll(t, l.focus)
	}
	l.clock.now = t
	return nil
}

// MaxTickDecisions bounds the work of one Tick: the requests it decides
// times the lanes. At 100× a client of 10,000 requests/s asks a 250 ms frame
// for 250,000 requests per lane; a frame that decided them all would take
// longer than the frame, and every next frame would ask for as much again.
const MaxTickDecisions = 20000

// Tick counts real elapsed time on the clock (see Clock.Advance) and decides
// the requests that became due, at most MaxTickDecisions decisions in all.
// When more are due, it stops at the last instant it decided in full and
// reports behind: the simulated clock then runs slower than its speed, and
// the page stays responsive. Every request is still decided, in order, by
// later ticks.
func (l *Lab) Tick(real time.Duration) (behind bool, err error) {
	from := l.clock.now
	t := l.clock.Advance(real)
	l.clock.now = from
	budget := max(1, MaxTickDecisions/max(1, len(l.lanes)))
	l.horizon = t
	n, last := 0, from
	for {
		e, ok := l.src.Peek()
		if !ok || e.At > t {
			break
		}
		if n >= budget && e.At > last {
			// Stop between two instants, so that no instant is decided
			// in part.
			t, behind = e.At-1, true
			break
		}
		l.src.pop()
		if err := l.process(e); err != nil {
			return false, err
		}
		n++
		last = e.At
	}
	for _, ln := range l.lanes {
		ln.roll(t, l.focus)
	}
	l.clock.now = t
	return behind, nil
}

// AdvanceToward is AdvanceTo(t) in parts, for a page that must stay
// responsive: each call decides the next requests due at or before t, in
// order, at most maxDecisions decisions in all (requests × lanes; at least
// one request), and moves the clock to the instant of the last one. When
// every request due at or before t is decided, it moves the clock to t and
// reports done. Unlike Tick, it may stop within an instant: the requests
// left there wait for the next call, as after StepRequest, so that an
// instant with more requests than the budget is still decided in parts.
//
// Called until done, with nothing else moving the clock in between, it
// leaves the lab exactly as one AdvanceTo(t) would: the same decisions in
// the same order, the same history, totals, worst case and charts (the
// charts skip and sample buckets for t from the first call, as AdvanceTo
// does). An earlier t than the clock moves nothing and is done.
func (l *Lab) AdvanceToward(t Instant, maxDecisions int) (done bool, err error) {
	if t < l.clock.now {
		return true, nil
	}
	budget := max(1, maxDecisions/max(1, len(l.lanes)))
	l.horizon = t
	for n := 0; ; n++ {
		e, ok := l.src.Peek()
		if !ok || e.At > t {
			break
		}
		if n >= budget {
			// No roll: the lanes' charts already reach the last request
			// decided, and rolling further here would differ from
			// AdvanceTo's single roll to t.
			return false, nil
		}
		l.src.pop()
		if err := l.process(e); err != nil {
			return false, err
		}
		l.clock.now = max(l.clock.now, e.At)
	}
	for _, ln := range l.lanes {
		ln.roll(t, l.focus)
	}
	l.clock.now = t
	return true, nil
}

// TraceEnd is the instant RunTrace runs to: the trace's last request, or
// now when the clock is already past it (or there is no trace).
func (l *Lab) TraceEnd() Instant { return max(l.trace.End(), l.clock.now) }

// Step moves simulated time forward by d (100 ms, say), paused or not.
func (l *Lab) Step(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("step %v is negative; want >= 0", d)
	}
	return l.AdvanceTo(l.clock.now + d)
}

// StepRequest moves the clock to the next request and decides it alone
// (other requests at the same instant wait for the next step). It returns
// false when no request is left.
func (l *Lab) StepRequest() (Event, bool, error) {
	e, ok := l.src.Peek()
	if !ok {
		return Event{}, false, nil
	}
	l.src.pop()
	at := max(e.At, l.clock.now)
	l.horizon = at
	for _, ln := range l.lanes {
		ln.roll(at, l.focus)
	}
	l.clock.now = at
	return e, true, l.process(e)
}

// Fire sends count requests of 1 unit for client at the current instant
// (a click, or Burst ×N), decided after everything already due.
func (l *Lab) Fire(client string, count int) error {
	if client == "" {
		return errors.New("fire: client is empty; want a name")
	}
	if count < 1 || count > MaxBurst {
		return fmt.Errorf("fire: count %d is out of range; want 1 to %d", count, MaxBurst)
	}
	if len(l.manual)+count > MaxManual {
		return fmt.Errorf("fire: more than %d manual requests in this run; reset to send more", MaxManual)
	}
	for range count {
		l.manual = append(l.manual, Event{At: l.clock.now, Client: client, N: 1})
	}
	l.src.manual = l.manual
	return l.AdvanceTo(l.clock.now)
}

// process decides e in every lane.
func (l *Lab) process(e Event) error {
	id, ok := l.ids[e.Client]
	if !ok {
		id = len(l.names)
		l.ids[e.Client] = id
		l.names = append(l.names, e.Client)
	}
	for i, ln := range l.lanes {
		ln.roll(e.At, l.focus)
		r, err := ln.decide(e, id)
		if err != nil {
			return fmt.Errorf("lane %d: %w", i+1, err)
		}
		if l.OnDecision != nil {
			l.OnDecision(i, r)
		}
	}
	l.processed++
	return nil
}

// Reset starts the run over at instant 0: no decisions, no manual requests.
// Speed and pause are kept.
func (l *Lab) Reset() error {
	l.manual = nil
	l.clock.Reset()
	return l.restart()
}

// At returns a new lab rebuilt as this one was at instant t (0 ≤ t ≤ now),
// by replaying the same setup, trace and manual requests from instant 0 up
// to t: limiters never run backwards. Manual requests after t are not in
// the copy, so resuming from it continues from t. The copy is paused.
func (l *Lab) At(t Instant) (*Lab, error) {
	if t < 0 || t > l.clock.now {
		return nil, fmt.Errorf("scrub: instant %v is out of range; want 0 to %v", t, l.clock.now)
	}
	c := &Lab{setup: l.setup.clone(), opts: l.opts, trace: l.trace, clock: NewClock(), focus: l.focus}
	c.clock.speed, c.clock.paused = l.clock.speed, true
	for _, e := range l.manual {
		if e.At > t {
			break
		}
		c.manual = append(c.manual, e)
	}
	if err := c.restart(); err != nil {
		return nil, err
	}
	return c, c.AdvanceTo(t)
}

// EventsOf returns client's requests ("" for every client's) from the start
// of the run up to and including until, in the order the lab decided them.
// They are rebuilt from the lab's own source (the same seed, clients, trace
// and manual requests, as At and the scrubber do), never from the bounded
// history, and only the requests decided so far are included: a request due
// at until that StepRequest has not decided yet is not. until is 0 to Now.
// With these events, a fresh limiter of the client's Config decides exactly
// as every lane did.
func (l *Lab) EventsOf(client string, until Instant) ([]Event, error) {
	if until < 0 || until > l.clock.now {
		return nil, fmt.Errorf("events: instant %v is out of range; want 0 to %v", until, l.clock.now)
	}
	src, err := l.newSource()
	if err != nil {
		return nil, err
	}
	var out []Event
	for range l.processed {
		e, ok := src.pop()
		if !ok || e.At > until {
			break
		}
		if client == "" || e.Client == client {
			out = append(out, e)
		}
	}
	return out, nil
}

// SetTraffic replaces the clients and the seed and starts the run over (the
// past requests would differ).
func (l *Lab) SetTraffic(clients []Client, seed uint64) error {
	s := l.setup.clone()
	s.Clients, s.Seed, s.Speed = append([]Client(nil), clients...), seed, l.clock.speed
	if err := s.Validate(); err != nil {
		return err
	}
	l.setup = s
	if !l.sends(l.focus) { // a client still there stays in focus
		l.focus = ""
	}
	return l.Reset()
}

// SetTrace replaces the replayed trace (nil for none; name is the built-in
// trace's name for the link, "" for a user's file) and starts the run over.
func (l *Lab) SetTrace(name string, t *Trace) error {
	l.setup.Trace, l.trace = name, t
	if !l.sends(l.focus) {
		l.focus = ""
	}
	return l.Reset()
}

// RunTrace decides every request up to the trace's last one, as fast as the
// machine allows (in one go: a page runs it in parts with
// AdvanceToward(TraceEnd(), …)).
func (l *Lab) RunTrace() error { return l.AdvanceTo(l.TraceEnd()) }

// ExportCSV writes the results as CSV, one row per lane and client:
// lane,strategy,client,allowed,denied (requests), in lane order, clients in
// order of first request, after a header. A client name that a spreadsheet
// would read as a formula (it starts with =, +, -, @, a tab or a carriage
// return) is written after a single quote, as OWASP's "CSV Injection" page
// advises, so opening the file runs nothing.
func (l *Lab) ExportCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"lane", "strategy", "client", "allowed", "denied"})
	for i, ln := range l.lanes {
		for _, name := range l.names {
			c := ln.Client(name)
			cw.Write([]string{strconv.Itoa(i + 1), ln.spec.Config.String(), inertCell(name),
				strconv.FormatInt(c.Allowed, 10), strconv.FormatInt(c.Denied, 10)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// inertCell is v made safe for a spreadsheet cell: prefixed with a single
// quote when its first character starts a formula.
func inertCell(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}
