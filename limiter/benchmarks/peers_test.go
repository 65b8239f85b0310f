// Package benchmarks measures limiter side by side with the Go rate limiters
// a user would pick instead, in one benchmark binary. It is a separate module
// so that limiter itself keeps zero dependencies. Run `make bench` at the
// repository root: it runs these benchmarks with -count 6 and prints each
// group as ratios of ours to each peer.
//
// Sub-benchmark names are <group>/<implementation>; ours start with "ours".
package benchmarks

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
	sethvargo "github.com/sethvargo/go-limiter/memorystore"
	"github.com/throttled/throttled/v2"
	"github.com/throttled/throttled/v2/store/memstore"
	ulule "github.com/ulule/limiter/v3"
	ululemem "github.com/ulule/limiter/v3/drivers/store/memory"
	"golang.org/x/time/rate"
)

// A high rate so that nearly every decision is an admission: the benchmarks
// measure the hot path, not the denial path.
const (
	benchRate  = 1e6
	benchBurst = 100
	step       = time.Microsecond
)

var base = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// BenchmarkOneKey: one limiter, one goroutine, an explicit instant that
// advances by 1 µs per decision.
func BenchmarkOneKey(b *testing.B) {
	b.Run("ours-token-bucket", func(b *testing.B) {
		tb, _ := limiter.NewTokenBucket(benchRate, benchBurst)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			tb.AllowN(time.Duration(i)*step, 1)
		}
	})
	b.Run("ours-gcra", func(b *testing.B) {
		g, _ := limiter.NewGCRA(benchRate, benchBurst)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			g.AllowN(time.Duration(i)*step, 1)
		}
	})
	// Admit is AllowN's yes or no, like x/time/rate's AllowN: the same
	// decision and state change, without the metadata. (A caller that keeps
	// the whole 48-byte Decision also pays for copying it: Go returns it in
	// registers and the caller spills it to memory.)
	b.Run("ours-token-bucket-admit", func(b *testing.B) {
		tb, _ := limiter.NewTokenBucket(benchRate, benchBurst)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			tb.Admit(time.Duration(i)*step, 1)
		}
	})
	b.Run("ours-gcra-admit", func(b *testing.B) {
		g, _ := limiter.NewGCRA(benchRate, benchBurst)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			g.Admit(time.Duration(i)*step, 1)
		}
	})
	// The leaky bucket as a meter at the same rate (one unit leaks per
	// 1 µs) and capacity: its Decision also carries the queue Delay.
	b.Run("ours-leaky-bucket", func(b *testing.B) {
		lb, _ := limiter.NewLeakyBucket(benchBurst, time.Second/benchRate)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			lb.AllowN(time.Duration(i)*step, 1)
		}
	})
	b.Run("ours-leaky-bucket-admit", func(b *testing.B) {
		lb, _ := limiter.NewLeakyBucket(benchBurst, time.Second/benchRate)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			lb.Admit(time.Duration(i)*step, 1)
		}
	})
	b.Run("x-time-rate", func(b *testing.B) {
		l := rate.NewLimiter(benchRate, benchBurst)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			l.AllowN(base.Add(time.Duration(i)*step), 1)
		}
	})
	b.Run("throttled-gcra", func(b *testing.B) {
		ms, _ := memstore.New(0)
		now := base
		ms.SetTimeNow(func() time.Time { return now })
		l, _ := throttled.NewGCRARateLimiterCtx(throttled.WrapStoreWithContext(ms), throttled.RateQuota{MaxRate: throttled.PerSec(1_000_000), MaxBurst: benchBurst})
		ctx := context.Background()
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			now = base.Add(time.Duration(i) * step)
			l.RateLimitCtx(ctx, "k", 1)
		}
	})
}

// BenchmarkOneKeyParallel: one limiter shared by GOMAXPROCS goroutines.
func BenchmarkOneKeyParallel(b *testing.B) {
	var clock atomic.Int64
	b.Run("ours-token-bucket", func(b *testing.B) {
		tb, _ := limiter.NewTokenBucket(benchRate, benchBurst)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				tb.AllowN(time.Duration(clock.Add(1))*step, 1)
			}
		})
	})
	b.Run("ours-gcra", func(b *testing.B) {
		g, _ := limiter.NewGCRA(benchRate, benchBurst)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				g.AllowN(time.Duration(clock.Add(1))*step, 1)
			}
		})
	})
	b.Run("ours-token-bucket-admit", func(b *testing.B) {
		tb, _ := limiter.NewTokenBucket(benchRate, benchBurst)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				tb.Admit(time.Duration(clock.Add(1))*step, 1)
			}
		})
	})
	b.Run("ours-gcra-admit", func(b *testing.B) {
		g, _ := limiter.NewGCRA(benchRate, benchBurst)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				g.Admit(time.Duration(clock.Add(1))*step, 1)
			}
		})
	})
	b.Run("x-time-rate", func(b *testing.B) {
		l := rate.NewLimiter(benchRate, benchBurst)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				l.AllowN(base.Add(time.Duration(clock.Add(1))*step), 1)
			}
		})
	})
}

const numKeys = 1_000_000

