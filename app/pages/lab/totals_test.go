package lab

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/limiter"
)

// snapTotalsByName is snapTotals as it was: a name lookup per client and
// lane, and a selection pass per row.
func snapTotalsByName(l *sim.Lab) *totalsSnap {
	s := &totalsSnap{Clients: len(l.Clients())}
	lanes := l.Lanes()
	for i, ln := range lanes {
		s.Lanes = append(s.Lanes, "#"+strconv.Itoa(i+1)+" "+ln.Spec().Config.Kind.Name())
		s.Totals = append(s.Totals, ln.Total())
	}
	type scored struct {
		name          string
		denied, total int64
	}
	var all []scored
	topDenied := make([]int64, len(lanes))
	top := make([]string, len(lanes))
	for _, name := range l.Clients() {
		var sc scored
		sc.name = name
		for i, ln := range lanes {
			c := ln.Client(name)
			sc.denied += c.Denied
			sc.total += c.Allowed + c.Denied
			if c.Denied > topDenied[i] {
				topDenied[i], top[i] = c.Denied, name
			}
		}
		all = append(all, sc)
	}
	// Partial selection of the most denied (then busiest) clients.
	less := func(a, b scored) bool {
		if a.denied != b.denied {
			return a.denied > b.denied
		}
		if a.total != b.total {
			return a.total > b.total
		}
		return a.name < b.name
	}
	for k := 0; k < len(all) && k < maxTotalsRows; k++ {
		best := k
		for j := k + 1; j < len(all); j++ {
			if less(all[j], all[best]) {
				best = j
			}
		}
		all[k], all[best] = all[best], all[k]
		row := totalsRow{Client: all[k].name}
		for _, ln := range lanes {
			row.Cells = append(row.Cells, ln.Client(all[k].name))
		}
		s.Rows = append(s.Rows, row)
	}
	for i := range lanes {
		if top[i] == "" {
			s.Top = append(s.Top, totalsTop{Text: "nobody denied"})
		} else {
			c := lanes[i].Client(top[i])
			s.Top = append(s.Top, totalsTop{top[i], ": " + strconv.FormatInt(c.Denied, 10) + " of " + strconv.FormatInt(c.Allowed+c.Denied, 10) + " denied"})
		}
	}
	return s
}

// TestSnapTotalsOnePass: the per-client table ranked in one pass by index
// is the one ranked by name lookups and selection: on the window-edge
// attack, the noisy neighbour (ties broken by name), and 5,000 trace
// clients with a few denied, each on lanes of every kind.
func TestSnapTotalsOnePass(t *testing.T) {
	var b strings.Builder
	b.WriteString("t_ms,client\n")
	for i := range 5000 {
		b.WriteString(strconv.Itoa(i/3) + ",c" + strconv.Itoa(i%4000) + "\n")
	}
	tr, err := sim.ParseTrace("t.csv", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var lanes []sim.LaneSpec
	for _, k := range limiter.Kinds {
		c, err := sim.SameBudget(k, 1, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		lanes = append(lanes, sim.LaneSpec{Config: c})
	}
	m := newLabModel()
	for _, c := range []struct {
		name  string
		setUp func(l *sim.Lab) error
	}{
		{"none yet", func(l *sim.Lab) error { return nil }},
		{"window edge", func(l *sim.Lab) error { return l.SetTraffic(m.edgeAttack(), 1) }},
		{"noisy neighbour", func(l *sim.Lab) error { return l.SetTraffic(sim.NoisyNeighbour(16, 3), 1) }},
		{"trace", func(l *sim.Lab) error { return l.SetTrace("", tr) }},
	} {
		s := sim.DefaultSetup()
		s.Lanes = lanes[:sim.MaxLanes]
		l, err := sim.New(s, nil, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.setUp(l); err != nil {
			t.Fatal(err)
		}
		if err := l.AdvanceTo(20 * time.Second); err != nil {
			t.Fatal(err)
		}
		got, want := snapTotals(l), snapTotalsByName(l)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: table\n%+v\nwant\n%+v", c.name, got, want)
		}
		if c.name != "none yet" && len(got.Rows) != maxTotalsRows && len(got.Rows) != len(l.Clients()) {
			t.Errorf("%s: %d rows", c.name, len(got.Rows))
		}
	}
}
