package limiter

import (
	"errors"
	"fmt"
	"time"
)

// Reservation is n units that a token bucket, GCRA or leaky bucket has set
// aside for a request that may proceed after Delay: the bucket goes into
// debt (a negative number of tokens, a level above the capacity) at once,
// so later requests queue behind it. It is the form of waiting a bucket can
// promise: nothing admitted later can take the reserved units.
//
// A change of rate or burst (SetRate, SetBurst, SetCapacity,
// SetLeakInterval) keeps the whole debt, converted exactly into the new
// parameters' units: the reserved units stay taken, so a config reload never
// admits what queued callers were promised, and Cancel gives back exactly
// the n units. A Reservation keeps the Delay it was given; under a lower
// rate the debt behind it takes longer to pay back, so later requests wait
// longer (x/time/rate does the same). A Reservation is used by one
// goroutine; its bucket may be used by many.
type Reservation struct {
	s     reserving
	n     int
	delay time.Duration
	act   Instant // the instant from which the request may proceed
	done  bool    // cancelled; guarded by the bucket's lock
}

// reserving is what a Reservation needs of its bucket.
type reserving interface {
	cancelReservation(r *Reservation, now Instant) bool
}

// Delay is how long the request must wait, from the instant it was
// reserved at, before it proceeds: 0 when the units were there at once,
// else the time for the bucket to pay back the debt beyond full, rounded
// up to the nanosecond.
func (r *Reservation) Delay() time.Duration { return r.delay }

// Cancel gives the reserved units back at now, unless the reservation's
// time has come (now is after the reserved instant plus Delay: the request
// may have proceeded) or it was cancelled already, and reports whether it
// gave them back. It gives back exactly the n units it took, in the
// bucket's exact integer arithmetic: when nothing else has been admitted
// or reserved since, the bucket is then exactly as if the reservation had
// never been made (x/time/rate's float arithmetic does not manage this:
// golang/go #56924, #69419). A request stamped before the bucket's latest
// instant is evaluated at that instant, as everywhere in this package.
func (r *Reservation) Cancel(now Instant) bool {
	if r.n == 0 {
		return false
	}
	return r.s.cancelReservation(r, now)
}

// reserve returns the debt after reserving n at debt and the wait until
// the request may proceed, or an error when no wait will do.
func (b *bucketMath) reserve(debt int64, n int) (int64, time.Duration, error) {
	switch {
	case n < 0:
		return 0, 0, checkN(n)
	case b.inf || n == 0:
		return debt, 0, nil
	case int64(n) > b.burst:
		return 0, 0, errorf("n %d is above the %s %d, so no wait would do; want n <= %d", n, b.sizeName(), b.burst, b.burst)
	}
	next := debt + int64(n)*b.unit
	if next <= b.full {
		return next, 0, nil
	}
	if b.perNs == 0 {
		return 0, 0, errorf("n %d is above the %d units left at rate 0, which never refills; want n <= %d", n, b.remaining(debt), b.remaining(debt))
	}
	if next > maxUnits {
		return 0, 0, errorf("n %d would queue behind reservations worth over %v of waiting; want fewer reservations outstanding", n, time.Duration(ceilDivPos(debt-b.full, b.perNs)))
	}
	return next, time.Duration(ceilDivPos(next-b.full, b.perNs)), nil
}

// sizeName names the bucket's size as its constructor does: a leaky
// bucket's capacity, else the burst.
func (b *bucketMath) sizeName() string {
	if b.interval > 0 {
		return "capacity"
	}
	return "burst"
}

// giveBack returns the debt after n units taken by a reservation are given
// back, exactly; it cannot go below 0 (a full bucket).
func (b *bucketMath) giveBack(debt int64, n int) int64 {
	if b.inf {
		return 0
	}
	return max(debt-int64(n)*b.unit, 0)
}

func newReservation(s reserving, at Instant, n int, wait time.Duration, now Instant) *Reservation {
	r := &Reservation{s: s, n: n, delay: wait, act: at + wait}
	if at > now { // a stale request waits from its own instant
		r.delay = addLag(wait, at-now)
	}
	return r
}

// reserveLocked reserves n on the 64-bit arithmetic m of a token bucket
// (state: its debt), GCRA (its TAT lead) or leaky bucket (its water), whose
// state at its evaluation instant at is cur; the strategy's lock is held.
func reserveLocked(s reserving, m *bucketMath, used *bool, last *Instant, state *int64, at Instant, cur int64, now Instant, n int) (*Reservation, error) {
	next, wait, err := m.reserve(cur, n)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		*used, *last, *state = true, at, next
	}
	return newReservation(s, at, n, wait, now), nil
}

// cancelLocked gives r's n back to the state that reserveLocked took it
// from, unless r is done or the strategy has moved past r's instant.
func cancelLocked(m *bucketMath, r *Reservation, last *Instant, state *int64, at Instant, cur int64) bool {
	if r.done || at > r.act {
		return false
	}
	r.done = true
	*last, *state = at, m.giveBack(cur, r.n)
	return true
}

