package limiter

import (
	"context"
	"hash/maphash"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Limit is one named limit of a [Policy]: "per-second" as a token bucket of
// 10 per second, "daily" as a fixed window of 50,000 per day.
type Limit struct {
	// Name identifies the limit in a [Result], in the RateLimit-Policy
	// header field and in problem details: printable ASCII without '"' or
	// '\', unique within the policy.
	Name string
	// Config is the limit's strategy and parameters, as [New] takes them.
	Config Config
}

// Policy applies several named limits to each key at once ("10 per second
// and 1000 per hour and 50,000 per day"), all-or-nothing: a request is
// admitted only if every limit admits it, and then each one spends it; a
// request that any limit denies spends nothing on any of them. Its
// [Result] carries one [Outcome] per limit, in the policy's order, so that
// RetryAfter is the longest wait of the limits that denied it and
// Remaining the fewest units any limit has left.
//
// Each key has one lock over all its limits, taken once per request, so a
// request sees and changes the limits of its key atomically (no lock
// ordering between limits to get wrong), and requests for unrelated keys
// never wait on each other. A decision peeks at every limit (AllowN with
// n = 0 reports the units it could admit now), then, if every one has room,
// applies the request to each: what running the limits one after another
// and rolling back on a denial would give, without a rollback.
//
// Idle keys are evicted as by [Keyed]: by Sweep, and by an amortised sweep
// every SweepEvery requests, only when every limit of the key is fresh, so
// eviction never changes a later decision.
//
// Create one with [NewPolicy]: the zero value is not usable.
type Policy struct {
	limits []Limit
	inf    []bool // limit i admits everything (rate +Inf)
	clock  Clock
	ttl    time.Duration
	every  uint64
	seed   maphash.Seed
	ops    atomic.Uint64
	next   atomic.Uint64
	shards [numShards]policyShard
}

type policyShard struct {
	mu sync.Mutex
	m  map[string]*limitSet
}

// limitSet is one key's strategies, one per limit, under one lock (the
// strategies' own locks, taken inside it, are never contended).
type limitSet struct {
	mu      sync.Mutex
	s       []Strategy
	seen    Instant
	evicted bool
}

// PolicyOptions configures a Policy; the zero value is usable. The fields
// mean what they mean in [KeyedOptions].
type PolicyOptions struct {
	IdleTTL    time.Duration
	SweepEvery int
	Clock      Clock
}

// NewPolicy returns a policy of limits, applied in the order given. It
// returns an error wrapping [ErrInvalid] when there is no limit, a name is
// empty, repeated or holds a character a header string cannot ('"', '\',
// control or non-ASCII), a Config is one [New] rejects, or IdleTTL is
// negative.
func NewPolicy(limits []Limit, opts PolicyOptions) (*Policy, error) {
	if len(limits) == 0 {
		return nil, errorf("policy has no limits; want at least one")
	}
	if opts.IdleTTL < 0 {
		return nil, errorf("idle TTL %v is negative; want >= 0", opts.IdleTTL)
	}
	p := &Policy{limits: append([]Limit(nil), limits...), ttl: opts.IdleTTL, clock: opts.Clock, seed: maphash.MakeSeed()}
	seen := map[string]bool{}
	for _, l := range p.limits {
		if err := checkLimitName(l.Name); err != nil {
			return nil, err
		}
		if seen[l.Name] {
			return nil, errorf("limit name %q is repeated; want each name once", l.Name)
		}
		seen[l.Name] = true
		if _, err := New(l.Config); err != nil {
			return nil, errorf("limit %q: %s", l.Name, err.Error()[len("limiter: "):])
		}
		isInf := (l.Config.Kind == KindTokenBucket || l.Config.Kind == KindGCRA) && math.IsInf(l.Config.Rate, 1)
		p.inf = append(p.inf, isInf)
	}
	switch {
	case opts.SweepEvery == 0:
		p.every = 1024
	case opts.SweepEvery > 0:
		p.every = uint64(opts.SweepEvery)
	}
	if p.clock == nil {
		p.clock = NewMonotonicClock()
	}
	for i := range p.shards {
		p.shards[i].m = make(map[string]*limitSet)
	}
	return p, nil
}

func checkLimitName(name string) error {
	if name == "" {
		return errorf("limit name is empty; want printable ASCII without '\"' or '\\'")
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return errorf("limit name %q holds %q; want printable ASCII without '\"' or '\\'", name, c)
		}
	}
	return nil
}

// Limits returns the policy's limits, in order.
func (p *Policy) Limits() []Limit { return append([]Limit(nil), p.limits...) }

// Take decides a request of n for key at the clock's current instant (see
// [Policy.AllowNAt]); ctx is not read. It is the method by which HTTP
// middleware (package httplimit) serves a Policy.
func (p *Policy) Take(ctx context.Context, key string, n int) (Result, error) {
	return p.allowInto(p.clock.Now(), key, n, nil)
}

// TakeInto is Take writing the outcomes into limits[:0] (see
// [Keyed.TakeInto]).
func (p *Policy) TakeInto(ctx context.Context, key string, n int, limits []Outcome) (Result, error) {
	return p.allowInto(p.clock.Now(), key, n, limits)
}

