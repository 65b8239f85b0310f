package redisstore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"github.com/ratelab/ratelab/limiter/redisstore"
)

// TestLocalDenyNeverDeniesWhatRedisAdmits: three instances share one key,
// two of them with LocalDeny, on one clock (instants that never go back, as
// the server's TIME; often several requests at one instant: floods). Every
// request that reaches Redis must get exactly the Decision of one in-memory
// limiter fed every request; every request denied locally must be one that
// limiter denies too (so it changes nothing there either), with a
// RetryAfter no longer than the limiter's.
func TestLocalDenyNeverDeniesWhatRedisAdmits(t *testing.T) {
	c := srv.Client()
	defer c.Close()
	ctx := context.Background()
	for _, kind := range limiter.Kinds {
		local := 0
		for seed := range 8 {
			rng := rand.New(rand.NewPCG(uint64(seed), 99))
			cfg := randomConfig(rng, kind)
			var stores [3]*redisstore.Store
			for i := range stores {
				o := noExpiry
				o.Prefix = fmt.Sprintf("local:%d:", seed)
				o.LocalDeny = i > 0
				var err error
				if stores[i], err = redisstore.New(c, cfg, o); err != nil {
					t.Fatal(err)
				}
			}
			mem, _ := limiter.New(cfg)
			now, scale, top := base, scaleOf(cfg), cfg.Burst+cfg.Capacity+cfg.Limit+1
			for i := range 400 {
				if rng.IntN(4) == 0 {
					now += rng.Int64N(scale + 1)
				}
				n, st := rng.IntN(top+1), stores[rng.IntN(3)]
				calls := st.Stats().Calls
				got, err := st.TakeAt(ctx, time.UnixMicro(now), "k", n)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := mem.AllowN(limiter.Instant(now*1000), n)
				if st.Stats().Calls > calls {
					if got.Limits[0].Decision != want {
						t.Fatalf("%s seed %d step %d: n %d: Redis %+v, in memory %+v", cfg, seed, i, n, got.Limits[0].Decision, want)
					}
					continue
				}
				local++
				if want.Allowed || got.Allowed || got.Limits[0].RetryAfter > want.RetryAfter {
					t.Fatalf("%s seed %d step %d: n %d denied locally (%+v); in memory %+v", cfg, seed, i, n, got.Limits[0].Decision, want)
				}
			}
		}
		if local == 0 {
			t.Errorf("%s: no request was denied locally; want the traces' floods to be", kind)
		}
	}
}

// TestLocalDenyServerClock: on the server's clock the admission that spent
// the only token names the instant the next one is back (100 s later), and
// the requests after it, well within that, are denied with no call.
func TestLocalDenyServerClock(t *testing.T) {
	c := srv.Client()
	defer c.Close()
	ctx := context.Background()
	st, err := redisstore.New(c, limiter.Config{Kind: limiter.KindGCRA, Rate: 0.01, Burst: 1}, redisstore.Options{Prefix: "localclock:", LocalDeny: true})
	if err != nil {
		t.Fatal(err)
	}
	var allowed []bool
	for range 3 {
		r, err := st.Take(ctx, "a", 1)
		if err != nil {
			t.Fatal(err)
		}
		allowed = append(allowed, r.Allowed)
	}
	if got := st.Stats(); allowed[0] != true || allowed[1] || allowed[2] || got != (redisstore.Stats{Calls: 1, LocalDenials: 2}) {
		t.Errorf("allowed %v, %+v; want [true false false], 1 call, 2 local denials", allowed, got)
	}
}
