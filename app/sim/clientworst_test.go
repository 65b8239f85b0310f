package sim

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// traceOf builds a trace from "client@ms" requests of 1 unit, in order.
func traceOf(reqs ...string) *Trace {
	t := &Trace{Name: "test"}
	seen := map[string]bool{}
	for _, r := range reqs {
		var name string
		var at int
		if _, err := fmt.Sscanf(r, "%1s%d", &name, &at); err != nil {
			panic(r)
		}
		t.Events = append(t.Events, Event{At: Instant(at) * ms, Client: name, N: 1})
		if !seen[name] {
			seen[name] = true
			t.Clients = append(t.Clients, name)
		}
	}
	return t
}

// runTrace replays tr through one lane of c, worst-case window w, to its end.
func runTrace(t *testing.T, c limiter.Config, w time.Duration, tr *Trace) *Lane {
	t.Helper()
	lab, err := New(Setup{Lanes: []LaneSpec{{Config: c}}, Clients: []Client{}, Speed: 1, Worst: w}, tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.RunTrace(); err != nil {
		t.Fatal(err)
	}
	return lab.Lanes()[0]
}

// TestClientWorstSmall: on small traces (clients a, b, c; one letter, then
// the instant in ms), the per-client worst case counts one client's
// admissions, the lane's worst case every client's.
func TestClientWorstSmall(t *testing.T) {
	open, _ := SameBudget(limiter.KindFixedWindow, 1000, time.Second) // admits everything here
	fw2, _ := SameBudget(limiter.KindFixedWindow, 2, time.Second)
	cases := []struct {
		name        string
		c           limiter.Config
		w           time.Duration
		reqs        []string
		client, all string // "units client start–end", "units start–end" (ms)
	}{
		{"nothing admitted", open, time.Second, nil, "0  0–0", "0 0–0"},
		{"one client", open, time.Second, []string{"a0", "a500", "a999", "a1000"}, "3 a 0–1000", "3 0–1000"},
		{"two clients interleaved", open, time.Second,
			[]string{"a0", "b100", "a200", "b300", "b400", "a1150", "b1200"},
			"3 b 100–1100", "5 0–1000"},
		// a's three (0, 10, 20) come first; b's three (30, 40, 50) tie and
		// keep a, the first to reach 3.
		{"tie keeps the first", open, time.Second,
			[]string{"a0", "a10", "a20", "b30", "b40", "b50"}, "3 a 0–1000", "6 0–1000"},
		// 2 per 1 s fixed window: a gets 4 across the boundary at 1 s, all
		// clients 6 (a's 4 and b's 2 at 1.5 s).
		{"fixed window edge", fw2, time.Second,
			[]string{"a900", "a950", "a960", "a1000", "a1010", "a1020", "b1500", "b1600", "b1700"},
			"4 a 900–1900", "6 900–1900"},
		// A window of 100 ms: a's two at 0 and 99 are in one, b's three at
		// 500, 550, 599 in one, with a's at 590 four of all clients (a's
		// at 600 is in the next).
		{"short window", open, 100 * ms,
			[]string{"a0", "a99", "a100", "b500", "b550", "a590", "b599", "a600"},
			"3 b 500–600", "4 500–600"},
		// The same client twice at one instant counts twice.
		{"same instant", open, time.Second, []string{"c5", "c5", "a5", "c5"}, "3 c 5–1005", "4 5–1005"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ln := runTrace(t, tc.c, tc.w, traceOf(tc.reqs...))
			cw, all := ln.ClientWorst(), ln.Worst()
			if got := fmt.Sprintf("%d %s %d–%d", cw.Units, cw.Client, cw.Start/ms, cw.End/ms); got != tc.client {
				t.Errorf("one client: %q; want %q", got, tc.client)
			}
			if cw.Window != tc.w {
				t.Errorf("one client's window %v; want %v", cw.Window, tc.w)
			}
			if got := fmt.Sprintf("%d %d–%d", all.Units, all.Start/ms, all.End/ms); got != tc.all {
				t.Errorf("all clients: %q; want %q", got, tc.all)
			}
		})
	}
}

// bruteClientWorst is the most admitted units of one client in any window
// [s, s+w), s one of its admissions, by trying every s: an independent
// reference for the lane's incremental count.
func bruteClientWorst(adm map[string][]Admission, w time.Duration) (int64, map[string]bool) {
	var best int64
	who := map[string]bool{}
	for client, as := range adm {
		for _, s := range as {
			var n int64
			for _, a := range as {
				if a.At >= s.At && a.At < s.At+w {
					n += a.Units
				}
			}
			switch {
			case n > best:
				best, who = n, map[string]bool{client: true}
			case n == best:
				who[client] = true
			}
		}
	}
	return best, who
}