var keys = func() []string {
	k := make([]string, numKeys)
	for i := range k {
		k[i] = fmt.Sprintf("client-%07d", i)
	}
	return k
}()

// xorshift gives a fixed pseudo-random key order, the same for every peer.
type xorshift uint64

func (x *xorshift) next() int {
	*x ^= *x << 13
	*x ^= *x >> 7
	*x ^= *x << 17
	return int(uint64(*x) % numKeys)
}

// shardedRate is what a user would write with x/time/rate: a sharded map of
// limiters, created lazily.
type shardedRate struct {
	shards [64]struct {
		mu sync.RWMutex
		m  map[string]*rate.Limiter
	}
}

func newShardedRate() *shardedRate {
	s := &shardedRate{}
	for i := range s.shards {
		s.shards[i].m = make(map[string]*rate.Limiter)
	}
	return s
}

func fnv(key string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(key); i++ {
		h = (h ^ uint32(key[i])) * 16777619
	}
	return h
}

func (s *shardedRate) allowN(t time.Time, key string, n int) bool {
	sh := &s.shards[fnv(key)%64]
	sh.mu.RLock()
	l := sh.m[key]
	sh.mu.RUnlock()
	if l == nil {
		sh.mu.Lock()
		if l = sh.m[key]; l == nil {
			l = rate.NewLimiter(benchRate, benchBurst)
			sh.m[key] = l
		}
		sh.mu.Unlock()
	}
	return l.AllowN(t, n)
}

// globalLock is the naive design: one mutex around one map. It is here only
// to be compared with.
type globalLock struct {
	mu sync.Mutex
	m  map[string]*limiter.TokenBucket
}

func (g *globalLock) allowN(now limiter.Instant, key string, n int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	tb := g.m[key]
	if tb == nil {
		tb, _ = limiter.NewTokenBucket(benchRate, benchBurst)
		g.m[key] = tb
	}
	d, _ := tb.AllowN(now, n)
	return d.Allowed
}

func keyedOf(b *testing.B, c limiter.Config, sweepEvery int) *limiter.Keyed {
	k, err := limiter.NewKeyed(func(string) (limiter.Strategy, error) { return limiter.New(c) },
		limiter.KeyedOptions{IdleTTL: time.Hour, SweepEvery: sweepEvery})
	if err != nil {
		b.Fatal(err)
	}
	return k
}

var tbConfig = limiter.Config{Kind: limiter.KindTokenBucket, Rate: benchRate, Burst: benchBurst}

// BenchmarkKeyed: 1,000,000 distinct keys, all created before the timer
// starts, then decisions for keys in a fixed random order (timeKeyed).
func BenchmarkKeyed(b *testing.B) {
	b.Run("ours-token-bucket", func(b *testing.B) {
		k := keyedOf(b, tbConfig, -1)
		for i, key := range keys {
			k.AllowNAt(time.Duration(i), key, 1)
		}
		timeKeyed(b, func(i int, key string) { k.AllowNAt(time.Second+time.Duration(i)*step, key, 1) })
	})
	b.Run("x-time-rate-sharded", func(b *testing.B) {
		s := newShardedRate()
		for i, key := range keys {
			s.allowN(base.Add(time.Duration(i)), key, 1)
		}
		timeKeyed(b, func(i int, key string) { s.allowN(base.Add(time.Second+time.Duration(i)*step), key, 1) })
	})
	b.Run("throttled-gcra", func(b *testing.B) {
		st, _ := memstore.NewCtx(0)
		l, _ := throttled.NewGCRARateLimiterCtx(st, throttled.RateQuota{MaxRate: throttled.PerSec(1_000_000), MaxBurst: benchBurst})
		ctx := context.Background()
		for _, key := range keys {
			l.RateLimitCtx(ctx, key, 1)
		}
		timeKeyed(b, func(_ int, key string) { l.RateLimitCtx(ctx, key, 1) })
	})
	b.Run("sethvargo", func(b *testing.B) {
		st, _ := sethvargo.New(&sethvargo.Config{Tokens: benchBurst, Interval: time.Second})
		defer st.Close(context.Background())
		ctx := context.Background()
		for _, key := range keys {
			st.Take(ctx, key)
		}
		timeKeyed(b, func(_ int, key string) { st.Take(ctx, key) })
	})
	b.Run("ulule", func(b *testing.B) {
		l := ulule.New(ululemem.NewStore(), ulule.Rate{Period: time.Second, Limit: benchBurst})
		ctx := context.Background()
		for _, key := range keys {
			l.Get(ctx, key)
		}
		timeKeyed(b, func(_ int, key string) { l.Get(ctx, key) })
	})
}

// timeKeyed times decide (the i-th decision, for key) for keys in a fixed
// random order: one loop for every implementation, so that no row's figure
// depends on its own loop's shape. A first pass of numKeys decisions in that
// order, untimed, makes the timed loop a limiter in service rather than its
// first touch of each key after a bulk insert.
func timeKeyed(b *testing.B, decide func(i int, key string)) {
	x := xorshift(88172645463325252)
	i := 0
	for ; i < numKeys; i++ {
		decide(i, keys[x.next()])
	}
	b.ReportAllocs()
	dropSetupGarbage()
	b.ResetTimer()
	for ; b.Loop(); i++ {
		decide(i, keys[x.next()])
	}
}

