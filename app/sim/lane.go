package sim

import (
	"fmt"
	"math"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// LaneSpec is one lane's strategy: a Config for every client, and optional
// tiers (per-tier Configs, selected by Client.Tier).
type LaneSpec struct {
	Config limiter.Config
	// Tiers maps a tier name to its Config; nil or a missing tier means
	// Config. Tier names are non-empty words of letters, digits, '-' and '_'.
	Tiers map[string]limiter.Config
}

// configFor returns the Config of a client of the given tier.
func (s LaneSpec) configFor(tier string) limiter.Config {
	if c, ok := s.Tiers[tier]; ok && tier != "" {
		return c
	}
	return s.Config
}

// validate builds every Config once, returning the limiter's error, and
// checks the tiers' names (checkTierName).
func (s LaneSpec) validate() error {
	if _, err := limiter.New(s.Config); err != nil {
		return err
	}
	for name, c := range s.Tiers {
		if err := checkTierName(name); err != nil {
			return err
		}
		if _, err := limiter.New(c); err != nil {
			return fmt.Errorf("tier %s: %w", name, err)
		}
	}
	return nil
}

func (s LaneSpec) clone() LaneSpec {
	if s.Tiers == nil {
		return s
	}
	t := make(map[string]limiter.Config, len(s.Tiers))
	for k, v := range s.Tiers {
		t[k] = v
	}
	s.Tiers = t
	return s
}

func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// SameBudget returns kind's Config for the nominal budget "limit requests
// per window", so that lanes set to the same budget differ by algorithm
// alone:
//
//   - token bucket, GCRA: rate = limit / window (tokens per second),
//     burst = limit (a full bucket spends the whole budget at once, and a
//     whole window refills it);
//   - leaky bucket: capacity = limit, leak interval = window / limit (it
//     drains a full bucket in one window). The interval is a whole number of
//     nanoseconds, truncated when window / limit is not one (1 s / 3 leaks
//     every 333,333,333 ns): never rounded up, so the leak is never slower
//     than the budget;
//   - fixed window, sliding window log, sliding window counter: limit per
//     window.
//
// It returns an error for a limit below 1, a window below 1 ns, or an
// unknown kind.
func SameBudget(kind limiter.Kind, limit int, window time.Duration) (limiter.Config, error) {
	if limit < 1 {
		return limiter.Config{}, fmt.Errorf("same budget: limit %d is below 1; want >= 1", limit)
	}
	if window < 1 {
		return limiter.Config{}, fmt.Errorf("same budget: window %v is below 1ns; want >= 1ns", window)
	}
	c := limiter.Config{Kind: kind}
	switch kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		c.Rate, c.Burst = float64(limit)/window.Seconds(), limit
	case limiter.KindLeakyBucket:
		c.Capacity, c.LeakInterval = limit, window/time.Duration(limit)
		if c.LeakInterval < 1 {
			return limiter.Config{}, fmt.Errorf("same budget: window %v / limit %d is below 1ns; want a longer window", window, limit)
		}
	case limiter.KindFixedWindow, limiter.KindSlidingWindowLog, limiter.KindSlidingWindowCounter:
		c.Limit, c.Window = limit, window
	default:
		return limiter.Config{}, fmt.Errorf("same budget: kind %q is unknown; want one of %v", string(kind), limiter.Kinds)
	}
	return c, nil
}

