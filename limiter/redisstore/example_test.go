package redisstore_test

import (
	"context"
	"fmt"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"github.com/ratelab/ratelab/limiter/redisstore"
	"github.com/redis/go-redis/v9"
)

// A GCRA of 3 per second, burst 2, shared in Redis by every instance that
// makes the same Store. TakeAt passes the instants in; Take would read the
// server's clock.
func Example() {
	rdb := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{srv.Addr}, ContextTimeoutEnabled: true})
	defer rdb.Close()
	limits, err := redisstore.New(rdb, limiter.Config{Kind: limiter.KindGCRA, Rate: 3, Burst: 2}, redisstore.Options{Prefix: "example:"})
	if err != nil {
		fmt.Println(err)
		return
	}
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for _, at := range []time.Duration{0, 0, 0, time.Second} {
		r, err := limits.TakeAt(context.Background(), t0.Add(at), "client-42", 1)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("at %v: allowed %v, remaining %d, retry after %v\n", at, r.Allowed, r.Remaining(), r.RetryAfter())
	}
	// Output:
	// at 0s: allowed true, remaining 1, retry after 0s
	// at 0s: allowed true, remaining 0, retry after 0s
	// at 0s: allowed false, remaining 0, retry after 333.333334ms
	// at 1s: allowed true, remaining 1, retry after 0s
}
