package benchmarks

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/ratelab/ratelab/limiter"
	"github.com/ratelab/ratelab/limiter/redisstore"
	"github.com/ratelab/ratelab/limiter/redisstore/redistest"
	"github.com/redis/go-redis/v9"
	ulule "github.com/ulule/limiter/v3"
	ululeredis "github.com/ulule/limiter/v3/drivers/store/redis"
)

// redisAddr is the loopback redis-server every Redis benchmark shares,
// started by TestMain and stopped after the run.
var redisAddr string

func TestMain(m *testing.M) {
	s, err := redistest.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "the Redis benchmarks need a redis-server:", err)
		os.Exit(1)
	}
	redisAddr = s.Addr
	code := m.Run()
	s.Stop()
	os.Exit(code)
}

// Redis limits high enough that nearly every decision is an admission, as in
// the in-memory benchmarks: the hot path, one round trip each. Each
// sub-benchmark uses its own keys (a fresh prefix) on the same server.
const redisRate, redisBurst = 1_000_000, 100

func redisClient(b *testing.B) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: redisAddr})
	b.Cleanup(func() { c.Close() })
	return c
}

func oursRedis(b *testing.B, c redis.UniversalClient, cfg limiter.Config, o redisstore.Options) *redisstore.Store {
	o.Prefix = fmt.Sprintf("bench:%s:%d:", b.Name(), time.Now().UnixNano())
	st, err := redisstore.New(c, cfg, o)
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// runRedis runs take once per iteration, in parallel over GOMAXPROCS × 8
// goroutines when parallel (a gateway's many requests in flight), each on
// its own key, and fails on the first error.
func runRedis(b *testing.B, parallel bool, take func(ctx context.Context, key string) error) {
	ctx := context.Background()
	b.ReportAllocs()
	if !parallel {
		for b.Loop() {
			if err := take(ctx, "client"); err != nil {
				b.Fatal(err)
			}
		}
		return
	}
	b.SetParallelism(8)
	var id atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		key := fmt.Sprintf("client%d", id.Add(1))
		for pb.Next() {
			if err := take(ctx, key); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkRedisGCRA: one decision per iteration on the server's clock, ours
// against go-redis/redis_rate's Allow (GCRA in Lua, also on the server's
// TIME), same server, same client options.
func BenchmarkRedisGCRA(b *testing.B) { benchGCRA(b, false) }

// BenchmarkRedisGCRAParallel: the same with 8 goroutines per core.
func BenchmarkRedisGCRAParallel(b *testing.B) { benchGCRA(b, true) }

func benchGCRA(b *testing.B, parallel bool) {
	b.Run("ours-gcra", func(b *testing.B) {
		st := oursRedis(b, redisClient(b), limiter.Config{Kind: limiter.KindGCRA, Rate: redisRate, Burst: redisBurst}, redisstore.Options{})
		runRedis(b, parallel, func(ctx context.Context, key string) error { _, err := st.Take(ctx, key, 1); return err })
	})
	b.Run("redis_rate", func(b *testing.B) {
		l := redis_rate.NewLimiter(redisClient(b))
		lim := redis_rate.Limit{Rate: redisRate, Burst: redisBurst, Period: time.Second}
		prefix := fmt.Sprintf("%d:", time.Now().UnixNano())
		runRedis(b, parallel, func(ctx context.Context, key string) error { _, err := l.Allow(ctx, prefix+key, lim); return err })
	})
}

// BenchmarkRedisFixedWindow: ours against ulule/limiter's Redis store
// (INCRBY and PEXPIRE in one script), same server.
func BenchmarkRedisFixedWindow(b *testing.B) { benchFixedWindow(b, false) }

// BenchmarkRedisFixedWindowParallel: the same with 8 goroutines per core.
func BenchmarkRedisFixedWindowParallel(b *testing.B) { benchFixedWindow(b, true) }

func benchFixedWindow(b *testing.B, parallel bool) {
	b.Run("ours-fixed-window", func(b *testing.B) {
		st := oursRedis(b, redisClient(b), limiter.Config{Kind: limiter.KindFixedWindow, Limit: redisRate, Window: time.Second}, redisstore.Options{})
		runRedis(b, parallel, func(ctx context.Context, key string) error { _, err := st.Take(ctx, key, 1); return err })
	})
	b.Run("ulule-redis", func(b *testing.B) {
		store, err := ululeredis.NewStoreWithOptions(redisClient(b), ulule.StoreOptions{Prefix: fmt.Sprintf("ulule%d", time.Now().UnixNano())})
		if err != nil {
			b.Fatal(err)
		}
		l := ulule.New(store, ulule.Rate{Period: time.Second, Limit: redisRate})
		runRedis(b, parallel, func(ctx context.Context, key string) error { _, err := l.Get(ctx, key); return err })
	})
}

// BenchmarkRedisStrategies: every strategy of ours on Redis, one decision per
// iteration on the server's clock.
func BenchmarkRedisStrategies(b *testing.B) {
	for _, cfg := range []limiter.Config{
		{Kind: limiter.KindTokenBucket, Rate: redisRate, Burst: redisBurst},
		{Kind: limiter.KindGCRA, Rate: redisRate, Burst: redisBurst},
		{Kind: limiter.KindLeakyBucket, Capacity: redisBurst, LeakInterval: time.Microsecond},
		{Kind: limiter.KindFixedWindow, Limit: redisRate, Window: time.Second},
		{Kind: limiter.KindSlidingWindowLog, Limit: redisBurst, Window: 100 * time.Microsecond},
		{Kind: limiter.KindSlidingWindowCounter, Limit: redisRate, Window: time.Second},
	} {
		b.Run("ours-"+string(cfg.Kind), func(b *testing.B) {
			st := oursRedis(b, redisClient(b), cfg, redisstore.Options{})
			runRedis(b, false, func(ctx context.Context, key string) error { _, err := st.Take(ctx, key, 1); return err })
		})
	}
}

// BenchmarkRedisFlood: 10 gateways' worth of traffic against one key, ten
// times its limit (a token bucket of 1000/s, burst 10, offered 10,000/s:
// explicit instants 100 µs apart), with and without LocalDeny; calls/req is
// the Redis round trips per request, admitted/req the share admitted (the
// same for both: LocalDeny never denies what Redis admits).
func BenchmarkRedisFlood(b *testing.B) {
	cfg := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1000, Burst: 10}
	for _, local := range []bool{false, true} {
		name := "ours-round-trip-each"
		if local {
			name = "ours-local-deny"
		}
		b.Run(name, func(b *testing.B) {
			st := oursRedis(b, redisClient(b), cfg, redisstore.Options{LocalDeny: local})
			ctx, t0 := context.Background(), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
			admitted := 0
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				r, err := st.TakeAt(ctx, t0.Add(time.Duration(i)*100*time.Microsecond), "flooded", 1)
				if err != nil {
					b.Fatal(err)
				}
				if r.Allowed {
					admitted++
				}
			}
			b.ReportMetric(float64(st.Stats().Calls)/float64(b.N), "calls/req")
			b.ReportMetric(float64(admitted)/float64(b.N), "admitted/req")
		})
	}
}

// BenchmarkRedisPaired takes ours and the peer's decisions in turns, one of
// each per iteration (the order alternating), timing each call, so that both
// meet the same load on a shared machine: ours-ns and peer-ns are each one's
// mean time per decision, ours/peer their ratio (below 1: ours decides more
// per second).
func BenchmarkRedisPaired(b *testing.B) {
	b.Run("ours-gcra-vs-redis_rate", func(b *testing.B) {
		st := oursRedis(b, redisClient(b), limiter.Config{Kind: limiter.KindGCRA, Rate: redisRate, Burst: redisBurst}, redisstore.Options{})
		l := redis_rate.NewLimiter(redisClient(b))
		lim := redis_rate.Limit{Rate: redisRate, Burst: redisBurst, Period: time.Second}
		key := fmt.Sprintf("paired%d", time.Now().UnixNano())
		paired(b,
			func(ctx context.Context) error { _, err := st.Take(ctx, "client", 1); return err },
			func(ctx context.Context) error { _, err := l.Allow(ctx, key, lim); return err })
	})
	b.Run("ours-fixed-window-vs-ulule-redis", func(b *testing.B) {
		st := oursRedis(b, redisClient(b), limiter.Config{Kind: limiter.KindFixedWindow, Limit: redisRate, Window: time.Second}, redisstore.Options{})
		store, err := ululeredis.NewStoreWithOptions(redisClient(b), ulule.StoreOptions{Prefix: fmt.Sprintf("ulule%d", time.Now().UnixNano())})
		if err != nil {
			b.Fatal(err)
		}
		l := ulule.New(store, ulule.Rate{Period: time.Second, Limit: redisRate})
		paired(b,
			func(ctx context.Context) error { _, err := st.Take(ctx, "client", 1); return err },
			func(ctx context.Context) error { _, err := l.Get(ctx, "client"); return err })
	})
	// ulule reads the client's clock: the same comparison with ours given
	// the client's instant (TakeAt), so neither script reads TIME.
	b.Run("ours-fixed-window-client-clock-vs-ulule-redis", func(b *testing.B) {
		st := oursRedis(b, redisClient(b), limiter.Config{Kind: limiter.KindFixedWindow, Limit: redisRate, Window: time.Second}, redisstore.Options{})
		store, err := ululeredis.NewStoreWithOptions(redisClient(b), ulule.StoreOptions{Prefix: fmt.Sprintf("ulule%d", time.Now().UnixNano())})
		if err != nil {
			b.Fatal(err)
		}
		l := ulule.New(store, ulule.Rate{Period: time.Second, Limit: redisRate})
		paired(b,
			func(ctx context.Context) error { _, err := st.TakeAt(ctx, time.Now(), "client", 1); return err },
			func(ctx context.Context) error { _, err := l.Get(ctx, "client"); return err })
	})
}

func paired(b *testing.B, ours, peer func(context.Context) error) {
	ctx := context.Background()
	var tOurs, tPeer time.Duration
	call := func(f func(context.Context) error, sum *time.Duration) {
		start := time.Now()
		if err := f(ctx); err != nil {
			b.Fatal(err)
		}
		*sum += time.Since(start)
	}
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			call(ours, &tOurs)
			call(peer, &tPeer)
		} else {
			call(peer, &tPeer)
			call(ours, &tOurs)
		}
	}
	b.ReportMetric(float64(tOurs.Nanoseconds())/float64(b.N), "ours-ns")
	b.ReportMetric(float64(tPeer.Nanoseconds())/float64(b.N), "peer-ns")
	b.ReportMetric(float64(tOurs)/float64(tPeer), "ours/peer")
}