// BudgetOf is SameBudget's inverse: the "limit per window" that config c
// enforces. A token bucket or GCRA of rate r and burst b is b per b/r (to the
// nanosecond), a leaky bucket of capacity c leaking 1 per i is c per the
// roundest window that SameBudget turns into i (12 per 1 s leaks 1 per
// 83.333333 ms, truncated, and gives back 1 s, not 999.999996 ms), and a
// window strategy is its limit per its window. ok is false when c has
// no such budget: a bucket of rate 0 or +Inf, or of burst or capacity 0.
func BudgetOf(c limiter.Config) (limit int, window time.Duration, ok bool) {
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		if c.Burst < 1 || !(c.Rate > 0) || math.IsInf(c.Rate, 1) {
			return 0, 0, false
		}
		w := math.Round(float64(c.Burst) / c.Rate * 1e9)
		if w < 1 || w > float64(limiter.MaxWindow) {
			return 0, 0, false
		}
		return c.Burst, time.Duration(w), true
	case limiter.KindLeakyBucket:
		return leakyBudget(c)
	case limiter.KindFixedWindow, limiter.KindSlidingWindowLog, limiter.KindSlidingWindowCounter:
		if c.Limit < 1 || c.Window < 1 {
			return 0, 0, false
		}
		return c.Limit, c.Window, true
	}
	return 0, 0, false
}

// leakyBudget is BudgetOf for a leaky bucket: SameBudget's window/capacity
// truncated to the leak interval i leaves any window in [c·i, c·i + c − 1];
// this is the one with the most trailing zeros.
func leakyBudget(c limiter.Config) (limit int, window time.Duration, ok bool) {
	if c.Capacity < 1 || c.LeakInterval < 1 || c.LeakInterval > limiter.MaxWindow/time.Duration(c.Capacity) {
		return 0, 0, false
	}
	lo := c.LeakInterval * time.Duration(c.Capacity)
	hi := lo + time.Duration(c.Capacity-1)
	for p := time.Duration(1e18); p > 1; p /= 10 {
		if m := (lo + p - 1) / p * p; m <= hi && m >= lo {
			return c.Capacity, m, true
		}
	}
	return c.Capacity, lo, true
}

// Record is one decision of one lane.
type Record struct {
	At      Instant
	Client  string
	N       int
	Allowed bool
	// Remaining, RetryAfter and Delay are the limiter's decision fields.
	Remaining  int
	RetryAfter time.Duration
	Delay      time.Duration
}

// Counts are requests allowed and denied (requests, not units).
type Counts struct {
	Allowed, Denied int64
}

// Bucket is one chart bucket of a lane: the units offered and admitted in
// [Start, Start + width), and the state variable of the lab's focus client
// at the bucket's end (see StateValue).
type Bucket struct {
	Start             Instant
	Offered, Admitted int64
	State             float64
	Closed            bool
}

// Rates returns the offered and admitted rates in units per second, for
// buckets of the given width.
func (b Bucket) Rates(width time.Duration) (offered, admitted float64) {
	s := width.Seconds()
	return float64(b.Offered) / s, float64(b.Admitted) / s
}

// StateValue returns the state variable a chart draws for s: the tokens of a
// token bucket or GCRA, the level of a leaky bucket, the count of a fixed
// window or sliding window log, the weighted estimate of a sliding window
// counter.
func StateValue(s limiter.State) float64 {
	switch s.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		return s.Tokens
	case limiter.KindLeakyBucket:
		return s.Level
	case limiter.KindSlidingWindowCounter:
		return s.Weighted
	}
	return float64(s.Count)
}

// WorstCase is the most units a lane admitted within any window of length
// Window: all of them were admitted in [Start, End), End = Start + Window,
// the first of them at Start. Units 0 means nothing was admitted.
type WorstCase struct {
	Units      int64
	Start, End Instant
	Window     time.Duration
}

// Admission is units admitted at one instant.
type Admission struct {
	At    Instant
	Units int64
}

// WorstCaseOf returns the most units admitted within any window of length w
// (a half-open [s, s + w)), by a sliding two-pointer pass over admissions in
// time order. Ties keep the earliest stretch.
func WorstCaseOf(adm []Admission, w time.Duration) WorstCase {
	best := WorstCase{Window: w}
	var sum int64
	lo := 0
	for _, a := range adm {
		sum += a.Units
		for a.At-adm[lo].At >= w {
			sum -= adm[lo].Units
			lo++
		}
		if sum > best.Units {
			best.Units, best.Start, best.End = sum, adm[lo].At, adm[lo].At+w
		}
	}
	return best
}

