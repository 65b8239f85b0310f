package benchmarks

import (
	"context"
	"slices"
	"testing"
	"time"

	sethvargo "github.com/sethvargo/go-limiter/memorystore"
)

// pairedBlock is the number of decisions timed together in BenchmarkKeyedPaired:
// long enough that reading the clock costs nothing beside them, short enough
// that ours and the peer's blocks meet the same load.
const pairedBlock = 128

// BenchmarkKeyedPaired is BenchmarkKeyed's comparison with sethvargo's
// memory store (the fastest peer there) with both in one process and their
// decisions in turns, a block of each per iteration (the order alternating),
// so that both meet the same load on a shared machine. Each walks its own
// random key order, so neither finds the other's keys in the cache. ours-ns
// and peer-ns are the median block's time per decision, ours/peer their ratio.
func BenchmarkKeyedPaired(b *testing.B) {
	b.Run("ours-token-bucket-vs-sethvargo", func(b *testing.B) {
		k := keyedOf(b, tbConfig, -1)
		for i, key := range keys {
			k.AllowNAt(time.Duration(i), key, 1)
		}
		st, _ := sethvargo.New(&sethvargo.Config{Tokens: benchBurst, Interval: time.Second})
		defer st.Close(context.Background())
		ctx := context.Background()
		for _, key := range keys {
			st.Take(ctx, key)
		}
		xOurs, xPeer := xorshift(88172645463325252), xorshift(2463534242)
		now := time.Second
		ours := func() {
			for range pairedBlock {
				now += step
				k.AllowNAt(now, keys[xOurs.next()], 1)
			}
		}
		peer := func() {
			for range pairedBlock {
				st.Take(ctx, keys[xPeer.next()])
			}
		}
		pairedBlocks(b, ours, peer)
	})
}

func pairedBlocks(b *testing.B, ours, peer func()) {
	var tOurs, tPeer []time.Duration
	timed := func(f func(), times *[]time.Duration) {
		start := time.Now()
		f()
		*times = append(*times, time.Since(start))
	}
	b.ReportAllocs()
	dropSetupGarbage()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			timed(ours, &tOurs)
			timed(peer, &tPeer)
		} else {
			timed(peer, &tPeer)
			timed(ours, &tOurs)
		}
	}
	// Medians: a block that the scheduler interrupted (the machine is
	// shared) says nothing about either side.
	mOurs, mPeer := medianOf(tOurs), medianOf(tPeer)
	b.ReportMetric(float64(mOurs.Nanoseconds())/pairedBlock, "ours-ns")
	b.ReportMetric(float64(mPeer.Nanoseconds())/pairedBlock, "peer-ns")
	b.ReportMetric(float64(mOurs)/float64(mPeer), "ours/peer")
}

func medianOf(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}
