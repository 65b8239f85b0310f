package limiter

import (
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// wideRates are rates whose 64-bit arithmetic is exact, so that a limiter
// forced onto the wide arithmetic can be checked against the ordinary one:
// whole-nanosecond emission intervals and fractional ones (3/s, 7/s, 1/7 s).
var wideRates = []float64{0, 1, 2, 3, 7, 10, 1.0 / 3, 2.5, 0.1, 1.0 / 7, 1000, 1e6, 2e9}

// forceWide puts a token bucket and a GCRA on the wide arithmetic for their
// own parameters.
func forceWide(t *rapid.T, rate float64, burst int) (*TokenBucket, *GCRA) {
	m1, err := newWideMath(rate, burst)
	if err != nil {
		t.Fatal(err)
	}
	m2, _ := newWideMath(rate, burst)
	return &TokenBucket{header: header{kind: tagTokenBucket}, m: m1}, &GCRA{header: header{kind: tagGCRA}, m: m2}
}

// propWideIsNarrow: the wide arithmetic makes exactly the decisions of the
// 64-bit one, with the same metadata, GCRA times and reservation delays, on
// any trace with stale stamps, reservations and their cancellation, and
// changes of rate (wide to wide, or 64 bits to wide) and of burst (wide to
// the 64 bits the new parameters fit, as SetBurst does).
// Tokens, a float64, may differ in its last bits: the 64-bit arithmetic
// divides in floating point, the wide one rounds the exact fraction.
func propWideIsNarrow(t *rapid.T) {
	rate := rapid.SampledFrom(wideRates).Draw(t, "rate")
	burst := rapid.IntRange(0, 5).Draw(t, "burst")
	tb, _ := NewTokenBucket(rate, burst)
	g, _ := NewGCRA(rate, burst)
	wtb, wg := forceWide(t, rate, burst)
	var res [4]*Reservation // of tb, g, wtb, wg
	steps := rapid.IntRange(1, 12).Draw(t, "steps")
	for i := range steps {
		now := Instant(rapid.Int64Range(0, 20e9).Draw(t, "t"))
		n := rapid.IntRange(0, 6).Draw(t, "n")
		switch rapid.IntRange(0, 9).Draw(t, "op") {
		case 0:
			rate = rapid.SampledFrom(wideRates).Draw(t, "new rate")
			if tb.SetRate(now, rate) != nil || g.SetRate(now, rate) != nil {
				t.Fatal("SetRate failed")
			}
			// The forced limiters take the new rate on the wide arithmetic
			// again (SetRate would bring them back to 64 bits).
			m1, _ := newWideMath(rate, burst)
			m2, _ := newWideMath(rate, burst)
			wtb.reconfigure(now, m1)
			wg.reconfigure(now, m2)
			continue
		case 1:
			burst = rapid.IntRange(0, 5).Draw(t, "new burst")
			for _, s := range []interface{ SetBurst(Instant, int) error }{tb, g, wtb, wg} {
				if err := s.SetBurst(now, burst); err != nil {
					t.Fatal(err)
				}
			}
			continue
		case 2:
			checkReserve(t, i, now, n, &res, tb, g, wtb, wg)
			continue
		}
		d, _ := tb.AllowN(now, n)
		for j, s := range []Strategy{g, wtb, wg} {
			if e, _ := s.AllowN(now, n); e != d {
				t.Fatalf("step %d at %d, n=%d: limiter %d %+v, token bucket %+v", i, now, n, j+1, e, d)
			}
		}
		sg, swg := g.State(now), wg.State(now)
		if sg.TAT != swg.TAT || sg.EmissionInterval != swg.EmissionInterval || sg.Tolerance != swg.Tolerance {
			t.Fatalf("step %d: GCRA %+v, wide GCRA %+v", i, sg, swg)
		}
		if st, sw := tb.State(now).Tokens, wtb.State(now).Tokens; math.Abs(st-sw) > 1e-9 || tb.Fresh(now) != wtb.Fresh(now) {
			t.Fatalf("step %d: token bucket holds %v tokens, wide %v", i, st, sw)
		}
	}
}

// checkReserve reserves n at now on each limiter (cancelling the previous
// reservation first, on every other step) and requires the same outcome.
func checkReserve(t *rapid.T, i int, now Instant, n int, res *[4]*Reservation, s ...interface {
	Reserve(Instant, int) (*Reservation, error)
}) {
	var want time.Duration
	var wantErr string
	var wantCancel bool
	for j, l := range s {
		cancelled := false
		if res[j] != nil && i%2 == 0 {
			cancelled = res[j].Cancel(now)
		}
		if j == 0 {
			wantCancel = cancelled
		} else if cancelled != wantCancel {
			t.Fatalf("step %d: cancel of limiter %d: %v, want %v", i, j, cancelled, wantCancel)
		}
		r, err := l.Reserve(now, n)
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		res[j] = r
		if j == 0 {
			wantErr = errText
			if r != nil {
				want = r.Delay()
			}
			continue
		}
		if errText != wantErr || r != nil && r.Delay() != want {
			t.Fatalf("step %d at %d: reserve %d on limiter %d: %v %v, want %v %q", i, now, n, j, r, err, want, wantErr)
		}
	}
}

func TestWideIsNarrow(t *testing.T) { rapid.Check(t, propWideIsNarrow) }

func FuzzWideIsNarrow(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propWideIsNarrow)) }

