package limiter

import (
	"math"
	"math/bits"
	"time"
)

// SlidingWindowCounter is the sliding window counter (the approximation
// Cloudflare describes for its rate limiting): fixed windows aligned like
// [FixedWindow]'s, and an estimate of the sliding window that weights the
// previous window's count by how much of it the sliding window still covers.
// A request of n at elapsed time e into the current window is admitted when
//
//	prev × (window − e) + (curr + n) × window ≤ limit × window
//
// computed exactly in integers, where prev is 0 unless the previous window is the one
// just before. Only admitted units are counted, so a flood of denied requests
// does not lock a client out of the next window. It admits at most
// 2 × limit − 1 in any window length, with two counters of memory.
//
// Create one with [NewSlidingWindowCounter]. The zero value has no parameters:
// AllowN and the setters return an error wrapping [ErrInvalid] ("limiter: zero
// SlidingWindowCounter; create it with NewSlidingWindowCounter"), Admit
// reports false, State returns only the Kind and Fresh reports true; no method
// panics.
type SlidingWindowCounter struct {
	header // lock, used flag, Keyed bookkeeping
	limit  int64
	window time.Duration
	last   Instant
	index  int64 // window number of curr
	curr   int64
	prev   int64 // count of window index−1
}

// NewSlidingWindowCounter returns a sliding window counter. limit is the most
// units admitted per sliding window, ≥ 1; window is the window length, from
// 1 ns to [MaxWindow]. It returns an error naming the parameter when either
// is out of range. The products in the formula are computed in 128 bits, so
// any limit works with any window (50,000 per day, 10^12 per year).
func NewSlidingWindowCounter(limit int, window time.Duration) (*SlidingWindowCounter, error) {
	if err := checkWindow(limit, window); err != nil {
		return nil, err
	}
	return &SlidingWindowCounter{header: header{kind: tagSlidingWindowCounter}, limit: int64(limit), window: window}, nil
}

// Kind returns KindSlidingWindowCounter.
func (sc *SlidingWindowCounter) Kind() Kind { return KindSlidingWindowCounter }

// Config returns the counter's kind, limit and window, as [New] takes them.
func (sc *SlidingWindowCounter) Config() Config {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return Config{Kind: KindSlidingWindowCounter, Limit: int(sc.limit), Window: sc.window}
}

// counts is the counter's state brought to one instant.
type counts struct {
	at                 Instant
	index, curr, prev  int64
	elapsed, window, l int64
}

func (sc *SlidingWindowCounter) at(now Instant) counts {
	if sc.used && now < sc.last {
		now = sc.last
	}
	w := int64(sc.window)
	c := counts{at: now, index: floorDiv(int64(now), w), window: w, l: sc.limit}
	c.elapsed = int64(now) - c.index*w
	if sc.used {
		switch c.index {
		case sc.index:
			c.curr, c.prev = sc.curr, sc.prev
		case sc.index + 1:
			c.prev = sc.curr
		}
	}
	return c
}

// fits reports whether n more units fit at elapsed time e into the window:
// prev × (window − e) ≤ (limit − curr − n) × window.
func (c counts) fits(n, e int64) bool {
	r := c.l - c.curr // curr may exceed a lowered limit
	if r < n {
		return false
	}
	return mulLE(c.prev, c.window-e, r-n, c.window)
}

// retryAfter is the earliest wait after which n fits, for n ≤ limit.
func (c counts) retryAfter(n int64) time.Duration {
	w := c.window
	// Later in the current window, while prev's weight shrinks: the first e
	// with prev × (w − e) ≤ (limit − curr − n) × w.
	if c.curr <= c.l-n && c.prev > 0 {
		if q := mulDiv(c.l-c.curr-n, w, c.prev); q > 0 {
			return time.Duration(w - min(q, w) - c.elapsed)
		}
	}
	// In the next window, where curr becomes the weighted previous count; at
	// the start of the one after, nothing is weighted any more.
	// x is clamped at 0: when curr ≤ limit − n, n fits as soon as the next
	// window begins.
	x := int64(0)
	if c.curr > 0 {
		x = max(w-mulDiv(c.l-n, w, c.curr), 0)
	}
	return time.Duration(w - c.elapsed + x)
}

// remaining is the most r with fits(r) at this instant: limit − curr −
// ⌈prev × (window − elapsed) / window⌉, or 0.
func (c counts) remaining() int64 {
	r := c.l - ceilMulDiv(c.prev, c.window-c.elapsed, c.window)
	return max(r-c.curr, 0)
}

// mulLE reports whether a × b ≤ c × d, for a, b, c, d ≥ 0, with 128-bit
// products.
func mulLE(a, b, c, d int64) bool {
	h1, l1 := bits.Mul64(uint64(a), uint64(b))
	h2, l2 := bits.Mul64(uint64(c), uint64(d))
	return h1 < h2 || h1 == h2 && l1 <= l2
}

// mulDiv returns ⌊a × b / c⌋ for a, b ≥ 0 and c > 0, with a 128-bit product,
// or math.MaxInt64 when the quotient is larger.
func mulDiv(a, b, c int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi >= uint64(c) {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, uint64(c))
	return int64(min(q, math.MaxInt64))
}

// ceilMulDiv returns ⌈a × b / c⌉ for a ≥ 0 and 0 ≤ b ≤ c, c > 0 (the quotient
// is at most a).
func ceilMulDiv(a, b, c int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, r := bits.Div64(hi, lo, uint64(c))
	if r != 0 {
		q++
	}
	return int64(q)
}

