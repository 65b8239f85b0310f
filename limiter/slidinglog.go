package limiter

import (
	"sort"
	"time"
)

// SlidingWindowLog is the sliding window log: it records the instant of every
// admitted unit and admits a request of n when fewer than limit − n + 1
// entries lie within the last window. An entry recorded at e counts while
// now − e < window, so it stops counting at exactly e + window. It never
// admits more than limit in any window of length window, at the cost of
// O(limit) memory per client: the log is a ring buffer of up to limit
// instants, grown by doubling as entries arrive, so a client that sends a
// few requests holds a few instants.
//
// Create one with [NewSlidingWindowLog]. The zero value has no parameters:
// AllowN and the setters return an error wrapping [ErrInvalid] ("limiter: zero
// SlidingWindowLog; create it with NewSlidingWindowLog"), Admit reports false,
// State returns only the Kind and Fresh reports true; no method panics.
type SlidingWindowLog struct {
	header // lock, used flag, Keyed bookkeeping
	limit  int
	window time.Duration
	last   Instant
	ring   []Instant // up to limit entries (more only after SetLimit lowered it), oldest first from head
	head   int
	size   int
}

// NewSlidingWindowLog returns an empty sliding window log. limit is the most
// units admitted within any window, from 1 to [MaxLogLimit]; window is the
// window length, from 1 ns to [MaxWindow]. It returns an error naming the
// parameter when either is out of range.
func NewSlidingWindowLog(limit int, window time.Duration) (*SlidingWindowLog, error) {
	if err := checkLogLimit(limit, window); err != nil {
		return nil, err
	}
	return &SlidingWindowLog{header: header{kind: tagSlidingWindowLog}, limit: limit, window: window}, nil
}

// MaxLogLimit is the largest limit of a sliding window log: the log holds one
// 8-byte instant per unit in the window, so a larger limit could hold over
// 128 MiB per key.
const MaxLogLimit = 1 << 24

func checkLogLimit(limit int, window time.Duration) error {
	if limit > MaxLogLimit {
		return errorf("limit %d is above %d; want at most %d (the log holds one instant per unit: use a sliding window counter for large limits)", limit, MaxLogLimit, MaxLogLimit)
	}
	return checkWindow(limit, window)
}

// Kind returns KindSlidingWindowLog.
func (sl *SlidingWindowLog) Kind() Kind { return KindSlidingWindowLog }

// Config returns the log's kind, limit and window, as [New] takes them.
func (sl *SlidingWindowLog) Config() Config {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	return Config{Kind: KindSlidingWindowLog, Limit: sl.limit, Window: sl.window}
}

func (sl *SlidingWindowLog) entry(i int) Instant {
	return sl.ring[(sl.head+i)%len(sl.ring)]
}

// at returns the evaluation instant and how many of the oldest entries have
// expired by then (binary search: the log is in time order).
func (sl *SlidingWindowLog) at(now Instant) (Instant, int) {
	if sl.used && now < sl.last {
		now = sl.last
	}
	expired := sort.Search(sl.size, func(i int) bool { return now-sl.entry(i) < sl.window })
	return now, expired
}

// Admit decides a request of n requests at now exactly as AllowN does and
// reports only whether it is admitted (see [TokenBucket.Admit]); a window
// strategy counts in any case, so it saves only the metadata. A negative n is
// never admitted and changes nothing.
func (sl *SlidingWindowLog) Admit(now Instant, n int) bool {
	d, err := sl.AllowN(now, n)
	return err == nil && d.Allowed
}

// AllowN decides a request of n units at now; see [Strategy].
func (sl *SlidingWindowLog) AllowN(now Instant, n int) (Decision, error) {
	if sl.zero(tagSlidingWindowLog) {
		return Decision{}, errZeroSlidingWindowLog
	}
	if n < 0 {
		return Decision{}, checkN(n)
	}
	sl.mu.Lock()
	d := sl.allowLocked(now, n) // cannot panic: see header
	sl.mu.Unlock()
	return d, nil
}

