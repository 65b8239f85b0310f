package limiter

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"
)

// Factory returns the strategy for a key that has none yet. It receives the
// key, so tiers ("free:alice" gets 10/s, "pro:bob" 100/s) and composite keys
// (client + endpoint) need no change to the strategies.
type Factory func(key string) (Strategy, error)

// Keyed holds one strategy per key (client, API token, IP, client +
// endpoint), created on first use from a Factory. It is safe for concurrent
// use: keys live in a sharded map and each key has its own lock, so requests
// for unrelated keys never wait on each other, and two concurrent first
// requests for one key share one strategy.
//
// Idle keys are evicted by Sweep, and by a sweep of one shard every
// SweepEvery requests (amortised, no goroutine; it evicts only keys already
// fresh IdleTTL before the sweeping request's instant, so requests stamped up
// to IdleTTL out of order are safe). A key is removed only when
// it has had no request for IdleTTL and its state equals a fresh strategy's,
// so evicting never changes a later decision: a client in debt keeps its
// debt.
type Keyed struct {
	factory Factory
	ttl     time.Duration
	clock   Clock
	every   uint64
	seed    maphash.Seed
	ops     atomic.Uint64
	next    atomic.Uint64 // next shard for the amortised sweep
	shards  [numShards]shard
}

const numShards = 64

type shard struct {
	mu sync.RWMutex
	m  map[string]*entry
	_  [32]byte // one shard per 64-byte cache line
}

type entry struct {
	mu      sync.Mutex
	s       Strategy
	last    Instant // latest request instant
	evicted bool
}

// KeyedOptions configures a Keyed limiter. The zero value is usable.
type KeyedOptions struct {
	// IdleTTL is how long a key must go without requests before it may be
	// evicted; ≥ 0. 0 means keys are evicted as soon as they are fresh.
	IdleTTL time.Duration
	// SweepEvery is the number of requests between amortised sweeps of one
	// shard (1/64 of the keys); 0 means 1024, < 0 disables amortised
	// sweeping (call Sweep yourself).
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
	k := &Keyed{factory: factory, ttl: opts.IdleTTL, clock: opts.Clock, seed: maphash.MakeSeed()}
	switch {
	case opts.SweepEvery == 0:
		k.every = 1024
	case opts.SweepEvery > 0:
		k.every = uint64(opts.SweepEvery)
	}
	if k.clock == nil {
		k.clock = NewMonotonicClock()
	}
	for i := range k.shards {
		k.shards[i].m = make(map[string]*entry)
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
	for {
		e, err := k.get(key)
		if err != nil {
			return Decision{}, err
		}
		e.mu.Lock()
		if e.evicted { // swept between lookup and lock: look up again
			e.mu.Unlock()
			continue
		}
		d, err := e.s.AllowN(now, n)
		e.last = max(e.last, now)
		e.mu.Unlock()
		if k.every > 0 && k.ops.Add(1)%k.every == 0 {
			// Requests reach the limiter slightly out of order (each
			// goroutine reads the clock before it gets here), so the amortised
			// sweep evicts only keys that were already fresh IdleTTL before
			// now: a later request stamped up to IdleTTL before now still
			// finds the same decision as without eviction.
			at := now - k.ttl
			if at > now { // overflow
				at = minInstant
			}
			k.sweepShard(int(k.next.Add(1)%numShards), now, at)
		}
		return d, err
	}
}

// State returns the state of key's strategy at now, and false when the key
// is not held (a new key would start fresh).
func (k *Keyed) State(now Instant, key string) (State, bool) {
	sh := k.shard(key)
	sh.mu.RLock()
	e := sh.m[key]
	sh.mu.RUnlock()
	if e == nil {
		return State{}, false
	}
	return e.s.State(now), true
}

func (k *Keyed) shard(key string) *shard {
	return &k.shards[maphash.String(k.seed, key)%numShards]
}

func (k *Keyed) get(key string) (*entry, error) {
	sh := k.shard(key)
	sh.mu.RLock()
	e := sh.m[key]
	sh.mu.RUnlock()
	if e != nil {
		return e, nil
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if e = sh.m[key]; e != nil {
		return e, nil
	}
	s, err := k.factory(key)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errorf("factory returned no strategy for key %q; want a strategy or an error", key)
	}
	e = &entry{s: s, last: minInstant}
	sh.m[key] = e
	return e, nil
}

const minInstant = Instant(-1 << 63)

// Sweep evicts, at now, every key idle for at least IdleTTL whose state
// equals a fresh strategy's, and returns how many it evicted. Later requests
// must be stamped at or after now (as they are when now is the clock's
// current instant): a key fresh at now may not have been fresh earlier.
func (k *Keyed) Sweep(now Instant) int {
	evicted := 0
	for i := range k.shards {
		evicted += k.sweepShard(i, now, now)
	}
	return evicted
}

// sweepShard evicts the keys of shard i idle for IdleTTL at now and fresh at
// freshAt.
func (k *Keyed) sweepShard(i int, now, freshAt Instant) int {
	sh := &k.shards[i]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	evicted := 0
	for key, e := range sh.m {
		e.mu.Lock()
		// A key created by a request that has not decided yet has no last
		// instant; evicting it is harmless, as that request looks it up again.
		idle := e.last == minInstant || now-e.last >= k.ttl
		if idle && e.s.Fresh(freshAt) {
			e.evicted = true
			delete(sh.m, key)
			evicted++
		}
		e.mu.Unlock()
	}
	return evicted
}

// Len returns the number of keys held.
func (k *Keyed) Len() int {
	n := 0
	for i := range k.shards {
		sh := &k.shards[i]
		sh.mu.RLock()
		n += len(sh.m)
		sh.mu.RUnlock()
	}
	return n
}
