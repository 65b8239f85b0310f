package limiter

// TokenBucket is the token bucket algorithm: a bucket of burst tokens that
// starts full and refills continuously at rate tokens per second, up to
// burst. A request of n is admitted when n tokens are in the bucket, and takes
// them. It allows bursts of up to burst requests and a sustained rate of rate
// per second. Memory: a few words per limiter; each decision is O(1).
//
// Arithmetic is exact: the rate is held as a fraction of whole numbers and
// time in integer nanoseconds, so decisions match exact arithmetic on
// millisecond inputs (at rate 3/s, 3 tokens are back after exactly 1 s).
//
// Create one with [NewTokenBucket]. The zero value has no parameters: AllowN
// and the setters return an error wrapping [ErrInvalid] ("limiter: zero
// TokenBucket; create it with NewTokenBucket"), Admit reports false, State
// returns only the Kind, Rate and Burst 0, and Fresh reports true; no method
// panics.
type TokenBucket struct {
	header             // lock, used flag, Keyed bookkeeping
	m      *bucketMath // shared, immutable parameters
	last   Instant     // latest instant admitted at
	debt   int64       // tokens missing from a full bucket, in m.unit per token
}

// NewTokenBucket returns a full token bucket.
//
// rate is in tokens per second, 0, from 1e-15 to 1e12 (1000 tokens per
// nanosecond: bandwidth in bytes per second fits), or math.Inf(1) to allow
// everything; 0 means the initial burst is spent once and never refilled.
// burst is the bucket size in tokens, ≥ 0; with burst 0 and a finite rate,
// no request of n ≥ 1 is ever allowed.
//
// The rate is read as a fraction p/q, and decisions are exact for that
// fraction: the simplest fraction with q ≤ 1e9 within a relative 1e-12 of
// rate (0.1 is 1/10, 1.0/3 is 1/3, 1.0/7 is 1/7), else, where burst × q ×
// 1e9 would not fit 62 bits, one with q ≤ 1e9 within a relative 1e-9, else
// (rates below 1e-9, such as 1e-12 = 1/1e12, or rates with more digits and
// a large burst) one with q ≤ 1e15 within a relative 1e-15. Bursts whose
// refill takes over 73 years (1e12 tokens at 1/7 per second) and rates
// below 1e-9 are held in 128-bit integers, exactly, at some cost in speed
// and memory (about 180 bytes more per limiter, and a 160-byte allocation
// per decision; other limiters are unchanged); a wait beyond the largest
// Duration is [Never].
//
// It returns an error naming the parameter when rate is NaN, negative,
// above 1e12 or positive but below 1e-15, when burst is negative, or when
// burst × q × 1e9 would pass 2¹²⁷: the error names the largest burst at
// that rate, never below 1.7e14 (1.7e14 at 1e-15 per second, 1.7e17 at
// 1e-12).
func NewTokenBucket(rate float64, burst int) (*TokenBucket, error) {
	m, err := newBucketMath(rate, burst)
	if err != nil {
		return nil, err
	}
	return &TokenBucket{header: header{kind: tagTokenBucket}, m: m}, nil
}

// Kind returns KindTokenBucket.
func (tb *TokenBucket) Kind() Kind { return KindTokenBucket }

