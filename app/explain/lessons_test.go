package explain

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// runLesson runs a lesson headless and checks its "what you should have
// seen" passes with exactly the message given.
func runLesson(t *testing.T, id, want string) Result {
	t.Helper()
	l, ok := LessonByID(id)
	if !ok {
		t.Fatalf("no lesson %q", id)
	}
	r, err := l.Run()
	if err != nil {
		t.Fatal(err)
	}
	ok, msg := l.Check(r)
	if !ok || msg != want {
		t.Errorf("%s: check = %v, %q;\nwant true, %q", id, ok, msg, want)
	}
	return r
}

func TestLessonBurstVsRate(t *testing.T) {
	r := runLesson(t, "burst-vs-rate", "burst 10: 14 admitted in the busiest second (more than the burst of 10) and 35 in 5 s; "+
		"burst 1: 5 in the busiest second and 26 in 5 s. The difference, 9, is the extra burst spent once.")
	if r.Lanes[0].Denied != 66 || r.Lanes[1].Denied != 75 {
		t.Errorf("denied %d, %d; want 66, 75", r.Lanes[0].Denied, r.Lanes[1].Denied)
	}
}

func TestLessonBoundaryBurst(t *testing.T) {
	r := runLesson(t, "boundary-burst", "fixed window: 20 within 1 s, in [900 ms, 1.9 s) (2 × the limit of 10); sliding window log: 10; "+
		"sliding window counter: 10. Memory per client: the log up to 10 instants, the counter 2 counts.")
	// One pair of bursts, as the text says: 20 requests, not two pairs (40).
	for i, want := range [][2]int64{{20, 0}, {10, 10}, {10, 10}} {
		if ln := r.Lanes[i]; ln.Allowed != want[0] || ln.Denied != want[1] {
			t.Errorf("lane %d (%s): %d allowed, %d denied; want %d, %d", i+1, ln.Title, ln.Allowed, ln.Denied, want[0], want[1])
		}
	}
}

func TestLessonMonotonicClock(t *testing.T) {
	r := runLesson(t, "monotonic-clock", "while the wall clock was behind (4 s to 8 s): monotonic 8 admitted, wall clock 0 (starved; "+
		"naive elapsed reached -9.75 s). In the second after the 1 h jump: monotonic 2, wall clock 4 (an unearned full bucket). "+
		"In 12 s: monotonic 27, wall clock 22.")
	if v, _ := r.Fact("elapsed.max"); v != 3600250000000 {
		t.Errorf("largest naive elapsed %d; want 1h0m0.25s", v)
	}
	if len(r.Rows) != 48 {
		t.Errorf("%d rows; want 48 requests", len(r.Rows))
	}
	// The wall-clock lane after the set-back: every request is stamped
	// before 3.5 s, the latest instant the lane admitted at (3.75 s was
	// denied), so it is evaluated at 3.5 s, where the bucket is empty; the
	// table says so. Before the set-back and after the jump the stamp is
	// the instant.
	for i, want := range map[int][]string{
		15: {"3.75 s", "3.75 s", "250 ms", "denied, 0.5 left", "denied, 0.5 left"},
		16: {"4 s", "-6 s", "-9.75 s", "allowed, 0 left", "denied, 0 left (evaluated at 3.5 s)"},
		17: {"4.25 s", "-5.75 s", "250 ms", "denied, 0.5 left", "denied, 0 left (evaluated at 3.5 s)"},
		31: {"7.75 s", "-2.25 s", "250 ms", "denied, 0.5 left", "denied, 0 left (evaluated at 3.5 s)"},
		32: {"8 s", "3598 s", "3600.25 s", "allowed, 0 left", "allowed, 3 left"},
	} {
		if !slices.Equal(r.Rows[i], want) {
			t.Errorf("row %d: %q; want %q", i+1, r.Rows[i], want)
		}
	}
	if v, _ := r.Fact("stall.at"); v != int64(3500*time.Millisecond) {
		t.Errorf("4 s to 8 s evaluated at %d; want 3.5 s", v)
	}
	if got, want := r.Facts[4].Text, "4 s to 8 s, the wall-clock lane evaluated every request at 3.5 s, the latest instant it "+
		"had admitted a request at (every stamp was earlier), when its bucket held 0 tokens"; got != want {
		t.Errorf("fact %q;\nwant %q", got, want)
	}
}

