package limiter_test

// Property tests (issue 3, "Proof"). Each property is a rapid property
// exposed as a `go test -fuzz` target; `make fuzz` runs each on a fixed number
// of random traces, and TestProperties runs each on rapid's default number of
// traces in every `go test`. Parameters are kept small so that boundaries are
// hit often.

import (
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"pgregory.net/rapid"
)

// req is one request of a trace: n units stamped at t.
type req struct {
	t limiter.Instant
	n int
}

func (r req) String() string { return fmt.Sprintf("(%d ns, n=%d)", int64(r.t), r.n) }

// frac is a rate of p/q tokens per second; q == 0 means +Inf.
type frac struct{ p, q int64 }

func (f frac) float() float64 {
	if f.q == 0 {
		return math.Inf(1)
	}
	return float64(f.p) / float64(f.q)
}

// interval returns the leak interval 1/rate in whole nanoseconds, and false
// when it is not whole (or the rate is 0 or +Inf).
func (f frac) interval() (time.Duration, bool) {
	if f.q == 0 || f.p == 0 || f.q > 1e9 || f.q*1e9%f.p != 0 {
		return 0, false
	}
	return time.Duration(f.q * 1e9 / f.p), true
}

// Rates with a whole-nanosecond emission interval (1/s, 2/s, 1/3 s…) and
// without one (3/s, 7/s: 333 333 333⅓ ns, 142 857 142 6/7 ns), plus 0 and +Inf.
var rates = []frac{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {7, 1}, {10, 1}, {1, 3}, {5, 2}, {1, 10}, {1000, 1}, {1000000, 1}, {0, 0}}

func drawRate(t *rapid.T, label string) frac { return rapid.SampledFrom(rates).Draw(t, label) }

// bucketRates adds, for the token bucket and GCRA, rates below 1e-9 per
// second, which take the wide arithmetic (so does any of these rates with a
// burst of 1e12, see drawBurst).
var bucketRates = append(rates[:len(rates):len(rates)], frac{1, 1e10}, frac{1, 1e12}, frac{3, 7e12})

// drawBurst draws a burst of 0 to 5, or now and then 1e12.
func drawBurst(t *rapid.T, label string) int {
	if rapid.IntRange(0, 7).Draw(t, label+" is 1e12") == 0 {
		return 1e12
	}
	return rapid.IntRange(0, 5).Draw(t, label)
}

var leakIntervals = []time.Duration{1, 2, 7, time.Millisecond, 100 * time.Millisecond, 333333333, time.Second, 3 * time.Second}
var windows = []time.Duration{1, 3, time.Millisecond, 10 * time.Millisecond, time.Second, 3 * time.Second}

// drawConfig draws one strategy of the given kinds (all kinds when none) with
// small parameters. rate is the token bucket's or GCRA's rate (zero value
// otherwise).
func drawConfig(t *rapid.T, kinds ...limiter.Kind) (limiter.Config, frac) {
	if len(kinds) == 0 {
		kinds = limiter.Kinds
	}
	c := limiter.Config{Kind: rapid.SampledFrom(kinds).Draw(t, "kind")}
	var r frac
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		r = drawRate(t, "rate")
		c.Rate, c.Burst = r.float(), rapid.IntRange(0, 5).Draw(t, "burst")
	case limiter.KindLeakyBucket:
		c.Capacity = rapid.IntRange(1, 5).Draw(t, "capacity")
		c.LeakInterval = rapid.SampledFrom(leakIntervals).Draw(t, "leak interval")
	default:
		c.Limit = rapid.IntRange(1, 5).Draw(t, "limit")
		c.Window = rapid.SampledFrom(windows).Draw(t, "window")
	}
	return c, r
}

// limitOf is the most units c can ever hold.
func limitOf(c limiter.Config) int {
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		return c.Burst
	case limiter.KindLeakyBucket:
		return c.Capacity
	}
	return c.Limit
}

