package limiter

import (
	"runtime"
	"strconv"
	"testing"
	"time"
)

// sharedHashKeyed returns a Keyed of token buckets (1 token/s, burst 2)
// whose keys all hash to 0: every key is in one shard under one hash, as
// keys whose 64-bit hashes collide would be.
func sharedHashKeyed(t *testing.T, opts KeyedOptions) *Keyed {
	t.Helper()
	k, err := NewKeyed(func(string) (Strategy, error) { return NewTokenBucket(1, 2) }, opts)
	if err != nil {
		t.Fatal(err)
	}
	k.hashMask = 0
	return k
}

func clashAllow(t *testing.T, k *Keyed, now Instant, key string, n int, allowed bool, remaining int) {
	t.Helper()
	d, err := k.AllowNAt(now, key, n)
	if err != nil || d.Allowed != allowed || d.Remaining != remaining {
		t.Fatalf("%s: %d at %v: %+v, %v; want allowed %v, remaining %d", key, n, now, d, err, allowed, remaining)
	}
}

func clashTokens(t *testing.T, k *Keyed, now Instant, key string, held bool, tokens float64) {
	t.Helper()
	s, ok := k.State(now, key)
	if ok != held || s.Tokens != tokens {
		t.Fatalf("%s at %v: held %v, %+v; want held %v, %v tokens", key, now, ok, s, held, tokens)
	}
}

// Keys that share a hash never share state: each decides on its own bucket,
// is evicted on its own, and a key created after the first holder of the
// hash was evicted is told apart from those still held.
func TestKeyedKeysSharingAHash(t *testing.T) {
	k := sharedHashKeyed(t, KeyedOptions{SweepEvery: -1})
	clashAllow(t, k, 0, "a", 1, true, 1) // fresh again at 1 s
	clashAllow(t, k, 0, "b", 2, true, 0) // fresh again at 2 s
	clashAllow(t, k, 0, "b", 1, false, 0)
	clashAllow(t, k, 0, "c", 2, true, 0)
	clashAllow(t, k, 0, "a", 1, true, 0)
	if n := k.Len(); n != 3 {
		t.Fatalf("Len %d; want 3", n)
	}
	clashTokens(t, k, time.Second, "a", true, 1)
	clashTokens(t, k, time.Second, "b", true, 1)
	clashTokens(t, k, time.Second, "c", true, 1)
	// At 2 s all three are fresh again; "b" and "c" spend at 1.5 s first.
	clashAllow(t, k, 1500*time.Millisecond, "b", 1, true, 0)
	clashAllow(t, k, 1500*time.Millisecond, "c", 1, true, 0)
	if n := k.Sweep(2 * time.Second); n != 1 {
		t.Fatalf("Sweep at 2 s evicted %d; want 1 (a)", n)
	}
	clashTokens(t, k, 2*time.Second, "a", false, 0)
	clashTokens(t, k, 2*time.Second, "b", true, 1)
	clashTokens(t, k, 2*time.Second, "c", true, 1)
	// A new key, and "a" again, start full and leave "b" and "c" as they were.
	clashAllow(t, k, 2*time.Second, "d", 1, true, 1)
	clashAllow(t, k, 2*time.Second, "a", 2, true, 0)
	clashTokens(t, k, 2*time.Second, "b", true, 1)
	clashTokens(t, k, 2*time.Second, "d", true, 1)
	if n := k.Len(); n != 4 {
		t.Fatalf("Len %d; want 4", n)
	}
	if n := k.Sweep(4 * time.Second); n != 4 {
		t.Fatalf("Sweep at 4 s evicted %d; want 4", n)
	}
	if n := k.Len(); n != 0 {
		t.Fatalf("Len after Sweep %d; want 0", n)
	}
}

// The amortised sweep reaches keys that share a hash: a new key's own
// sweep examines 2 keys of its shard, and here both hold the new key's hash.
func TestKeyedAmortisedSweepOfKeysSharingAHash(t *testing.T) {
	k := sharedHashKeyed(t, KeyedOptions{})
	clashAllow(t, k, 0, "x", 1, true, 1) // fresh again at 1 s
	clashAllow(t, k, 0, "y", 1, true, 1)
	// At 2 s, x and y have been fresh for EvictionSlack (1 s).
	clashAllow(t, k, 2*time.Second, "z", 1, true, 1)
	if n := k.Len(); n != 1 {
		t.Fatalf("Len %d; want 1 (x and y evicted when z was created)", n)
	}
	clashTokens(t, k, 2*time.Second, "x", false, 0)
	clashTokens(t, k, 2*time.Second, "y", false, 0)
	clashTokens(t, k, 2*time.Second, "z", true, 1)
}

// 1000 keys on one hash: the shard's table grows with all of them in one
// probe run, a Sweep removes 800 (those fresh again) and rebuilds the table
// (200 held, under a quarter of the peak), and each key held keeps its
// state through both; a removed key comes back full.
func TestKeyedTableOfKeysSharingAHash(t *testing.T) {
	k := sharedHashKeyed(t, KeyedOptions{SweepEvery: -1})
	key := func(i int) string { return "k" + strconv.Itoa(i) }
	for i := range 1000 {
		n := 1
		if i%5 == 0 {
			n = 2 // empty: fresh again at 2 s
		}
		clashAllow(t, k, 0, key(i), n, true, 2-n)
	}
	if n := k.Sweep(time.Second); n != 800 {
		t.Fatalf("Sweep at 1 s evicted %d; want 800", n)
	}
	if n, size := k.Len(), len(k.shards[0].tab.slots); n != 200 || size != newTableSize(200) {
		t.Fatalf("Len %d, table of %d slots; want 200, %d (rebuilt)", n, size, newTableSize(200))
	}
	for i := range 1000 {
		if i%5 == 0 {
			clashTokens(t, k, time.Second, key(i), true, 1)
		} else {
			clashTokens(t, k, time.Second, key(i), false, 0)
			clashAllow(t, k, time.Second, key(i), 2, true, 0)
		}
	}
	if n := k.Len(); n != 1000 {
		t.Fatalf("Len %d; want 1000", n)
	}
}

// Requests find their keys while other requests create keys, which grows
// every shard's table several times: each request finds its key's own
// bucket (none is missed and created again, which would admit it, and none
// is another key's).
func TestKeyedFindsKeysWhileTablesGrow(t *testing.T) {
	k, err := NewKeyed(func(string) (Strategy, error) { return NewTokenBucket(1e-3, 2) }, KeyedOptions{SweepEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	const old, grown = 1000, 30_000
	for i := range old {
		clashAllow(t, k, 0, "old-"+strconv.Itoa(i), 2, true, 0) // empty for 1000 s
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range grown {
			if _, err := k.AllowNAt(0, "new-"+strconv.Itoa(i), 1); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for round := 0; ; round++ {
		for i := range old {
			d, err := k.AllowNAt(0, "old-"+strconv.Itoa(i), 1)
			if err != nil || d.Allowed || d.Remaining != 0 {
				t.Fatalf("round %d, old-%d: %+v, %v; want denied, remaining 0", round, i, d, err)
			}
		}
		runtime.Gosched() // js/wasm runs one goroutine at a time, and never preempts
		select {
		case <-done:
			if n := k.Len(); n != old+grown {
				t.Fatalf("Len %d; want %d", n, old+grown)
			}
			return
		default:
		}
	}
}
