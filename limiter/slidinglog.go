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
// O(limit) memory per client: the log is a ring buffer of limit instants.
//
// Create one with [NewSlidingWindowLog]: the zero value is not usable.
type SlidingWindowLog struct {
	header // lock, used flag, Keyed bookkeeping
	limit  int
	window time.Duration
	last   Instant
	ring   []Instant // capacity limit; entries oldest first from head
	head   int
	size   int
}

// NewSlidingWindowLog returns an empty sliding window log. limit is the most
// units admitted within any window, ≥ 1; window is the window length, ≥ 1 ns.
// It returns an error naming the parameter when either is out of range or
// when limit × window overflows.
func NewSlidingWindowLog(limit int, window time.Duration) (*SlidingWindowLog, error) {
	if err := checkLogLimit(limit, window); err != nil {
		return nil, err
	}
	return &SlidingWindowLog{header: header{kind: tagSlidingWindowLog}, limit: limit, window: window}, nil
}

// MaxLogLimit is the largest limit of a sliding window log: the log holds one
// 8-byte instant per unit, so a larger limit would hold over 128 MiB per key.
const MaxLogLimit = 1 << 24

func checkLogLimit(limit int, window time.Duration) error {
	if limit > MaxLogLimit {
		return errorf("limit %d is above %d; want at most %d (the log holds one instant per unit: use a sliding window counter for large limits)", limit, MaxLogLimit, MaxLogLimit)
	}
	return checkWindow(limit, window)
}

// Kind returns KindSlidingWindowLog.
func (sl *SlidingWindowLog) Kind() Kind { return KindSlidingWindowLog }

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
	if n < 0 {
		return Decision{}, checkN(n)
	}
	sl.mu.Lock()
	d := sl.allowLocked(now, n)
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
	d.Remaining = sl.limit - count
	if count > 0 {
		d.ResetAfter = sl.entry(sl.size-1) + sl.window - at
	}
	return d.waitsFrom(now, at)
}

func (sl *SlidingWindowLog) record(at Instant, expired, n int) {
	if sl.ring == nil {
		sl.ring = make([]Instant, sl.limit)
	}
	sl.head = (sl.head + expired) % len(sl.ring)
	sl.size -= expired
	for range n {
		sl.ring[(sl.head+sl.size)%len(sl.ring)] = at
		sl.size++
	}
	sl.used, sl.last = true, at
}

// State returns the entries within the window at now (Log, oldest first),
// their Count and the Window.
func (sl *SlidingWindowLog) State(now Instant) State {
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
	sl.mu.Lock()
	defer sl.mu.Unlock()
	return sl.freshLocked(now)
}

func (sl *SlidingWindowLog) freshLocked(now Instant) bool {
	_, expired := sl.at(now)
	return expired == sl.size
}

// SetLimit changes the limit at now. The log keeps its newest entries, up to
// the new limit: older ones could only ever delay the same admissions.
func (sl *SlidingWindowLog) SetLimit(now Instant, limit int) error {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if err := checkLogLimit(limit, sl.window); err != nil {
		return err
	}
	_, expired := sl.at(now)
	keep := min(sl.size-expired, limit)
	ring := make([]Instant, limit)
	for i := range keep {
		ring[i] = sl.entry(sl.size - keep + i)
	}
	sl.ring, sl.head, sl.size, sl.limit = ring, 0, keep, limit
	return nil
}

// SetWindow changes the window length at now: entries expired at now under
// the old length are dropped, the others are kept and expire under the new
// length.
func (sl *SlidingWindowLog) SetWindow(now Instant, window time.Duration) error {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if err := checkWindow(sl.limit, window); err != nil {
		return err
	}
	// Entries already expired at now under the old length stay expired.
	_, expired := sl.at(now)
	if expired > 0 {
		sl.head = (sl.head + expired) % len(sl.ring)
		sl.size -= expired
	}
	sl.window = window
	return nil
}
