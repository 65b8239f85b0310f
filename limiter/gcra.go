package limiter

import "time"

// GCRA is the Generic Cell Rate Algorithm (ITU-T I.371, the "virtual
// scheduling" form): the state is one theoretical arrival time (TAT), the
// instant at which the bucket would be full again. A request of n at now is
// admitted when max(TAT, now) + n × T − now ≤ τ, where T = 1/rate is the
// emission interval and τ = burst × T the tolerance; then TAT moves to
// max(TAT, now) + n × T.
//
// It makes exactly the decisions of a [TokenBucket] with the same rate and
// burst and reports exactly its metadata. TAT is kept exactly, as the latest
// admitted instant plus a lead in 1/perNs of a nanosecond (perNs the rate's
// numerator, see bucketMath), so an emission interval that is not a whole
// number of nanoseconds (rate 3/s: 333 333 333⅓ ns) is never rounded; the
// state is 64 bytes, as the token bucket's.
//
// Create one with [NewGCRA]. The zero value has no parameters: AllowN and the
// setters return an error wrapping [ErrInvalid] ("limiter: zero GCRA; create
// it with NewGCRA"), Admit reports false, State returns only the Kind, Rate
// and Burst 0, and Fresh reports true; no method panics.
type GCRA struct {
	header             // lock, used flag, Keyed bookkeeping
	m      *bucketMath // shared, immutable parameters
	last   Instant     // latest instant admitted at
	// ahead is how far TAT is ahead of last, exactly, in units of 1/m.perNs
	// of a nanosecond: TAT = last + ahead/perNs, with 0 ≤ ahead ≤ m.full. In
	// these units T = m.unit and τ = m.full, so ahead is also the token
	// bucket's debt at last. It needs 64 bits: perNs, the rate's numerator,
	// can reach about 1e18. At rate 0, where TAT would be infinite, ahead is
	// that debt all the same; at rate +Inf it is 0.
	ahead int64
}

// NewGCRA returns a GCRA limiter whose bucket is full. rate (tokens per
// second) and burst take the same values, and give the same errors, as in
// [NewTokenBucket].
func NewGCRA(rate float64, burst int) (*GCRA, error) {
	m, err := newBucketMath(rate, burst)
	if err != nil {
		return nil, err
	}
	return &GCRA{header: header{kind: tagGCRA}, m: m}, nil
}

// Kind returns KindGCRA.
func (g *GCRA) Kind() Kind { return KindGCRA }