// drawTrace draws 1–30 requests whose stamps move by a random multiple of a
// grain (1 ns to 1 s), backwards included, plus or minus 1 ns; n is 0 to
// maxN.
func drawTrace(t *rapid.T, maxN int) []req {
	grain := rapid.SampledFrom([]time.Duration{1, time.Millisecond, 100 * time.Millisecond, 333333333, time.Second}).Draw(t, "grain")
	now := limiter.Instant(rapid.Int64Range(-5e9, 5e9).Draw(t, "start"))
	tr := make([]req, rapid.IntRange(1, 30).Draw(t, "steps"))
	for i := range tr {
		now += time.Duration(rapid.IntRange(-3, 10).Draw(t, "delta"))*grain + time.Duration(rapid.IntRange(-1, 1).Draw(t, "jitter"))
		tr[i] = req{now, rapid.IntRange(0, maxN).Draw(t, "n")}
	}
	return tr
}

func newStrategy(t *rapid.T, c limiter.Config) limiter.Strategy {
	s, err := limiter.New(c)
	if err != nil {
		t.Fatalf("%v: %v", c, err)
	}
	return s
}

func allow(t *rapid.T, s limiter.Strategy, r req) limiter.Decision {
	d, err := s.AllowN(r.t, r.n)
	if err != nil {
		t.Fatalf("AllowN%v: %v", r, err)
	}
	return d
}

// run runs tr on a fresh strategy and returns it and its decisions.
func run(t *rapid.T, c limiter.Config, tr []req) (limiter.Strategy, []limiter.Decision) {
	s := newStrategy(t, c)
	ds := make([]limiter.Decision, len(tr))
	for i, r := range tr {
		ds[i] = allow(t, s, r)
	}
	return s, ds
}

// effective returns the instant each request is evaluated at: its stamp, or
// the latest instant admitted before it when that is later.
func effective(tr []req, ds []limiter.Decision) []limiter.Instant {
	eff := make([]limiter.Instant, len(tr))
	used, last := false, limiter.Instant(0)
	for i, r := range tr {
		eff[i] = r.t
		if used && last > r.t {
			eff[i] = last
		}
		if ds[i].Allowed && r.n > 0 {
			used, last = true, eff[i]
		}
	}
	return eff
}

// ---- 1. token bucket, GCRA and leaky bucket decide alike ----

// propBucketsAgree: a token bucket, a GCRA and (when 1/rate is a whole number
// of nanoseconds and burst ≥ 1) a leaky bucket of capacity burst and leak
// interval 1/rate make identical decisions with identical metadata on any
// trace, stale stamps included. With live reconfiguration the token bucket
// and GCRA still agree exactly; the leaky bucket drops out of the comparison
// at its first reconfiguration (see below).
func propBucketsAgree(t *rapid.T) {
	r := rapid.SampledFrom(bucketRates).Draw(t, "rate")
	burst := drawBurst(t, "burst")
	tb, err := limiter.NewTokenBucket(r.float(), burst)
	if err != nil {
		t.Fatal(err)
	}
	g, err := limiter.NewGCRA(r.float(), burst)
	if err != nil {
		t.Fatal(err)
	}
	var lb *limiter.LeakyBucket
	// (A leaky bucket of 1e12 units at a leak interval above 2.3 ms keeps
	// its level in 128 bits.)
	if iv, ok := r.interval(); ok && burst >= 1 {
		if lb, err = limiter.NewLeakyBucket(burst, iv); err != nil {
			t.Fatal(err)
		}
	}
	for i, q := range drawTrace(t, 6) {
		switch rapid.IntRange(0, 9).Draw(t, "op") {
		case 0: // set rate
			r = rapid.SampledFrom(bucketRates).Draw(t, "new rate")
			if err := tb.SetRate(q.t, r.float()); err != nil {
				t.Fatal(err)
			}
			if err := g.SetRate(q.t, r.float()); err != nil {
				t.Fatal(err)
			}
			// The leaky bucket keeps its level in whole nanoseconds of
			// water, so a new leak interval rounds a fractional level up by
			// under 1 ns of water, where the token bucket's debt is exact:
			// it drops out of the comparison (see TestLeakyBucketSetLeakInterval).
			lb = nil
			continue
		case 1: // set burst
			burst = drawBurst(t, "new burst")
			if err := tb.SetBurst(q.t, burst); err != nil {
				t.Fatal(err)
			}
			if err := g.SetBurst(q.t, burst); err != nil {
				t.Fatal(err)
			}
			// A new capacity keeps the leaky bucket's level (units
			// queued), a new burst keeps the token bucket's tokens (what
			// x/time/rate does too): both by design, so from here the two
			// differ, and only the token bucket and GCRA are compared.
			lb = nil
			continue
		}
		dt, dg := allow(t, tb, q), allow(t, g, q)
		if dt != dg {
			t.Fatalf("step %d %v: token bucket %+v, GCRA %+v", i, q, dt, dg)
		}
		if st, sg := tb.State(q.t), g.State(q.t); st.Tokens != sg.Tokens {
			t.Fatalf("step %d %v: token bucket holds %v tokens, GCRA %v", i, q, st.Tokens, sg.Tokens)
		}
		if tb.Fresh(q.t) != g.Fresh(q.t) {
			t.Fatalf("step %d %v: Fresh differs", i, q)
		}
		if lb != nil {
			dl := allow(t, lb, q)
			dl.Delay = 0 // the meter's decision; Delay is the queue's
			if dt != dl {
				t.Fatalf("step %d %v: token bucket %+v, leaky bucket %+v", i, q, dt, dl)
			}
		}
	}
}