// wideLeakIntervals are leak intervals for propWideLeakyIsNarrow: a
// nanosecond, odd ones, and whole milliseconds and seconds.
var wideLeakIntervals = []time.Duration{1, 3, 7, time.Microsecond, 7 * time.Millisecond, time.Second, 3 * time.Second}

// forceWideLeaky puts a leaky bucket on the wide arithmetic for its own
// parameters.
func forceWideLeaky(capacity int, interval time.Duration) *LeakyBucket {
	return &LeakyBucket{header: header{kind: tagLeakyBucket}, m: newWideLeaky(capacity, interval)}
}

// propWideLeakyIsNarrow: a leaky bucket on the wide arithmetic makes
// exactly the decisions of the 64-bit one, with the same metadata (queue
// Delay included) and reservation delays, on any trace with stale stamps,
// reservations and their cancellation, and changes of capacity (from wide
// to the 64 bits the new parameters fit, as SetCapacity does) and of leak
// interval (wide to wide). Level, a float64, may differ in its last bits.
func propWideLeakyIsNarrow(t *rapid.T) {
	capacity := rapid.IntRange(1, 5).Draw(t, "capacity")
	interval := rapid.SampledFrom(wideLeakIntervals).Draw(t, "interval")
	lb, err := NewLeakyBucket(capacity, interval)
	if err != nil {
		t.Fatal(err)
	}
	wlb := forceWideLeaky(capacity, interval)
	var res [4]*Reservation
	for i := range rapid.IntRange(1, 12).Draw(t, "steps") {
		now := Instant(rapid.Int64Range(0, 20e9).Draw(t, "t"))
		n := rapid.IntRange(0, 6).Draw(t, "n")
		switch rapid.IntRange(0, 9).Draw(t, "op") {
		case 0:
			interval = rapid.SampledFrom(wideLeakIntervals).Draw(t, "new interval")
			if lb.SetLeakInterval(now, interval) != nil {
				t.Fatal("SetLeakInterval failed")
			}
			wlb.mu.Lock()
			wlb.reconfigure(now, newWideLeaky(capacity, interval)) // stays wide
			wlb.mu.Unlock()
			continue
		case 1:
			capacity = rapid.IntRange(1, 5).Draw(t, "new capacity")
			if lb.SetCapacity(now, capacity) != nil || wlb.SetCapacity(now, capacity) != nil {
				t.Fatal("SetCapacity failed")
			}
			continue
		case 2:
			checkReserve(t, i, now, n, &res, lb, wlb)
			continue
		}
		d, _ := lb.AllowN(now, n)
		if e, _ := wlb.AllowN(now, n); e != d {
			t.Fatalf("step %d at %d, n=%d: wide %+v, 64-bit %+v", i, now, n, e, d)
		}
		if sn, sw := lb.State(now), wlb.State(now); math.Abs(sn.Level-sw.Level) > 1e-9 || sn.Limit != sw.Limit || sn.Rate != sw.Rate || lb.Fresh(now) != wlb.Fresh(now) {
			t.Fatalf("step %d: 64-bit %+v, wide %+v", i, sn, sw)
		}
	}
}

func TestWideLeakyIsNarrow(t *testing.T) { rapid.Check(t, propWideLeakyIsNarrow) }

func FuzzWideLeakyIsNarrow(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propWideLeakyIsNarrow)) }
