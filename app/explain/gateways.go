package explain

import (
	"fmt"
	"strconv"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// Lesson 7's scenario: gateway instances behind a round-robin load
// balancer, the one-way network latency between an instance and the shared
// store (a round trip is twice it), and each instance's clock offset.
const (
	gateways      = 3
	gatewayOneWay = 10 * time.Millisecond
)

var gatewaySkew = [gateways]time.Duration{-300 * time.Millisecond, 0, 300 * time.Millisecond}

func lessonGateways() Lesson {
	return Lesson{
		ID: "many-gateways", Number: 7, Title: "From one process to many",
		Watch: "A client sends 60 requests per second through a load balancer to 3 gateway instances (round robin), for 3 s: " +
			"180 requests. The limit is 10 per second (fixed window), 30 in 3 s. Each column is one way to enforce it: " +
			"(a) a local limiter in each instance; (b) one shared store that every instance asks, 10 ms away (a 20 ms round " +
			"trip), deciding atomically; (c) the same store used read-then-write, without atomicity; (d) the atomic store fed " +
			"instants stamped by the instances, whose clocks are −300 ms, 0 and +300 ms off; and the limit split per instance. " +
			"This lesson is a simulation in the page with package limiter's strategies: no network, no Redis.",
		Shows: "(a) Each instance with its own local limit of 10 admits 10 per second: 30 per second in total, 3× the limit. " +
			"(b) One atomic limiter in the store (a Lua script on one Redis key) decides every request when it arrives, 10 ms " +
			"after it was sent, and admits exactly 10 per second; the price is the 20 ms round trip on every request. " +
			"(c) Read-then-write: an instance reads the window's count (the store keeps a plain counter per fixed window), " +
			"decides locally, and writes count + 1 a round trip after its read. The next request reads 16.67 ms after it, " +
			"before that write has landed, so requests read the same count in pairs, both admit and both write the same " +
			"value: every second write is a lost update, and 20 per second pass, 60 in 3 s. " +
			"(d) With instants stamped by the instances, the fastest clock drives the limiter: as soon as its stamps pass a " +
			"window boundary, 300 ms early in real time, the limiter is in the next window, and the slower instances' stamps, " +
			"now earlier than the latest instant admitted, are evaluated at that instant, in the new window too. The slow " +
			"instance's first request, stamped −300 ms, even opens a window of its own. 21 pass in the first second, 41 in " +
			"3 s. With the store's own clock (Redis TIME) one clock decides, and skew cannot matter: 30. " +
			"Splitting the limit (each instance ⌊10 ÷ 3⌋ = 3) stays under it but wastes budget and breaks when traffic is uneven.",
		Interview: "Multiple gateway instances need a shared store (Redis) and atomic operations (a Lua script): N instances " +
			"with local limits admit up to N× the limit, and a read, decide, write sequence without atomicity loses updates " +
			"under concurrency. Run the whole decision in one script on the server and take time from the server's clock " +
			"(TIME), not the instances'. Accept the round trip, or split the budget per instance when traffic is sticky and " +
			"the error is acceptable. Our library's limiter/redisstore (being added) does (b): one atomic script per " +
			"decision, the server's clock, the same decisions as in memory.",
		Setup: &sim.Setup{
			Lanes:   []sim.LaneSpec{lane(limiter.Config{Kind: limiter.KindFixedWindow, Limit: 10, Window: time.Second})},
			Clients: []sim.Client{{Name: "api", Pattern: sim.Pattern{Kind: sim.PatternSteady, Rate: 60}, Weight: 1}},
			Seed:    1, Speed: 1, Worst: time.Second,
		},
		Until: 3 * time.Second,
		run:   runGateways,
		check: checkGateways,
	}
}

func checkGateways(r Result) (bool, string) {
	limit := r.f("limit")
	local, race := r.f("local"), r.f("race")
	ok := local == gateways*limit && r.f("shared") == limit && race > limit && race-limit == r.f("race.lost") &&
		r.f("skew") > limit && r.f("skew.store") == limit && r.f("split") < limit
	return ok, fmt.Sprintf("in 3 s, %d offered against a limit of %d: local limits admitted %d (%d×, %d over); "+
		"read-then-write admitted %d (%d over, %d lost updates); the atomic shared store %d, each request %s later; "+
		"stamped by instance clocks %s: %d, by the store's clock: %d; the split limit %d. (Simulated.)",
		r.f("offered"), limit, local, local/max(limit, 1), local-limit, race, race-limit, r.f("race.lost"), r.f("shared"),
		units.FormatDuration(time.Duration(r.f("latency"))), skewText(), r.f("skew"), r.f("skew.store"), r.f("split"))
}

// skewText writes the instances' clock offsets: "−300 ms, 0 and +300 ms".
func skewText() string {
	var s string
	for g, d := range gatewaySkew {
		switch {
		case g == gateways-1:
			s += " and "
		case g > 0:
			s += ", "
		}
		switch {
		case d > 0:
			s += "+" + units.FormatDuration(d)
		case d < 0:
			s += "−" + units.FormatDuration(-d)
		default:
			s += "0"
		}
	}
	return s
}

// tally counts admitted units per second of arrival at the load balancer.
type tally []int64

func (t tally) add(at limiter.Instant, n int) { t[int(at/time.Second)] += int64(n) }

func (t tally) total() (s int64) {
	for _, v := range t {
		s += v
	}
	return s
}

// runGateways sends the lesson's requests round robin to the instances and
// decides each one in every column's way, always with package limiter's fixed
// window; the table counts admissions by the second the request was sent.
func runGateways(l Lesson) (Result, error) {
	cfg := l.Setup.Lanes[0].Config
	evs, err := events(l.Setup, l.Until)
	if err != nil {
		return Result{}, err
	}
	secs := int(l.Until / time.Second)
	offered := make(tally, secs)
	for _, e := range evs {
		offered.add(e.At, e.N)
	}
	split := cfg
	split.Limit = cfg.Limit / gateways
	cols := []gatewayColumn{
		{"(a) local limits", make(tally, secs), 0},
		{"(b) shared store, atomic", make(tally, secs), 2 * gatewayOneWay},
		{"(c) read-then-write", make(tally, secs), 2 * gatewayOneWay},
		{"(d) instance clocks", make(tally, secs), 2 * gatewayOneWay},
		{"split limit", make(tally, secs), 0},
	}
	atStore := func(e sim.Event, _ int) limiter.Instant { return e.At + gatewayOneWay }
	stamped := func(e sim.Event, g int) limiter.Instant { return e.At + gatewaySkew[g] }
	var race raceReport
	steps := []func() error{
		func() error { return gatewaysLocal(cfg, evs, cols[0].t) },
		func() error { return gatewaysShared(cfg, evs, atStore, cols[1].t) },
		func() (err error) { race, err = gatewaysReadThenWrite(cfg, evs, cols[2].t); return err },
		func() error { return gatewaysShared(cfg, evs, stamped, cols[3].t) },
		func() error { return gatewaysLocal(split, evs, cols[4].t) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return Result{}, err
		}
	}
	limit := int64(cfg.Limit) * int64(l.Until/cfg.Window)
	r := Result{Lesson: l.ID}
	gatewayTable(&r, l.Until, limit, offered, cols)
	gatewayFacts(&r, limit, offered.total(), cols[0].t.total(), cols[1].t.total(), cols[2].t.total(), race, cols[3].t.total(), cols[4].t.total())
	return r, nil
}

// gatewayColumn is one way of enforcing the limit: what it admitted per
// second and the latency it adds to every request.
type gatewayColumn struct {
	name    string
	t       tally
	latency time.Duration
}

// gatewayTable writes one row per second, a row of totals against the
// limit over the run, and a row of added latencies.
func gatewayTable(r *Result, until time.Duration, limit int64, offered tally, cols []gatewayColumn) {
	r.Columns = []string{"second", "offered"}
	for _, c := range cols {
		r.Columns = append(r.Columns, c.name)
	}
	for s := range offered {
		row := []string{units.FormatDuration(time.Duration(s) * time.Second), strconv.FormatInt(offered[s], 10)}
		for _, c := range cols {
			row = append(row, strconv.FormatInt(c.t[s], 10))
		}
		r.Rows = append(r.Rows, row)
		r.RowAt = append(r.RowAt, min(time.Duration(s+1)*time.Second, until))
	}
	total := []string{fmt.Sprintf("%s in all (limit %d)", units.FormatDuration(until), limit), strconv.FormatInt(offered.total(), 10)}
	latency := []string{"added latency per request", ""}
	for _, c := range cols {
		total = append(total, strconv.FormatInt(c.t.total(), 10))
		latency = append(latency, units.FormatDuration(c.latency))
	}
	r.Rows = append(r.Rows, total, latency)
	r.RowAt = append(r.RowAt, until, until)
}

func gatewayFacts(r *Result, limit, offered, local, shared, race int64, rep raceReport, skew, split int64) {
	r.add("offered", offered, "offered: %d", offered)
	r.add("limit", limit, "the limit over the whole run: %d", limit)
	r.add("local", local, "(a) a local limiter per instance: %d admitted, %d over the limit", local, local-limit)
	r.add("shared", shared, "(b) one atomic limiter in the shared store: %d admitted", shared)
	r.add("latency", int64(2*gatewayOneWay), "(b), (c) and (d): every request waits a round trip to the store, %s", units.FormatDuration(2*gatewayOneWay))
	r.add("race", race, "(c) read-then-write without atomicity: %d admitted, %d over the limit", race, race-limit)
	r.add("race.lost", rep.lost, "(c) lost updates: %d admitted requests wrote a count another admitted request had already written", rep.lost)
	if rep.lost > 0 {
		a, b := rep.first[0], rep.first[1]
		r.add("race.first", int64(b.sent), "(c) the first lost update: instance %d sent a request at %s and instance %d one at %s; "+
			"both read %d (at %s and %s, before the first one's write landed at %s), both were admitted and both wrote %d",
			a.gateway+1, units.FormatDuration(a.sent), b.gateway+1, units.FormatDuration(b.sent), b.read, units.FormatDuration(a.sent+gatewayOneWay), units.FormatDuration(b.sent+gatewayOneWay),
			units.FormatDuration(a.lands), b.count)
	}
	r.add("skew", skew, "(d) instants stamped by instance clocks %s off: %d admitted", skewText(), skew)
	r.add("skew.store", shared, "(d) the same requests on the store's clock (Redis TIME): %d admitted, as (b)", shared)
	r.add("split", split, "the limit split per instance: %d admitted", split)
}

// gatewaysLocal decides each request in the limiter of the instance the
// load balancer sends it to (round robin).
func gatewaysLocal(cfg limiter.Config, evs []sim.Event, t tally) error {
	var local [gateways]limiter.Strategy
	for g := range local {
		s, err := limiter.New(cfg)
		if err != nil {
			return err
		}
		local[g] = s
	}
	for i, e := range evs {
		if d, err := local[i%gateways].AllowN(e.At, e.N); err != nil {
			return err
		} else if d.Allowed {
			t.add(e.At, e.N)
		}
	}
	return nil
}

// gatewaysShared decides every request in one limiter, the store's, at the
// instant stamp gives it. Every instance is the same one-way latency from
// the store, so requests reach it in the order they were sent.
func gatewaysShared(cfg limiter.Config, evs []sim.Event, stamp func(sim.Event, int) limiter.Instant, t tally) error {
	shared, err := limiter.New(cfg)
	if err != nil {
		return err
	}
	for i, e := range evs {
		if d, err := shared.AllowN(stamp(e, i%gateways), e.N); err != nil {
			return err
		} else if d.Allowed {
			t.add(e.At, e.N)
		}
	}
	return nil
}

// gatewaysReadThenWrite runs the shared store used without atomicity. The
// store keeps what a store-backed fixed window keeps, a plain counter per
// window. For each request the instance reads the count of the request's
// window (the read reaches the store one way after the request arrives),
// rebuilds a fixed window limiter holding that count, decides with it, and
// if it admits, writes the limiter's new count back (the write reaches the
// store a round trip after the read). Nothing stops two reads landing
// between one read and its write: both see the same count, both admit, and
// the second write repeats the first. Reads and writes are applied at the
// store in time order; at the same instant a write goes first, having been
// sent earlier.
func gatewaysReadThenWrite(cfg limiter.Config, evs []sim.Event, t tally) (raceReport, error) {
	var rep raceReport
	counts := map[int64]int{}           // window number → count
	var pending []raceWrite             // writes on their way, in the order they land (sent later, land later)
	written := map[[2]int64]raceWrite{} // (window, count) → the first write of it
	for i, e := range evs {
		read := e.At + gatewayOneWay
		for len(pending) > 0 && pending[0].lands <= read {
			counts[pending[0].window] = pending[0].count
			pending = pending[1:]
		}
		// The request's own instant names its window and decides in it,
		// so the count read is the count of the window it is decided in.
		w := int64(e.At / cfg.Window)
		fw, err := fixedWindowHolding(cfg, time.Duration(w)*cfg.Window, counts[w])
		if err != nil {
			return rep, err
		}
		d, err := fw.AllowN(e.At, e.N)
		if err != nil {
			return rep, err
		}
		if !d.Allowed {
			continue
		}
		t.add(e.At, e.N)
		wr := raceWrite{sent: e.At, lands: read + 2*gatewayOneWay, gateway: i % gateways, window: w,
			read: counts[w], count: fw.State(e.At).Count}
		if first, dup := written[[2]int64{w, int64(wr.count)}]; dup {
			if rep.lost == 0 {
				rep.first = [2]raceWrite{first, wr}
			}
			rep.lost++
		} else {
			written[[2]int64{w, int64(wr.count)}] = wr
		}
		pending = append(pending, wr)
	}
	return rep, nil
}

// raceReport is what the read-then-write store lost: how many admitted
// requests wrote a count already written, and the first two that did.
type raceReport struct {
	lost  int64
	first [2]raceWrite
}

// raceWrite is one admitted request of the read-then-write store: when it
// was sent and by which instance, the count it read, and the count it wrote,
// which lands at the store at lands.
type raceWrite struct {
	sent, lands limiter.Instant
	gateway     int
	window      int64
	read, count int
}

// fixedWindowHolding returns a fixed window limiter whose window starting
// at start has admitted count units: the state an instance rebuilds from
// the count it read.
func fixedWindowHolding(cfg limiter.Config, start limiter.Instant, count int) (limiter.Strategy, error) {
	fw, err := limiter.New(cfg)
	if err != nil {
		return nil, err
	}
	if d, err := fw.AllowN(start, count); err != nil {
		return nil, err
	} else if !d.Allowed {
		return nil, fmt.Errorf("explain: a count of %d read from the store is above the limit of %d", count, cfg.Limit)
	}
	return fw, nil
}
