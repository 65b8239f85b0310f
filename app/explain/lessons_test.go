package explain

import (
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

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
	runLesson(t, "boundary-burst", "fixed window: 20 within 1 s, in [900 ms, 1.9 s) (2 × the limit of 10); sliding window log: 10; "+
		"sliding window counter: 10. Memory per client: the log up to 10 instants, the counter 2 counts.")
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
	r := runLesson(t, "many-gateways", "in 3 s, 180 offered: 90 admitted with a local limit per instance (3× the limit), "+
		"30 with one shared limiter, 27 with the limit split per instance. (Simulated.)")
	want := [][]string{{"0 s", "60", "30", "10", "9"}, {"1 s", "60", "30", "10", "9"}, {"2 s", "60", "30", "10", "9"}}
	for i, row := range want {
		for j := range row {
			if r.Rows[i][j] != row[j] {
				t.Errorf("row %d: %v; want %v", i, r.Rows[i], row)
				break
			}
		}
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