// worstTracker is WorstCaseOf computed incrementally, keeping only the
// admissions of the last window.
type worstTracker struct {
	w    time.Duration
	q    []Admission
	lo   int
	sum  int64
	best WorstCase
}

func (t *worstTracker) add(at Instant, units int64) {
	if n := len(t.q); n > 0 && t.q[n-1].At == at {
		t.q[n-1].Units += units // one entry per instant: bursts cost nothing
	} else {
		t.q = append(t.q, Admission{at, units})
	}
	t.sum += units
	for at-t.q[t.lo].At >= t.w {
		t.sum -= t.q[t.lo].Units
		t.lo++
	}
	if t.lo > 1024 && t.lo > len(t.q)/2 {
		t.q = t.q[:copy(t.q, t.q[t.lo:])]
		t.lo = 0
	}
	if t.sum > t.best.Units {
		t.best = WorstCase{Units: t.sum, Start: t.q[t.lo].At, End: t.q[t.lo].At + t.w, Window: t.w}
	}
}

// ClientWorst is the most units one client got through within any window
// of length Window: Client's admissions in [Start, End), End = Start +
// Window, the first of them at Start. Units 0 means nothing was admitted
// (Client is then ""). Of clients with the same most, it names the one
// that reached it first.
type ClientWorst struct {
	Client string
	WorstCase
}

// clientAdmission is units admitted to the lab's client id at one instant.
type clientAdmission struct {
	At    Instant
	ID    int
	Units int64
}

// clientWorstTracker is ClientWorst computed incrementally: one queue of
// the last window's admissions, every client's, and each client's units in
// that window (8 bytes a client: a trace brings 200,000 of them).
type clientWorstTracker struct {
	w      time.Duration
	q      []clientAdmission
	lo     int
	sums   []int64 // by client id
	best   WorstCase
	bestID int
}

func (t *clientWorstTracker) add(at Instant, id int, units int64) {
	if n := len(t.q); n > t.lo && t.q[n-1].At == at && t.q[n-1].ID == id {
		t.q[n-1].Units += units
	} else {
		t.q = append(t.q, clientAdmission{at, id, units})
	}
	for id >= len(t.sums) {
		t.sums = append(t.sums, 0)
	}
	t.sums[id] += units
	for at-t.q[t.lo].At >= t.w {
		t.sums[t.q[t.lo].ID] -= t.q[t.lo].Units
		t.lo++
	}
	if t.lo > 1024 && t.lo > len(t.q)/2 {
		t.q = t.q[:copy(t.q, t.q[t.lo:])]
		t.lo = 0
	}
	if t.sums[id] > t.best.Units {
		start := at
		for _, a := range t.q[t.lo:] { // the client's first admission still in the window
			if a.ID == id {
				start = a.At
				break
			}
		}
		t.best, t.bestID = WorstCase{Units: t.sums[id], Start: start, End: start + t.w, Window: t.w}, id
	}
}

// Lane is one strategy of the lab, with its own keyed limiter, history,
// counts, charts and worst case. Read it through its methods; change it
// through the Lab.
type Lane struct {
	spec    LaneSpec
	keyed   *limiter.Keyed
	factory limiter.Factory
	lab     *Lab

	hist       []Record // ring, oldest at head
	head, size int

	total     Counts
	perClient []Counts // by the lab's client id

	width   time.Duration
	buckets []Bucket // ring of closed buckets, oldest at bhead
	bhead   int
	bsize   int
	cur     Bucket

	worst       worstTracker
	clientWorst clientWorstTracker
}

func newLane(lab *Lab, spec LaneSpec) (*Lane, error) {
	spec = spec.clone()
	if err := spec.validate(); err != nil {
		return nil, err
	}
	ln := &Lane{spec: spec, lab: lab}
	ln.factory = func(client string) (limiter.Strategy, error) {
		return limiter.New(spec.configFor(lab.tiers[client]))
	}
	k, err := limiter.NewKeyed(ln.factory, limiter.KeyedOptions{})
	if err != nil {
		return nil, err
	}
	ln.keyed = k
	ln.hist = make([]Record, lab.opts.History)
	ln.width = lab.opts.ChartBucket
	ln.buckets = make([]Bucket, lab.opts.ChartLen)
	ln.worst.w = lab.setup.Worst
	ln.worst.best.Window = lab.setup.Worst
	ln.clientWorst.w = lab.setup.Worst
	ln.clientWorst.best.Window = lab.setup.Worst
	return ln, nil
}

