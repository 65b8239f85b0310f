package limiter

import "time"

// LeakyBucket is the leaky bucket algorithm, as a meter with a shaping delay
// (the form of nginx's limit_req and Shopify's REST Admin API): a bucket of
// capacity units whose water leaks out at one unit per leak interval. A
// request of n is admitted when the level plus n stays within capacity; it
// then adds n to the level. Used as a queue, an admitted request is served
// after Delay = (level after admission − 1) × leak interval.
//
// As a meter it makes the decisions of a token bucket with burst = capacity
// and rate = 1/leak interval, as long as neither is changed (see
// [LeakyBucket.SetCapacity] for where they part). The level is kept in integer nanoseconds of
// water (one unit = one leak interval), so it is exact.
//
// Create one with [NewLeakyBucket]. The zero value has no parameters: AllowN
// and the setters return an error wrapping [ErrInvalid] ("limiter: zero
// LeakyBucket; create it with NewLeakyBucket"), Admit reports false, State
// returns only the Kind and Fresh reports true; no method panics.
type LeakyBucket struct {
	header             // lock, used flag, Keyed bookkeeping
	m      *bucketMath // shared, immutable parameters (m.interval is the leak interval)
	last   Instant
	water  int64 // level × interval, in nanoseconds
}

// NewLeakyBucket returns an empty leaky bucket. capacity is in units, from
// 1 to the largest int; leakInterval is the time for one unit to leak out,
// from 1 ns to the largest Duration (about 292 years): a leak rate of one
// unit per leakInterval, 1e9 down to about 1.1e-10 units per second. Every
// capacity works at every leak interval, exactly: a bucket whose full
// level, capacity × leakInterval, passes 2⁶¹ ns (a drain of over 73 years:
// 1e12 units at 10 ms or at 1 h, where 64-bit nanoseconds end at 2.3 ms)
// keeps its level in 128-bit integers, at some cost in speed and memory
// (as the token bucket's wide arithmetic, see [NewTokenBucket]; other
// buckets are unchanged). A wait beyond the largest Duration is [Never]; a
// queue Delay beyond it is Never − 1 ns.
//
// It returns an error wrapping [ErrInvalid] naming the parameter when
// capacity is below 1 ("limiter: capacity 0 is below 1; want >= 1") or
// leakInterval below 1 ns ("limiter: leak interval 0s is below 1ns; want
// >= 1ns").
func NewLeakyBucket(capacity int, leakInterval time.Duration) (*LeakyBucket, error) {
	m, err := leakyMath(capacity, leakInterval)
	if err != nil {
		return nil, err
	}
	return &LeakyBucket{header: header{kind: tagLeakyBucket}, m: m}, nil
}

func leakyMath(capacity int, interval time.Duration) (*bucketMath, error) {
	switch {
	case capacity < 1:
		return nil, errorf("capacity %d is below 1; want >= 1", capacity)
	case interval < 1:
		return nil, errorf("leak interval %v is below 1ns; want >= 1ns", interval)
	case int64(capacity) > maxUnits/int64(interval):
		// A full bucket takes over 73 years to drain (1e12 units at a
		// leak interval of 1 h): the water needs more than 64 bits.
		return newWideLeaky(capacity, interval), nil
	}
	return params(bucketMath{perNs: 1, unit: int64(interval), burst: int64(capacity), interval: interval}), nil
}

// Kind returns KindLeakyBucket.
func (lb *LeakyBucket) Kind() Kind { return KindLeakyBucket }

// Config returns the bucket's kind, capacity and leak interval, as [New]
// takes them.
func (lb *LeakyBucket) Config() Config {
	if lb.zero(tagLeakyBucket) {
		return Config{Kind: KindLeakyBucket}
	}
	lb.mu.Lock()
	defer lb.mu.Unlock()
	return Config{Kind: KindLeakyBucket, Capacity: int(lb.m.burst), LeakInterval: lb.m.interval}
}

func (lb *LeakyBucket) at(now Instant) (Instant, int64) {
	if !lb.used {
		return now, 0
	}
	if now < lb.last {
		now = lb.last
	}
	return now, lb.m.pay(lb.water, now-lb.last)
}

// AllowN decides a request of n units at now; see [Strategy]. An allowed
// request reports the queue Delay before it would be served.
func (lb *LeakyBucket) AllowN(now Instant, n int) (d Decision, err error) {
	if lb.zero(tagLeakyBucket) {
		return Decision{}, errZeroLeakyBucket
	}
	if n < 0 {
		return Decision{}, checkN(n)
	}
	lb.mu.Lock()
	o := lb.decideLocked(now, n) // cannot panic: see header
	lb.mu.Unlock()
	leakyFill(&d, o, now, n)
	return d, nil
}

// Admit decides a request of n units at now exactly as AllowN does, filling
// the bucket in the same way, and reports only whether it is admitted (see
// [TokenBucket.Admit]). A negative n is never admitted and changes nothing.
func (lb *LeakyBucket) Admit(now Instant, n int) bool {
	if n < 0 || lb.zero(tagLeakyBucket) {
		return false
	}
	lb.mu.Lock()
	o := lb.decideLocked(now, n)
	lb.mu.Unlock()
	return o.ok
}