// ---- 2. admission bounds ----

// propAdmissionBounds: in any interval of length L the token bucket admits at
// most burst + rate × L; in any window-long interval the sliding window log
// admits at most limit, the sliding window counter 2·limit − 1 and the fixed
// window 2·limit (instants as evaluated, so stale stamps count where they were
// admitted).
func propAdmissionBounds(t *rapid.T) {
	c, r := drawConfig(t, limiter.KindTokenBucket, limiter.KindSlidingWindowLog, limiter.KindSlidingWindowCounter, limiter.KindFixedWindow)
	tr := drawTrace(t, limitOf(c)+1)
	_, ds := run(t, c, tr)
	eff := effective(tr, ds)
	type adm struct {
		at limiter.Instant
		n  int64
	}
	var a []adm
	for i, d := range ds {
		if d.Allowed && tr[i].n > 0 {
			a = append(a, adm{eff[i], int64(tr[i].n)})
		}
	}
	for i := range a {
		sum := int64(0)
		for j := i; j < len(a); j++ {
			sum += a[j].n
			switch c.Kind {
			case limiter.KindTokenBucket:
				if r.q == 0 {
					continue // +Inf admits everything
				}
				// sum ≤ burst + p/q × elapsed/1e9, in integers.
				elapsed := int64(a[j].at - a[i].at)
				if sum*r.q*1e9 > int64(c.Burst)*r.q*1e9+r.p*elapsed {
					t.Fatalf("token bucket %v admitted %d in [%d, %d] ns: above burst + rate × length", c, sum, a[i].at, a[j].at)
				}
			default:
				if a[j].at-a[i].at >= c.Window {
					continue
				}
				bound := int64(c.Limit)
				switch c.Kind {
				case limiter.KindSlidingWindowCounter:
					bound = 2*bound - 1
				case limiter.KindFixedWindow:
					bound = 2 * bound
				}
				if sum > bound {
					t.Fatalf("%v admitted %d in [%d, %d] ns: above %d per window length", c, sum, a[i].at, a[j].at, bound)
				}
			}
		}
	}
}

// ---- 3. a denial changes nothing ----

// propDenialChangesNothing: removing any denied request from a trace changes
// no later decision and not the final state.
func propDenialChangesNothing(t *rapid.T) {
	c, _ := drawConfig(t)
	tr := drawTrace(t, limitOf(c)+1)
	s, ds := run(t, c, tr)
	end := tr[len(tr)-1].t
	for i := range tr {
		if ds[i].Allowed {
			continue
		}
		without := append(append([]req(nil), tr[:i]...), tr[i+1:]...)
		s2, ds2 := run(t, c, without)
		for j := i + 1; j < len(tr); j++ {
			if ds[j] != ds2[j-1] {
				t.Fatalf("%v: step %d %v decided %+v, and %+v once denied step %d %v is removed", c, j, tr[j], ds[j], ds2[j-1], i, tr[i])
			}
		}
		if a, b := s.State(end), s2.State(end); !reflect.DeepEqual(a, b) {
			t.Fatalf("%v: state %+v, and %+v once denied step %d %v is removed", c, a, b, i, tr[i])
		}
	}
}

