package redisstore_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"github.com/ratelab/ratelab/limiter/redisstore"
	"github.com/redis/go-redis/v9"
)

// base is the traces' first instant: instants are µs since the Unix epoch,
// and the in-memory strategy's Instant is the same µs in nanoseconds.
var base = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).UnixMicro()

// noExpiry keeps every key through a test: keys expire on the server's clock,
// which does not follow the traces' explicit instants.
var noExpiry = redisstore.Options{TTLSlack: time.Hour, Timeout: 10 * time.Second}

// randomConfig draws a configuration of kind with small limits, rates that
// are not whole fractions of a second (1/3 per s, 5000 per hour) and windows
// and leak intervals that are not whole milliseconds.
func randomConfig(rng *rand.Rand, kind limiter.Kind) limiter.Config {
	rates := []float64{3, 0.1, 1 / 3.0, 5000 / 3600.0, 7.5, 1000, 0, math.Inf(1), 2.5e5}
	durs := []time.Duration{time.Millisecond, 333 * time.Microsecond, 7 * time.Millisecond, time.Second, 1500 * time.Microsecond}
	c := limiter.Config{Kind: kind}
	switch kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		c.Rate, c.Burst = rates[rng.IntN(len(rates))], rng.IntN(11)
	case limiter.KindLeakyBucket:
		c.Capacity, c.LeakInterval = 1+rng.IntN(10), durs[rng.IntN(len(durs))]
		if rng.IntN(3) == 0 {
			c.LeakInterval = time.Duration(1 + rng.IntN(5000)) // not whole µs: ns intervals reduce exactly too
		}
	default:
		c.Limit, c.Window = 1+rng.IntN(10), durs[rng.IntN(len(durs))]
	}
	return c
}

// step is a trace's advance in µs: often none (several requests at one
// instant), sometimes back (a stale request), up to about two windows.
func step(rng *rand.Rand, scale int64) int64 {
	switch rng.IntN(8) {
	case 0, 1:
		return 0
	case 2:
		return -rng.Int64N(scale/4 + 1)
	}
	return rng.Int64N(2*scale + 1)
}

func scaleOf(c limiter.Config) int64 {
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		if c.Rate == 0 || math.IsInf(c.Rate, 1) {
			return 1000
		}
		return max(int64(1e6/c.Rate), 1)
	case limiter.KindLeakyBucket:
		return max(c.LeakInterval.Microseconds(), 1)
	}
	return c.Window.Microseconds() / 3
}

// differential runs seeded traces through the in-memory strategy and a Store
// on client, and fails on the first Decision field that differs.
func differential(t *testing.T, client redis.UniversalClient, seeds, steps int) {
	ctx := context.Background()
	for _, kind := range limiter.Kinds {
		var allowed, waited, stale int // the trace reached admissions, finite waits and stale requests
		for seed := range seeds {
			rng := rand.New(rand.NewPCG(uint64(seed), uint64(len(kind))))
			cfg := randomConfig(rng, kind)
			o := noExpiry
			o.Prefix = fmt.Sprintf("diff:%s:%d:", t.Name(), seed)
			st, err := redisstore.New(client, cfg, o)
			if err != nil {
				t.Fatalf("%s: %v", cfg, err)
			}
			mem, err := limiter.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			now, scale, top := base, scaleOf(cfg), cfg.Burst+cfg.Capacity+cfg.Limit+2
			latest := now
			for i := range steps {
				now += step(rng, scale)
				n := rng.IntN(top + 1)
				got, err := st.TakeAt(ctx, time.UnixMicro(now), fmt.Sprintf("client%d", seed), n)
				if err != nil {
					t.Fatalf("%s seed %d step %d: %v", cfg, seed, i, err)
				}
				want, _ := mem.AllowN(limiter.Instant(now*1000), n)
				if len(got.Limits) != 1 || got.Limits[0].Decision != want || got.Allowed != want.Allowed {
					t.Fatalf("%s seed %d step %d: n %d at %d µs: Redis %+v, in memory %+v", cfg, seed, i, n, now-base, got, want)
				}
				switch {
				case want.Allowed && n > 0:
					allowed++
				case !want.Allowed && want.RetryAfter != limiter.Never:
					waited++
				}
				if now < latest {
					stale++
				}
				latest = max(latest, now)
			}
		}
		if allowed == 0 || waited == 0 || stale == 0 {
			t.Errorf("%s: the traces reached %d admissions, %d finite waits, %d stale requests; want some of each", kind, allowed, waited, stale)
		}
	}
}

func TestDifferential(t *testing.T) {
	c := srv.Client()
	defer c.Close()
	differential(t, c, 12, 300)
}

// TestDifferentialLarge: limits and windows whose products pass 2^53 (the
// sliding window counter's weighting compared in base 2^18 in Lua), and
// counts and debts near the largest the store takes, n up to a third of
// the limit: every Decision field equal to the in-memory strategy's.
func TestDifferentialLarge(t *testing.T) {
	c := srv.Client()
	defer c.Close()
	ctx := context.Background()
	year, day := 365*24*time.Hour, 24*time.Hour
	for i, tc := range []struct {
		cfg  limiter.Config
		step time.Duration // the most a step advances
	}{
		{limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 1 << 40, Window: 10 * year}, 10 * year / 32},
		{limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 1<<53 - 1, Window: 1000 * time.Hour}, 250 * time.Hour},
		{limiter.Config{Kind: limiter.KindFixedWindow, Limit: 1<<53 - 1, Window: 10 * year}, 10 * year / 32},
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1 / 3.0, Burst: 1 << 20}, day},
		{limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 1 << 40, LeakInterval: 1001}, day},
	} {
		cfg := tc.cfg
		o := noExpiry
		o.Prefix = fmt.Sprintf("large:%d:", i)
		st, err := redisstore.New(c, cfg, o)
		if err != nil {
			t.Fatalf("%s: %v", cfg, err)
		}
		mem, _ := limiter.New(cfg)
		limit, span := int64(cfg.Limit+cfg.Burst+cfg.Capacity), tc.step.Microseconds()
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		now, allowed, denied := base, 0, 0
		for step := range 200 {
			now += rng.Int64N(span + 1)
			n := int(rng.Int64N(limit/3 + 1))
			got, err := st.TakeAt(ctx, time.UnixMicro(now), "k", n)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := mem.AllowN(limiter.Instant(now*1000), n)
			if got.Limits[0].Decision != want {
				t.Fatalf("%s step %d: n %d at %d µs: Redis %+v, in memory %+v", cfg, step, n, now-base, got.Limits[0].Decision, want)
			}
			if want.Allowed {
				allowed++
			} else {
				denied++
			}
		}
		if allowed == 0 || denied == 0 {
			t.Errorf("%s: %d allowed, %d denied; want both", cfg, allowed, denied)
		}
	}
}