// Spec returns the lane's strategy.
func (ln *Lane) Spec() LaneSpec { return ln.spec.clone() }

// Total returns the lane's requests allowed and denied, all clients.
func (ln *Lane) Total() Counts { return ln.total }

// Client returns the requests allowed and denied for one client.
func (ln *Lane) Client(name string) Counts {
	if id, ok := ln.lab.ids[name]; ok && id < len(ln.perClient) {
		return ln.perClient[id]
	}
	return Counts{}
}

// ClientAt returns the requests allowed and denied for the lab's i-th
// client (Lab.Clients()[i]) without looking its name up, for a table of a
// trace's 200,000 clients; zero counts out of range.
func (ln *Lane) ClientAt(i int) Counts {
	if i >= 0 && i < len(ln.perClient) {
		return ln.perClient[i]
	}
	return Counts{}
}

// History appends the lane's recent decisions, oldest first, to dst.
func (ln *Lane) History(dst []Record) []Record {
	for i := 0; i < ln.size; i++ {
		dst = append(dst, ln.hist[(ln.head+i)%len(ln.hist)])
	}
	return dst
}

// State returns the state of client's limiter at now (a fresh limiter's
// state for a client not seen yet or evicted as fresh), for drawing.
func (ln *Lane) State(now Instant, client string) limiter.State {
	if s, ok := ln.keyed.State(now, client); ok {
		return s
	}
	s, err := ln.factory(client)
	if err != nil {
		return limiter.State{}
	}
	return s.State(now)
}

// Buckets appends the lane's closed chart buckets, oldest first, to dst.
func (ln *Lane) Buckets(dst []Bucket) []Bucket {
	for i := 0; i < ln.bsize; i++ {
		dst = append(dst, ln.buckets[(ln.bhead+i)%len(ln.buckets)])
	}
	return dst
}

// Current returns the open chart bucket (State not yet sampled).
func (ln *Lane) Current() Bucket { return ln.cur }

// Worst returns the most units the lane admitted within any window of the
// lab's worst-case length, and where, summed over all clients.
func (ln *Lane) Worst() WorstCase { return ln.worst.best }

// ClientWorst returns the most units the lane admitted to one client within
// any window of the lab's worst-case length, which client, and where: what a
// limit of "N per window" on each client bounds (Worst sums every client).
func (ln *Lane) ClientWorst() ClientWorst {
	b := ln.clientWorst.best
	if b.Units == 0 {
		return ClientWorst{WorstCase: b}
	}
	return ClientWorst{Client: ln.lab.names[ln.clientWorst.bestID], WorstCase: b}
}

// roll closes every chart bucket that ends at or before t.
func (ln *Lane) roll(t Instant, focus string) {
	end := ln.cur.Start + ln.width
	if t < end {
		return
	}
	ln.closeBucket(end, focus)
	// The buckets up to t are empty. Those that will be overwritten unseen
	// (ending more than len(buckets) before t, or before the window of
	// buckets kept when the lab reaches its horizon) are skipped.
	keep := Instant(len(ln.buckets)) * ln.width
	lim := min(t, max(t-keep, ln.lab.horizon-keep-ln.width))
	if lim-ln.cur.Start >= ln.width {
		ln.cur = Bucket{Start: ln.cur.Start + (lim-ln.cur.Start)/ln.width*ln.width}
	}
	for ln.cur.Start+ln.width <= t {
		ln.closeBucket(ln.cur.Start+ln.width, focus)
	}
}

