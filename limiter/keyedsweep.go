package limiter

import (
	"math/rand/v2"
	"time"
)

// Sweeping a Keyed: evicting idle, fresh keys, in batches that each hold a
// shard's lock briefly, and rebuilding a shard's table once evictions have
// left it mostly empty (a table keeps the slots of removed entries).

const (
	// lockBatch is the most slots Sweep and a rebuild handle per hold of a
	// shard's lock, so that a request for a key of that shard waits for
	// one batch, never for a whole shard.
	lockBatch = 256
	// A shard's table is rebuilt when it holds under 1/shrinkRatio of its
	// peak, and only once that peak has reached minRebuildPeak: smaller
	// tables hold little, and rebuilding them would only churn.
	shrinkRatio    = 4
	minRebuildPeak = 128
)

// EvictionSlack is the amortised sweep's least margin: it evicts a key at
// now only if the key was already fresh at now − max(IdleTTL,
// EvictionSlack), so that requests stamped up to that long before the
// sweeping request, still on their way to the Keyed, decide as they would
// without eviction.
const EvictionSlack = time.Second

// freshSince is the instant at which a key must already have been fresh to
// be evicted at now.
func (k *Keyed) freshSince(now Instant) Instant {
	at := now - max(k.ttl, EvictionSlack)
	if at > now { // overflow
		at = minInstant
	}
	return at
}

// sweepShard examines up to max keys of sh (at most a few dozen: the
// amortised sweep), from a random slot, and
// evicts those idle at now and fresh at freshAt, holding sh.mu (released
// even if a strategy from outside this package panics in Fresh); then it
// rebuilds sh's table if that has left it mostly empty.
func (k *Keyed) sweepShard(sh *shard, now, freshAt Instant, max int) int {
	evicted := func() int {
		sh.mu.Lock()
		defer sh.mu.Unlock()
		return k.sweepLocked(sh, now, freshAt, max)
	}()
	if evicted > 0 {
		sh.rebuild()
	}
	return evicted
}

// sweepLocked is sweepShard's scan with sh.mu already held. It reads at
// most 8 × max slots from a random one, so that its cost stays bounded in a
// table that evictions have left sparse (under a quarter of its peak, the
// table is rebuilt).
func (k *Keyed) sweepLocked(sh *shard, now, freshAt Instant, max int) int {
	slots := sh.tab.slots // evict marks slots deleted; it never replaces them
	n := len(slots)
	if n == 0 {
		return 0
	}
	evicted := 0
	i := rand.IntN(n)
	for read := 0; read < n && read < 8*max && max > 0; read++ {
		if s := slots[i]; s.h != nil && s.h != deleted {
			max--
			if k.evict(sh, s.hash, s.h, now, freshAt) {
				evicted++
			}
		}
		if i++; i == n {
			i = 0
		}
	}
	return evicted
}

// Sweep evicts, at now, every key idle for at least IdleTTL whose state
// equals a fresh strategy's at now, and returns how many it evicted. Unlike
// the amortised sweep it keeps no margin: later requests must be stamped at
// or after now, or a request stamped before now may find an evicted key
// fresh where it was not (a key fresh at now may not have been fresh
// earlier). Call it where no request is in flight, or with an instant at
// least EvictionSlack older than the clock's.
//
// It examines each shard in batches of 256 slots, releasing the shard's lock
// between them, so that requests meanwhile wait for one batch at most; a
// key created during the sweep may or may not be examined. A shard left
// holding under a quarter of the most keys it has held is rebuilt (in
// batches too), so the memory of the evicted keys is given back to the
// garbage collector.
func (k *Keyed) Sweep(now Instant) int {
	evicted := 0
	for i := range k.shards {
		sh := &k.shards[i]
		evicted += k.sweepAll(sh, now)
		sh.rebuild()
	}
	return evicted
}

// sweepAll examines every key of sh at now, releasing sh.mu after every
// lockBatch slots. Entries never move within a table (see keyedtable.go):
// one removed meanwhile is not examined, one created may or may not be, and
// sh.mu orders those changes before the scan resumes. The slots scanned may
// be those of a table replaced meanwhile (grown, or rebuilt): its entries
// not evicted since are all in the new table, and evict skips the others.
// It releases sh.mu even if a strategy from outside this package panics in
// Fresh.
func (k *Keyed) sweepAll(sh *shard, now Instant) int {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	evicted := 0
	slots := sh.tab.slots
	for i := range slots {
		if s := slots[i]; s.h != nil && s.h != deleted && k.evict(sh, s.hash, s.h, now, now) {
			evicted++
		}
		if (i+1)%lockBatch == 0 {
			sh.mu.Unlock() // let the requests waiting for this shard in
			sh.mu.Lock()
		}
	}
	return evicted
}

// evict removes h, the entry of a key whose hash is hash, from sh, with
// sh.mu held, when it has been idle for IdleTTL at now and is fresh at
// freshAt.
func (k *Keyed) evict(sh *shard, hash uint64, h *header, now, freshAt Instant) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.evicted { // by another sweep, since this one's iteration began
		return false
	}
	// A key created by a request that has not decided yet has no last
	// instant; evicting it is harmless, as that request looks it up again.
	latest := h.latestLocked()
	idle := latest == minInstant || now-latest >= k.ttl
	if idle && h.freshLocked(freshAt) {
		h.evicted = true
		sh.remove(hash, h)
		return true
	}
	return false
}

// rebuild replaces sh.tab by a table sized for its keys when sh.tab holds
// under 1/shrinkRatio of its peak. It copies the keys releasing sh.mu after
// every lockBatch slots, as sweepAll; meanwhile requests find every key in
// sh.tab, and keys created or evicted go to both tables. The slots copied
// may be those of a table that an insert replaced meanwhile: an entry
// evicted since is skipped (evict sets evicted with sh.mu held), and one
// already copied or created meanwhile is not copied twice. One rebuild of a
// shard runs at a time: another call returns at once.
func (sh *shard) rebuild() {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.rebuilt != nil || sh.peak < minRebuildPeak || sh.tab.live >= sh.peak/shrinkRatio {
		return
	}
	sh.rebuilt = &table{slots: make([]slot, newTableSize(sh.tab.live))}
	slots := sh.tab.slots
	for i := range slots {
		s := slots[i]
		if s.h != nil && s.h != deleted && !s.h.evicted && !sh.rebuilt.holds(s.hash, s.h) {
			sh.rebuilt.insert(s.hash, s.h)
		}
		if (i+1)%lockBatch == 0 {
			sh.mu.Unlock()
			sh.mu.Lock()
		}
	}
	sh.tab, sh.rebuilt, sh.peak = *sh.rebuilt, nil, sh.rebuilt.live
}
