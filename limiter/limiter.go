package limiter

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"
)

// Instant is a point on a limiter's clock: the time elapsed since the clock's
// origin, in nanoseconds. Any value is valid, including 0 (the origin) and
// negative values; "not used yet" is tracked separately, never as a zero
// instant. Instants come from a [Clock] or, in tests and simulations, are
// given explicitly (for example 1500*time.Millisecond).
type Instant = time.Duration

// Never is the RetryAfter of a request that can never be allowed, because n is
// above what the limiter can ever hold (burst, capacity or window limit) or
// because nothing is ever refilled (rate 0).
const Never time.Duration = math.MaxInt64

// Decision is the outcome of one request of n units at one instant.
type Decision struct {
	// Allowed reports whether the request was admitted. A denied request
	// changes no state and is not counted anywhere.
	Allowed bool
	// Limit is the most units the limiter can ever hold at once: the burst
	// (token bucket, GCRA), the capacity (leaky bucket) or the per-window
	// limit (window strategies).
	Limit int
	// Remaining is the whole number of units that could still be admitted
	// at the same instant, after this decision.
	Remaining int
	// RetryAfter is, for a denial, the shortest wait after which the same
	// request is allowed if nothing else happens, rounded up to the next
	// nanosecond, or Never. It is 0 for an allowed request. Like ResetAfter,
	// it counts from the request's own instant, also for a stale request
	// evaluated at a later instant.
	RetryAfter time.Duration
	// ResetAfter is the time until the limiter is back to its fresh state
	// (full bucket, empty windows) if nothing else happens.
	ResetAfter time.Duration
	// Delay is how long an admitted request waits in the queue before it is
	// served, for shaping strategies (leaky bucket as a queue); 0 otherwise.
	// Like RetryAfter it counts from the request's own instant: a stale
	// request joins the queue at the instant it is evaluated at.
	Delay time.Duration
}

// Kind names a strategy, with the names used in the shared scenario files.
type Kind string

// The strategies of this package.
const (
	KindTokenBucket          Kind = "token_bucket"
	KindGCRA                 Kind = "gcra"
	KindLeakyBucket          Kind = "leaky_bucket"
	KindFixedWindow          Kind = "fixed_window"
	KindSlidingWindowLog     Kind = "sliding_window_log"
	KindSlidingWindowCounter Kind = "sliding_window_counter"
)

// Kinds lists every strategy kind, in the order the package documents them.
var Kinds = []Kind{KindTokenBucket, KindGCRA, KindLeakyBucket, KindFixedWindow, KindSlidingWindowLog, KindSlidingWindowCounter}

// Strategy is one rate-limiting algorithm for one client. Every method is safe
// for concurrent use and takes the instant explicitly; a request stamped
// earlier than the latest instant the strategy has admitted is evaluated at
// that latest instant (time never runs backwards for one limiter).
type Strategy interface {
	// AllowN decides a request of n units at now. n == 0 is a peek: allowed,
	// changes nothing, reports the current state. It returns an error, and
	// changes nothing, when n is negative.
	AllowN(now Instant, n int) (Decision, error)
	// State returns a read-only view of the state at now, for drawing and
	// explaining. It changes nothing.
	State(now Instant) State
	// Fresh reports whether the state at now equals that of a newly created
	// strategy with the same parameters, so that replacing it by a new one
	// would change no later decision.
	Fresh(now Instant) bool
	// Kind names the algorithm.
	Kind() Kind
}

// State is a read-only view of a strategy's state at one instant. Only the
// fields of its Kind are set.
type State struct {
	Kind Kind
	// Limit is the burst, capacity or window limit.
	Limit int
	// Tokens is the fractional number of tokens in the bucket (token bucket,
	// GCRA), between 0 and Limit, or below 0 while a Reservation's debt is
	// being paid back.
	Tokens float64
	// Rate is the refill rate in tokens per second (token bucket, GCRA) or
	// the leak rate in units per second (leaky bucket).
	Rate float64
	// Level is the fractional water level of a leaky bucket, from 0 to
	// Limit (above Limit only after SetCapacity lowered it).
	Level float64
	// TAT is GCRA's theoretical arrival time: the instant at which the bucket
	// would be full again. It is now when the bucket is full, and Never
	// (math.MaxInt64) when it never will be (rate 0 with a token spent) or
	// would be only beyond the largest Instant.
	TAT Instant
	// EmissionInterval is GCRA's time per token (1/rate); Tolerance is
	// burst × emission interval. Both are rounded down to whole
	// nanoseconds (an emission interval is 0 above 1e9 tokens per second)
	// and are 0 for rate 0 or +Inf.
	EmissionInterval, Tolerance time.Duration
	// Window is the window length of the window strategies.
	Window time.Duration
	// WindowStart is the start of the current window (fixed window,
	// sliding window counter).
	WindowStart Instant
	// Count is the number of units admitted in the current window (fixed
	// window, sliding window counter) or within the window (sliding window
	// log). Previous is the sliding window counter's count of the previous
	// window (0 when that window is not the one just before).
	Count, Previous int
	// Weighted is the sliding window counter's estimate
	// Previous × (Window − elapsed)/Window + Count.
	Weighted float64
	// Log holds the sliding window log's entries still in the window, oldest
	// first (one entry per admitted unit).
	Log []Instant
}

// Clock gives the current instant. The default clock is monotonic.
type Clock interface {
	Now() Instant
}

type monotonicClock struct{ origin time.Time }

func (c monotonicClock) Now() Instant { return time.Since(c.origin) }