// BenchmarkKeyedScaling: distinct keys from 1 and from 2 goroutines; ours
// (per-key locks in a sharded map) beside one global lock.
func BenchmarkKeyedScaling(b *testing.B) {
	for _, procs := range []int{1, 2} {
		b.Run(fmt.Sprintf("ours-keyed-%dproc", procs), func(b *testing.B) {
			k := keyedOf(b, tbConfig, -1)
			runScaling(b, procs, func(now limiter.Instant, key string) { k.AllowNAt(now, key, 1) })
		})
		b.Run(fmt.Sprintf("global-lock-%dproc", procs), func(b *testing.B) {
			g := &globalLock{m: make(map[string]*limiter.TokenBucket)}
			runScaling(b, procs, func(now limiter.Instant, key string) { g.allowN(now, key, 1) })
		})
	}
}

func runScaling(b *testing.B, procs int, allow func(limiter.Instant, string)) {
	for i, key := range keys[:100_000] {
		allow(time.Duration(i), key)
	}
	old := runtime.GOMAXPROCS(procs)
	defer runtime.GOMAXPROCS(old)
	var seq atomic.Uint64
	dropSetupGarbage()
	b.ResetTimer()
	b.SetParallelism(1)
	b.RunParallel(func(pb *testing.PB) {
		x := xorshift(seq.Add(1)*2654435761 + 1)
		i := 0
		for pb.Next() {
			i++
			allow(time.Second+time.Duration(i)*step, keys[x.next()%100_000])
		}
	})
}

// BenchmarkIdleKeyBytes: heap bytes held per idle key, measured from the
// heap after a GC with 200,000 keys (reported as B/key); the timed loop is a
// decision for an existing key.
func BenchmarkIdleKeyBytes(b *testing.B) {
	const n = 200_000
	configs := []limiter.Config{
		tbConfig,
		{Kind: limiter.KindGCRA, Rate: benchRate, Burst: benchBurst},
		{Kind: limiter.KindLeakyBucket, Capacity: benchBurst, LeakInterval: time.Microsecond},
		{Kind: limiter.KindFixedWindow, Limit: benchBurst, Window: time.Second},
		{Kind: limiter.KindSlidingWindowLog, Limit: 100, Window: time.Second},
		{Kind: limiter.KindSlidingWindowCounter, Limit: benchBurst, Window: time.Second},
	}
	for _, c := range configs {
		b.Run("ours-"+string(c.Kind), func(b *testing.B) {
			before := heapAfterGC()
			k := keyedOf(b, c, -1)
			for i, key := range keys[:n] {
				k.AllowNAt(time.Duration(i), key, 1)
			}
			perKey := float64(heapAfterGC()-before) / n
			x := xorshift(88172645463325252)
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				k.AllowNAt(time.Second+time.Duration(i)*step, keys[x.next()%n], 1)
			}
			b.ReportMetric(perKey, "B/key") // after the loop: ResetTimer clears metrics
			runtime.KeepAlive(k)
		})
	}
	b.Run("x-time-rate-sharded", func(b *testing.B) {
		before := heapAfterGC()
		s := newShardedRate()
		for i, key := range keys[:n] {
			s.allowN(base.Add(time.Duration(i)), key, 1)
		}
		perKey := float64(heapAfterGC()-before) / n
		x := xorshift(88172645463325252)
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			s.allowN(base.Add(time.Second+time.Duration(i)*step), keys[x.next()%n], 1)
		}
		b.ReportMetric(perKey, "B/key")
		runtime.KeepAlive(s)
	})
}

// dropSetupGarbage collects what a benchmark's setup left behind (the maps
// and tables that a million insertions outgrew) before its timer starts.
// Without it, that collection's mark phase, which walks every live entry,
// runs during whichever row's timed loop it happens to fall in: a row's
// figure then depends on the setup's timing, not on its decisions.
// Collections that a row's own decisions cause (its allocations) still
// fall in its loop, as they would in a service.
func dropSetupGarbage() { runtime.GC() }

func heapAfterGC() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkSweep: the amortised cost of idle eviction per request, with
// 1,000,000 keys of which half are idle (idle past the TTL but still in
// debt, so every sweep must look at them and keep them). Ours with a sweep
// of one shard every 1024 requests beside the same without sweeping.
func BenchmarkSweep(b *testing.B) {
	slow := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1e-3, Burst: 2}
	for _, every := range []int{1024, -1} {
		name := "ours-sweep-every-1024"
		if every < 0 {
			name = "ours-no-sweep"
		}
		b.Run(name, func(b *testing.B) {
			k := keyedOf(b, slow, every)
			for _, key := range keys {
				k.AllowNAt(0, key, 1) // in debt for 1000 s
			}
			active := keys[:numKeys/2]
			x := xorshift(88172645463325252)
			dropSetupGarbage()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				k.AllowNAt(2*time.Hour+time.Duration(i)*step, active[x.next()%(numKeys/2)], 0)
			}
		})
	}
}