// ---- 4. RetryAfter and ResetAfter are the shortest waits ----

// propWaitsAreExact: a denied request retried at now + RetryAfter (with
// nothing in between) is allowed, and 1 ns earlier it is still denied;
// RetryAfter is Never exactly when no later instant would do. Likewise the
// limiter is fresh at now + ResetAfter and not 1 ns earlier.
func propWaitsAreExact(t *rapid.T) {
	c, _ := drawConfig(t)
	tr := drawTrace(t, limitOf(c)+1)
	_, ds := run(t, c, tr)
	prefix := func(i int) limiter.Strategy { // the strategy just before step i
		s, _ := run(t, c, tr[:i])
		return s
	}
	const far = 1 << 50 // about 13 days: past every refill of these parameters
	for i, d := range ds {
		q := tr[i]
		if !d.Allowed {
			if d.RetryAfter <= 0 {
				t.Fatalf("%v: step %d %v denied with RetryAfter %v", c, i, q, d.RetryAfter)
			}
			if d.RetryAfter == limiter.Never {
				if d2 := allow(t, prefix(i), req{q.t + far, q.n}); d2.Allowed {
					t.Fatalf("%v: step %d %v: RetryAfter Never, but allowed %v later", c, i, q, time.Duration(far))
				}
			} else {
				if d2 := allow(t, prefix(i), req{q.t + d.RetryAfter, q.n}); !d2.Allowed {
					t.Fatalf("%v: step %d %v: RetryAfter %v, but denied then: %+v", c, i, q, d.RetryAfter, d2)
				}
				if d2 := allow(t, prefix(i), req{q.t + d.RetryAfter - 1, q.n}); d2.Allowed {
					t.Fatalf("%v: step %d %v: RetryAfter %v, but allowed 1 ns earlier", c, i, q, d.RetryAfter)
				}
			}
		} else if d.RetryAfter != 0 {
			t.Fatalf("%v: step %d %v allowed with RetryAfter %v", c, i, q, d.RetryAfter)
		}
		switch d.ResetAfter {
		case limiter.Never:
			if prefix(i + 1).Fresh(q.t + far) {
				t.Fatalf("%v: step %d %v: ResetAfter Never, but fresh %v later", c, i, q, time.Duration(far))
			}
		default:
			if !prefix(i + 1).Fresh(q.t + d.ResetAfter) {
				t.Fatalf("%v: step %d %v: ResetAfter %v, but not fresh then", c, i, q, d.ResetAfter)
			}
			if d.ResetAfter > 0 && prefix(i+1).Fresh(q.t+d.ResetAfter-1) {
				t.Fatalf("%v: step %d %v: ResetAfter %v, but fresh 1 ns earlier", c, i, q, d.ResetAfter)
			}
		}
	}
}

// ---- 5. stale stamps ----

// propStaleIsLatestAdmitted: a request stamped before the latest instant
// admitted is decided exactly as if stamped at that instant (same decision,
// same Remaining; its waits, a leaky bucket's queue Delay too, are longer by
// the lag, since they count from its own stamp). So a stale stamp never re-credits tokens or un-expires entries:
// it never gets more than the same request at the limiter's latest instant.
//
// "The latest instant admitted", not "seen": a denied request changes no
// state (property 3), so the limiter cannot remember its instant. The
// statement "admits no more than the same trace clamped to the latest instant
// seen" is false; see TestStaleVersusLatestSeen.
func propStaleIsLatestAdmitted(t *rapid.T) {
	c, _ := drawConfig(t)
	tr := drawTrace(t, limitOf(c)+1)
	_, ds := run(t, c, tr)
	eff := effective(tr, ds)
	clamped := make([]req, len(tr))
	for i, r := range tr {
		clamped[i] = req{eff[i], r.n}
	}
	_, dc := run(t, c, clamped)
	for i := range tr {
		want := dc[i]
		lag := eff[i] - tr[i].t
		if want.RetryAfter > 0 && want.RetryAfter != limiter.Never {
			want.RetryAfter += lag
		}
		if want.ResetAfter > 0 && want.ResetAfter != limiter.Never {
			want.ResetAfter += lag
		}
		if want.Allowed && tr[i].n > 0 && c.Kind == limiter.KindLeakyBucket {
			want.Delay += lag // joins the queue at the latest admitted instant
		}
		if ds[i] != want {
			t.Fatalf("%v: step %d %v decided %+v; stamped at %d ns (latest admitted) %+v", c, i, tr[i], ds[i], eff[i], dc[i])
		}
	}
}

