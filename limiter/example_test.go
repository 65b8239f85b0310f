package limiter_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

func show(d limiter.Decision, err error) {
	if err != nil {
		fmt.Println(err)
		return
	}
	retry := "-"
	if d.RetryAfter == limiter.Never {
		retry = "never"
	} else if !d.Allowed {
		retry = d.RetryAfter.String()
	}
	fmt.Printf("allowed=%v remaining=%d retry=%s\n", d.Allowed, d.Remaining, retry)
}

// A token bucket of 3 tokens refilled at 3 per second: exactly 3 tokens are
// back after 1 s, although 1/3 s is not a whole number of nanoseconds.
func ExampleTokenBucket() {
	tb, err := limiter.NewTokenBucket(3, 3)
	if err != nil {
		panic(err)
	}
	show(tb.AllowN(0, 3))
	show(tb.AllowN(0, 1))
	show(tb.AllowN(time.Second, 3))
	show(tb.AllowN(time.Second, 4))
	// Output:
	// allowed=true remaining=0 retry=-
	// allowed=false remaining=0 retry=333.333334ms
	// allowed=true remaining=0 retry=-
	// allowed=false remaining=0 retry=never
}

// GCRA keeps one theoretical arrival time and decides like the token bucket.
func ExampleGCRA() {
	g, _ := limiter.NewGCRA(2, 2) // 2 per second, bursts of 2
	show(g.AllowN(0, 2))
	fmt.Println("TAT:", g.State(0).TAT)
	show(g.AllowN(250*time.Millisecond, 1))
	show(g.AllowN(500*time.Millisecond, 1))
	// Output:
	// allowed=true remaining=0 retry=-
	// TAT: 1s
	// allowed=false remaining=0 retry=250ms
	// allowed=true remaining=0 retry=-
}

// A leaky bucket of capacity 3 leaking one unit per 100 ms, used as a queue:
// Delay says when each admitted request would be served.
func ExampleLeakyBucket() {
	lb, _ := limiter.NewLeakyBucket(3, 100*time.Millisecond)
	for range 4 {
		d, _ := lb.AllowN(0, 1)
		fmt.Printf("allowed=%v delay=%v\n", d.Allowed, d.Delay)
	}
	// Output:
	// allowed=true delay=0s
	// allowed=true delay=100ms
	// allowed=true delay=200ms
	// allowed=false delay=0s
}

// A fixed window lets 2 × limit through around a boundary: the algorithm's
// cost for O(1) memory.
func ExampleFixedWindow() {
	fw, _ := limiter.NewFixedWindow(2, time.Second)
	show(fw.AllowN(900*time.Millisecond, 2))
	show(fw.AllowN(950*time.Millisecond, 1))
	show(fw.AllowN(time.Second, 2))
	// Output:
	// allowed=true remaining=0 retry=-
	// allowed=false remaining=0 retry=50ms
	// allowed=true remaining=0 retry=-
}

// The sliding window log never admits more than limit in any window: an
// entry at e counts until exactly e + window.
func ExampleSlidingWindowLog() {
	sl, _ := limiter.NewSlidingWindowLog(2, time.Second)
	show(sl.AllowN(900*time.Millisecond, 2))
	show(sl.AllowN(time.Second, 1))
	show(sl.AllowN(1900*time.Millisecond, 1))
	fmt.Println(sl.State(1900 * time.Millisecond).Log)
	// Output:
	// allowed=true remaining=0 retry=-
	// allowed=false remaining=0 retry=900ms
	// allowed=true remaining=1 retry=-
	// [1.9s]
}

// The sliding window counter weights the previous window by how much of it
// the sliding window still covers.
func ExampleSlidingWindowCounter() {
	sc, _ := limiter.NewSlidingWindowCounter(4, time.Second)
	show(sc.AllowN(500*time.Millisecond, 4))
	st := sc.State(1250 * time.Millisecond) // 4 × 0.75 + 0
	fmt.Println("weighted:", st.Weighted)
	show(sc.AllowN(1250*time.Millisecond, 2))
	show(sc.AllowN(1500*time.Millisecond, 2))
	// Output:
	// allowed=true remaining=0 retry=-
	// weighted: 3
	// allowed=false remaining=1 retry=250ms
	// allowed=true remaining=0 retry=-
}

// Tiers: the factory receives the key, so "pro:" keys get a larger bucket.
func ExampleKeyed_tiers() {
	k, _ := limiter.NewKeyed(func(key string) (limiter.Strategy, error) {
		if len(key) > 4 && key[:4] == "pro:" {
			return limiter.NewTokenBucket(100, 100)
		}
		return limiter.NewTokenBucket(1, 5)
	}, limiter.KeyedOptions{IdleTTL: time.Minute})
	show(k.AllowNAt(0, "free:alice", 10))
	show(k.AllowNAt(0, "pro:bob", 10))
	fmt.Println("keys:", k.Len())
	// Output:
	// allowed=false remaining=5 retry=never
	// allowed=true remaining=90 retry=-
	// keys: 2
}

// Composite keys: one limit per client and endpoint, with a tighter limit
// for an expensive endpoint; idle keys are swept.
func ExampleKeyed_clientAndEndpoint() {
	k, _ := limiter.NewKeyed(func(key string) (limiter.Strategy, error) {
		if strings.HasSuffix(key, "|POST /upload") {
			return limiter.NewSlidingWindowLog(1, time.Minute)
		}
		return limiter.NewSlidingWindowLog(10, time.Minute)
	}, limiter.KeyedOptions{IdleTTL: time.Minute})
	key := func(client, endpoint string) string { return client + "|" + endpoint }
	show(k.AllowNAt(0, key("alice", "POST /upload"), 1))
	show(k.AllowNAt(time.Second, key("alice", "POST /upload"), 1))
	show(k.AllowNAt(time.Second, key("alice", "GET /search"), 1))
	show(k.AllowNAt(time.Second, key("bob", "POST /upload"), 1))
	fmt.Println("evicted at 2 min:", k.Sweep(2*time.Minute), "keys left:", k.Len())
	// Output:
	// allowed=true remaining=0 retry=-
	// allowed=false remaining=0 retry=59s
	// allowed=true remaining=9 retry=-
	// allowed=true remaining=0 retry=-
	// evicted at 2 min: 3 keys left: 0
}