// Config returns the limiter's kind, rate and burst, as [New] takes them.
func (g *GCRA) Config() Config {
	if g.zero(tagGCRA) {
		return Config{Kind: KindGCRA}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return Config{Kind: KindGCRA, Rate: g.m.rate, Burst: int(g.m.burst)}
}

// Rate returns the rate in tokens per second.
func (g *GCRA) Rate() float64 {
	if g.zero(tagGCRA) {
		return 0
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m.rate
}

// Burst returns the burst in tokens.
func (g *GCRA) Burst() int {
	if g.zero(tagGCRA) {
		return 0
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return int(g.m.burst)
}

// at returns the instant a request stamped now is evaluated at, and how far
// TAT is then ahead of it, (max(TAT, at) − at) × perNs: the bucket's debt
// (0 when TAT ≤ at, a full bucket; at rate 0, the debt kept in ahead).
func (g *GCRA) at(now Instant) (Instant, int64) {
	if !g.used {
		return now, 0
	}
	if now < g.last {
		now = g.last
	}
	// (TAT − now) × perNs = ahead − (now − last) × perNs, floored at 0: the
	// token bucket's refill, exact and safe from overflow (at rate 0 ahead
	// stays as it is).
	return now, g.m.pay(g.ahead, now-g.last)
}

// AllowN decides a request of n at now; see [Strategy].
func (g *GCRA) AllowN(now Instant, n int) (d Decision, err error) {
	if g.zero(tagGCRA) {
		return Decision{}, errZeroGCRA
	}
	if n < 0 {
		return Decision{}, checkN(n)
	}
	g.mu.Lock()
	o := g.decideLocked(now, n) // cannot panic: see header
	g.mu.Unlock()
	o.fill(&d, now, n)
	return d, nil
}

// Admit decides a request of n at now exactly as AllowN does, changing TAT
// in the same way, and reports only whether it is admitted (see
// [TokenBucket.Admit]). A negative n is never admitted and changes nothing.
func (g *GCRA) Admit(now Instant, n int) bool {
	if n < 0 || g.zero(tagGCRA) {
		return false
	}
	g.mu.Lock()
	o := g.decideLocked(now, n)
	g.mu.Unlock()
	return o.ok
}

// decideLocked decides a request of n ≥ 0 at now and applies it, with g.mu
// held.
func (g *GCRA) decideLocked(now Instant, n int) outcome {
	if g.m.wide != nil {
		return g.m.decideWide(&g.used, &g.last, now, n)
	}
	at, ahead := g.at(now)
	// The test max(TAT, at) + n × T − at ≤ τ, times perNs (T = unit/perNs,
	// τ = full/perNs): ahead + n × unit ≤ full, admit's test. next is
	// ahead + n × unit, the new TAT's lead over at.
	ok, next := g.m.admit(ahead, n)
	if ok && n > 0 {
		// TAT moves to max(TAT, at) + n × T = at + next/perNs, kept relative
		// to at: exact, and no division for any n.
		g.used, g.last, g.ahead = true, at, next
	}
	return outcome{m: g.m, at: at, next: next, ok: ok}
}

// State returns TAT, the emission interval and tolerance (rounded to whole
// nanoseconds for display), and the equivalent Tokens.
func (g *GCRA) State(now Instant) State {
	if g.zero(tagGCRA) {
		return State{Kind: KindGCRA}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if w := g.m.wide; w != nil {
		at, ahead := w.pay(g.used, g.last, now)
		s := State{Kind: KindGCRA, Limit: int(g.m.burst), Tokens: w.tokens(ahead), Rate: g.m.rate}
		s.TAT, s.EmissionInterval, s.Tolerance = w.gcraTimes(at, ahead)
		return s
	}
	at, ahead := g.at(now)
	s := State{Kind: KindGCRA, Limit: int(g.m.burst), Tokens: g.m.tokens(ahead), Rate: g.m.rate, TAT: at}
	switch {
	case g.m.perNs > 0:
		if lead := time.Duration(ahead / g.m.perNs); at > Never-lead {
			s.TAT = Never // beyond the largest Instant
		} else {
			s.TAT = at + lead
		}
		s.EmissionInterval = time.Duration(g.m.unit / g.m.perNs)
		s.Tolerance = time.Duration(g.m.full / g.m.perNs)
	case ahead > 0 && !g.m.inf:
		s.TAT = Never // rate 0: a token spent never comes back
	}
	return s
}

// Fresh reports whether TAT ≤ now (a full bucket).
func (g *GCRA) Fresh(now Instant) bool {
	if g.zero(tagGCRA) {
		return true
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.freshLocked(now)
}

func (g *GCRA) freshLocked(now Instant) bool {
	if w := g.m.wide; w != nil {
		_, ahead := w.pay(g.used, g.last, now)
		return ahead.isZero()
	}
	_, ahead := g.at(now)
	return ahead == 0
}

// SetRate changes the rate at now, keeping what is owed up to now (as
// [TokenBucket.SetRate]).
func (g *GCRA) SetRate(now Instant, rate float64) error {
	if g.zero(tagGCRA) {
		return errZeroGCRA
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	m, err := newBucketMath(rate, int(g.m.burst))
	if err != nil {
		return err
	}
	g.reconfigure(now, m)
	return nil
}

// SetBurst changes the burst at now (as [TokenBucket.SetBurst]).
func (g *GCRA) SetBurst(now Instant, burst int) error {
	if g.zero(tagGCRA) {
		return errZeroGCRA
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	m, err := newBucketMath(g.m.rate, burst)
	if err != nil {
		return err
	}
	g.reconfigure(now, m)
	return nil
}

func (g *GCRA) reconfigure(now Instant, m *bucketMath) {
	// TAT becomes at + ahead/perNs under the new parameters: ahead is the
	// token bucket's debt, converted as TokenBucket.reconfigure converts it.
	at, ahead := g.at(now)
	reconfigureBucket(&g.m, &g.used, &g.last, &g.ahead, at, ahead, now, m)
}

// zeroError returns the error of the zero value (see [NewWaiter]), or nil.
func (g *GCRA) zeroError() error {
	if g.zero(tagGCRA) {
		return errZeroGCRA
	}
	return nil
}
