package explain

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
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

// LockState is a lock timeline at one instant: on each core the decision
// running (holding its lock), or none; the decisions that have arrived and
// wait, for their lock (another decision holds it) or for a core; and how
// many have finished.
type LockState struct {
	Running      []*LockSlot // one per core
	WaitLock     []LockSlot
	WaitCore     []LockSlot
	Done         int
	PerKey       bool
	Held         time.Duration
	Cores, Total int
}

// LockAt is the state at instant t of slots (from LockTimeline with the
// same perKey, cores and hold). A decision holds its lock over [Start,
// Start+hold).
func LockAt(slots []LockSlot, perKey bool, cores int, hold, t time.Duration) LockState {
	s := LockState{Running: make([]*LockSlot, cores), PerKey: perKey, Held: hold, Cores: cores, Total: len(slots)}
	lockOf := func(r LockSlot) string {
		if perKey {
			return r.Key
		}
		return "global"
	}
	held := map[string]bool{}
	for i := range slots {
		sl := &slots[i]
		if sl.Start <= t && t < sl.Start+hold {
			s.Running[sl.Core] = sl
			held[lockOf(*sl)] = true
		}
	}
	for _, sl := range slots {
		switch {
		case sl.Start+hold <= t:
			s.Done++
		case sl.Arrive <= t && t < sl.Start && held[lockOf(sl)]:
			s.WaitLock = append(s.WaitLock, sl)
		case sl.Arrive <= t && t < sl.Start:
			s.WaitCore = append(s.WaitCore, sl)
		}
	}
	return s
}

// CoreText says what core c does: "core 1: c3 holds lock c3", "core 2:
// c1 holds the global lock", "core 1: idle".
func (s LockState) CoreText(c int) string {
	name := "core " + strconv.Itoa(c+1) + ": "
	r := s.Running[c]
	if r == nil {
		return name + "idle"
	}
	if s.PerKey {
		return name + r.Client + " holds lock " + r.Key
	}
	return name + r.Client + " holds the global lock"
}

// WaitText says who waits, and for what: "waiting for the global lock: c2,
// c3; waiting for a core: none".
func (s LockState) WaitText() string {
	names := func(sl []LockSlot) string {
		if len(sl) == 0 {
			return "none"
		}
		var n []string
		for _, x := range sl {
			n = append(n, x.Client)
		}
		return strings.Join(n, ", ")
	}
	lock := "the global lock"
	if s.PerKey {
		lock = "their key's lock"
	}
	return "waiting for " + lock + ": " + names(s.WaitLock) + "; waiting for a core: " + names(s.WaitCore)
}
