package limiter

import "time"

// FixedWindow is the fixed window counter: time is cut into windows of
// length window, aligned to multiples of window on the limiter's clock, and
// at most limit units are admitted per window. Up to 2 × limit can pass
// around a boundary (limit at the end of one window, limit at the start of
// the next): that is the algorithm, and the cost of its O(1) memory. GitHub's
// REST API (5000 requests per hour, reset at a fixed instant) works this way.
//
// Create one with [NewFixedWindow]. The zero value has no parameters: AllowN
// and the setters return an error wrapping [ErrInvalid] ("limiter: zero
// FixedWindow; create it with NewFixedWindow"), Admit reports false, State
// returns only the Kind and Fresh reports true; no method panics.
type FixedWindow struct {
	header // lock, used flag, Keyed bookkeeping
	limit  int64
	window time.Duration
	last   Instant
	index  int64 // window number of the count below
	count  int64
}

// NewFixedWindow returns a fixed window limiter. limit is the most units
// admitted per window, ≥ 1; window is the window length, from 1 ns to
// [MaxWindow]. It returns an error naming the parameter when either is out of
// range.
func NewFixedWindow(limit int, window time.Duration) (*FixedWindow, error) {
	if err := checkWindow(limit, window); err != nil {
		return nil, err
	}
	return &FixedWindow{header: header{kind: tagFixedWindow}, limit: int64(limit), window: window}, nil
}

// MaxWindow is the longest window of the window strategies: 50 years of 365
// days, far beyond any quota period (a day, a month, a year), and short
// enough that an instant plus two windows stays within time.Duration.
const MaxWindow = 50 * 365 * 24 * time.Hour

func checkWindow(limit int, window time.Duration) error {
	switch {
	case limit < 1:
		return errorf("limit %d is below 1; want >= 1", limit)
	case window < 1:
		return errorf("window %v is below 1ns; want >= 1ns", window)
	case window > MaxWindow:
		return errorf("window %v is above %v (50 years); want 1ns <= window <= %v", window, MaxWindow, MaxWindow)
	}
	return nil
}

// Kind returns KindFixedWindow.
func (fw *FixedWindow) Kind() Kind { return KindFixedWindow }

// Config returns the limiter's kind, limit and window, as [New] takes them.
func (fw *FixedWindow) Config() Config {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	return Config{Kind: KindFixedWindow, Limit: int(fw.limit), Window: fw.window}
}

// at returns the evaluation instant, its window number and the count in it.
func (fw *FixedWindow) at(now Instant) (Instant, int64, int64) {
	if fw.used && now < fw.last {
		now = fw.last
	}
	idx := floorDiv(int64(now), int64(fw.window))
	if !fw.used || idx != fw.index {
		return now, idx, 0
	}
	return now, idx, fw.count
}

// Admit decides a request of n requests at now exactly as AllowN does and
// reports only whether it is admitted (see [TokenBucket.Admit]); a window
// strategy counts in any case, so it saves only the metadata. A negative n is
// never admitted and changes nothing.
func (fw *FixedWindow) Admit(now Instant, n int) bool {
	d, err := fw.AllowN(now, n)
	return err == nil && d.Allowed
}

// AllowN decides a request of n units at now; see [Strategy].
func (fw *FixedWindow) AllowN(now Instant, n int) (Decision, error) {
	if fw.zero(tagFixedWindow) {
		return Decision{}, errZeroFixedWindow
	}
	if n < 0 {
		return Decision{}, checkN(n)
	}
	fw.mu.Lock()
	d := fw.allowLocked(now, n) // cannot panic: see header
	fw.mu.Unlock()
	return d, nil
}

func (fw *FixedWindow) allowLocked(now Instant, n int) Decision {
	at, idx, count := fw.at(now)
	untilNext := time.Duration((idx+1)*int64(fw.window)) - at
	d := Decision{Limit: int(fw.limit)}
	switch {
	case int64(n) > fw.limit:
		d.RetryAfter = Never
	case n > 0 && int64(n) > fw.limit-count: // count+n > limit, which could overflow; a peek is allowed even above a lowered limit
		d.RetryAfter = untilNext
	default:
		d.Allowed = true
		count += int64(n)
		if n > 0 {
			fw.used, fw.last, fw.index, fw.count = true, at, idx, count
		}
	}
	// A limit lowered by SetLimit may leave count above it: nothing remains.
	d.Remaining = int(max(fw.limit-count, 0))
	if count > 0 {
		d.ResetAfter = untilNext
	}
	return d.waitsFrom(now, at)
}

// State returns the current window's start, length and Count.
func (fw *FixedWindow) State(now Instant) State {
	if fw.zero(tagFixedWindow) {
		return State{Kind: KindFixedWindow}
	}
	fw.mu.Lock()
	defer fw.mu.Unlock()
	_, idx, count := fw.at(now)
	return State{Kind: KindFixedWindow, Limit: int(fw.limit), Window: fw.window,
		WindowStart: time.Duration(idx * int64(fw.window)), Count: int(count)}
}

// Fresh reports whether the current window's count is 0.
func (fw *FixedWindow) Fresh(now Instant) bool {
	if fw.zero(tagFixedWindow) {
		return true
	}
	fw.mu.Lock()
	defer fw.mu.Unlock()
	return fw.freshLocked(now)
}

func (fw *FixedWindow) freshLocked(now Instant) bool {
	_, _, count := fw.at(now)
	return count == 0
}

// SetLimit changes the per-window limit at now; the count of the current
// window is kept.
func (fw *FixedWindow) SetLimit(now Instant, limit int) error {
	if fw.zero(tagFixedWindow) {
		return errZeroFixedWindow
	}
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if err := checkWindow(limit, fw.window); err != nil {
		return err
	}
	fw.limit = int64(limit)
	return nil
}

// SetWindow changes the window length at now. Windows are re-aligned to the
// new length; what was admitted in the window that contains now is kept as
// the count of the new window that contains now, so no change of length
// forgives requests just admitted.
func (fw *FixedWindow) SetWindow(now Instant, window time.Duration) error {
	if fw.zero(tagFixedWindow) {
		return errZeroFixedWindow
	}
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if err := checkWindow(int(fw.limit), window); err != nil {
		return err
	}
	at, _, count := fw.at(now)
	fw.window = window
	if fw.used {
		fw.last, fw.index, fw.count = at, floorDiv(int64(at), int64(window)), count
	}
	return nil
}
