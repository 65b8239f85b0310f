package limiter_test

import (
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

func heapAfterGC() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// A Sweep that evicts every key gives their memory back: the heap returns to
// within 10 % of what it was before the first key (a shard's table keeps the
// slots of removed keys until it is rebuilt).
func TestSweepGivesMemoryBack(t *testing.T) {
	const keys = 50_000
	for _, c := range []limiter.Config{
		{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 2},
		{Kind: limiter.KindFixedWindow, Limit: 2, Window: time.Second},
		{Kind: limiter.KindSlidingWindowLog, Limit: 2, Window: time.Second},
	} {
		k := newKeyed(t, func(string) (limiter.Strategy, error) { return limiter.New(c) },
			limiter.KeyedOptions{IdleTTL: time.Second, SweepEvery: -1})
		base := heapAfterGC()
		for i := range keys {
			if _, err := k.AllowNAt(0, strconv.Itoa(i), 1); err != nil {
				t.Fatal(err)
			}
		}
		full := heapAfterGC()
		if n := k.Sweep(time.Hour); n != keys || k.Len() != 0 {
			t.Fatalf("%s: Sweep evicted %d, Len %d; want %d, 0", c.Kind, n, k.Len(), keys)
		}
		after := heapAfterGC()
		t.Logf("%s: heap %d bytes before the keys, %d with %d keys, %d after Sweep", c.Kind, base, full, keys, after)
		if full-base < keys*64 {
			t.Errorf("%s: %d keys took %d bytes; want at least 64 per key, or this test measures nothing", c.Kind, keys, full-base)
		}
		if after > base+base/10 {
			t.Errorf("%s: heap after Sweep %d bytes; want within 10 %% of %d before the keys (%d held with them)", c.Kind, after, base, full)
		}
		runtime.KeepAlive(k)
	}
}

// Sweeps (Sweep and the amortised one) that run while keys are created and
// requested evict only fresh keys, and a shard rebuilt meanwhile (about 1250
// idle keys and 312 busy ones a shard: rebuilt with more than one batch to
// copy) loses no key: every key in debt is still held after the sweeps, with
// its debt.
func TestSweepDuringRequests(t *testing.T) {
	k := newKeyed(t, func(string) (limiter.Strategy, error) { return limiter.NewTokenBucket(1, 1) },
		limiter.KeyedOptions{SweepEvery: 16})
	const idle, busy = 80_000, 20_000
	for i := range idle {
		if _, err := k.AllowNAt(0, "idle-"+strconv.Itoa(i), 0); err != nil { // a peek: fresh, evictable
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range busy {
			// In debt at 1 h for a second: never evictable at 1 h.
			if d, err := k.AllowNAt(time.Hour, "busy-"+strconv.Itoa(i), 1); err != nil || !d.Allowed {
				t.Errorf("busy-%d: %+v, %v; want allowed", i, d, err)
				return
			}
		}
	}()
	for range 3 {
		k.Sweep(time.Hour)
	}
	wg.Wait()
	k.Sweep(time.Hour)
	if k.Len() != busy {
		t.Errorf("Len after the sweeps = %d; want %d (every busy key, no idle one)", k.Len(), busy)
	}
	for i := range busy {
		d := keyedAllow(t, k, time.Hour, "busy-"+strconv.Itoa(i), 1)
		if d.Allowed || d.RetryAfter != time.Second {
			t.Fatalf("busy-%d after the sweeps: %+v; want denied, retry after 1s (its debt kept)", i, d)
		}
	}
}

// BenchmarkSweepLatency: the latency of requests for 1024 busy keys, made
// from GOMAXPROCS − 1 goroutines while Sweep evicts 1,000,000 idle token
// buckets (each op is one Sweep). It reports the requests' latency, in ns:
// median, p99, p99.9 and maximum (on a loaded machine the tail is mostly
// the OS descheduling a thread); with the default options the requests
// also run the amortised sweep.
func BenchmarkSweepLatency(b *testing.B) {
	const idle, busy = 1_000_000, 1024
	keys := make([]string, idle)
	for i := range keys {
		keys[i] = "idle-" + strconv.Itoa(i)
	}
	busyKeys := make([]string, busy)
	for i := range busyKeys {
		busyKeys[i] = "busy-" + strconv.Itoa(i)
	}
	workers := max(runtime.GOMAXPROCS(0)-1, 1)
	var lat []time.Duration
	for range b.N {
		b.StopTimer()
		k, err := limiter.NewKeyed(func(string) (limiter.Strategy, error) { return limiter.NewTokenBucket(1e6, 100) },
			limiter.KeyedOptions{IdleTTL: time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		for _, key := range keys {
			k.AllowNAt(0, key, 1)
		}
		runtime.GC()
		b.StartTimer()
		var stop atomic.Bool
		got := make([][]time.Duration, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				l := make([]time.Duration, 0, 1<<20)
				for i := 0; !stop.Load(); i++ {
					t0 := time.Now()
					k.AllowNAt(time.Hour+time.Duration(i), busyKeys[(i*7+w)%busy], 1)
					l = append(l, time.Since(t0))
				}
				got[w] = l
			}()
		}
		k.Sweep(time.Hour) // the requests' amortised sweep evicts some keys too
		stop.Store(true)
		wg.Wait()
		if n := k.Len(); n > busy {
			b.Fatalf("Len after Sweep %d; want at most %d (the busy keys)", n, busy)
		}
		for _, l := range got {
			lat = append(lat, l...)
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2]), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100]), "p99-ns")
	b.ReportMetric(float64(lat[len(lat)*999/1000]), "p99.9-ns")
	b.ReportMetric(float64(lat[len(lat)-1]), "max-ns")
	b.ReportMetric(float64(len(lat))/float64(b.N), "requests/op")
}

