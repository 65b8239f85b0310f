package limiter

import "time"

// Sweeping a Keyed: evicting idle, fresh keys, in batches that each hold a
// shard's lock briefly, and rebuilding a shard's map once evictions have left
// it mostly empty (Go's maps never give back the slots of deleted entries).

const (
	// lockBatch is the most keys Sweep and a rebuild handle per hold of a
	// shard's lock, so that a request for a key of that shard waits for
	// one batch, never for a whole shard.
	lockBatch = 256
	// A shard's map is rebuilt when it holds under 1/shrinkRatio of its
	// peak, and only once that peak has reached minRebuildPeak: smaller
	// maps hold little, and rebuilding them would only churn.
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
// amortised sweep), from a random place (Go's map iteration order), and
// evicts those idle at now and fresh at freshAt, holding sh.mu (released
// even if a strategy from outside this package panics in Fresh); then it
// rebuilds sh's map if that has left it mostly empty.
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

// sweepLocked is sweepShard's scan with sh.mu already held. It examines
// the keys of sh.clash (almost always none) before those of sh.m, so that
// they are not left to full sweeps.
func (k *Keyed) sweepLocked(sh *shard, now, freshAt Instant, max int) int {
	evicted := 0
	for _, h := range sh.clash {
		if max == 0 {
			return evicted
		}
		max--
		if k.evict(sh, k.hash(h.key), h, now, freshAt) {
			evicted++
		}
	}
	for hash, h := range sh.m {
		if max == 0 {
			break
		}
		max--
		if k.evict(sh, hash, h, now, freshAt) {
			evicted++
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
// It examines each shard in batches of 256 keys, releasing the shard's lock
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
// lockBatch keys. Go's map iteration may go on after the map has changed (an
// entry deleted before it is reached is not produced; one created may or
// may not be), and sh.mu orders those changes before the iteration resumes.
// The map iterated may be one a rebuild has replaced meanwhile: its keys not
// evicted since are all in the new map, and evict skips the others. It
// releases sh.mu even if a strategy from outside this package panics in
// Fresh.
func (k *Keyed) sweepAll(sh *shard, now Instant) int {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	evicted, i := 0, 0
	for hash, h := range sh.m {
		if k.evict(sh, hash, h, now, now) {
			evicted++
		}
		if i++; i%lockBatch == 0 {
			sh.mu.Unlock() // let the requests waiting for this shard in
			sh.mu.Lock()
		}
	}
	for _, h := range sh.clash {
		if k.evict(sh, k.hash(h.key), h, now, now) {
			evicted++
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

// rebuild replaces sh.m by a map sized for its keys when sh.m holds under
// 1/shrinkRatio of its peak. It copies the keys releasing sh.mu after every
// lockBatch of them, as sweepAll; meanwhile requests find every key in
// sh.m, and keys created or evicted go to both maps. One rebuild of a shard
// runs at a time (sh.m is not replaced during it): another call returns at
// once.
func (sh *shard) rebuild() {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.rebuilt != nil || sh.peak < minRebuildPeak || len(sh.m) >= sh.peak/shrinkRatio {
		return
	}
	sh.rebuilt = make(map[uint64]*header, len(sh.m))
	i := 0
	for hash, h := range sh.m {
		sh.rebuilt[hash] = h
		if i++; i%lockBatch == 0 {
			sh.mu.Unlock()
			sh.mu.Lock()
		}
	}
	sh.m, sh.rebuilt, sh.peak = sh.rebuilt, nil, len(sh.rebuilt)
}