// Config returns the bucket's kind, rate and burst, as [New] takes them.
func (tb *TokenBucket) Config() Config {
	if tb.zero(tagTokenBucket) {
		return Config{Kind: KindTokenBucket}
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return Config{Kind: KindTokenBucket, Rate: tb.m.rate, Burst: int(tb.m.burst)}
}

// Rate returns the refill rate in tokens per second.
func (tb *TokenBucket) Rate() float64 {
	if tb.zero(tagTokenBucket) {
		return 0
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return tb.m.rate
}

// Burst returns the bucket size in tokens.
func (tb *TokenBucket) Burst() int {
	if tb.zero(tagTokenBucket) {
		return 0
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return int(tb.m.burst)
}

// at returns the instant a request stamped now is evaluated at, and the debt
// then.
func (tb *TokenBucket) at(now Instant) (Instant, int64) {
	if !tb.used {
		return now, 0
	}
	if now < tb.last {
		now = tb.last
	}
	return now, tb.m.pay(tb.debt, now-tb.last)
}

// AllowN decides a request of n tokens at now; see [Strategy].
func (tb *TokenBucket) AllowN(now Instant, n int) (d Decision, err error) {
	if tb.zero(tagTokenBucket) {
		return Decision{}, errZeroTokenBucket
	}
	if n < 0 {
		return Decision{}, checkN(n)
	}
	tb.mu.Lock()
	o := tb.decideLocked(now, n) // cannot panic: see header
	tb.mu.Unlock()
	o.fill(&d, now, n)
	return d, nil
}

// Admit decides a request of n tokens at now exactly as AllowN does, changing
// the bucket in the same way, and reports only whether it is admitted: the
// fast path when no metadata (Remaining, RetryAfter, ResetAfter) is needed,
// as with x/time/rate's AllowN. A negative n is never admitted and changes
// nothing.
func (tb *TokenBucket) Admit(now Instant, n int) bool {
	if n < 0 || tb.zero(tagTokenBucket) {
		return false
	}
	tb.mu.Lock()
	o := tb.decideLocked(now, n)
	tb.mu.Unlock()
	return o.ok
}

// decideLocked decides a request of n ≥ 0 at now and applies it, with tb.mu
// held.
func (tb *TokenBucket) decideLocked(now Instant, n int) outcome {
	if tb.m.wide != nil {
		return tb.m.decideWide(&tb.used, &tb.last, now, n)
	}
	at, debt := tb.at(now)
	ok, next := tb.m.admit(debt, n)
	if ok && n > 0 {
		tb.used, tb.last, tb.debt = true, at, next
	}
	return outcome{m: tb.m, at: at, next: next, ok: ok}
}

// State returns the bucket at now: Tokens, Limit (burst) and Rate.
func (tb *TokenBucket) State(now Instant) State {
	if tb.zero(tagTokenBucket) {
		return State{Kind: KindTokenBucket}
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	s := State{Kind: KindTokenBucket, Limit: int(tb.m.burst), Rate: tb.m.rate}
	if w := tb.m.wide; w != nil {
		_, debt := w.pay(tb.used, tb.last, now)
		s.Tokens = w.tokens(debt)
		return s
	}
	_, debt := tb.at(now)
	s.Tokens = tb.m.tokens(debt)
	return s
}

// Fresh reports whether the bucket is full at now.
func (tb *TokenBucket) Fresh(now Instant) bool {
	if tb.zero(tagTokenBucket) {
		return true
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return tb.freshLocked(now)
}

func (tb *TokenBucket) freshLocked(now Instant) bool {
	if w := tb.m.wide; w != nil {
		_, debt := w.pay(tb.used, tb.last, now)
		return debt.isZero()
	}
	_, debt := tb.at(now)
	return debt == 0
}

// SetRate changes the refill rate at now: tokens accrue at the old rate up to
// now, then at the new one. The tokens in the bucket are kept (a fraction is
// rounded down, never up). It returns an error, and changes nothing, for a
// rate NewTokenBucket would reject.
func (tb *TokenBucket) SetRate(now Instant, rate float64) error {
	if tb.zero(tagTokenBucket) {
		return errZeroTokenBucket
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	m, err := newBucketMath(rate, int(tb.m.burst))
	if err != nil {
		return err
	}
	tb.reconfigure(now, m)
	return nil
}

// SetBurst changes the bucket size at now: tokens accrue under the old
// parameters up to now, then the tokens held are clamped to the new burst (a
// larger burst adds no tokens; they refill at the rate). It returns an error,
// and changes nothing, for a burst NewTokenBucket would reject.
func (tb *TokenBucket) SetBurst(now Instant, burst int) error {
	if tb.zero(tagTokenBucket) {
		return errZeroTokenBucket
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	m, err := newBucketMath(tb.m.rate, burst)
	if err != nil {
		return err
	}
	tb.reconfigure(now, m)
	return nil
}

func (tb *TokenBucket) reconfigure(now Instant, m *bucketMath) {
	at, debt := tb.at(now)
	reconfigureBucket(&tb.m, &tb.used, &tb.last, &tb.debt, at, debt, now, m)
}

// reconfigureBucket moves a token bucket's or GCRA's state to the
// parameters m: cur, used, last and state point to its fields (state is a
// token bucket's debt or a GCRA's TAT lead, the same number in the same
// units), and at and debt are its evaluation instant for now and its debt
// then under *cur (see TokenBucket.at). The tokens held are kept, rounded
// towards fewer, and clamped to the new burst; a debt beyond an empty
// bucket (reservations and Wait callers queued) is kept whole, so a reload
// never admits what the queued callers were promised (see keepDebt). A
// bucket never used is full: a larger burst adds no tokens to it either,
// so from now on it owes the difference like any other bucket.
func reconfigureBucket(cur **bucketMath, used *bool, last *Instant, state *int64, at Instant, debt int64, now Instant, m *bucketMath) {
	owed := u64(uint64(debt))
	if w := (*cur).wide; w != nil {
		at, owed = w.pay(*used, *last, now)
	}
	m, debt = keepDebt(*cur, m, owed)
	if *used || debt > 0 || m.wide != nil && !m.wide.debt.isZero() {
		*used, *last = true, at
	}
	*state, *cur = debt, m
}

// zeroError returns the error of the zero value (see [NewWaiter]), or nil.
func (tb *TokenBucket) zeroError() error {
	if tb.zero(tagTokenBucket) {
		return errZeroTokenBucket
	}
	return nil
}