// TestLessonClockTableIsTheLimiters replays the wall-clock lane's requests
// on a fresh token bucket stamped at the instants the table says they were
// evaluated at: the same decisions and the same tokens, so the table shows
// what package limiter decided (a stale stamp is evaluated at the latest
// instant admitted, not at the latest request's, 3.75 s, where 0.5 tokens
// were left).
func TestLessonClockTableIsTheLimiters(t *testing.T) {
	l, _ := LessonByID("monotonic-clock")
	r, err := l.Run()
	if err != nil {
		t.Fatal(err)
	}
	tb, err := limiter.New(l.Setup.Lanes[0].Config)
	if err != nil {
		t.Fatal(err)
	}
	evaluated := regexp.MustCompile(`^(allowed|denied), ([0-9.]+) left(?: \(evaluated at (.+)\))?$`)
	// secs reads an instant as the table writes it: "-6 s", "250 ms".
	secs := func(s string) limiter.Instant {
		num, unit, _ := strings.Cut(s, " ")
		f, err := strconv.ParseFloat(num, 64)
		scale := map[string]float64{"s": 1e3, "ms": 1}[unit]
		if err != nil || scale == 0 {
			t.Fatalf("instant %q", s)
		}
		return limiter.Instant(math.Round(f*scale)) * time.Millisecond
	}
	stale := 0
	for i, row := range r.Rows {
		m := evaluated.FindStringSubmatch(row[4])
		if m == nil {
			t.Fatalf("row %d: wall-clock lane %q", i+1, row[4])
		}
		at := secs(row[1])
		if m[3] != "" {
			if e := secs(m[3]); e <= at {
				t.Errorf("row %d: evaluated at %v, not after its stamp %v", i+1, e, at)
			} else {
				at, stale = e, stale+1
			}
		}
		d, _ := tb.AllowN(at, 1)
		if got := Tokens(tb.State(at).Tokens); d.Allowed != (m[1] == "allowed") || got != m[2] {
			t.Errorf("row %d: at %v the limiter says allowed %v, %s left; the table %q", i+1, at, d.Allowed, got, row[4])
		}
	}
	if stale != 16 {
		t.Errorf("%d requests evaluated after their stamp; want the 16 from 4 s to 7.75 s", stale)
	}
}

// TestNaiveWallClock checks the demo clock's jumps exactly.
func TestNaiveWallClock(t *testing.T) {
	c := &NaiveWallClock{Mono: new(limiter.ManualClock), Jumps: []Jump{{At: 4e9, By: -10e9}, {At: 8e9, By: 3600e9}}}
	for _, tc := range []struct{ mono, want int64 }{{0, 0}, {3999999999, 3999999999}, {4e9, -6e9}, {8e9, 3598e9}} {
		c.Mono.Set(limiter.Instant(tc.mono))
		if got := c.Now(); int64(got) != tc.want {
			t.Errorf("mono %d: naive instant %d; want %d", tc.mono, got, tc.want)
		}
	}
}

func TestLessonPerClientEviction(t *testing.T) {
	r := runLesson(t, "per-client-eviction", "keys held peaked at 3000 of 5001 clients and fell to 0 after the last sweep; "+
		"Mallory at 3 s: 3 admitted with eviction that keeps debt, 5 with the naive TTL cache (2 unearned).")
	// At 3 s: c0002–c1001 (seen in (0, 1 s]) are idle 2 s and full again,
	// so evicted; Mallory, in debt, stays: 2000 keys after, against the
	// naive cache's 1999 (it dropped her at 2 s, and c1001 with the rest).
	if got := r.Rows[2]; !slices.Equal(got, []string{"3 s", "3000", "1000", "2000", "1999"}) {
		t.Errorf("sweep at 3 s: %v; want 3 s, 3000 held before, 1000 evicted, 2000 after, 1999 in the naive cache", got)
	}
	// At 7 s only Mallory is left in the keyed limiter; the naive cache is empty.
	if got := r.Rows[6]; !slices.Equal(got, []string{"7 s", "1000", "999", "1", "0"}) {
		t.Errorf("sweep at 7 s: %v; want 7 s, 1000, 999, 1, 0", got)
	}
}

