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
// burst and reports exactly its metadata. TAT is kept as a whole nanosecond
// plus an exact fraction, so an emission interval that is not a whole number
// of nanoseconds (rate 3/s: 333 333 333⅓ ns) is never rounded.
type GCRA struct {
	header             // lock, used flag, Keyed bookkeeping
	m      *bucketMath // shared, immutable parameters
	last   Instant     // latest instant admitted at
	// tat is the theoretical arrival time, whole nanoseconds, plus
	// tatRem/m.perNs of a nanosecond (0 ≤ tatRem < perNs, and perNs, the
	// numerator of the rate, can reach about 1e18). At rate 0 tat holds
	// instead the debt (as in bucketMath), since TAT would be infinite.
	tat    Instant
	tatRem int64
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

// Rate returns the rate in tokens per second.
func (g *GCRA) Rate() float64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m.rate
}

// Burst returns the burst in tokens.
func (g *GCRA) Burst() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return int(g.m.burst)
}

// at returns the instant a request stamped now is evaluated at, and how far
// TAT is ahead of it, as a bucket debt (0 when TAT ≤ now).
func (g *GCRA) at(now Instant) (Instant, int64) {
	if !g.used {
		return now, 0
	}
	if now < g.last {
		now = g.last
	}
	if g.m.perNs == 0 {
		return now, int64(g.tat)
	}
	ahead := g.tat - now
	if ahead < 0 || (ahead == 0 && g.tatRem == 0) {
		return now, 0
	}
	return now, int64(ahead)*g.m.perNs + g.tatRem
}

// setTAT stores TAT = at + debt/perNs.
func (g *GCRA) setTAT(at Instant, debt int64) {
	if g.m.perNs == 0 {
		// Kept exactly: a debt converted by SetRate/SetBurst need not be a
		// whole number of tokens.
		g.tat = Instant(debt)
		return
	}
	g.tat = at + time.Duration(debt/g.m.perNs)
	g.tatRem = debt % g.m.perNs
}

// AllowN decides a request of n at now; see [Strategy].
func (g *GCRA) AllowN(now Instant, n int) (d Decision, err error) {
	if n < 0 {
		return Decision{}, checkN(n)
	}
	g.mu.Lock()
	g.allowLocked(&d, now, n)
	g.mu.Unlock()
	return d, nil
}

// allowLocked decides a request of n ≥ 0 into d (zero), with g.mu held.
func (g *GCRA) allowLocked(d *Decision, now Instant, n int) {
	at, debt := g.at(now)
	after := g.m.decide(d, debt, n)
	if d.Allowed && n > 0 {
		m := g.m
		if n == 1 && m.perNs > 0 && !m.inf {
			// TAT moves to max(TAT, at) + T, T = tWhole + tRem/perNs: no
			// division.
			if debt == 0 {
				g.tat, g.tatRem = at, 0
			}
			g.tat += time.Duration(m.tWhole)
			if rem := g.tatRem + m.tRem; rem >= m.perNs {
				g.tat++
				g.tatRem = rem - m.perNs
			} else {
				g.tatRem = rem
			}
		} else {
			g.setTAT(at, after)
		}
		g.used, g.last = true, at
	}
	if at != now {
		*d = d.waitsFrom(now, at)
	}
}

// State returns TAT, the emission interval and tolerance (rounded to whole
// nanoseconds for display), and the equivalent Tokens.
func (g *GCRA) State(now Instant) State {
	g.mu.Lock()
	defer g.mu.Unlock()
	at, debt := g.at(now)
	s := State{Kind: KindGCRA, Limit: int(g.m.burst), Tokens: g.m.tokens(debt), Rate: g.m.rate, TAT: at}
	if g.m.perNs > 0 {
		s.TAT = at + time.Duration(debt/g.m.perNs)
		s.EmissionInterval = time.Duration(g.m.unit / g.m.perNs)
		s.Tolerance = time.Duration(g.m.full / g.m.perNs)
	}
	return s
}

// Fresh reports whether TAT ≤ now (a full bucket).
func (g *GCRA) Fresh(now Instant) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.freshLocked(now)
}

func (g *GCRA) freshLocked(now Instant) bool {
	_, debt := g.at(now)
	return debt == 0
}

// SetRate changes the rate at now, keeping what is owed up to now (as
// [TokenBucket.SetRate]).
func (g *GCRA) SetRate(now Instant, rate float64) error {
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
	// As TokenBucket.reconfigure: a never-used bucket is full, and a larger
	// burst adds no tokens to it.
	at, debt := g.at(now)
	debt = convertDebt(g.m, m, debt)
	g.m = m
	if g.used || debt > 0 {
		g.used, g.last = true, at
		g.setTAT(at, debt)
	}
}
