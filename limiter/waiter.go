package limiter

import (
	"context"
	"fmt"
	"time"
)

// Waiter blocks until a token bucket, GCRA or leaky bucket admits a request:
// a client pacing its own calls to an API, a worker draining a queue, a
// copy throttled to a bandwidth (n in bytes). It reads a clock and sleeps
// on a timer, both replaceable so that tests run on a fake clock and never
// sleep. It is safe for concurrent use.
//
// Create one with [NewWaiter].
type Waiter struct {
	r     Reserver
	clock Clock
	timer func(time.Duration) (<-chan time.Time, func() bool)
}

// WaiterOptions configures a Waiter; the zero value is usable.
type WaiterOptions struct {
	// Clock gives the instants of the requests; it must be the clock of the
	// strategy's other callers. nil means a monotonic clock whose origin is
	// the call to NewWaiter.
	Clock Clock
	// Timer returns a channel that receives once d has passed on Clock,
	// and a function that stops it. nil means time.NewTimer's channel and
	// Stop.
	Timer func(d time.Duration) (c <-chan time.Time, stop func() bool)
}

// NewWaiter returns a Waiter for s. It returns an error wrapping
// [ErrNotReservable] and [ErrInvalid] when s cannot reserve: a window
// strategy, whose wait is not a promise; and the zero value's error
// ("limiter: zero TokenBucket; create it with NewTokenBucket", wrapping
// [ErrInvalid]) for a bucket not made by its constructor.
func NewWaiter(s Strategy, opts WaiterOptions) (*Waiter, error) {
	r, ok := s.(Reserver)
	if !ok || s == nil || isNilPointer(s) {
		var kind Kind
		if s != nil && !isNilPointer(s) {
			kind = s.Kind()
		}
		return nil, &notReservable{kind: kind}
	}
	if z, ok := s.(interface{ zeroError() error }); ok {
		if err := z.zeroError(); err != nil {
			return nil, err
		}
	}
	w := &Waiter{r: r, clock: opts.Clock, timer: opts.Timer}
	if w.clock == nil {
		w.clock = NewMonotonicClock()
	}
	if w.timer == nil {
		w.timer = func(d time.Duration) (<-chan time.Time, func() bool) {
			t := time.NewTimer(d)
			return t.C, t.Stop
		}
	}
	return w, nil
}

// Wait reserves n units at the clock's instant and blocks for the
// reservation's delay. It returns at once, without waiting and giving the
// units back, with an error wrapping context.DeadlineExceeded when the
// delay would pass ctx's deadline (so a caller with 100 ms left learns it
// now, not in 100 ms: golang/go #54541), and with ctx's error when ctx is
// done while waiting, again giving the units back. A cancel noticed once
// the delay has passed on the clock gives nothing back (see
// [Reservation.Cancel]): the wait succeeded, and Wait returns nil, so the
// units are either the caller's or the bucket's, never lost. It returns the
// strategy's error, without waiting, when no wait would do (n above the
// burst or capacity, or rate 0).
func (w *Waiter) Wait(ctx context.Context, n int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := w.clock.Now()
	r, err := w.r.Reserve(now, n)
	if err != nil {
		return err
	}
	d := r.Delay()
	if d == 0 {
		return nil
	}
	if deadline, ok := ctx.Deadline(); ok && d > time.Until(deadline) {
		r.Cancel(now)
		return fmt.Errorf("limiter: a wait of %v for %d would pass the context's deadline: %w", d, n, context.DeadlineExceeded)
	}
	c, stop := w.timer(d)
	select {
	case <-c:
		return nil
	case <-ctx.Done():
		stop()
		if !r.Cancel(w.clock.Now()) {
			// The reservation's time had come when the cancel was noticed:
			// the units cannot be given back, so the wait succeeded.
			return nil
		}
		return ctx.Err()
	}
}
