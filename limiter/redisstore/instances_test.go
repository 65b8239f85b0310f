package redisstore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"github.com/ratelab/ratelab/limiter/redisstore"
	"github.com/redis/go-redis/v9"
)

// TestManyInstances: eight gateways, each with its own client and Store,
// send 6 requests each for one key at every one of 40 instants (all the
// gateways at one instant before any at the next). At one instant the order
// of requests of 1 does not change how many are admitted, so the total, and
// each instant's count, must equal what one in-memory limiter admits for the
// same 48 requests per instant: no over-admission under concurrency.
func TestManyInstances(t *testing.T) {
	const gateways, perInstant, instants = 8, 6, 40
	configs := []limiter.Config{
		{Kind: limiter.KindTokenBucket, Rate: 100 / 3.0, Burst: 20},
		{Kind: limiter.KindGCRA, Rate: 100 / 3.0, Burst: 20},
		{Kind: limiter.KindLeakyBucket, Capacity: 20, LeakInterval: 30 * time.Millisecond},
		{Kind: limiter.KindFixedWindow, Limit: 25, Window: 100 * time.Millisecond},
		{Kind: limiter.KindSlidingWindowLog, Limit: 25, Window: 100 * time.Millisecond},
		{Kind: limiter.KindSlidingWindowCounter, Limit: 25, Window: 100 * time.Millisecond},
	}
	ctx := context.Background()
	for _, cfg := range configs {
		t.Run(string(cfg.Kind), func(t *testing.T) {
			stores := make([]*redisstore.Store, gateways)
			for g := range stores {
				c := redis.NewClient(&redis.Options{Addr: srv.Addr})
				defer c.Close()
				o := noExpiry
				o.Prefix = "instances:"
				var err error
				if stores[g], err = redisstore.New(c, cfg, o); err != nil {
					t.Fatal(err)
				}
			}
			mem, _ := limiter.New(cfg)
			total, want := 0, 0
			for i := range instants {
				now := base + int64(i)*7_000      // 7 ms apart
				admitted := make([]int, gateways) // each gateway counts its own
				var wg sync.WaitGroup
				errs := make(chan error, gateways)
				for g, st := range stores {
					wg.Go(func() {
						for range perInstant {
							r, err := st.TakeAt(ctx, time.UnixMicro(now), "shared", 1)
							if err != nil {
								errs <- err
								return
							}
							if r.Allowed {
								admitted[g]++
							}
						}
					})
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					t.Fatal(err)
				}
				got, exp := 0, 0
				for _, a := range admitted {
					got += a
				}
				for range gateways * perInstant {
					if d, _ := mem.AllowN(limiter.Instant(now*1000), 1); d.Allowed {
						exp++
					}
				}
				if got != exp {
					t.Errorf("instant %d: %d gateways admitted %d, one in-memory limiter %d", i, gateways, got, exp)
				}
				total, want = total+got, want+exp
			}
			if total != want || want <= 25 || want >= instants*gateways*perInstant {
				t.Errorf("admitted %d in all, one in-memory limiter %d (of %d requests)", total, want, instants*gateways*perInstant)
			}
			t.Logf("%s: admitted %d of %d, as in memory", cfg, total, instants*gateways*perInstant)
		})
	}
}
