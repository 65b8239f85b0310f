package explain

import (
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
// all wait for a free core). Requests are served first come, first served,
// ties in the order given. Lesson 5 feeds it hold times measured by
// `make bench` (RecordedLockBench).
func LockTimeline(reqs []LockRequest, perKey bool, cores int, hold time.Duration) []LockSlot {
	order := make([]int, len(reqs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(reqs[a].Arrive - reqs[b].Arrive) })
	coreFree := make([]time.Duration, cores)
	lockFree := map[string]time.Duration{}
	slots := make([]LockSlot, len(reqs))
	for _, i := range order {
		r := reqs[i]
		lock := "global"
		if perKey {
			lock = r.Key
		}
		core := 0
		for c := range coreFree {
			if coreFree[c] < coreFree[core] {
				core = c
			}
		}
		start := max(r.Arrive, lockFree[lock], coreFree[core])
		lockFree[lock], coreFree[core] = start+hold, start+hold
		slots[i] = LockSlot{LockRequest: r, Start: start, Wait: start - r.Arrive, Core: core}
	}
	return slots
}