func TestLessonLockDesign(t *testing.T) {
	r := runLesson(t, "lock-design", "total waiting: 51.84 µs with one global lock, 23.28 µs with a lock per key (longest 3.84 µs vs 1.94 µs; "+
		"hold times measured by make bench on go1.26.8 linux/amd64, AMD EPYC (Oxide Virtual Turin-like), 2 cores, at 2f69143). "+
		"Lazy creation, burst 5, 10 first requests: 10 admitted with check-then-act, 5 with limiter.Keyed.")
	// c1's second request waits for its first under both designs: one
	// measured hold time each (480 ns global, 485 ns per key).
	if got := r.Rows[1]; got[0] != "c1" || got[3] != "480 ns" || got[5] != "485 ns" {
		t.Errorf("c1's second request: %v; want waits of 480 ns (global lock) and 485 ns (per-key lock)", got)
	}
	// c2 does not wait behind c1's second request for a core: a decision
	// waiting for a lock holds no core, so c2 starts at once on the other.
	if got := r.Rows[2]; got[0] != "c2" || got[4] != "0 s" || got[5] != "0 s" || got[3] != "960 ns" {
		t.Errorf("c2: %v; want per-key start 0 s, wait 0 s (global lock: wait 960 ns)", got)
	}
	// The last of a wave's 9 decisions on 2 cores starts after 4 holds.
	if got := r.Rows[8]; got[0] != "c8" || got[4] != "1.94 µs" {
		t.Errorf("c8: %v; want per-key start 1.94 µs", got)
	}
}

// RecordedLockBench is README's KeyedScaling run: the lesson and the README
// quote the same measurement.
func TestRecordedLockBenchIsREADMEs(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// The rows the README says the lesson quotes (its latest table may be a
	// later run).
	i := bytes.Index(b, []byte("The lock-design lesson (`/learn`, lesson 5) quotes"))
	if i < 0 {
		t.Fatal("README does not say which KeyedScaling rows the lock-design lesson quotes")
	}
	b = b[i:]
	ns := func(row string) time.Duration {
		m := regexp.MustCompile(`KeyedScaling +` + regexp.QuoteMeta(row) + ` +sec/op +([0-9.]+)ns`).FindSubmatch(b)
		if m == nil {
			t.Fatalf("README has no KeyedScaling row %s", row)
		}
		f, _ := strconv.ParseFloat(string(m[1]), 64)
		return time.Duration(math.Round(f)) * time.Nanosecond
	}
	peer := func(row string) time.Duration {
		m := regexp.MustCompile(`KeyedScaling +ours-keyed-` + row + ` +sec/op +[0-9.]+ns ±[0-9]+% +global-lock-` + row + ` +([0-9.]+)ns`).FindSubmatch(b)
		if m == nil {
			t.Fatalf("README has no global-lock-%s beside ours-keyed-%s", row, row)
		}
		f, _ := strconv.ParseFloat(string(m[1]), 64)
		return time.Duration(math.Round(f)) * time.Nanosecond
	}
	got := RecordedLockBench
	want := LockBench{Machine: got.Machine, Cores: 2, PerKey1: ns("ours-keyed-1proc"), PerKey2: ns("ours-keyed-2proc"),
		GlobalLock1: peer("1proc"), GlobalLock2: peer("2proc")}
	if got != want {
		t.Errorf("RecordedLockBench %+v, README's KeyedScaling %+v", got, want)
	}
}