// Admit decides a request of n requests at now exactly as AllowN does and
// reports only whether it is admitted (see [TokenBucket.Admit]); a window
// strategy counts in any case, so it saves only the metadata. A negative n is
// never admitted and changes nothing.
func (sc *SlidingWindowCounter) Admit(now Instant, n int) bool {
	d, err := sc.AllowN(now, n)
	return err == nil && d.Allowed
}

// AllowN decides a request of n units at now; see [Strategy].
func (sc *SlidingWindowCounter) AllowN(now Instant, n int) (Decision, error) {
	if sc.zero(tagSlidingWindowCounter) {
		return Decision{}, errZeroSlidingWindowCounter
	}
	if n < 0 {
		return Decision{}, checkN(n)
	}
	sc.mu.Lock()
	d := sc.allowLocked(now, n) // cannot panic: see header
	sc.mu.Unlock()
	return d, nil
}

func (sc *SlidingWindowCounter) allowLocked(now Instant, n int) Decision {
	c := sc.at(now)
	n64 := int64(n)
	d := Decision{Limit: int(sc.limit)}
	switch {
	case n64 > sc.limit:
		d.RetryAfter = Never
	case n > 0 && !c.fits(n64, c.elapsed): // a peek is allowed even above a lowered limit
		d.RetryAfter = c.retryAfter(n64)
	default:
		d.Allowed = true
		c.curr += n64
		if n > 0 {
			sc.used, sc.last, sc.index, sc.curr, sc.prev = true, c.at, c.index, c.curr, c.prev
		}
	}
	// Remaining: the most r with fits(r) at this instant.
	d.Remaining = int(c.remaining())
	switch {
	case c.curr > 0:
		d.ResetAfter = time.Duration(2*c.window - c.elapsed)
	case c.prev > 0:
		d.ResetAfter = time.Duration(c.window - c.elapsed)
	}
	return d.waitsFrom(now, c.at)
}

// SlidingWindowCounts is a sliding window counter's counts brought to one
// instant, for stores that keep the counter's state outside this package
// (limiter/redisstore), so that their decisions and metadata are this
// package's.
type SlidingWindowCounts struct {
	Limit   int64         // requests per window, ≥ 0
	Window  time.Duration // > 0
	Elapsed time.Duration // since the current window began, in [0, Window)
	Curr    int64         // the current window's count
	Prev    int64         // the previous window's count
}

// counter is a SlidingWindowCounter holding these counts, its window
// starting at instant 0, so that its own code decides at Elapsed.
func (s SlidingWindowCounts) counter() *SlidingWindowCounter {
	return &SlidingWindowCounter{header: header{used: true}, limit: s.Limit, window: s.Window, curr: s.Curr, prev: s.Prev}
}

// Decide returns the Decision of a request of n ≥ 0 at these counts, as a
// SlidingWindowCounter decides it at that instant, with RetryAfter and
// ResetAfter counted from that instant.
func (s SlidingWindowCounts) Decide(n int) Decision {
	return s.counter().allowLocked(Instant(s.Elapsed), n)
}

// Fits reports whether n ≥ 0 more requests fit at these counts.
func (s SlidingWindowCounts) Fits(n int) bool {
	c := s.counter().at(Instant(s.Elapsed))
	return c.fits(int64(n), c.elapsed)
}

// RetryAfter returns the wait from these counts' instant after which a
// request of n (1 ≤ n ≤ Limit) fits, when it does not fit now.
func (s SlidingWindowCounts) RetryAfter(n int) time.Duration {
	return s.counter().at(Instant(s.Elapsed)).retryAfter(int64(n))
}

// State returns the current window's start, Count, the Previous window's
// count and the Weighted estimate at now.
func (sc *SlidingWindowCounter) State(now Instant) State {
	if sc.zero(tagSlidingWindowCounter) {
		return State{Kind: KindSlidingWindowCounter}
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	c := sc.at(now)
	return State{Kind: KindSlidingWindowCounter, Limit: int(sc.limit), Window: sc.window,
		WindowStart: time.Duration(c.index * c.window), Count: int(c.curr), Previous: int(c.prev),
		Weighted: float64(c.prev)*float64(c.window-c.elapsed)/float64(c.window) + float64(c.curr)}
}

// Fresh reports whether both counts that matter at now are 0.
func (sc *SlidingWindowCounter) Fresh(now Instant) bool {
	if sc.zero(tagSlidingWindowCounter) {
		return true
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.freshLocked(now)
}

func (sc *SlidingWindowCounter) freshLocked(now Instant) bool {
	c := sc.at(now)
	return c.curr == 0 && c.prev == 0
}

// SetLimit changes the limit at now; both counts are kept.
func (sc *SlidingWindowCounter) SetLimit(now Instant, limit int) error {
	if sc.zero(tagSlidingWindowCounter) {
		return errZeroSlidingWindowCounter
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if err := checkWindow(limit, sc.window); err != nil {
		return err
	}
	sc.limit = int64(limit)
	return nil
}

// SetWindow changes the window length at now. Windows are re-aligned to the
// new length; the counts reached at now are kept as those of the new window
// that contains now and the one before it.
func (sc *SlidingWindowCounter) SetWindow(now Instant, window time.Duration) error {
	if sc.zero(tagSlidingWindowCounter) {
		return errZeroSlidingWindowCounter
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if err := checkWindow(int(sc.limit), window); err != nil {
		return err
	}
	c := sc.at(now)
	sc.window = window
	if sc.used {
		sc.last, sc.index, sc.curr, sc.prev = c.at, floorDiv(int64(c.at), int64(window)), c.curr, c.prev
	}
	return nil
}