// ---- 6. sweeping never changes a decision ----

// propSweepChangesNothing: a keyed limiter (tiers: key "a" has its own
// strategy) swept at arbitrary instants, each no later than every request
// after it, decides exactly as one never swept. An amortised sweep after every
// request decides alike when no request is stamped more than IdleTTL before an
// earlier one.
func propSweepChangesNothing(t *rapid.T) {
	ca, _ := drawConfig(t)
	cb, _ := drawConfig(t)
	factory := func(key string) (limiter.Strategy, error) {
		if key == "a" {
			return limiter.New(ca)
		}
		return limiter.New(cb)
	}
	ttl := rapid.SampledFrom([]time.Duration{0, 1, time.Millisecond, time.Second}).Draw(t, "ttl")
	newKeyed := func(every int) *limiter.Keyed {
		k, err := limiter.NewKeyed(factory, limiter.KeyedOptions{IdleTTL: ttl, SweepEvery: every})
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	plain, swept, amortised := newKeyed(-1), newKeyed(-1), newKeyed(1)
	tr := drawTrace(t, max(limitOf(ca), limitOf(cb))+1)
	keys := make([]string, len(tr))
	for i := range keys {
		keys[i] = rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "key")
	}
	// sweepable[i]: the latest instant a sweep before request i may use.
	sweepable := make([]limiter.Instant, len(tr)+1)
	sweepable[len(tr)] = tr[len(tr)-1].t + 10*time.Second
	for i := len(tr) - 1; i >= 0; i-- {
		sweepable[i] = min(sweepable[i+1], tr[i].t)
	}
	inOrder := true // for the amortised sweep: no stamp more than ttl before an earlier one
	hi := tr[0].t
	for i, q := range tr {
		if q.t < hi-ttl {
			inOrder = false
		}
		hi = max(hi, q.t)
		if rapid.Bool().Draw(t, "sweep") {
			s := sweepable[i] - time.Duration(rapid.IntRange(0, 3).Draw(t, "sweep back"))*time.Millisecond
			swept.Sweep(s)
		}
		want, err := plain.AllowNAt(q.t, keys[i], q.n)
		if err != nil {
			t.Fatal(err)
		}
		got, err := swept.AllowNAt(q.t, keys[i], q.n)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("step %d %v key %q: swept %+v, never swept %+v", i, q, keys[i], got, want)
		}
		got, err = amortised.AllowNAt(q.t, keys[i], q.n)
		if err != nil {
			t.Fatal(err)
		}
		if inOrder && got != want {
			t.Fatalf("step %d %v key %q: amortised sweeps %+v, never swept %+v", i, q, keys[i], got, want)
		}
	}
	if rapid.Bool().Draw(t, "final sweep") {
		swept.Sweep(sweepable[len(tr)])
		if swept.Len() > plain.Len() {
			t.Fatalf("Len after sweep %d > %d without", swept.Len(), plain.Len())
		}
	}
}

// ---- 7. shifting every instant ----