func TestLessonQueueVsMeter(t *testing.T) {
	l, _ := LessonByID("queue-vs-meter")
	if len(l.Shaping) != 2 || !l.Shaping[0] || l.Shaping[1] {
		t.Errorf("shaping %v; want [true false]", l.Shaping)
	}
	runLesson(t, "queue-vs-meter", "both lanes: 26 admitted, 9 rejected. As a queue the longest wait is 2 s (the 21st request, "+
		"(21 − 1) × 100 ms); as a meter every admitted request passes at once.")
}

func TestLessonManyGateways(t *testing.T) {
	r := runLesson(t, "many-gateways", "in 3 s, 180 offered against a limit of 30: local limits admitted 90 (3×, 60 over); "+
		"read-then-write admitted 60 (30 over, 30 lost updates); the atomic shared store 30, each request 20 ms later; "+
		"stamped by instance clocks −300 ms, 0 and +300 ms: 41, by the store's clock: 30; the split limit 27. (Simulated.)")
	wantCols := []string{"second", "offered", "(a) local limits", "(b) shared store, atomic", "(c) read-then-write",
		"(d) instance clocks", "split limit"}
	if !slices.Equal(r.Columns, wantCols) {
		t.Errorf("columns %q; want %q", r.Columns, wantCols)
	}
	want := [][]string{
		{"0 s", "60", "30", "10", "20", "21", "9"},
		{"1 s", "60", "30", "10", "20", "10", "9"},
		{"2 s", "60", "30", "10", "20", "10", "9"},
		{"3 s in all (limit 30)", "180", "90", "30", "60", "41", "27"},
		{"added latency per request", "", "0 s", "20 ms", "20 ms", "20 ms", "0 s"},
	}
	if len(r.Rows) != len(want) {
		t.Fatalf("%d rows; want %d", len(r.Rows), len(want))
	}
	for i, row := range want {
		if !slices.Equal(r.Rows[i], row) {
			t.Errorf("row %d: %q; want %q", i, r.Rows[i], row)
		}
	}
	wantFacts := []Fact{
		{"offered", 180, "offered: 180"},
		{"limit", 30, "the limit over the whole run: 30"},
		{"local", 90, "(a) a local limiter per instance: 90 admitted, 60 over the limit"},
		{"shared", 30, "(b) one atomic limiter in the shared store: 30 admitted"},
		{"latency", int64(20 * time.Millisecond), "(b), (c) and (d): every request waits a round trip to the store, 20 ms"},
		{"race", 60, "(c) read-then-write without atomicity: 60 admitted, 30 over the limit"},
		{"race.lost", 30, "(c) lost updates: 30 admitted requests wrote a count another admitted request had already written"},
		{"race.first", int64(16666667), "(c) the first lost update: instance 1 sent a request at 0 s and instance 2 one at " +
			"16.666667 ms; both read 0 (at 10 ms and 26.666667 ms, before the first one's write landed at 30 ms), both were " +
			"admitted and both wrote 1"},
		{"skew", 41, "(d) instants stamped by instance clocks −300 ms, 0 and +300 ms off: 41 admitted"},
		{"skew.store", 30, "(d) the same requests on the store's clock (Redis TIME): 30 admitted, as (b)"},
		{"split", 27, "the limit split per instance: 27 admitted"},
	}
	if !slices.Equal(r.Facts, wantFacts) {
		t.Errorf("facts:\n%v\nwant\n%v", r.Facts, wantFacts)
	}
}