// Reserve reserves n tokens at now and returns the Reservation, whose
// Delay is how long the request must wait. It returns an error wrapping
// ErrInvalid, and changes nothing, when n is negative, above the burst, or
// above the tokens left at rate 0 (no wait would do).
func (tb *TokenBucket) Reserve(now Instant, n int) (*Reservation, error) {
	if tb.zero(tagTokenBucket) {
		return nil, errZeroTokenBucket
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if tb.m.wide != nil {
		return reserveWide(tb, tb.m, &tb.used, &tb.last, now, n)
	}
	at, debt := tb.at(now)
	return reserveLocked(tb, tb.m, &tb.used, &tb.last, &tb.debt, at, debt, now, n)
}

func (tb *TokenBucket) cancelReservation(r *Reservation, now Instant) bool {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if tb.m.wide != nil {
		return cancelWide(tb.m.wide, r, &tb.last, tb.used, now)
	}
	at, debt := tb.at(now)
	return cancelLocked(tb.m, r, &tb.last, &tb.debt, at, debt)
}

// Reserve reserves n at now (as [TokenBucket.Reserve]): TAT moves ahead by
// n emission intervals even past the tolerance, and Delay is how far past.
func (g *GCRA) Reserve(now Instant, n int) (*Reservation, error) {
	if g.zero(tagGCRA) {
		return nil, errZeroGCRA
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m.wide != nil {
		return reserveWide(g, g.m, &g.used, &g.last, now, n)
	}
	at, ahead := g.at(now)
	return reserveLocked(g, g.m, &g.used, &g.last, &g.ahead, at, ahead, now, n)
}

func (g *GCRA) cancelReservation(r *Reservation, now Instant) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m.wide != nil {
		return cancelWide(g.m.wide, r, &g.last, g.used, now)
	}
	at, ahead := g.at(now)
	return cancelLocked(g.m, r, &g.last, &g.ahead, at, ahead)
}

// Reserve reserves n units at now (as [TokenBucket.Reserve]): the level
// may rise above the capacity, and Delay is the time for it to leak back
// down to the capacity.
func (lb *LeakyBucket) Reserve(now Instant, n int) (*Reservation, error) {
	if lb.zero(tagLeakyBucket) {
		return nil, errZeroLeakyBucket
	}
	lb.mu.Lock()
	defer lb.mu.Unlock()
	if lb.m.wide != nil {
		return reserveWide(lb, lb.m, &lb.used, &lb.last, now, n)
	}
	at, water := lb.at(now)
	return reserveLocked(lb, lb.m, &lb.used, &lb.last, &lb.water, at, water, now, n)
}

func (lb *LeakyBucket) cancelReservation(r *Reservation, now Instant) bool {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	if lb.m.wide != nil {
		return cancelWide(lb.m.wide, r, &lb.last, lb.used, now)
	}
	at, water := lb.at(now)
	return cancelLocked(lb.m, r, &lb.last, &lb.water, at, water)
}

// Reserver is a strategy that can reserve: [*TokenBucket], [*GCRA] and
// [*LeakyBucket].
type Reserver interface {
	Strategy
	Reserve(now Instant, n int) (*Reservation, error)
}

// ErrNotReservable is wrapped by the error of [NewWaiter] for a strategy
// that cannot reserve (the window strategies, and strategies from outside
// this package that do not implement [Reserver]).
var ErrNotReservable = errors.New("strategy cannot reserve")

type notReservable struct{ kind Kind }

func (e *notReservable) Error() string {
	name := e.kind.Name()
	if name == "" {
		name = "nil strategy"
	}
	return fmt.Sprintf("limiter: a %s cannot reserve (a window strategy's wait is not a promise: "+
		"requests admitted meanwhile take the room); want a token bucket, GCRA or leaky bucket", name)
}

func (e *notReservable) Unwrap() []error { return []error{ErrNotReservable, ErrInvalid} }

// reserveWide is Reserve for a token bucket, GCRA or leaky bucket with wide
// arithmetic, with its lock held.
func reserveWide(s reserving, b *bucketMath, used *bool, last *Instant, now Instant, n int) (*Reservation, error) {
	at, debt := b.wide.pay(*used, *last, now)
	next, wait, err := b.reserveWide(debt, n)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		*used, *last = true, at
		b.wide.debt = next
	}
	return newReservation(s, at, n, wait, now), nil
}

// cancelWide is cancelReservation for a token bucket, GCRA or leaky bucket
// with wide arithmetic, with its lock held.
func cancelWide(w *wideMath, r *Reservation, last *Instant, used bool, now Instant) bool {
	at, debt := w.pay(used, *last, now)
	if r.done || at > r.act {
		return false
	}
	r.done = true
	*last = at
	w.giveBack(debt, r.n)
	return true
}
