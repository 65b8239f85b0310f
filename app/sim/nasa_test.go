package sim

import (
	"os"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

func loadNASA(t testing.TB) *Trace {
	f, err := os.Open("../../web/data/nasa-1995-08-01.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := ParseCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	tr.Name = "nasa"
	return tr
}

func TestNASATrace(t *testing.T) {
	tr := loadNASA(t)
	if len(tr.Events) != 20000 || len(tr.Clients) != 1656 || tr.End() != 39568*time.Second {
		t.Fatalf("trace: %d requests, %d clients, ends at %v; want 20000, 1656, 10h59m28s", len(tr.Events), len(tr.Clients), tr.End())
	}
	if e := tr.Events[1]; e != (Event{At: 6 * time.Second, Client: "c0002", N: 1}) {
		t.Errorf("second request = %+v", e)
	}
}

// TestNASATotals replays the built-in trace with each client limited to 5
// requests per 10 s, in all six kinds, and checks the lab's per-strategy
// totals against totals computed here by driving limiter.Keyed directly, and
// (fixed window, sliding window log) against a hand-written count that
// uses no limiter code at all.
func TestNASATotals(t *testing.T) {
	tr := loadNASA(t)
	const limit, window = 5, 10 * time.Second
	lab, err := New(Setup{Lanes: allKinds(t, limit, window), Clients: []Client{}, Speed: 1, Worst: window, Trace: "nasa"}, tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.RunTrace(); err != nil {
		t.Fatal(err)
	}
	if lab.Processed() != 20000 {
		t.Fatalf("processed %d requests; want 20000", lab.Processed())
	}
	totals := map[limiter.Kind]Counts{}
	for i, k := range limiter.Kinds {
		cfg, _ := SameBudget(k, limit, window)
		keyed, err := limiter.NewKeyed(func(string) (limiter.Strategy, error) { return limiter.New(cfg) }, limiter.KeyedOptions{SweepEvery: -1})
		if err != nil {
			t.Fatal(err)
		}
		var want Counts
		perClient := map[string]Counts{}
		for _, e := range tr.Events {
			d, err := keyed.AllowNAt(e.At, e.Client, e.N)
			if err != nil {
				t.Fatal(err)
			}
			c := perClient[e.Client]
			if d.Allowed {
				want.Allowed++
				c.Allowed++
			} else {
				want.Denied++
				c.Denied++
			}
			perClient[e.Client] = c
		}
		ln := lab.Lanes()[i]
		if got := ln.Total(); got != want {
			t.Errorf("%s: lab %+v; limiter.Keyed %+v", k, got, want)
		}
		for client, c := range perClient {
			if got := ln.Client(client); got != c {
				t.Errorf("%s, %s: lab %+v; limiter.Keyed %+v", k, client, got, c)
			}
		}
		totals[k] = want
		t.Logf("%-24s allowed %5d denied %5d", k, want.Allowed, want.Denied)
	}
	// Decision-equivalent strategies (semantics.md): token bucket, GCRA and
	// leaky bucket (leak interval 2 s = 10 s / 5, exact) agree.
	if totals[limiter.KindGCRA] != totals[limiter.KindTokenBucket] || totals[limiter.KindLeakyBucket] != totals[limiter.KindTokenBucket] {
		t.Errorf("token bucket, GCRA and leaky bucket differ: %v", totals)
	}
	// Hand-written references.
	fixed := map[string][2]int64{} // client → window index, count
	logs := map[string][]Instant{}
	var fw, swl Counts
	for _, e := range tr.Events {
		idx := int64(e.At / window)
		w := fixed[e.Client]
		if w[0] != idx {
			w = [2]int64{idx, 0}
		}
		if w[1]+1 <= limit {
			w[1]++
			fw.Allowed++
		} else {
			fw.Denied++
		}
		fixed[e.Client] = w
		l := logs[e.Client]
		for len(l) > 0 && e.At-l[0] >= window {
			l = l[1:]
		}
		if len(l)+1 <= limit {
			l = append(l, e.At)
			swl.Allowed++
		} else {
			swl.Denied++
		}
		logs[e.Client] = l
	}
	if totals[limiter.KindFixedWindow] != fw || totals[limiter.KindSlidingWindowLog] != swl {
		t.Errorf("hand-written fixed window %+v, sliding log %+v; limiter %+v, %+v", fw, swl, totals[limiter.KindFixedWindow], totals[limiter.KindSlidingWindowLog])
	}
	for k, c := range totals {
		if c.Allowed+c.Denied != 20000 {
			t.Errorf("%s: %d decisions; want 20000", k, c.Allowed+c.Denied)
		}
	}
	// Incremental replay up to an instant agrees with the full replay's
	// prefix.
	half, _ := lab.At(tr.End() / 2)
	n := 0
	for _, e := range tr.Events {
		if e.At <= tr.End()/2 {
			n++
		}
	}
	if half.Processed() != n {
		t.Errorf("replay to %v processed %d; want %d", tr.End()/2, half.Processed(), n)
	}
}

// BenchmarkNASAReplay6Lanes replays the NASA trace through six lanes (one
// per kind, each client 5 per 10 s) as fast as possible.
func BenchmarkNASAReplay6Lanes(b *testing.B) {
	tr := loadNASA(b)
	s := Setup{Lanes: allKinds(b, 5, 10*time.Second), Clients: []Client{}, Speed: 1, Worst: 10 * time.Second}
	b.ReportAllocs()
	for b.Loop() {
		lab, err := New(s, tr, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := lab.RunTrace(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(tr.Events))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(6*float64(len(tr.Events))*float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
}