// TestGatewaysSharedIsOneLimiter: column (b) is one in-memory fixed window
// fed each request at its arrival at the store (sent + one way), second by
// second; column (d) is the same limiter fed the instances' stamps.
func TestGatewaysSharedIsOneLimiter(t *testing.T) {
	l, _ := LessonByID("many-gateways")
	r, err := l.Run()
	if err != nil {
		t.Fatal(err)
	}
	evs, err := events(l.Setup, l.Until)
	if err != nil {
		t.Fatal(err)
	}
	for col, stamp := range map[int]func(i int, e sim.Event) limiter.Instant{
		3: func(_ int, e sim.Event) limiter.Instant { return e.At + 10*time.Millisecond },
		5: func(i int, e sim.Event) limiter.Instant {
			return e.At + []time.Duration{-300 * time.Millisecond, 0, 300 * time.Millisecond}[i%3]
		},
	} {
		one, err := limiter.NewFixedWindow(10, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		perSec := make([]int, 3)
		for i, e := range evs {
			if d, _ := one.AllowN(stamp(i, e), e.N); d.Allowed {
				perSec[e.At/time.Second] += e.N
			}
		}
		for s, n := range perSec {
			if got := r.Rows[s][col]; got != strconv.Itoa(n) {
				t.Errorf("%s, second %d: %s admitted; one in-memory limiter admits %d", r.Columns[col], s, got, n)
			}
		}
	}
}

// TestGatewaysReadThenWrite plays the race on three requests, 10 ms each
// way: the one sent at 5 ms reads (at 15 ms) before the write of the one
// sent at 0 (at 30 ms) lands, so both read 0 and both write 1; the one sent
// at 25 ms reads at 35 ms, sees 1 and writes 2. With a limit of 2 all three
// pass: one update lost, one over.
func TestGatewaysReadThenWrite(t *testing.T) {
	cfg := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 2, Window: time.Second}
	evs := []sim.Event{{At: 0, N: 1}, {At: 5 * time.Millisecond, N: 1}, {At: 25 * time.Millisecond, N: 1},
		{At: 45 * time.Millisecond, N: 1}}
	tl := make(tally, 1)
	rep, err := gatewaysReadThenWrite(cfg, evs, tl)
	if err != nil {
		t.Fatal(err)
	}
	// The fourth, sent at 45 ms, reads at 55 ms after the writes of 1 (at
	// 30 ms and 35 ms) and of 2 (at 55 ms: a write at the read's instant
	// lands first): it reads 2 and is denied.
	if tl[0] != 3 || rep.lost != 1 {
		t.Errorf("%d admitted, %d lost updates; want 3, 1", tl[0], rep.lost)
	}
	want := [2]raceWrite{{sent: 0, lands: 30 * time.Millisecond, gateway: 0, read: 0, count: 1},
		{sent: 5 * time.Millisecond, lands: 35 * time.Millisecond, gateway: 1, read: 0, count: 1}}
	if rep.first != want {
		t.Errorf("first lost update %+v; want %+v", rep.first, want)
	}
}

// TestLessonsList checks seven lessons, numbered 1 to 7, with distinct IDs
// and every text filled in.
func TestLessonsList(t *testing.T) {
	ls := Lessons()
	if len(ls) != 7 {
		t.Fatalf("%d lessons; want 7", len(ls))
	}
	seen := map[string]bool{}
	for i, l := range ls {
		if l.Number != i+1 || seen[l.ID] || l.Title == "" || l.Watch == "" || l.Shows == "" || l.Interview == "" || l.Until <= 0 {
			t.Errorf("lesson %d: %+v", i+1, l)
		}
		if l.Setup == nil && l.run == nil {
			t.Errorf("lesson %s: want a lab setup or its own run", l.ID)
		}
		seen[l.ID] = true
	}
}

// labRecords plays a lab lesson as the page does and returns each lane's
// decisions.
func labRecords(t *testing.T, l Lesson) [][]sim.Record {
	t.Helper()
	lab, err := sim.New(*l.Setup, nil, sim.Options{History: 4096})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range l.Script {
		if err := lab.AdvanceTo(e.At); err != nil {
			t.Fatal(err)
		}
		if err := lab.Fire(e.Client, e.N); err != nil {
			t.Fatal(err)
		}
	}
	if err := lab.AdvanceTo(l.Until); err != nil {
		t.Fatal(err)
	}
	var out [][]sim.Record
	for _, ln := range lab.Lanes() {
		out = append(out, ln.History(nil))
	}
	return out
}