// NewMonotonicClock returns a clock whose origin is the moment of the call. It
// reads Go's monotonic clock, so wall-clock jumps (an NTP step, a leap second
// applied as a step, an operator setting the date) never move it.
func NewMonotonicClock() Clock { return monotonicClock{origin: time.Now()} }

// ManualClock is a clock that moves only when told to: for tests and
// simulations. Its zero value reads instant 0. It is safe for concurrent use.
type ManualClock struct {
	mu  sync.Mutex
	now Instant
}

// Now returns the clock's current instant.
func (c *ManualClock) Now() Instant {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t (which may be earlier than now: a demonstration of
// a clock that jumps back; limiters never run backwards whatever the clock
// does).
func (c *ManualClock) Set(t Instant) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// Advance moves the clock by d (back for a negative d) and returns the new
// instant. It saturates: an advance past the largest Instant (math.MaxInt64,
// about 292 years after the origin) stops there, and one past the smallest
// (math.MinInt64) stops there, rather than wrapping around to the other end
// of the range.
func (c *ManualClock) Advance(d time.Duration) Instant {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case d > 0 && c.now > math.MaxInt64-d:
		c.now = math.MaxInt64
	case d < 0 && c.now < math.MinInt64-d:
		c.now = math.MinInt64
	default:
		c.now += d
	}
	return c.now
}

// ErrInvalid is wrapped by every parameter error of this package, so callers
// can test errors.Is(err, limiter.ErrInvalid).
var ErrInvalid = errors.New("invalid parameter")

type paramError struct{ msg string }

func (e *paramError) Error() string { return "limiter: " + e.msg }
func (e *paramError) Unwrap() error { return ErrInvalid }

func errorf(format string, args ...any) error {
	return &paramError{msg: fmt.Sprintf(format, args...)}
}

// The errors of a strategy's zero value, which has no parameters: its
// methods report them (AllowN and the setters), or act as for a limiter that
// holds nothing (Admit false, State only the Kind, Fresh true, Rate and Burst
// 0), and none of them panics or blocks.
var (
	errZeroTokenBucket          = errZero("TokenBucket")
	errZeroGCRA                 = errZero("GCRA")
	errZeroLeakyBucket          = errZero("LeakyBucket")
	errZeroFixedWindow          = errZero("FixedWindow")
	errZeroSlidingWindowLog     = errZero("SlidingWindowLog")
	errZeroSlidingWindowCounter = errZero("SlidingWindowCounter")
)

// errZero is the error of a zero typ: "limiter: zero TokenBucket; create it
// with NewTokenBucket".
func errZero(typ string) error { return errorf("zero %s; create it with New%s", typ, typ) }

func checkN(n int) error {
	if n < 0 {
		return errorf("n %d is negative; want >= 0", n)
	}
	return nil
}

// maxUnits bounds every product the strategies compute, so that sums of two or
// three such values never overflow int64.
const maxUnits = math.MaxInt64 / 4

func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a > 0) == (b > 0) {
		q++
	}
	return q
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// waitsFrom makes the waits of a decision taken at the evaluation instant at
// count from the caller's now. A stale request (now < at) is evaluated at at,
// so the same request is allowed only at a stamp ≥ at + RetryAfter, and the
// limiter is fresh again only at at + ResetAfter: the caller must wait
// at − now longer than the waits measured from at. (A leaky bucket's Delay
// counts from now too; see leakyFill.)
func (d Decision) waitsFrom(now, at Instant) Decision {
	if lag := at - now; lag > 0 {
		d.RetryAfter, d.ResetAfter = addLag(d.RetryAfter, lag), addLag(d.ResetAfter, lag)
	}
	return d
}

func addLag(w, lag time.Duration) time.Duration {
	if w <= 0 || w == Never {
		return w
	}
	if w > Never-lag {
		return Never
	}
	return w + lag
}

// header leads every strategy of this package: the strategy's lock, and what
// a Keyed needs to hold the strategy directly as its map entry (no separate
// entry object per key). It must stay the first field of each strategy: a
// Keyed finds the strategy from its header (see keyed.go).
//
// Every method that takes the lock releases it with defer, except AllowN and
// Admit, the hot path, where a deferred unlock costs a closure call per
// decision: their critical sections cannot panic. The zero value is refused
// before the lock is taken, constructors and setters validate every
// parameter (windows and leak intervals ≥ 1 ns, so no division by 0; a
// sliding window log's ring is indexed only when it holds entries), and
// integer overflow is guarded, not trapped. A Keyed takes the same lock
// without defer for token buckets and GCRA (the critical section of their
// AllowN) and with defer for every other entry, which may be a strategy from
// outside this package (keyed.go).
type header struct {
	mu   sync.Mutex
	seen Instant // Keyed: latest request instant, minInstant before the first (see latestLocked)
	// key is the Keyed's key for this entry, set before the entry is
	// inserted and never written again: a Keyed finds entries by the key's
	// 64-bit hash and compares key to tell keys that share a hash apart.
	key  string
	kind kindTag // the type this header leads
	used bool    // false until the first admitted request
	// keyed is set once a Keyed holds the strategy as an entry; a strategy
	// a factory returns again (for another key or after eviction) is then
	// held through a wrapper instead.
	keyed   bool
	evicted bool // removed from its Keyed: a request that found it looks up again
}

// zero reports whether the strategy this header leads is its type's zero
// value (not made by its constructor, which sets kind to want). kind is
// never written after construction, so it is read without the lock.
func (h *header) zero(want kindTag) bool { return h.kind != want }

type kindTag uint8

const (
	tagForeign kindTag = iota // a Strategy from outside this package, wrapped
	tagTokenBucket
	tagGCRA
	tagLeakyBucket
	tagFixedWindow
	tagSlidingWindowLog
	tagSlidingWindowCounter
)