// TestClientWorstNASA replays the NASA trace with every client limited to
// 20 requests per minute, worst-case window 1 min, in all six kinds: the
// all-clients figure (what the lab showed alone: 166 in 1 min) is far above
// the limit, while the most one client got through is the limit for the
// sliding window log and up to burst + rate × 1 min (28 of 40) for a token
// bucket, or twice the limit across a fixed window's edge. Each figure is
// checked against a brute-force count over the admitted requests.
func TestClientWorstNASA(t *testing.T) {
	tr := loadNASA(t)
	lab, err := New(Setup{Lanes: allKinds(t, 20, time.Minute), Clients: []Client{}, Speed: 1, Worst: time.Minute, Trace: "nasa"}, tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	adm := make([]map[string][]Admission, len(lab.Lanes()))
	for i := range adm {
		adm[i] = map[string][]Admission{}
	}
	lab.OnDecision = func(i int, r Record) {
		if r.Allowed {
			adm[i][r.Client] = append(adm[i][r.Client], Admission{r.At, int64(r.N)})
		}
	}
	if err := lab.RunTrace(); err != nil {
		t.Fatal(err)
	}
	bucket := "one client: 28 by c0557 at 18690–18750 s; all clients: 166 at 38640–38700 s"
	want := map[limiter.Kind]string{
		limiter.KindTokenBucket:          bucket,
		limiter.KindGCRA:                 bucket,
		limiter.KindLeakyBucket:          bucket,
		limiter.KindFixedWindow:          bucket,
		limiter.KindSlidingWindowLog:     "one client: 20 by c0557 at 18690–18750 s; all clients: 163 at 38640–38700 s",
		limiter.KindSlidingWindowCounter: "one client: 26 by c0557 at 18690–18750 s; all clients: 164 at 38640–38700 s",
	}
	for i, ln := range lab.Lanes() {
		k := ln.Spec().Config.Kind
		cw, all := ln.ClientWorst(), ln.Worst()
		got := fmt.Sprintf("one client: %d by %s at %d–%d s; all clients: %d at %d–%d s",
			cw.Units, cw.Client, cw.Start/time.Second, cw.End/time.Second, all.Units, all.Start/time.Second, all.End/time.Second)
		if got != want[k] {
			t.Errorf("%s: %s; want %s", k, got, want[k])
		}
		if cw.Start%time.Second != 0 || all.Start%time.Second != 0 {
			t.Errorf("%s: stretches start at %v and %v; want whole seconds (the trace's)", k, cw.Start, all.Start)
		}
		units, who := bruteClientWorst(adm[i], time.Minute)
		if cw.Units != units || !who[cw.Client] {
			t.Errorf("%s: one client %d by %s; brute force %d by %v", k, cw.Units, cw.Client, units, who)
		}
		if ref := WorstCaseOf(mergedAdmissions(adm[i]), time.Minute); ref != all {
			t.Errorf("%s: all clients %+v; WorstCaseOf %+v", k, all, ref)
		}
	}
}

// mergedAdmissions is every client's admissions in time order, as
// WorstCaseOf wants them.
func mergedAdmissions(adm map[string][]Admission) []Admission {
	var all []Admission
	for _, as := range adm {
		all = append(all, as...)
	}
	slices.SortStableFunc(all, func(a, b Admission) int { return cmp.Compare(a.At, b.At) })
	return all
}

// TestAllClients: the setup's clients first (those that only click too),
// then the others that sent, then the trace's still to come; a new trace
// starts the run over (the click is gone with it).
func TestAllClients(t *testing.T) {
	tr := traceOf("b0", "c10", "a20", "d30")
	fw, _ := SameBudget(limiter.KindFixedWindow, 10, time.Second)
	lab, err := New(Setup{Lanes: []LaneSpec{{Config: fw}}, Clients: []Client{
		{Name: "z", Pattern: Pattern{Kind: PatternNone}, Weight: 1},
		{Name: "a", Pattern: Pattern{Kind: PatternNone}, Weight: 1},
	}, Speed: 1, Worst: time.Second}, tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(want string) {
		t.Helper()
		if got := strings.Join(lab.AllClients(), " "); got != want {
			t.Errorf("at %v: %q; want %q", lab.Now(), got, want)
		}
	}
	check("z a b c d")
	if err := lab.AdvanceTo(15 * ms); err != nil {
		t.Fatal(err)
	}
	if err := lab.Fire("q", 1); err != nil { // a click as a client of neither
		t.Fatal(err)
	}
	check("z a b c q d")
	if err := lab.RunTrace(); err != nil {
		t.Fatal(err)
	}
	check("z a b c q d")
	if err := lab.SetTrace("", nil); err != nil {
		t.Fatal(err)
	}
	check("z a")
}