// secText writes a duration in seconds as the lessons' texts do: "0.9 s".
func secText(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s" }

// parseDur reads a duration as units.FormatDuration writes it in the lessons' tables:
// "-6 s", "250 ms".
func parseDur(t *testing.T, s string) time.Duration {
	t.Helper()
	num, unit, _ := strings.Cut(s, " ")
	f, err := strconv.ParseFloat(num, 64)
	scale := map[string]float64{"s": 1e9, "ms": 1e6, "µs": 1e3, "ns": 1}[unit]
	if err != nil || scale == 0 {
		t.Fatalf("duration %q", s)
	}
	return time.Duration(math.Round(f * scale))
}

// TestLessonTextsMatchRuns ties the numbers in each lesson's "What to
// watch" and "What it shows" to its run: every phrase below is written
// from the run's own numbers and must appear in the texts, word for word.
// (Lesson 1's text said 20 per second for 5 seconds, 100 requests, where
// the run sends 101; lesson 2's one pair of bursts was two, 40 requests;
// lesson 6's last admitted request waits 1 s, not 2 s.)
func TestLessonTextsMatchRuns(t *testing.T) {
	claims := map[string]func(Lesson, Result) []string{
		"burst-vs-rate": func(l Lesson, r Result) []string {
			h := labRecords(t, l)
			perSec := func(lane int, s time.Duration) (admitted, sent int) {
				for _, rec := range h[lane] {
					if rec.At.Truncate(time.Second) == s {
						sent++
						if rec.Allowed {
							admitted++
						}
					}
				}
				return
			}
			first, firstSent := perSec(0, 0)
			steady, _ := perSec(0, time.Second)
			for lane := range 2 {
				for s := time.Second; s < l.Until; s += time.Second {
					if a, _ := perSec(lane, s); a != steady {
						t.Errorf("lane %d second %v: %d admitted; want the steady %d", lane+1, s, a, steady)
					}
				}
			}
			last, _ := perSec(0, l.Until)
			if b, _ := perSec(1, l.Until); b != last {
				t.Errorf("at %v: lanes admit %d and %d", l.Until, last, b)
			}
			n := len(h[0])
			return []string{
				fmt.Sprintf("%v requests per second, one every %s", l.Setup.Clients[0].Pattern.Rate, units.FormatDuration(h[0][1].At-h[0][0].At)),
				fmt.Sprintf("from %s to %s, both included: %d requests", units.FormatDuration(h[0][0].At), units.FormatDuration(h[0][n-1].At), n),
				fmt.Sprintf("%d of the first %d requests pass within one second", first, firstSent),
				fmt.Sprintf("both lanes admit the rate, %d per second (and %d more at %s)", steady, last, units.FormatDuration(l.Until)),
				fmt.Sprintf("%d in all with a burst of 10, %d with a burst of 1", r.Lanes[0].Allowed, r.Lanes[1].Allowed),
			}
		},
		"boundary-burst": func(l Lesson, r Result) []string {
			h := labRecords(t, l)
			at := map[time.Duration]int{}
			var instants []time.Duration
			for _, rec := range h[0] {
				if at[rec.At] == 0 {
					instants = append(instants, rec.At)
				}
				at[rec.At]++
			}
			if len(instants) != 2 {
				t.Errorf("requests at %v; want one pair of bursts", instants)
				return nil
			}
			fw, log, sc := r.Lanes[0], r.Lanes[1], r.Lanes[2]
			if limit := l.Setup.Lanes[0].Config.Limit; fw.Allowed != 2*int64(limit) {
				t.Errorf("fixed window admits %d; want twice the limit of %d", fw.Allowed, limit)
			}
			return []string{
				fmt.Sprintf("Mallory sends %d requests %s before a window boundary (at %s) and %d more at the boundary (at %s): %d requests",
					at[instants[0]], units.FormatDuration(instants[1]-instants[0]), secText(instants[0]), at[instants[1]], secText(instants[1]), len(h[0])),
				fmt.Sprintf("The fixed window admits both bursts, all %d within %s", fw.Allowed, units.FormatDuration(instants[1]-instants[0])),
				fmt.Sprintf("log admits %d and denies %d", log.Allowed, log.Denied),
				fmt.Sprintf("the sliding window counter admits %d here too", sc.Allowed),
			}
		},
		"monotonic-clock": func(l Lesson, r Result) []string {
			c := l.Setup.Lanes[0].Config
			set := 0
			for i, row := range r.Rows {
				if row[0] == "4 s" {
					set = i
				}
			}
			before, after := r.Rows[set-1], r.Rows[set]
			if !strings.HasPrefix(before[4], "denied, ") {
				t.Errorf("the request before the set-back: %q; want denied", before[4])
			}
			stallAt := time.Duration(r.f("stall.at"))
			return []string{
				fmt.Sprintf("One client sends %v requests per second for %s (%d requests)", l.Setup.Clients[0].Pattern.Rate, units.FormatDuration(l.Until), len(r.Rows)),
				fmt.Sprintf("(%v per second, burst %d)", c.Rate, c.Burst),
				fmt.Sprintf("At %s the wall clock is set back %s", after[0], units.FormatDuration(parseDur(t, after[0])-parseDur(t, after[1]))),
				fmt.Sprintf("Here that is %s, when the bucket was empty: the request at %s saw %s tokens but was denied",
					units.FormatDuration(stallAt), before[0], strings.TrimSuffix(strings.TrimPrefix(before[4], "denied, "), " left")),
				fmt.Sprintf("until the wall clock is back past %s every request finds the bucket as it was at %s, %s",
					units.FormatDuration(stallAt), units.FormatDuration(stallAt), strings.TrimSuffix(strings.TrimPrefix(after[4], "denied, "), " (evaluated at "+units.FormatDuration(stallAt)+")")),
			}
		},
		"per-client-eviction": func(l Lesson, r Result) []string {
			if r.f("mallory.naive")-r.f("mallory.keyed") != 2 {
				t.Errorf("naive %d, keyed %d: want two unearned", r.f("mallory.naive"), r.f("mallory.keyed"))
			}
			return []string{
				fmt.Sprintf("%d,%03d clients each send one request", evictClients/1000, evictClients%1000),
				fmt.Sprintf("idle TTL %s", units.FormatDuration(evictTTL)),
				fmt.Sprintf("at 3 s she has %d tokens and gets %d", r.f("mallory.keyed"), r.f("mallory.keyed")),
				fmt.Sprintf("a fresh bucket: %d, two of them unearned", r.f("mallory.naive")),
			}
		},
		"lock-design": func(l Lesson, r Result) []string {
			b := RecordedLockBench
			clients := map[string]bool{}
			for _, row := range r.Rows {
				clients[row[0]] = true
			}
			if r.f("race.naive") != 2*5 || r.f("race.keyed") != 5 {
				t.Errorf("race: %d and %d admitted; want twice the burst of 5, and 5", r.f("race.naive"), r.f("race.keyed"))
			}
			return []string{
				fmt.Sprintf("Three waves of %d simultaneous decisions (%d clients, c1 sends two) on the %d cores", len(r.Rows)/3, len(clients), b.Cores),
				fmt.Sprintf("(%s under one global lock, %s with limiter.Keyed's lock per key)", units.FormatDuration(b.GlobalLock1), units.FormatDuration(b.PerKey1)),
				fmt.Sprintf("(%d → %d ns per decision)", b.GlobalLock1.Nanoseconds(), b.GlobalLock2.Nanoseconds()),
				fmt.Sprintf("got faster (%d → %d ns)", b.PerKey1.Nanoseconds(), b.PerKey2.Nanoseconds()),
			}
		},
		"queue-vs-meter": func(l Lesson, r Result) []string {
			h := labRecords(t, l)
			for i := range h[0] {
				if h[0][i].Allowed != h[1][i].Allowed {
					t.Errorf("request %d: the lanes decide differently", i+1)
				}
			}
			var first, firstSent, later, laterSent, last21 int
			minD, maxD := time.Duration(math.MaxInt64), time.Duration(0)
			for i, rec := range h[0] {
				if rec.At == 0 {
					firstSent++
					if rec.Allowed {
						first++
						last21 = i + 1
					}
					continue
				}
				laterSent++
				if rec.Allowed {
					later++
					minD, maxD = min(minD, rec.Delay), max(maxD, rec.Delay)
				}
			}
			if r.Lanes[0].MaxDelay != h[0][last21-1].Delay {
				t.Errorf("longest wait %v; request %d waits %v", r.Lanes[0].MaxDelay, last21, h[0][last21-1].Delay)
			}
			return []string{
				fmt.Sprintf("fires %d requests at once, then %d more at %s", firstSent, laterSent, secText(l.Script[1].At)),
				fmt.Sprintf("%d of %d pass", first, firstSent),
				fmt.Sprintf("the other %d are rejected", firstSent-first),
				fmt.Sprintf("drained enough for all %d", later),
				fmt.Sprintf("the %dst request (the last of the burst of %d to be admitted) waits %s", last21, firstSent, units.FormatDuration(h[0][last21-1].Delay)),
				fmt.Sprintf("(the %d at %s wait %s to %s)", later, secText(l.Script[1].At), secText(minD), secText(maxD)),
			}
		},
		"many-gateways": func(l Lesson, r Result) []string {
			secs := int64(l.Until / time.Second)
			for i, row := range r.Rows[:secs] {
				if row[2] != strconv.FormatInt(r.f("local")/secs, 10) || row[3] != strconv.FormatInt(r.f("shared")/secs, 10) ||
					row[4] != strconv.FormatInt(r.f("race")/secs, 10) {
					t.Errorf("second %d: %v; want the same every second", i, row)
				}
			}
			evs, err := events(l.Setup, l.Until)
			if err != nil {
				t.Fatal(err)
			}
			limit := int64(l.Setup.Lanes[0].Config.Limit)
			rtt := time.Duration(r.f("latency"))
			return []string{
				fmt.Sprintf("A client sends %d requests per second", r.f("offered")/secs),
				fmt.Sprintf("to %d gateway instances (round robin), for %s: %d requests", gateways, units.FormatDuration(l.Until), r.f("offered")),
				fmt.Sprintf("The limit is %d per second (fixed window), %d in %s", limit, r.f("limit"), units.FormatDuration(l.Until)),
				fmt.Sprintf("%s away (a %s round trip)", units.FormatDuration(rtt/2), units.FormatDuration(rtt)),
				fmt.Sprintf("whose clocks are %s off", skewText()),
				fmt.Sprintf("admits %d per second: %d per second in total, %d× the limit", r.f("local")/secs/gateways, r.f("local")/secs, r.f("local")/r.f("shared")),
				fmt.Sprintf("when it arrives, %s after it was sent, and admits exactly %d per second; the price is the %s round trip",
					units.FormatDuration(rtt/2), r.f("shared")/secs, units.FormatDuration(rtt)),
				fmt.Sprintf("The next request reads %.2f ms after it", float64(evs[1].At-evs[0].At)/1e6),
				fmt.Sprintf("%d per second pass, %d in %s", r.f("race")/secs, r.f("race"), units.FormatDuration(l.Until)),
				fmt.Sprintf("window boundary, %s early in real time", units.FormatDuration(gatewaySkew[gateways-1])),
				fmt.Sprintf("stamped −%s", units.FormatDuration(-gatewaySkew[0])),
				fmt.Sprintf("%s pass in the first second, %d in %s", r.Rows[0][5], r.f("skew"), units.FormatDuration(l.Until)),
				fmt.Sprintf("skew cannot matter: %d", r.f("skew.store")),
				fmt.Sprintf("(each instance ⌊%d ÷ %d⌋ = %d)", limit, gateways, r.f("split")/secs/gateways),
			}
		},
	}
	for _, l := range Lessons() {
		claim := claims[l.ID]
		if claim == nil {
			t.Errorf("lesson %s: no claims checked", l.ID)
			continue
		}
		r, err := l.Run()
		if err != nil {
			t.Fatal(err)
		}
		text := l.Watch + " " + l.Shows
		for _, c := range claim(l, r) {
			if !strings.Contains(text, c) {
				t.Errorf("lesson %s: the texts do not say %q:\nwatch: %s\nshows: %s", l.ID, c, l.Watch, l.Shows)
			}
		}
	}
}