// propShiftChangesNothing: shifting every stamp by the same amount changes no
// decision: any amount (negative included) for the buckets, a multiple of the
// window for the window strategies (their windows are aligned to multiples of
// the window length).
func propShiftChangesNothing(t *rapid.T) {
	c, _ := drawConfig(t)
	tr := drawTrace(t, limitOf(c)+1)
	var shift time.Duration
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA, limiter.KindLeakyBucket:
		shift = time.Duration(rapid.Int64Range(-1e17, 1e17).Draw(t, "shift"))
	default:
		shift = time.Duration(rapid.Int64Range(-1e6, 1e6).Draw(t, "windows")) * c.Window
	}
	shifted := make([]req, len(tr))
	for i, r := range tr {
		shifted[i] = req{r.t + shift, r.n}
	}
	a, da := run(t, c, tr)
	b, db := run(t, c, shifted)
	for i := range tr {
		if da[i] != db[i] {
			t.Fatalf("%v: step %d %v decided %+v, shifted by %v %+v", c, i, tr[i], da[i], shift, db[i])
		}
		if a.Fresh(tr[i].t) != b.Fresh(shifted[i].t) {
			t.Fatalf("%v: Fresh differs at step %d", c, i)
		}
	}
}

var properties = []struct {
	name string
	prop func(*rapid.T)
}{
	{"BucketsAgree", propBucketsAgree},
	{"AdmissionBounds", propAdmissionBounds},
	{"DenialChangesNothing", propDenialChangesNothing},
	{"WaitsAreExact", propWaitsAreExact},
	{"StaleIsLatestAdmitted", propStaleIsLatestAdmitted},
	{"SweepChangesNothing", propSweepChangesNothing},
	{"ShiftChangesNothing", propShiftChangesNothing},
	{"DifferentialXTimeRate", propMatchesXTimeRate},
	{"AdmitIsAllowN", propAdmitIsAllowN},
}

// ---- 9. Admit is AllowN's yes or no ----

// admitter is the fast path every strategy of this package has.
type admitter interface {
	Admit(now limiter.Instant, n int) bool
}

// propAdmitIsAllowN: a strategy driven by Admit admits exactly the requests
// one driven by AllowN allows, and ends every step in the same state; a
// negative n is not admitted and changes nothing.
func propAdmitIsAllowN(t *rapid.T) {
	c, _ := drawConfig(t)
	tr := drawTrace(t, limitOf(c)+1)
	full, fast := newStrategy(t, c), newStrategy(t, c)
	a, ok := fast.(admitter)
	if !ok {
		t.Fatalf("%T has no Admit", fast)
	}
	for i, r := range tr {
		want := allow(t, full, r).Allowed
		if rapid.Bool().Draw(t, "negative first") && a.Admit(r.t, -1) {
			t.Fatalf("%v: step %d: Admit(%d ns, -1) = true", c, i, int64(r.t))
		}
		if got := a.Admit(r.t, r.n); got != want {
			t.Fatalf("%v: step %d %v: Admit = %v, AllowN allowed = %v", c, i, r, got, want)
		}
		if x, y := full.State(r.t), fast.State(r.t); !reflect.DeepEqual(x, y) {
			t.Fatalf("%v: after step %d %v: state %+v by AllowN, %+v by Admit", c, i, r, x, y)
		}
	}
}

// TestProperties runs every property on rapid's default number of traces
// (-rapid.checks=N for more).
func TestProperties(t *testing.T) {
	for _, p := range properties {
		t.Run(p.name, func(t *testing.T) { rapid.Check(t, p.prop) })
	}
}

func FuzzBucketsAgree(f *testing.F)          { f.Fuzz(rapid.MakeFuzz(propBucketsAgree)) }
func FuzzAdmissionBounds(f *testing.F)       { f.Fuzz(rapid.MakeFuzz(propAdmissionBounds)) }
func FuzzDenialChangesNothing(f *testing.F)  { f.Fuzz(rapid.MakeFuzz(propDenialChangesNothing)) }
func FuzzWaitsAreExact(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(propWaitsAreExact)) }
func FuzzStaleIsLatestAdmitted(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propStaleIsLatestAdmitted)) }
func FuzzSweepChangesNothing(f *testing.F)   { f.Fuzz(rapid.MakeFuzz(propSweepChangesNothing)) }
func FuzzShiftChangesNothing(f *testing.F)   { f.Fuzz(rapid.MakeFuzz(propShiftChangesNothing)) }
func FuzzDifferentialXTimeRate(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propMatchesXTimeRate)) }
func FuzzAdmitIsAllowN(f *testing.F)         { f.Fuzz(rapid.MakeFuzz(propAdmitIsAllowN)) }
