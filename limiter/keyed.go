package limiter

import (
	"hash/maphash"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Factory returns the strategy for a key that has none yet. It receives the
// key, so tiers ("free:alice" gets 10/s, "pro:bob" 100/s) and composite keys
// (client + endpoint) need no change to the strategies.
type Factory func(key string) (Strategy, error)

// Keyed holds one strategy per key (client, API token, IP, client +
// endpoint), created on first use from a Factory. It is safe for concurrent
// use: keys live in a sharded hash table and each key has its own lock, so
// requests for unrelated keys never wait on each other, and two concurrent first
// requests for one key share one strategy. The factory runs with no lock
// held (it may be slow, or call the Keyed itself); for two concurrent first
// requests of one key it may run twice, and only one result is kept.
//
// Idle keys are evicted by Sweep, and by an amortised sweep (no goroutine):
// every SweepEvery requests to a shard (so, over all shards, once every
// SweepEvery requests on average), and at each new key, it examines a
// bounded number of keys of one shard (shards in turn, from a random place
// in the shard), so its cost per request is a small constant whatever the
// number of keys. A key is removed only when it has had no request for IdleTTL and
// its state equals a fresh strategy's, so evicting never changes a later
// decision: a client in debt keeps its debt. Requests reach a Keyed slightly
// out of order (each goroutine reads the clock before it takes any lock), so
// the amortised sweep, which runs among them, evicts at now only keys
// already fresh at now − max(IdleTTL, EvictionSlack): a request stamped up
// to that long before the sweeping one decides as if its key had never been
// evicted. Sweep keeps no margin (see there).
//
// Memory: the strategies of this package are held directly as table entries
// (their lock is the key's lock, and they hold the key), and token buckets,
// GCRA and leaky buckets of one tier share their immutable parameters, so an
// idle token bucket, GCRA or leaky bucket key costs a 64-byte state, one
// cache line (GCRA keeps its exact TAT as a lead over its latest instant; 8
// bytes more would fall in Go's 80-byte size class), and its table slots:
// 16 bytes (the key's 64-bit hash and a pointer) at a load of 7/12 to 7/8,
// 18 to 27 bytes a key. A shard's table grows by 1.5× at once, with the
// shard's lock held (for a shard of 15,000 keys, a copy of 15,000 slots).
// Removed entries keep their slots, so a sweep that leaves a shard under a
// quarter of the most keys it has held rebuilds that shard's table: after a
// sweep of idle keys the heap returns to what the keys still held need.
//
// Create one with [NewKeyed]: the zero value is not usable.
type Keyed struct {
	factory Factory
	ttl     time.Duration
	clock   Clock
	every   uint64
	seed    maphash.Seed
	// hashMask is ANDed with every key's hash: all ones, except in tests
	// that make keys share a hash.
	hashMask uint64
	next     atomic.Uint64 // next shard for the amortised sweep
	shards   [numShards]shard
}

const numShards = 64

// Keys examined by one step of the amortised sweep, and at each new key.
const (
	sweepBatch    = 64
	sweepOnCreate = 2
)

// A shard finds a key's entry by the key's 64-bit hash, the one that picked
// the shard, in its table (keyedtable.go), so a request hashes its key once;
// the entry's key tells apart keys that share a hash.
type shard struct {
	mu  sync.RWMutex
	tab table
	// rebuilt is, while a rebuild copies tab's keys in batches, the table
	// that replaces tab (keys created or evicted meanwhile go to both); nil
	// otherwise. See rebuild.
	rebuilt *table
	peak    int // most keys tab has held: a sweep that leaves far fewer rebuilds it
	// ops counts the requests to this shard for the amortised sweep. It is
	// kept per shard, so that requests on different cores do not all write
	// one shared word, and on the shard's second line, away from the lock
	// and table that every request reads.
	ops atomic.Uint64
	_   [40]byte // one shard per two 64-byte cache lines
}

// insert adds h, the entry of a key that sh does not hold, with sh.mu held.
func (sh *shard) insert(hash uint64, h *header) {
	sh.tab.insert(hash, h)
	sh.peak = max(sh.peak, sh.tab.live)
	if sh.rebuilt != nil {
		sh.rebuilt.insert(hash, h)
	}
}

// remove removes h, held in sh under hash, with sh.mu held.
func (sh *shard) remove(hash uint64, h *header) {
	sh.tab.remove(hash, h)
	if sh.rebuilt != nil {
		sh.rebuilt.remove(hash, h)
	}
}

// foreign wraps a strategy from outside this package (or one already held by
// a Keyed) so that it can be held as an entry: the header's lock guards the
// Keyed bookkeeping, the strategy keeps its own lock.
type foreign struct {
	header
	s Strategy
}

// The methods below find the strategy a header leads. Every strategy of this
// package has its header as its first field, so a pointer to the header is a
// pointer to the strategy; kind says which type it is (adopt checks it).

func (h *header) strategy() Strategy {
	p := unsafe.Pointer(h)
	switch h.kind {
	case tagTokenBucket:
		return (*TokenBucket)(p)
	case tagGCRA:
		return (*GCRA)(p)
	case tagLeakyBucket:
		return (*LeakyBucket)(p)
	case tagFixedWindow:
		return (*FixedWindow)(p)
	case tagSlidingWindowLog:
		return (*SlidingWindowLog)(p)
	case tagSlidingWindowCounter:
		return (*SlidingWindowCounter)(p)
	}
	return (*foreign)(p).s
}

// allowLocked decides a request of n ≥ 0 with h.mu held.
func (h *header) allowLocked(now Instant, n int) (Decision, error) {
	p := unsafe.Pointer(h)
	switch h.kind {
	case tagTokenBucket:
		var d Decision
		(*TokenBucket)(p).decideLocked(now, n).fill(&d, now, n)
		return d, nil
	case tagGCRA:
		var d Decision
		(*GCRA)(p).decideLocked(now, n).fill(&d, now, n)
		return d, nil
	case tagLeakyBucket:
		var d Decision
		leakyFill(&d, (*LeakyBucket)(p).decideLocked(now, n), now, n)
		return d, nil
	case tagFixedWindow:
		return (*FixedWindow)(p).allowLocked(now, n), nil
	case tagSlidingWindowLog:
		return (*SlidingWindowLog)(p).allowLocked(now, n), nil
	case tagSlidingWindowCounter:
		return (*SlidingWindowCounter)(p).allowLocked(now, n), nil
	}
	return (*foreign)(p).s.AllowN(now, n)
}

// freshLocked reports, with h.mu held, whether the strategy is fresh at now.
func (h *header) freshLocked(now Instant) bool {
	p := unsafe.Pointer(h)
	switch h.kind {
	case tagTokenBucket:
		return (*TokenBucket)(p).freshLocked(now)
	case tagGCRA:
		return (*GCRA)(p).freshLocked(now)
	case tagLeakyBucket:
		return (*LeakyBucket)(p).freshLocked(now)
	case tagFixedWindow:
		return (*FixedWindow)(p).freshLocked(now)
	case tagSlidingWindowLog:
		return (*SlidingWindowLog)(p).freshLocked(now)
	case tagSlidingWindowCounter:
		return (*SlidingWindowCounter)(p).freshLocked(now)
	}
	return (*foreign)(p).s.Fresh(now)
}

// adopt returns the entry for a strategy a factory returned: the strategy's
// own header when it is one of this package's and no Keyed holds it yet, a
// wrapper otherwise (a factory may return one strategy for several keys, or
// return again a strategy that was evicted).
func adopt(s Strategy, key string) *header {
	var h *header
	var want kindTag
	switch x := s.(type) {
	case *TokenBucket:
		if x != nil {
			h, want = &x.header, tagTokenBucket
		}
	case *GCRA:
		if x != nil {
			h, want = &x.header, tagGCRA
		}
	case *LeakyBucket:
		if x != nil {
			h, want = &x.header, tagLeakyBucket
		}
	case *FixedWindow:
		if x != nil {
			h, want = &x.header, tagFixedWindow
		}
	case *SlidingWindowLog:
		if x != nil {
			h, want = &x.header, tagSlidingWindowLog
		}
	case *SlidingWindowCounter:
		if x != nil {
			h, want = &x.header, tagSlidingWindowCounter
		}
	}
	if h != nil {
		h.mu.Lock()
		own := h.kind == want && !h.keyed
		if own {
			h.keyed, h.seen, h.key = true, minInstant, key
		}
		h.mu.Unlock()
		if own {
			return h
		}
	}
	f := &foreign{header: header{kind: tagForeign, keyed: true, seen: minInstant, key: key}, s: s}
	return &f.header
}

// KeyedOptions configures a Keyed limiter. The zero value is usable.
type KeyedOptions struct {
	// IdleTTL is how long a key must go without requests before it may be
	// evicted; ≥ 0. 0 means keys may be evicted as soon as they are fresh
	// (by Sweep; the amortised sweep waits until they have been fresh for
	// EvictionSlack).
	IdleTTL time.Duration
	// SweepEvery is the number of requests to a shard between two steps of
	// the amortised sweep, each of which examines up to 64 keys of one
	// shard, shards in turn (each shard counts its own requests, so a step
	// comes once every SweepEvery requests on average; each new key also
	// examines 2); 0 means 1024, < 0 disables amortised sweeping (call
	// Sweep yourself).
	SweepEvery int
	// Clock is read by Allow and AllowN; nil means a monotonic clock whose
	// origin is the call to NewKeyed.
	Clock Clock
}

// NewKeyed returns a keyed limiter. It returns an error when factory is nil or
// IdleTTL is negative.
func NewKeyed(factory Factory, opts KeyedOptions) (*Keyed, error) {
	if factory == nil {
		return nil, errorf("factory is nil; want a function that returns a strategy for a key")
	}
	if opts.IdleTTL < 0 {
		return nil, errorf("idle TTL %v is negative; want >= 0", opts.IdleTTL)
	}
	k := &Keyed{factory: factory, ttl: opts.IdleTTL, clock: opts.Clock, seed: maphash.MakeSeed(), hashMask: ^uint64(0)}
	switch {
	case opts.SweepEvery == 0:
		k.every = 1024
	case opts.SweepEvery > 0:
		k.every = uint64(opts.SweepEvery)
	}
	if k.clock == nil {
		k.clock = NewMonotonicClock()
	}
	return k, nil
}

// Allow decides a request of 1 for key at the clock's current instant.
func (k *Keyed) Allow(key string) (Decision, error) { return k.AllowNAt(k.clock.Now(), key, 1) }

// AllowN decides a request of n for key at the clock's current instant.
func (k *Keyed) AllowN(key string, n int) (Decision, error) {
	return k.AllowNAt(k.clock.Now(), key, n)
}

// AllowNAt decides a request of n for key at now, creating the key's
// strategy on first use. It returns the factory's error for a new key, or the
// strategy's error for a negative n.
func (k *Keyed) AllowNAt(now Instant, key string, n int) (Decision, error) {
	if err := checkN(n); err != nil {
		return Decision{}, err
	}
	hash := k.hash(key)
	sh := &k.shards[hash%numShards]
	for {
		sh.mu.RLock()
		h := sh.tab.lookup(hash, key)
		sh.mu.RUnlock()
		if h == nil {
			var err error
			if h, err = k.create(sh, hash, now, key); err != nil {
				return Decision{}, err
			}
		}
		var d Decision
		ok, err := h.allow(&d, now, n)
		if !ok { // swept between lookup and lock: look up again
			continue
		}
		if k.every > 0 && sh.ops.Add(1)%k.every == 0 {
			k.sweepShard(&k.shards[k.next.Add(1)%numShards], now, k.freshSince(now), sweepBatch)
		}
		return d, err
	}
}

// isNilPointer reports whether s is a typed nil pointer, as a factory that
// ignores its constructor's error returns (tb, _ := NewTokenBucket(-1, 1)).
func isNilPointer(s Strategy) bool {
	v := reflect.ValueOf(s)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// allow decides a request of n ≥ 0 with the key's lock held and fills in d
// (which must be zero). ok is false when the key was evicted meanwhile (look
// it up again). Token buckets and GCRA, the entries that cost least per key,
// take a path of their own: their decision cannot panic (see header), so the
// lock needs no deferred release, and d is filled from the outcome after the
// unlock, as their AllowN does, which keeps the key's lock held only for the
// state change.
func (h *header) allow(d *Decision, now Instant, n int) (ok bool, err error) {
	var o outcome
	switch h.kind { // never written after construction: read without the lock
	case tagTokenBucket:
		h.mu.Lock()
		if h.evicted {
			h.mu.Unlock()
			return false, nil
		}
		o = (*TokenBucket)(unsafe.Pointer(h)).decideLocked(now, n)
	case tagGCRA:
		h.mu.Lock()
		if h.evicted {
			h.mu.Unlock()
			return false, nil
		}
		o = (*GCRA)(unsafe.Pointer(h)).decideLocked(now, n)
	default:
		return h.allowAny(d, now, n)
	}
	// An admitted request of n ≥ 1 moved the latest admitted instant to
	// max(now, latest), which latestLocked counts: seen is written only for
	// the others. One store less per admission is worth about a tenth of a
	// decision with a million keys.
	if !o.ok || n == 0 {
		h.seen = max(h.seen, now)
	}
	h.mu.Unlock()
	o.fill(d, now, n)
	return true, nil
}

// latestLocked returns, with h.mu held, the instant of the key's latest
// request through its Keyed, or minInstant before the first. Token buckets
// and GCRA keep the latest admitted instant as part of their state, so their
// seen holds only the other requests' (denied, or n = 0).
func (h *header) latestLocked() Instant {
	p := unsafe.Pointer(h)
	switch h.kind {
	case tagTokenBucket:
		if tb := (*TokenBucket)(p); tb.used {
			return max(h.seen, tb.last)
		}
	case tagGCRA:
		if g := (*GCRA)(p); g.used {
			return max(h.seen, g.last)
		}
	}
	return h.seen
}

// allowAny is allow for any entry: it releases the key's lock even if the
// strategy panics (one from outside this package may).
func (h *header) allowAny(d *Decision, now Instant, n int) (ok bool, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.evicted {
		return false, nil
	}
	*d, err = h.allowLocked(now, n)
	h.seen = max(h.seen, now)
	return true, err
}

// State returns the state of key's strategy at now, and false when the key
// is not held (a new key would start fresh).
func (k *Keyed) State(now Instant, key string) (State, bool) {
	s := k.held(key)
	if s == nil {
		return State{}, false
	}
	return s.State(now), true
}

// hash returns the hash by which key is found: its low bits pick the shard,
// and the shard's table is keyed by all of it.
func (k *Keyed) hash(key string) uint64 { return maphash.String(k.seed, key) & k.hashMask }

// create returns the entry of a key not found, creating it from the factory.
// The factory runs with no lock held, so a slow factory delays only its own
// key's first requests, and a factory may call the Keyed's methods (Len,
// State, another key's AllowNAt). Two first requests for one key may both
// call it; the entry inserted first is the key's, and the other result is
// dropped before it is used.
func (k *Keyed) create(sh *shard, hash uint64, now Instant, key string) (*header, error) {
	s, err := k.factory(key)
	if err != nil {
		return nil, err
	}
	if s == nil || isNilPointer(s) {
		return nil, errorf("factory returned no strategy for key %q; want a strategy or an error", key)
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if h := sh.tab.lookup(hash, key); h != nil {
		return h, nil
	}
	if k.every > 0 {
		// Each new key pays for examining a few others, so the amortised
		// sweep keeps up with any rate of new keys.
		k.sweepLocked(sh, now, k.freshSince(now), sweepOnCreate)
	}
	h := adopt(s, key)
	sh.insert(hash, h)
	return h, nil
}

const minInstant = Instant(-1 << 63)

// Len returns the number of keys held.
func (k *Keyed) Len() int {
	n := 0
	for i := range k.shards {
		sh := &k.shards[i]
		sh.mu.RLock()
		n += sh.tab.live
		sh.mu.RUnlock()
	}
	return n
}