func (ln *Lane) closeBucket(end Instant, focus string) {
	b := ln.cur
	b.Closed = true
	// Sample the state only for buckets that can still be in the ring when
	// the lab reaches its target instant: a fast replay of hours skips the
	// rest (they would be overwritten unseen).
	if focus != "" && end > ln.lab.horizon-Instant(len(ln.buckets)+1)*ln.width {
		b.State = StateValue(ln.State(end, focus))
	}
	ringPush(ln.buckets, &ln.bhead, &ln.bsize, b)
	ln.cur = Bucket{Start: end}
}

// decide sends e to the lane's limiter and records the decision.
func (ln *Lane) decide(e Event, id int) (Record, error) {
	d, err := ln.keyed.AllowNAt(e.At, e.Client, e.N)
	if err != nil {
		return Record{}, err
	}
	for id >= len(ln.perClient) {
		ln.perClient = append(ln.perClient, Counts{})
	}
	r := Record{At: e.At, Client: e.Client, N: e.N, Allowed: d.Allowed, Remaining: d.Remaining, RetryAfter: d.RetryAfter, Delay: d.Delay}
	ln.cur.Offered += int64(e.N)
	if d.Allowed {
		ln.total.Allowed++
		ln.perClient[id].Allowed++
		ln.cur.Admitted += int64(e.N)
		if e.N > 0 {
			ln.worst.add(e.At, int64(e.N))
			ln.clientWorst.add(e.At, id, int64(e.N))
		}
	} else {
		ln.total.Denied++
		ln.perClient[id].Denied++
	}
	ringPush(ln.hist, &ln.head, &ln.size, r)
	return r, nil
}

// MaxTierFactor bounds ScaleConfig's factor.
const MaxTierFactor = 100

// ScaleConfig returns c with its budget multiplied by factor, for a tier such
// as "pro gets 5× the free limits": the token bucket's and GCRA's rate and
// burst, the leaky bucket's capacity and leak rate (its leak interval divided
// by factor), or a window strategy's limit; window lengths stay. Counts are
// rounded to the nearest whole number, at least 1. factor is in (0, 100].
func ScaleConfig(c limiter.Config, factor float64) (limiter.Config, error) {
	if !(factor > 0 && factor <= MaxTierFactor) {
		return limiter.Config{}, fmt.Errorf("tier factor %g is out of range; want more than 0 and at most %d", factor, MaxTierFactor)
	}
	count := func(n int) int { return max(int(float64(n)*factor+0.5), 1) }
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		c.Rate, c.Burst = c.Rate*factor, count(c.Burst)
	case limiter.KindLeakyBucket:
		c.Capacity = count(c.Capacity)
		c.LeakInterval = max(time.Duration(float64(c.LeakInterval)/factor), 1)
	default:
		c.Limit = count(c.Limit)
	}
	if _, err := limiter.New(c); err != nil {
		return limiter.Config{}, fmt.Errorf("tier factor %g: %w", factor, err)
	}
	return c, nil
}

// FactorOf is the multiple of base that tier is, as ScaleConfig would have
// made it: the rate's (the burst's at rate 0 or +Inf), the leak interval's
// inverse, or the limit's; 1 when the two are of different kinds.
func FactorOf(base, tier limiter.Config) float64 {
	ratio := func(a, b float64) float64 {
		if b > 0 && a > 0 && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
			return a / b
		}
		return 1
	}
	if base.Kind != tier.Kind {
		return 1
	}
	switch base.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		if base.Rate > 0 && !math.IsInf(base.Rate, 0) {
			return ratio(tier.Rate, base.Rate)
		}
		return ratio(float64(tier.Burst), float64(base.Burst))
	case limiter.KindLeakyBucket:
		return ratio(float64(base.LeakInterval), float64(tier.LeakInterval))
	}
	return ratio(float64(tier.Limit), float64(base.Limit))
}

// ringPush appends v to the ring buf that holds size values from head,
// overwriting the oldest when it is full.
func ringPush[T any](buf []T, head, size *int, v T) {
	if *size < len(buf) {
		buf[(*head+*size)%len(buf)] = v
		*size++
		return
	}
	buf[*head] = v
	*head = (*head + 1) % len(buf)
}
