package explain

import (
	"fmt"
	"sync"
	"time"

	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// LockBench is one recorded run of the limiter package's own benchmarks
// (limiter/benchmarks, BenchmarkKeyedScaling, `make bench`): the median time
// per decision for distinct keys, with one goroutine and with two, for
// limiter.Keyed (a lock per key in a sharded map) and for one global lock
// around a map of token buckets. Lesson 5's schedule holds each lock for
// the one-goroutine figure of its design, on the machine's cores.
type LockBench struct {
	Machine                  string
	Cores                    int
	PerKey1, PerKey2         time.Duration
	GlobalLock1, GlobalLock2 time.Duration
}

// RecordedLockBench is the run lesson 5 uses (README's Performance section
// quotes its KeyedScaling rows).
var RecordedLockBench = LockBench{
	Machine: "go1.26.8 linux/amd64, AMD EPYC (Oxide Virtual Turin-like), 2 cores, at 2f69143",
	Cores:   2,
	PerKey1: 485 * time.Nanosecond, PerKey2: 226 * time.Nanosecond,
	GlobalLock1: 480 * time.Nanosecond, GlobalLock2: 739 * time.Nanosecond,
}

// LockRequests are lesson 5's decisions: three waves, 10 µs apart, of 9
// simultaneous decisions (8 clients, c1 sends two).
func LockRequests() []LockRequest {
	var rs []LockRequest
	for wave := range LockWaves {
		at := time.Duration(wave) * LockWaveGap
		rs = append(rs, LockRequest{Client: "c1", Key: "c1", Arrive: at})
		for c := 1; c <= 8; c++ {
			name := fmt.Sprintf("c%d", c)
			rs = append(rs, LockRequest{Client: name, Key: name, Arrive: at})
		}
	}
	return rs
}

// The lock lesson sends LockWaves waves of requests, LockWaveGap apart.
const (
	LockWaves   = 3
	LockWaveGap = 10 * time.Microsecond
)

func lessonLocks() Lesson {
	return Lesson{
		ID: "lock-design", Title: "Lock design: one global lock or a lock per key",
		Watch: "Three waves of 9 simultaneous decisions (8 clients, c1 sends two) on the 2 cores of the machine the limiter's " +
			"benchmark ran on, each decision holding its lock for the time that benchmark measured (480 ns under one global " +
			"lock, 485 ns with limiter.Keyed's lock per key). The table gives each decision's start and wait under one " +
			"global lock, then under a lock per key. Then two goroutines create the same key at once.",
		Shows: "With one lock every decision queues behind every other, whatever the cores; with a lock per key only c1's two " +
			"decisions wait for each other, and the rest wait only for a core. The schedule is a model; its hold times and " +
			"the throughput figures are measurements (make bench, recorded with the machine): with 2 goroutines one global " +
			"lock got slower (480 → 739 ns per decision) while the per-key design got faster (485 → 226 ns). The second part shows the check-then-act race: two goroutines both find no limiter, both create " +
			"one, and the key gets two buckets (twice the burst); limiter.Keyed checks again under the shard lock before it inserts, so both share the one inserted first.",
		Interview: "Per-key locks (or a sharded map with a lock per entry) keep unrelated clients from waiting on each other. " +
			"Lazy creation must be atomic: check again under the write lock, or use a load-or-store, so two first requests " +
			"share one limiter.",
		Until: 30 * time.Microsecond,
		run:   runLocks,
		check: func(r Result) (bool, string) {
			ok := r.f("wait.global") > r.f("wait.perkey") && r.f("race.naive") == 10 && r.f("race.keyed") == 5
			b := RecordedLockBench
			return ok, fmt.Sprintf("total waiting: %s with one global lock, %s with a lock per key (longest %s vs %s; "+
				"hold times measured by make bench on %s). Lazy creation, burst 5, 10 first requests: %d admitted with "+
				"check-then-act, %d with limiter.Keyed.",
				units.FormatDuration(time.Duration(r.f("wait.global"))), units.FormatDuration(time.Duration(r.f("wait.perkey"))),
				units.FormatDuration(time.Duration(r.f("max.global"))), units.FormatDuration(time.Duration(r.f("max.perkey"))), b.Machine, r.f("race.naive"), r.f("race.keyed"))
		},
	}
}

func runLocks(l Lesson) (Result, error) {
	reqs := LockRequests()
	bench := RecordedLockBench
	g := LockTimeline(reqs, false, bench.Cores, bench.GlobalLock1)
	p := LockTimeline(reqs, true, bench.Cores, bench.PerKey1)
	r := Result{Lesson: l.ID, Columns: []string{"client", "arrives", "global lock: starts", "waits", "per-key lock: starts", "waits"}}
	var wg, wp, mg, mp time.Duration
	for i := range reqs {
		wg, wp = wg+g[i].Wait, wp+p[i].Wait
		mg, mp = max(mg, g[i].Wait), max(mp, p[i].Wait)
		r.Rows = append(r.Rows, []string{reqs[i].Client, units.FormatDuration(reqs[i].Arrive), units.FormatDuration(g[i].Start), units.FormatDuration(g[i].Wait), units.FormatDuration(p[i].Start), units.FormatDuration(p[i].Wait)})
		r.RowAt = append(r.RowAt, reqs[i].Arrive)
		r.Events = append(r.Events, reqs[i].Arrive, g[i].Start, g[i].Start+bench.GlobalLock1, p[i].Start, p[i].Start+bench.PerKey1)
	}
	r.add("wait.global", int64(wg), "total waiting, one global lock: %s", units.FormatDuration(wg))
	r.add("wait.perkey", int64(wp), "total waiting, a lock per key: %s", units.FormatDuration(wp))
	r.add("max.global", int64(mg), "longest wait, one global lock: %s", units.FormatDuration(mg))
	r.add("max.perkey", int64(mp), "longest wait, a lock per key: %s", units.FormatDuration(mp))

	// The check-then-act race, as a scripted interleaving of two
	// goroutines on a map whose insert does not check again.
	race, err := LazyCreationRace(false)
	if err != nil {
		return Result{}, err
	}
	naive := int64(race.Admitted)
	cfg := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: race.Burst}
	keyed, err := keyedFirstRequests(cfg)
	if err != nil {
		return Result{}, err
	}
	r.add("race.naive", naive, "check-then-act: %d admitted for a burst of 5", naive)
	r.add("race.keyed", keyed, "limiter.Keyed: %d admitted for a burst of 5", keyed)
	return r, nil
}

// keyedFirstRequests: with limiter.Keyed, 10 goroutines send the first
// requests for one key at once; creation is race-free, so they share one
// bucket of cfg. It returns how many were admitted.
func keyedFirstRequests(cfg limiter.Config) (int64, error) {
	k, err := limiter.NewKeyed(func(string) (limiter.Strategy, error) { return limiter.New(cfg) }, limiter.KeyedOptions{SweepEvery: -1})
	if err != nil {
		return 0, err
	}
	var wgrp sync.WaitGroup
	var mu sync.Mutex
	keyed := int64(0)
	for range 10 {
		wgrp.Go(func() {
			if d, _ := k.AllowNAt(0, "alice", 1); d.Allowed {
				mu.Lock()
				keyed++
				mu.Unlock()
			}
		})
	}
	wgrp.Wait()
	return keyed, nil
}
