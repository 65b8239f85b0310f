package explain

import (
	"fmt"
	"strconv"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// Lesson 4's scenario.
const (
	evictClients = 5000
	evictTTL     = 2 * time.Second
)

func lessonEviction() Lesson {
	return Lesson{
		ID: "per-client-eviction", Title: "Per-client buckets and idle eviction",
		Watch: "5,000 clients each send one request, one per millisecond over 5 s, to a keyed token bucket (1 per second, " +
			"burst 5, idle TTL 2 s, swept every second). Mallory sends 10 at once at 0 s and 5 more at 3 s. Watch the keys " +
			"held, and compare a naive TTL cache that drops any key idle for 2 s.",
		Shows: "Memory follows the active clients, not every client ever seen: keys are created on first use and swept once " +
			"idle and full again. Mallory, idle but in debt, is kept: at 3 s she has 3 tokens and gets 3. The naive cache " +
			"forgets her at 2 s and hands her a fresh bucket: 5, two of them unearned.",
		Interview: "Bound memory with one small state per active key, lazy creation, and eviction of idle keys, but evict " +
			"only a key whose state equals a fresh one, or eviction becomes a way to reset a limit. At millions of keys, " +
			"shard the map and amortise the sweep.",
		Until: 10 * time.Second,
		run:   runEviction,
		check: func(r Result) (bool, string) {
			ok := r.f("mallory.keyed") == 3 && r.f("mallory.naive") == 5 && r.f("keys.end") == 0 && r.f("keys.peak") < evictClients
			return ok, fmt.Sprintf("keys held peaked at %d of %d clients and fell to %d after the last sweep; Mallory at 3 s: "+
				"%d admitted with eviction that keeps debt, %d with the naive TTL cache (%d unearned).",
				r.f("keys.peak"), evictClients+1, r.f("keys.end"), r.f("mallory.keyed"), r.f("mallory.naive"),
				r.f("mallory.naive")-r.f("mallory.keyed"))
		},
	}
}

func runEviction(l Lesson) (Result, error) {
	cfg := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 5}
	factory := func(string) (limiter.Strategy, error) { return limiter.New(cfg) }
	k, err := limiter.NewKeyed(factory, limiter.KeyedOptions{IdleTTL: evictTTL, SweepEvery: -1})
	if err != nil {
		return Result{}, err
	}
	naive := naiveCache{cfg: cfg, m: map[string]*naiveEntry{}}
	evs := evictionEvents()
	// Both caches counted after their sweep (keys held before it too): the
	// table compared the keyed limiter before its sweep with the naive cache
	// after its own.
	r := Result{Lesson: l.ID, Columns: []string{"second", "keys before sweep", "evicted", "keys after sweep", "naive cache keys"}}
	var peak, malK, malN int64
	next := time.Second
	sweep := func(until limiter.Instant) {
		for ; next <= until; next += time.Second {
			held := int64(k.Len())
			peak = max(peak, held)
			ev := k.Sweep(next)
			naive.sweep(next)
			r.Rows = append(r.Rows, []string{units.FormatDuration(next), strconv.FormatInt(held, 10), strconv.Itoa(ev), strconv.Itoa(k.Len()), strconv.Itoa(len(naive.m))})
			r.RowAt = append(r.RowAt, next)
		}
	}
	for _, e := range evs {
		sweep(e.At)
		d, err := k.AllowNAt(e.At, e.Client, e.N)
		if err != nil {
			return Result{}, err
		}
		nv := naive.allow(e.At, e.Client)
		if e.Client == "mallory" && e.At == 3*time.Second {
			malK, malN = malK+admitted(d), malN+admittedIf(nv)
		}
	}
	sweep(l.Until)
	r.add("keys.peak", peak, "most keys held at a sweep: %d", peak)
	r.add("keys.end", int64(k.Len()), "keys held at the end: %d", k.Len())
	r.add("mallory.keyed", malK, "Mallory at 3 s, keyed limiter: %d admitted", malK)
	r.add("mallory.naive", malN, "Mallory at 3 s, naive TTL cache: %d admitted", malN)
	return r, nil
}

// naiveCache is the naive per-client cache of the eviction lesson: a map of
// limiters of cfg, each dropped once idle for the TTL, whatever its state.
type naiveCache struct {
	cfg limiter.Config
	m   map[string]*naiveEntry
}

type naiveEntry struct {
	s    limiter.Strategy
	seen limiter.Instant
}

// allow decides one request of key at at, creating key's limiter if the
// cache has none.
func (c naiveCache) allow(at limiter.Instant, key string) bool {
	e := c.m[key]
	if e == nil {
		s, _ := limiter.New(c.cfg)
		e = &naiveEntry{s: s}
		c.m[key] = e
	}
	e.seen = at
	d, _ := e.s.AllowN(at, 1)
	return d.Allowed
}

// sweep drops every limiter idle for evictTTL at now.
func (c naiveCache) sweep(now limiter.Instant) {
	for key, e := range c.m {
		if now-e.seen >= evictTTL {
			delete(c.m, key)
		}
	}
}

// evictionEvents are the eviction lesson's requests: Mallory's burst at 0,
// a new client every millisecond, and Mallory again at 3 s.
func evictionEvents() []sim.Event {
	var evs []sim.Event
	for range 10 {
		evs = append(evs, sim.Event{At: 0, Client: "mallory", N: 1})
	}
	for i := range evictClients {
		at := time.Duration(i) * time.Millisecond
		if at == 3*time.Second {
			for range 5 {
				evs = append(evs, sim.Event{At: at, Client: "mallory", N: 1})
			}
		}
		evs = append(evs, sim.Event{At: at, Client: fmt.Sprintf("c%04d", i+1), N: 1})
	}
	return evs
}