// TestSweepIdleFromLatestRequest: a key is idle IdleTTL after its latest
// request, admitted or not. Token buckets and GCRA take the latest admitted
// instant from their state and record only the other requests (denied, or
// of 0) beside it, so both kinds of request are checked, at the instant just
// before IdleTTL has passed and at the instant it has.
func TestSweepIdleFromLatestRequest(t *testing.T) {
	const ttl = 10 * time.Second
	kinds := []limiter.Config{
		{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 1},
		{Kind: limiter.KindGCRA, Rate: 1, Burst: 1},
		{Kind: limiter.KindLeakyBucket, Capacity: 1, LeakInterval: time.Second},
		{Kind: limiter.KindFixedWindow, Limit: 1, Window: time.Second},
	}
	requests := []struct {
		name   string
		at     time.Duration // of the latest request, after one admitted at 0
		n      int
		admits bool
	}{
		{"admitted", 3 * time.Second, 1, true},
		{"denied", 500 * time.Millisecond, 1, false},
		{"zero", 3 * time.Second, 0, true},
		{"stale", -time.Second, 0, true},
	}
	for _, c := range kinds {
		for _, r := range requests {
			t.Run(string(c.Kind)+"/"+r.name, func(t *testing.T) {
				k, err := limiter.NewKeyed(func(string) (limiter.Strategy, error) { return limiter.New(c) },
					limiter.KeyedOptions{IdleTTL: ttl, SweepEvery: -1})
				if err != nil {
					t.Fatal(err)
				}
				if d, _ := k.AllowNAt(0, "a", 1); !d.Allowed {
					t.Fatal("first request denied")
				}
				if d, _ := k.AllowNAt(r.at, "a", r.n); d.Allowed != r.admits {
					t.Fatalf("request of %d at %v: Allowed = %v; want %v", r.n, r.at, d.Allowed, r.admits)
				}
				latest := max(r.at, 0)
				if got := k.Sweep(latest + ttl - 1); got != 0 {
					t.Fatalf("Sweep 1 ns before IdleTTL after %v evicted %d; want 0", latest, got)
				}
				if got := k.Sweep(latest + ttl); got != 1 {
					t.Fatalf("Sweep IdleTTL after %v evicted %d; want 1", latest, got)
				}
			})
		}
	}
}