// decideLocked decides a request of n ≥ 0 at now and applies it, with lb.mu
// held: the level plus n must stay within the capacity.
func (lb *LeakyBucket) decideLocked(now Instant, n int) outcome {
	if lb.m.wide != nil {
		return lb.m.decideWide(&lb.used, &lb.last, now, n)
	}
	at, water := lb.at(now)
	ok, next := lb.m.admit(water, n)
	if ok && n > 0 {
		lb.used, lb.last, lb.water = true, at, next
	}
	return outcome{m: lb.m, at: at, next: next, ok: ok}
}

// leakyFill fills in d (zero) with the bucket's Decision plus, for an
// admitted request, its queue Delay: (level after − 1) × leak interval, the
// water being kept in nanoseconds of leaking. Like the other waits, Delay
// counts from the request's own instant: a stale request, evaluated at a
// later instant, joins the queue there, so it is served that much later.
func leakyFill(d *Decision, o outcome, now Instant, n int) {
	o.fill(d, now, n)
	if o.ok && n > 0 {
		if w := o.m.wide; w != nil {
			d.Delay = w.queueDelay()
		} else {
			d.Delay = max(time.Duration(o.next)-o.m.interval, 0)
		}
		if lag := o.at - now; lag > 0 {
			d.Delay = min(d.Delay, Never-1-lag) + lag // below Never, which means "not admitted"
		}
	}
}

// State returns the water Level at now (above Limit only after SetCapacity
// lowered it), Limit (capacity) and Rate (units leaked per second).
func (lb *LeakyBucket) State(now Instant) State {
	if lb.zero(tagLeakyBucket) {
		return State{Kind: KindLeakyBucket}
	}
	lb.mu.Lock()
	defer lb.mu.Unlock()
	s := State{Kind: KindLeakyBucket, Limit: int(lb.m.burst), Rate: float64(time.Second) / float64(lb.m.interval)}
	if w := lb.m.wide; w != nil {
		_, water := w.pay(lb.used, lb.last, now)
		s.Level = w.units(water)
		return s
	}
	_, water := lb.at(now)
	s.Level = float64(water) / float64(lb.m.interval)
	return s
}

// Fresh reports whether the bucket is empty at now.
func (lb *LeakyBucket) Fresh(now Instant) bool {
	if lb.zero(tagLeakyBucket) {
		return true
	}
	lb.mu.Lock()
	defer lb.mu.Unlock()
	return lb.freshLocked(now)
}

func (lb *LeakyBucket) freshLocked(now Instant) bool {
	if w := lb.m.wide; w != nil {
		_, water := w.pay(lb.used, lb.last, now)
		return water.isZero()
	}
	_, water := lb.at(now)
	return water == 0
}

// SetCapacity changes the capacity at now; the water leaks under the old
// parameters up to now and is kept, even above a lowered capacity: nothing
// is admitted until it has leaked below (so lowering the capacity and
// raising it again forgets nothing, as with the window strategies' counts).
// A larger capacity is free room at once, where a token bucket's larger
// burst adds no tokens. It returns an error, and changes nothing, for a
// capacity NewLeakyBucket would reject.
func (lb *LeakyBucket) SetCapacity(now Instant, capacity int) error {
	if lb.zero(tagLeakyBucket) {
		return errZeroLeakyBucket
	}
	lb.mu.Lock()
	defer lb.mu.Unlock()
	m, err := leakyMath(capacity, lb.m.interval)
	if err != nil {
		return err
	}
	lb.reconfigure(now, m)
	return nil
}

// SetLeakInterval changes the leak interval at now, keeping the level (in
// units) reached at now. It returns an error, and changes nothing, for an
// interval NewLeakyBucket would reject.
func (lb *LeakyBucket) SetLeakInterval(now Instant, leakInterval time.Duration) error {
	if lb.zero(tagLeakyBucket) {
		return errZeroLeakyBucket
	}
	lb.mu.Lock()
	defer lb.mu.Unlock()
	m, err := leakyMath(int(lb.m.burst), leakInterval)
	if err != nil {
		return err
	}
	lb.reconfigure(now, m)
	return nil
}

// reconfigure moves the bucket to the parameters m at now, keeping the
// level (in units, rounded up) reached at now, even above a lowered
// capacity.
func (lb *LeakyBucket) reconfigure(now Instant, m *bucketMath) {
	if !lb.used {
		lb.m = m
		return
	}
	at, water := lb.at(now)
	if lb.m.wide != nil || m.wide != nil || water > lb.m.full {
		// Wide, or a level above the capacity, which may not fit 64 bits
		// in the new unit.
		lb.m, lb.water = rebaseLeaky(lb.m, m, lb.last, water, now)
	} else {
		lb.m, lb.water = m, rebase(water, lb.m.unit, m.unit)
	}
	lb.last = at
}

// zeroError returns the error of the zero value (see [NewWaiter]), or nil.
func (lb *LeakyBucket) zeroError() error {
	if lb.zero(tagLeakyBucket) {
		return errZeroLeakyBucket
	}
	return nil
}