func (sl *SlidingWindowLog) allowLocked(now Instant, n int) Decision {
	at, expired := sl.at(now)
	count := sl.size - expired
	d := Decision{Limit: sl.limit}
	switch {
	case n > sl.limit:
		d.RetryAfter = Never
	case n > 0 && count+n > sl.limit:
		// The same request fits once the (count+n−limit)-th oldest entry in
		// the window has expired.
		d.RetryAfter = sl.entry(expired+count+n-sl.limit-1) + sl.window - at
	default:
		d.Allowed = true
		if n > 0 {
			sl.record(at, expired, n)
			count += n
		}
	}
	d.Remaining = max(sl.limit-count, 0) // count may exceed a lowered limit
	if count > 0 {
		d.ResetAfter = sl.entry(sl.size-1) + sl.window - at
	}
	return d.waitsFrom(now, at)
}

func (sl *SlidingWindowLog) record(at Instant, expired, n int) {
	sl.drop(expired)
	if need := sl.size + n; need > len(sl.ring) {
		// Double, up to the limit (need ≤ limit: the request was admitted).
		sl.resize(min(max(need, 2*len(sl.ring)), sl.limit))
	}
	for range n {
		sl.ring[(sl.head+sl.size)%len(sl.ring)] = at
		sl.size++
	}
	sl.used, sl.last = true, at
}

// State returns the entries within the window at now (Log, oldest first),
// their Count and the Window.
func (sl *SlidingWindowLog) State(now Instant) State {
	if sl.zero(tagSlidingWindowLog) {
		return State{Kind: KindSlidingWindowLog}
	}
	sl.mu.Lock()
	defer sl.mu.Unlock()
	_, expired := sl.at(now)
	s := State{Kind: KindSlidingWindowLog, Limit: sl.limit, Window: sl.window, Count: sl.size - expired}
	s.Log = make([]Instant, 0, s.Count)
	for i := expired; i < sl.size; i++ {
		s.Log = append(s.Log, sl.entry(i))
	}
	return s
}

// Fresh reports whether no entry is within the window at now.
func (sl *SlidingWindowLog) Fresh(now Instant) bool {
	if sl.zero(tagSlidingWindowLog) {
		return true
	}
	sl.mu.Lock()
	defer sl.mu.Unlock()
	return sl.freshLocked(now)
}

func (sl *SlidingWindowLog) freshLocked(now Instant) bool {
	_, expired := sl.at(now)
	return expired == sl.size
}

// SetLimit changes the limit at now. The log keeps every entry still within
// the window, even above a lowered limit: nothing is admitted until enough
// of them have expired, and a limit lowered and raised again never admits
// more than the raised limit in any window.
func (sl *SlidingWindowLog) SetLimit(now Instant, limit int) error {
	if sl.zero(tagSlidingWindowLog) {
		return errZeroSlidingWindowLog
	}
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if err := checkLogLimit(limit, sl.window); err != nil {
		return err
	}
	_, expired := sl.at(now)
	sl.drop(expired)
	if sl.size <= limit && len(sl.ring) > limit {
		sl.resize(limit) // give back what the larger limit held
	}
	sl.limit = limit
	return nil
}

// drop forgets the oldest n entries.
func (sl *SlidingWindowLog) drop(n int) {
	if n > 0 {
		sl.head = (sl.head + n) % len(sl.ring)
		sl.size -= n
	}
}

// resize moves the entries to a ring of capacity c ≥ size, oldest first.
func (sl *SlidingWindowLog) resize(c int) {
	ring := make([]Instant, c)
	for i := range sl.size {
		ring[i] = sl.entry(i)
	}
	sl.ring, sl.head = ring, 0
}

// SetWindow changes the window length at now: entries expired at now under
// the old length are dropped, the others are kept and expire under the new
// length.
func (sl *SlidingWindowLog) SetWindow(now Instant, window time.Duration) error {
	if sl.zero(tagSlidingWindowLog) {
		return errZeroSlidingWindowLog
	}
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if err := checkWindow(sl.limit, window); err != nil {
		return err
	}
	// Entries already expired at now under the old length stay expired.
	_, expired := sl.at(now)
	sl.drop(expired)
	sl.window = window
	return nil
}
