package explain

import (
	"cmp"
	"slices"
	"time"
)

// LockRequest is one decision in the lock timeline: a client's request for a
// key arriving at an instant.
type LockRequest struct {
	Client, Key string
	Arrive      time.Duration
}

// LockSlot is when one request held the lock and how long it waited for it
// (for the lock, or for a free core).
type LockSlot struct {
	LockRequest
	Start, Wait time.Duration
	Core        int
}

// LockTimeline is a deterministic model (not a measurement) of requests
// waiting for locks: each decision holds its lock for Hold on one of Cores
// cores. With one global lock every decision waits for every other; with a
// lock per key, only decisions for the same key wait for each other (and
// all wait for a free core). A decision waiting for a lock does not hold a
// core: whenever a core is free it takes the earliest-arrived decision that
// can start (its lock free), ties in the order given, so the decisions of
// one lock run first come, first served. Lesson 5 feeds it hold times
// measured by `make bench` (RecordedLockBench).
func LockTimeline(reqs []LockRequest, perKey bool, cores int, hold time.Duration) []LockSlot {
	order := make([]int, len(reqs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(reqs[a].Arrive, reqs[b].Arrive) })
	lockOf := func(r LockRequest) string {
		if perKey {
			return r.Key
		}
		return "global"
	}
	coreFree := make([]time.Duration, cores)
	lockFree := map[string]time.Duration{}
	slots := make([]LockSlot, len(reqs))
	for len(order) > 0 {
		core := 0
		for c := range coreFree {
			if coreFree[c] < coreFree[core] {
				core = c
			}
		}
		// The decision that starts first on the first free core: the
		// earliest start, ties to the earlier in order.
		best, bestStart := 0, time.Duration(0)
		for k, i := range order {
			start := max(reqs[i].Arrive, lockFree[lockOf(reqs[i])], coreFree[core])
			if k == 0 || start < bestStart {
				best, bestStart = k, start
			}
		}
		i := order[best]
		order = slices.Delete(order, best, best+1)
		r := reqs[i]
		lockFree[lockOf(r)], coreFree[core] = bestStart+hold, bestStart+hold
		slots[i] = LockSlot{LockRequest: r, Start: bestStart, Wait: bestStart - r.Arrive, Core: core}
	}
	return slots
}