// AllowNAt decides a request of n for key at now against every limit,
// all-or-nothing. For an admitted request each Outcome is that limit's
// decision; for a denied one, a limit that denied it reports its denial
// (with its RetryAfter) and a limit that had room reports its state
// unchanged (a peek: allowed, Remaining as before). It returns an error,
// and decides nothing, for a negative n.
func (p *Policy) AllowNAt(now Instant, key string, n int) (Result, error) {
	return p.allowInto(now, key, n, nil)
}

func (p *Policy) allowInto(now Instant, key string, n int, limits []Outcome) (Result, error) {
	if err := checkN(n); err != nil {
		return Result{}, err
	}
	if limits == nil {
		limits = make([]Outcome, 0, len(p.limits))
	}
	sh := p.shard(key)
	for {
		set := p.lookup(sh, now, key)
		set.mu.Lock()
		if set.evicted {
			set.mu.Unlock()
			continue
		}
		res := p.decideLocked(set, now, n, limits)
		set.seen = max(set.seen, now)
		set.mu.Unlock()
		if p.every > 0 && p.ops.Add(1)%p.every == 0 {
			p.sweepShard(&p.shards[p.next.Add(1)%numShards], now, freshSince(now, p.ttl), sweepBatch)
		}
		return res, nil
	}
}

// decideLocked peeks at every limit and applies the request to all of them
// only if each has room for n, with set.mu held.
func (p *Policy) decideLocked(set *limitSet, now Instant, n int, out []Outcome) Result {
	out = out[:0]
	fits := true
	for i, s := range set.s {
		peek, _ := s.AllowN(now, 0)
		out = append(out, Outcome{Name: p.limits[i].Name, Config: p.limits[i].Config, Decision: peek})
		fits = fits && (n <= peek.Remaining || p.inf[i])
	}
	for i, s := range set.s {
		if fits || n > out[i].Remaining && !p.inf[i] {
			// Admitted by all: each spends (it has room at this instant, so
			// it admits). Denied: only the limits without room decide, and
			// a denial changes nothing.
			out[i].Decision, _ = s.AllowN(now, n)
		}
	}
	return Result{Allowed: fits, Limits: out}
}

func (p *Policy) shard(key string) *policyShard {
	return &p.shards[maphash.String(p.seed, key)%numShards]
}

// lookup returns key's limits, creating them on first use.
func (p *Policy) lookup(sh *policyShard, now Instant, key string) *limitSet {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if set := sh.m[key]; set != nil {
		return set
	}
	if p.every > 0 {
		p.sweepLocked(sh, now, freshSince(now, p.ttl), sweepOnCreate)
	}
	set := &limitSet{s: make([]Strategy, len(p.limits)), seen: minInstant}
	for i, l := range p.limits {
		set.s[i], _ = New(l.Config) // checked by NewPolicy
	}
	sh.m[key] = set
	return set
}

// State returns the state of each of key's limits at now, in order, and
// false when the key is not held (a new key would start fresh).
func (p *Policy) State(now Instant, key string) ([]State, bool) {
	sh := p.shard(key)
	sh.mu.Lock()
	set := sh.m[key]
	sh.mu.Unlock()
	if set == nil {
		return nil, false
	}
	set.mu.Lock()
	defer set.mu.Unlock()
	st := make([]State, len(set.s))
	for i, s := range set.s {
		st[i] = s.State(now)
	}
	return st, true
}

// Sweep evicts, at now, every key idle for at least IdleTTL whose limits
// are all fresh at now, and returns how many it evicted; the caveat of
// [Keyed.Sweep] about requests stamped before now applies.
func (p *Policy) Sweep(now Instant) int {
	evicted := 0
	for i := range p.shards {
		evicted += p.sweepShard(&p.shards[i], now, now, -1)
	}
	return evicted
}

// Len returns the number of keys held.
func (p *Policy) Len() int {
	n := 0
	for i := range p.shards {
		sh := &p.shards[i]
		sh.mu.Lock()
		n += len(sh.m)
		sh.mu.Unlock()
	}
	return n
}

func (p *Policy) sweepShard(sh *policyShard, now, freshAt Instant, max int) int {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return p.sweepLocked(sh, now, freshAt, max)
}

// sweepLocked examines up to max keys of sh (all when max < 0), with sh.mu
// held, and evicts those idle at now and fresh at freshAt.
func (p *Policy) sweepLocked(sh *policyShard, now, freshAt Instant, max int) int {
	evicted := 0
	for key, set := range sh.m {
		if max == 0 {
			break
		}
		max--
		set.mu.Lock()
		if (set.seen == minInstant || now-set.seen >= p.ttl) && set.freshLocked(freshAt) {
			set.evicted = true
			delete(sh.m, key)
			evicted++
		}
		set.mu.Unlock()
	}
	return evicted
}

func (set *limitSet) freshLocked(at Instant) bool {
	for _, s := range set.s {
		if !s.Fresh(at) {
			return false
		}
	}
	return true
}

// freshSince is the instant at which a key must already have been fresh to
// be evicted at now by an amortised sweep (see [EvictionSlack]).
func freshSince(now Instant, ttl time.Duration) Instant {
	at := now - max(ttl, EvictionSlack)
	if at > now { // overflow
		at = minInstant
	}
	return at
}
