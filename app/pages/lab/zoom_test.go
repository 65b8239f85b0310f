package lab

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/uitest"
)

const ms = time.Millisecond

// edgeLanes is the lanes after the window-edge attack on the default lanes
// (fixed window, sliding window log, token bucket, 10 per 1 s) for 10 s.
func edgeLanes(t *testing.T) *labLanes {
	t.Helper()
	m := newLabModel()
	if !m.setClients("clients", m.edgeAttack()) {
		t.Fatal(m.errs)
	}
	m.lab.Clock().Pause()
	if err := m.lab.Step(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	return &labLanes{M: m}
}

// marksOf draws lane i's marks on axis a: the merged marks and the rungs,
// each as its path's subpaths ("M…").
func marksOf(v *labLanes, i int, a ui.Axis) (ok, no, okStack, noStack []string) {
	v.hist = v.M.lab.Lanes()[i].History(v.hist[:0])
	o, n, os, ns := v.markPaths(a)
	split := func(d string) []string {
		var out []string
		for _, p := range strings.Split(d, "M")[1:] {
			out = append(out, "M"+p)
		}
		return out
	}
	return split(o), split(n), split(os), split(ns)
}

// TestEdgeAttackStacks: zoomed to 0.980–1.010 s (30 ms, 1 ms = 20 units),
// the fixed window's 20 admitted requests are 20 rungs, 10 at x = 200 and
// 10 at x = 400, the bottom one first decided, 4 units apart; the sliding
// window log's second burst is 10 denied rungs. Unzoomed (0–10 s), the two
// bursts are still stacks, in adjacent columns.
func TestEdgeAttackStacks(t *testing.T) {
	v := edgeLanes(t)
	zoomed := ui.Axis{X0: 0, X1: laneW, From: 980 * ms, To: 1010 * ms}
	ok, no, okStack, noStack := marksOf(v, 0, zoomed)
	if len(ok) != 0 || len(no) != 0 || len(okStack) != 20 || len(noStack) != 0 {
		t.Fatalf("fixed window zoomed: %d ✓, %d ✕, %d allowed rungs, %d denied rungs; want 0, 0, 20, 0", len(ok), len(no), len(okStack), len(noStack))
	}
	for k, want := range map[int]string{0: "M196 52h8", 1: "M196 48h8", 9: "M196 16h8", 10: "M396 52h8", 19: "M396 16h8"} {
		if okStack[k] != want {
			t.Errorf("fixed window rung %d = %q, want %q", k, okStack[k], want)
		}
	}
	_, _, okStack, noStack = marksOf(v, 1, zoomed)
	if len(okStack) != 10 || len(noStack) != 10 || noStack[0] != "M396 52h8" {
		t.Errorf("sliding window log zoomed: %d allowed rungs, %d denied (first %q); want 10, 10, M396 52h8", len(okStack), len(noStack), noStack)
	}
	ok, no, okStack, _ = marksOf(v, 0, ui.Axis{X0: 0, X1: laneW, From: 0, To: 10 * time.Second})
	if len(ok) != 0 || len(no) != 0 || len(okStack) != 100 || okStack[0] != "M55.4 52h8" || okStack[10] != "M56 52h8" {
		t.Errorf("fixed window unzoomed: %d ✓, %d ✕, %d rungs (0: %q, 10: %q)", len(ok), len(no), len(okStack), okStack[0], okStack[10])
	}
	// The fixed window's boundary at 1 s is drawn at x = 400, the first
	// burst's rungs end left of it (196 + 8 = 204).
	st := v.M.lab.Lanes()[0].State(v.M.lab.Now(), v.M.lab.Focus())
	if got := string(windowLines(nil, st, zoomed)); got != "M400 2V48" {
		t.Errorf("window boundaries zoomed: %q, want M400 2V48", got)
	}
}

// TestStacksMergeMixedColumns: a column whose bursts are taller than the
// strip is one mark per kind, with its count.
func TestStacksMergeMixedColumns(t *testing.T) {
	v := edgeLanes(t)
	// 30 s on 600 units, 20 units a second: the bursts at b − 10 ms and b
	// are at x = 20b − 0.2 and 20b, in one column of 3 units for b = 1, 5
	// and 7 s (one ✓ each), in two for b = 3 and 9 s (four stacks of 10).
	ok, _, okStack, _ := marksOf(v, 0, ui.Axis{X0: 0, X1: laneW, From: 0, To: 30 * time.Second})
	if got := strings.Join(ok, " "); len(okStack) != 40 || got != "M16 22l2.5 3.5l5-7 M97 22l2.5 3.5l5-7 M136 22l2.5 3.5l5-7" {
		t.Errorf("0–30 s: %d rungs, ✓ %q; want 40 and the columns 6, 33 and 46", len(okStack), got)
	}
	// Each of those columns holds two bursts of 10, too tall for one stack:
	// its count says 20.
	if fmt.Sprint(v.counts) != "[6 33 46]" || v.okCol[6] != 20 || v.okCol[33] != 20 || v.okCol[46] != 20 {
		t.Errorf("counted columns %v (✓ %d, %d, %d); want [6 33 46], 20 each", v.counts, v.okCol[6], v.okCol[33], v.okCol[46])
	}
}

// TestLabZoomWindow: the buttons' zoom halves the lanes' window about its
// middle (or the selected request), down to 30 ms at 600 px; Fit, or
// zooming out to the whole axis, follows the clock again.
func TestLabZoomWindow(t *testing.T) {
	v := edgeLanes(t)
	l := v.M.lab
	if w := v.M.zoom.window(l); w.From != 500*ms || w.To != 10500*ms || !w.Full() {
		t.Fatalf("unzoomed: [%v, %v), want [0.5s, 10.5s)", w.From, w.To)
	}
	v.ApplyZoom(ui.ZoomAction{Factor: ui.ZoomStep}, v.keyAnchor())
	if w := v.M.zoom.window(l); w.From != 3*time.Second || w.To != 8*time.Second {
		t.Errorf("zoomed in once: [%v, %v), want [3s, 8s)", w.From, w.To)
	}
	for range 12 {
		v.ApplyZoom(ui.ZoomAction{Factor: ui.ZoomStep}, v.keyAnchor())
	}
	if w := v.M.zoom.window(l); w.From != 5485*ms || w.To != 5515*ms {
		t.Errorf("zoomed in 13 times: [%v, %v), want [5.485s, 5.515s)", w.From, w.To)
	}
	v.ApplyZoom(ui.ZoomAction{Pan: -0.5}, 0)
	if w := v.M.zoom.window(l); w.From != 5470*ms {
		t.Errorf("panned half a span left: from %v, want 5.47s", w.From)
	}
	v.ApplyZoom(ui.ZoomAction{Fit: true}, 0)
	if v.M.zoom.win != nil {
		t.Error("Fit: still zoomed")
	}
	v.ApplyZoom(ui.ZoomAction{Factor: ui.ZoomStep}, 0.5)
	v.ApplyZoom(ui.ZoomAction{Factor: 1 / ui.ZoomStep}, 0.5)
	if v.M.zoom.win != nil {
		t.Error("zoomed in and out again: still zoomed, want the axis following the clock")
	}
	// With the first request of the fixed window lane selected (0.99 s,
	// 4.9 % from the left edge), the buttons zoom about it: 9 halvings
	// reach 30 ms with 0.99 s and 1 s in view.
	_, ln, hist, _ := v.M.stripLane(0)
	v.M.sel = labSel{lane: 0, g: histBase(ln, hist)}
	for range 9 {
		v.ApplyZoom(ui.ZoomAction{Factor: ui.ZoomStep}, v.keyAnchor())
	}
	if w := v.M.zoom.window(l); w.From != 988530001 || w.To != 1018530001 {
		t.Errorf("zoomed about 0.99 s: [%d, %d) ns, want [988530001, 1018530001)", w.From, w.To)
	}
	// A narrower chart on screen zooms less deep: 390 px, 19.5 ms.
	v.M.zoom.widthPx = 390
	v.ApplyZoom(ui.ZoomAction{Factor: 1e-9}, 0.5)
	if w := v.M.zoom.window(l); w.Span() != 19500*time.Microsecond {
		t.Errorf("at 390 px: span %v, want 19.5ms", w.Span())
	}
}

// TestBurstsUnzoomedSayHowMany: unzoomed (0–10 s, a column is 50 ms), a
// burst of 10 at 1.010 s in the column of a request at 1.000 s is a stack
// of 11 rungs, as zoomed; a burst of 25 at 5 s (10 allowed, 15 denied) is
// one ✓ and one ✕ with their counts, ×10 and ×15; requests at several
// instants without a burst stay one mark without a count.
func TestBurstsUnzoomedSayHowMany(t *testing.T) {
	v := &labLanes{M: newLabModel()}
	rec := func(at time.Duration, allowed bool, n int) {
		for range n {
			v.hist = append(v.hist, sim.Record{At: at, Allowed: allowed, N: 1})
		}
	}
	rec(1000*ms, true, 1)
	rec(1010*ms, true, 10)
	rec(3000*ms, true, 1)
	rec(3020*ms, false, 1)
	rec(5000*ms, true, 10)
	rec(5000*ms, false, 15)
	a := ui.Axis{X0: 0, X1: laneW, From: 0, To: 10 * time.Second}
	ok, no, okStack, noStack := v.markPaths(a)
	if ok != "M178 22l2.5 3.5l5-7M298 22l2.5 3.5l5-7" || no != "M178.5 37l6 6m0-6l-6 6M298.5 37l6 6m0-6l-6 6" {
		t.Errorf("marks: ✓ %q, ✕ %q", ok, no)
	}
	if n := strings.Count(okStack, "M"); n != 11 || noStack != "" || !strings.HasPrefix(okStack, "M56 52h8M56 48h8") {
		t.Errorf("the burst at 1.010 s with 1.000 s: %d rungs %q, denied %q; want 11 at x = 56 (1.000 s)", n, okStack, noStack)
	}
	if x, y, ok := v.rungAt(5, a); !ok || x != 60 || y != 32 {
		t.Errorf("rung of the 6th request: (%v, %v, %v), want (60, 32, true): the stack's x", x, y, ok)
	}
	// Label by label: the two labels in order, each with its attributes.
	got := strings.ReplaceAll(uitest.Mount(t, v.countLabels("lane-0")), "\n", "")
	if !strings.HasPrefix(got, `<g id="lane-0-counts"><text `) || !strings.HasSuffix(got, `</text></g>`) {
		t.Errorf("counts %s: want a group lane-0-counts of text labels", got)
	}
	labels := strings.Split(got, "<text ")[1:]
	if len(labels) != 2 {
		t.Fatalf("counts %s: %d labels, want 2", got, len(labels))
	}
	for i, want := range [][]string{
		{`x="307.5"`, `y="22.0"`, `fill="#1a7f37"`, `>×10</text>`},
		{`x="307.5"`, `y="40.0"`, `fill="#cf222e"`, `>×15</text>`},
	} {
		for _, w := range want {
			if !strings.Contains(labels[i], w) {
				t.Errorf("label %d <text %s: no %s", i+1, labels[i], w)
			}
		}
	}
}
