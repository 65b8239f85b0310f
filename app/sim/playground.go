package sim

import (
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// HistoryLen is how many recent requests the simulation remembers for drawing.
const HistoryLen = 240

// maxAutoPerAdvance bounds the auto-fired requests of one clock move, so that
// a large Step at a high auto-fire rate cannot freeze the page.
const maxAutoPerAdvance = 20000

// Sent is one request the playground sent to the limiter.
type Sent struct {
	Seq     int             // 1 for the first request after a reset
	At      limiter.Instant // simulated instant of the request
	Allowed bool
	// Remaining and RetryAfter are the limiter's decision fields.
	Remaining  int
	RetryAfter time.Duration
}

// Sim is the playground's model: one real limiter (token bucket or sliding
// window log) driven at the instants of a simulated clock. The clock advances
// with real time while running and is frozen while paused, so requests sent
// while paused all arrive at one instant; tests step it by hand.
//
// A Sim is used from one goroutine (go-app's UI goroutine).
type Playground struct {
	kind limiter.Kind
	lim  limiter.Strategy
	tb   *limiter.TokenBucket      // set when kind is token bucket
	swl  *limiter.SlidingWindowLog // set when kind is sliding window log

	// Parameters, kept per strategy so that switching back restores them.
	burst  int
	rate   float64 // tokens per second
	limit  int
	window time.Duration

	now     limiter.Instant
	running bool

	allowed, denied int
	hist            [HistoryLen]Sent // ring, oldest at head
	head, size      int
	seq             int
	// The requests at instant lostAt that the full ring dropped (only the
	// oldest instant it holds can have lost some).
	lostAt         limiter.Instant
	lostOK, lostNo int

	// batch is the last call's requests: Send(n) is one call (Burst ×N),
	// and each auto-fired request is its own.
	batch Batch

	autofire bool
	autoRate float64 // requests per second
	nextFire limiter.Instant

	// paramsSeq is seq when a parameter last changed: a denial before it
	// named a retry instant the new parameters no longer promise.
	paramsSeq int

	version uint64
}

// NewSim returns a running simulation of a token bucket of burst 5 refilling
// at 1 token/s, at instant 0.
func NewPlayground() *Playground {
	s := &Playground{
		kind:     limiter.KindTokenBucket,
		burst:    5,
		rate:     1,
		limit:    5,
		window:   5 * time.Second,
		running:  true,
		autoRate: 2,
	}
	s.newLimiter()
	return s
}

func (s *Playground) newLimiter() {
	var err error
	s.tb, s.swl = nil, nil
	switch s.kind {
	case limiter.KindSlidingWindowLog:
		s.swl, err = limiter.NewSlidingWindowLog(s.limit, s.window)
		s.lim = s.swl
	default:
		s.kind = limiter.KindTokenBucket
		s.tb, err = limiter.NewTokenBucket(s.rate, s.burst)
		s.lim = s.tb
	}
	if err != nil {
		// The parameters were accepted by the same limiter before.
		panic(err)
	}
	s.allowed, s.denied, s.head, s.size, s.seq, s.paramsSeq = 0, 0, 0, 0, 0, -1
	s.lostOK, s.lostNo = 0, 0
	s.batch = Batch{}
	s.nextFire = s.now
	s.changed()
}

func (s *Playground) changed() { s.version++ }

// Version changes whenever anything drawn may have changed.
func (s *Playground) Version() uint64 { return s.version }

// Kind returns the strategy being simulated.
func (s *Playground) Kind() limiter.Kind { return s.kind }

// Config is the current strategy and its parameters.
func (s *Playground) Config() limiter.Config {
	if s.kind == limiter.KindTokenBucket {
		return limiter.Config{Kind: s.kind, Rate: s.rate, Burst: s.burst}
	}
	return limiter.Config{Kind: s.kind, Limit: s.limit, Window: s.window}
}

// SetKind switches to a fresh limiter of kind k (token bucket or sliding
// window log) with that strategy's last parameters, and clears the totals.
// The clock keeps running.
func (s *Playground) SetKind(k limiter.Kind) {
	if k != limiter.KindSlidingWindowLog {
		k = limiter.KindTokenBucket
	}
	if k == s.kind {
		return
	}
	s.kind = k
	s.newLimiter()
}

// Reset replaces the limiter by a fresh one with the same parameters, clears
// the totals and history and puts the clock back to 0. Pause and auto-fire
// are kept.
func (s *Playground) Reset() {
	s.now = 0
	s.newLimiter()
}

// Now returns the simulated instant.
func (s *Playground) Now() limiter.Instant { return s.now }

// Running reports whether the clock advances with real time.
func (s *Playground) Running() bool { return s.running }

// SetRunning pauses (false) or resumes (true) the clock.
func (s *Playground) SetRunning(on bool) {
	if s.running != on {
		s.running = on
		s.changed()
	}
}

// Advance moves the clock by real elapsed time dt, clamped to MaxFrame; it
// does nothing while paused. It reports whether the clock moved.
func (s *Playground) Advance(dt time.Duration) bool {
	if !s.running || dt <= 0 {
		return false
	}
	s.moveTo(s.now + min(dt, MaxFrame))
	return true
}

// Step moves the clock forward by d whether or not it is running (the
// playground's "+100 ms" button and the tests' hook).
func (s *Playground) Step(d time.Duration) {
	if d > 0 {
		s.moveTo(s.now + d)
	}
}

// moveTo advances the clock to t, sending each auto-fired request at its own
// instant on the way.
func (s *Playground) moveTo(t limiter.Instant) {
	if s.autofire {
		iv := s.autoInterval()
		if s.nextFire < s.now {
			s.nextFire = s.now
		}
		for i := 0; s.nextFire <= t && i < maxAutoPerAdvance; i++ {
			s.now = s.nextFire
			s.batch = Batch{First: s.seq + 1}
			s.send(1)
			s.nextFire += iv
		}
		if s.nextFire <= t { // capped: skip what could not be sent
			s.nextFire = t + iv
		}
	}
	s.now = t
	s.changed()
}

func (s *Playground) autoInterval() time.Duration {
	return max(time.Duration(float64(time.Second)/s.autoRate), time.Nanosecond)
}

// Send sends n requests of one unit each at the current instant (n > 1 is the
// "Burst ×N" button) and returns the decision of the last one.
func (s *Playground) Send(n int) Sent {
	var e Sent
	s.batch = Batch{First: s.seq + 1}
	for range n {
		e = s.send(1)
	}
	s.changed()
	return e
}

func (s *Playground) send(n int) Sent {
	d, err := s.lim.AllowN(s.now, n)
	if err != nil {
		panic(err) // n is never negative here
	}
	s.seq++
	e := Sent{Seq: s.seq, At: s.now, Allowed: d.Allowed, Remaining: d.Remaining, RetryAfter: d.RetryAfter}
	if d.Allowed {
		s.allowed++
		s.batch.Allowed++
	} else {
		s.denied++
		s.batch.Denied++
	}
	if s.size < HistoryLen {
		s.hist[(s.head+s.size)%HistoryLen] = e
		s.size++
	} else {
		old := s.hist[s.head]
		if old.At != s.lostAt {
			s.lostAt, s.lostOK, s.lostNo = old.At, 0, 0
		}
		if old.Allowed {
			s.lostOK++
		} else {
			s.lostNo++
		}
		s.hist[s.head] = e
		s.head = (s.head + 1) % HistoryLen
	}
	return e
}

// Forgotten returns how many allowed and denied requests at instant t the
// history no longer holds: a burst can fill it, and the figure still counts
// the oldest instant's requests in full.
func (s *Playground) Forgotten(t limiter.Instant) (allowed, denied int) {
	if t != s.lostAt {
		return 0, 0
	}
	return s.lostOK, s.lostNo
}

// Totals returns the numbers of allowed and denied requests since the last
// reset or strategy switch.
func (s *Playground) Totals() (allowed, denied int) { return s.allowed, s.denied }

// Events returns how many requests are remembered; Event(i) is the i-th,
// oldest first.
func (s *Playground) Events() int { return s.size }

// Event returns the i-th remembered request, 0 the oldest.
func (s *Playground) Event(i int) Sent { return s.hist[(s.head+i)%HistoryLen] }

// Last returns the most recent request and whether there is one.
func (s *Playground) Last() (Sent, bool) {
	if s.size == 0 {
		return Sent{}, false
	}
	return s.Event(s.size - 1), true
}

// Batch is the requests of one Send call (a "Burst ×N" is one call of N):
// the number of the first, and how many were allowed and denied.
type Batch struct {
	First, Allowed, Denied int
}

// LastBatch returns the requests the last call sent, the zero Batch before
// the first request.
func (s *Playground) LastBatch() Batch { return s.batch }

// ParamsChangedSince reports whether a parameter changed after request e.
func (s *Playground) ParamsChangedSince(e Sent) bool { return s.paramsSeq >= e.Seq }

// State is the limiter's own read-only view at the current instant.
func (s *Playground) State() limiter.State { return s.lim.State(s.now) }

// Burst, Rate, Limit and Window return the parameters; AutoRate the auto-fire
// rate in requests per second.
func (s *Playground) Burst() int            { return s.burst }
func (s *Playground) Rate() float64         { return s.rate }
func (s *Playground) Limit() int            { return s.limit }
func (s *Playground) Window() time.Duration { return s.window }
func (s *Playground) AutoRate() float64     { return s.autoRate }
func (s *Playground) Autofire() bool        { return s.autofire }

// SetBurst changes the token bucket's burst in place at the current instant.
func (s *Playground) SetBurst(b int) error {
	return setParam(s, &s.burst, b, s.tb != nil, func() error { return s.tb.SetBurst(s.now, b) })
}

// SetRate changes the token bucket's refill rate (tokens/s) in place at the
// current instant.
func (s *Playground) SetRate(r float64) error {
	return setParam(s, &s.rate, r, s.tb != nil, func() error { return s.tb.SetRate(s.now, r) })
}

// SetLimit changes the sliding window log's limit in place at the current
// instant.
func (s *Playground) SetLimit(l int) error {
	return setParam(s, &s.limit, l, s.swl != nil, func() error { return s.swl.SetLimit(s.now, l) })
}

// SetWindow changes the sliding window log's window in place at the current
// instant.
func (s *Playground) SetWindow(w time.Duration) error {
	return setParam(s, &s.window, w, s.swl != nil, func() error { return s.swl.SetWindow(s.now, w) })
}

// setParam sets a parameter to v: on the live limiter first when live (an
// error leaves everything as it was), then in field. An unchanged value
// changes nothing, so the last denial's retry instant still holds.
func setParam[T comparable](s *Playground, field *T, v T, live bool, apply func() error) error {
	if v == *field {
		return nil
	}
	if live {
		if err := apply(); err != nil {
			return err
		}
	}
	*field = v
	s.paramsSeq = s.seq
	s.changed()
	return nil
}

// SetAutofire turns auto-fire on (the first request goes out now) or off.
func (s *Playground) SetAutofire(on bool) {
	if on == s.autofire {
		return
	}
	s.autofire = on
	if on {
		s.nextFire = s.now
		s.moveTo(s.now)
	}
	s.changed()
}

// SetAutoRate sets the auto-fire rate in requests per second (> 0).
func (s *Playground) SetAutoRate(r float64) {
	if r > 0 {
		s.autoRate = r
		if next := s.now + s.autoInterval(); s.nextFire > next {
			s.nextFire = next
		}
		s.changed()
	}
}
