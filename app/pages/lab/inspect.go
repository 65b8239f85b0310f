package lab

import (
	"fmt"
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// labSel is the decision selected in a lane's strip: lane index and the
// decision's number in the run (0-based), which stays put while the
// lane's bounded history rolls. Lane -1 means none.
type labSel struct {
	lane int
	g    int64
}

// labInsp is the open inspector of the lab: the explanation worked out
// when it was opened (the clock is paused then, so it stays true).
type labInsp struct {
	lane         int // the lane it explains, which it is drawn under
	key, heading string
	exp          explain.Explanation
	err          string
}

// stripTolerance is how far (in screen pixels) a click may land from a
// decision's mark and still select it.
const stripTolerance = 6.0

// histBase returns the run number of ln's oldest remembered decision
// (every lane decides every request, so its totals count the run).
func histBase(ln *sim.Lane, hist []sim.Record) int64 {
	t := ln.Total()
	return t.Allowed + t.Denied - int64(len(hist))
}

// configFor returns the Config lane spec applies to client: its tier's,
// when the client has a tier the lane defines (as sim's lanes do).
func configFor(s sim.Setup, spec sim.LaneSpec, client string) limiter.Config {
	for _, c := range s.Clients {
		if c.Name == client && c.Tier != "" {
			if cfg, ok := spec.Tiers[c.Tier]; ok {
				return cfg
			}
		}
	}
	return spec.Config
}

// explainLabDecision works out decision k of lane i's history (as Lane.History
// returns it) with explain.Replay on that client's requests, rebuilt from
// the lab's source with Lab.EventsOf. Its index among the client's requests
// counts the same-instant requests by their order in the history (the
// oldest of them may have rolled out of it: they are counted as before).
func explainLabDecision(l *sim.Lab, lane int, hist []sim.Record, k int) (explain.Explanation, error) {
	if lane < 0 || lane >= len(l.Lanes()) {
		return explain.Explanation{}, fmt.Errorf("lane %d does not exist", lane+1)
	}
	if k < 0 || k >= len(hist) {
		return explain.Explanation{}, fmt.Errorf("lane %d: decision %d is no longer remembered", lane+1, k+1)
	}
	rec := hist[k]
	events, err := l.EventsOf(rec.Client, rec.At)
	if err != nil {
		return explain.Explanation{}, err
	}
	before, same := 0, 0 // the client's requests before rec.At, and at it
	for _, e := range events {
		if e.At < rec.At {
			before++
		} else {
			same++
		}
	}
	inHist, j := 0, 0 // the client's records at rec.At in the history, and rec's place among them
	for x, h := range hist {
		if h.At == rec.At && h.Client == rec.Client {
			if x < k {
				j++
			}
			inHist++
		}
	}
	s := l.Setup()
	spec := l.Lanes()[lane].Spec()
	if lane < len(s.Lanes) {
		spec = s.Lanes[lane]
	}
	return explain.Replay(configFor(s, spec, rec.Client), rec.Client, events, before+same-inHist+j)
}

// visibleRange returns the history indexes [lo, len(hist)) of the
// decisions on axis a (the history is in time order).
func visibleRange(hist []sim.Record, a ui.Axis) int {
	lo := len(hist)
	for lo > 0 && hist[lo-1].At >= a.From {
		lo--
	}
	return lo
}

// selIndex returns the history index of the selected decision in lane i,
// if it is selected and still remembered.
func (m *labModel) selIndex(i int, ln *sim.Lane, hist []sim.Record) (int, bool) {
	if m.sel.lane != i {
		return 0, false
	}
	k := m.sel.g - histBase(ln, hist)
	if k < 0 || k >= int64(len(hist)) {
		return 0, false
	}
	return int(k), true
}

// clearSel drops the selection and closes the inspector.
func (m *labModel) clearSel() {
	m.sel = labSel{lane: -1}
	m.insp = nil
}

// stripLane returns lane i of the shown lab and its history, or false.
func (m *labModel) stripLane(i int) (*sim.Lab, *sim.Lane, []sim.Record, bool) {
	l := m.shown()
	if i < 0 || i >= len(l.Lanes()) {
		return nil, nil, nil, false
	}
	ln := l.Lanes()[i]
	return l, ln, ln.History(nil), true
}

// openInspector explains the selected decision and pauses the clock, so
// the numbers stay put.
func (m *labModel) openInspector() {
	i := m.sel.lane
	l, ln, hist, ok := m.stripLane(i)
	if !ok {
		return
	}
	k, ok := m.selIndex(i, ln, hist)
	if !ok {
		return
	}
	m.stopRun() // "Run to end" too: the numbers stay put
	m.lab.Clock().Pause()
	rec := hist[k]
	exp, err := explainLabDecision(l, i, hist, k)
	m.insp = &labInsp{
		lane:    i,
		key:     strconv.Itoa(i) + "/" + strconv.FormatInt(m.sel.g, 10),
		heading: "Why: lane " + strconv.Itoa(i+1) + ", " + labDecisionLabel(m.sel.g, rec),
		exp:     exp,
		err:     units.ErrText(err),
	}
	m.changed()
}

// labDecisionLabel names decision g of the run: "request 3 (alice) at 1.20 s: denied".
func labDecisionLabel(g int64, rec sim.Record) string {
	return "request " + strconv.FormatInt(g+1, 10) + " (" + rec.Client + ") at " + units.TwoDecimals(rec.At) + ": " + explain.VerdictText(rec)
}

// onStripClick selects the decision nearest the click in lane i's strip
// (within stripTolerance pixels) and explains it. Everything is read at
// click time: the axis, the history and the element's size.
func (v *labLanes) onStripClick(i int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		m := v.M
		r := ctx.JSSrc().Call("getBoundingClientRect")
		w := r.Get("width").Float()
		if w <= 0 {
			return
		}
		scale := laneW / w // SVG units per pixel (the viewBox keeps its aspect ratio)
		x := (e.Get("clientX").Float() - r.Get("left").Float()) * scale
		y := (e.Get("clientY").Float() - r.Get("top").Float()) * scale
		l, ln, hist, ok := m.stripLane(i)
		if !ok || y > rateTop {
			return
		}
		a := v.M.zoom.axis(l)
		best := nearestDecision(hist, a, x, y, stripTolerance*scale)
		if best < 0 {
			return
		}
		m.sel = labSel{lane: i, g: histBase(ln, hist) + int64(best)}
		m.openInspector()
		v.focusInspector(ctx)
	}
}

// nearestDecision returns the history index of the decision drawn nearest
// the point (x, y) of the strip (SVG units), within tol along the axis, or
// -1. A click on the ✓ row prefers allowed decisions and one on the ✕ row
// denied ones (marks of one column are merged); of decisions at one
// instant, the first decided wins.
func nearestDecision(hist []sim.Record, a ui.Axis, x, y, tol float64) int {
	wantAllowed := y < (okY+noY)/2
	best, bestScore := -1, math.Inf(1)
	for k := visibleRange(hist, a); k < len(hist); k++ {
		d := math.Abs(a.X(hist[k].At) - x)
		if d > tol {
			continue
		}
		if hist[k].Allowed != wantAllowed {
			d += 2 * tol // the other row: only when this row has nothing near
		}
		if d < bestScore {
			best, bestScore = k, d
		}
	}
	return best
}

// onStripFocus selects lane i's newest decision when the strip is entered
// without a selection in it.
func (v *labLanes) onStripFocus(i int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		m := v.M
		_, ln, hist, ok := m.stripLane(i)
		if _, sel := m.selIndex(i, ln, hist); !ok || sel || len(hist) == 0 {
			return
		}
		m.sel = labSel{lane: i, g: histBase(ln, hist) + int64(len(hist)-1)}
		m.changed()
	}
}

// onStripKey: ←/→ move the selection between lane i's decisions on the
// axis, Home/End to the first shown and the newest, Enter explains the
// selected one, Escape closes the inspector.
func (v *labLanes) onStripKey(i int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		m := v.M
		if v.zoomKey(ctx, e, false) {
			return
		}
		key := e.Get("key").String()
		l, ln, hist, ok := m.stripLane(i)
		if !ok || len(hist) == 0 {
			return
		}
		base := histBase(ln, hist)
		k, sel := m.selIndex(i, ln, hist)
		if !sel {
			k = len(hist) - 1
		}
		lo := min(visibleRange(hist, v.M.zoom.axis(l)), len(hist)-1)
		switch key {
		case "ArrowLeft", "ArrowRight", "Home", "End":
			e.PreventDefault()
			switch {
			case key == "Home":
				k = lo
			case key == "End":
				k = len(hist) - 1
			case !sel:
			case key == "ArrowLeft":
				k--
			default:
				k++
			}
			k = min(max(k, lo), len(hist)-1)
			m.sel = labSel{lane: i, g: base + int64(k)}
			m.changed()
		case "Enter":
			e.PreventDefault()
			m.sel = labSel{lane: i, g: base + int64(k)}
			m.openInspector()
			v.focusInspector(ctx)
		case "Escape":
			if m.insp == nil {
				return
			}
			m.insp = nil
			m.changed()
		}
	}
}

// focusInspector brings the panel into view with its lane above it: when
// the panel does not show whole, the page scrolls the lane to the top, so
// the chart and as much of the panel as fits show together (it scrolled
// only the panel's heading into view, at the bottom edge). The focus stays
// on the chart, whose arrow keys move the selection.
func (v *labLanes) focusInspector(ctx app.Context) {
	lane := "lane-" + strconv.Itoa(v.M.insp.lane)
	ctx.Defer(func(app.Context) {
		panel, row := browser.ByID("lab-inspector"), browser.ByID(lane)
		if !panel.Truthy() || !row.Truthy() {
			return
		}
		r, h := panel.Call("getBoundingClientRect"), browser.InnerHeight()
		if top := row.Call("getBoundingClientRect").Get("top").Float(); top < 0 || r.Get("bottom").Float() > h {
			row.Call("scrollIntoView", map[string]any{"block": "start"})
		}
	})
}

// selMark draws the selected decision of lane i as one highlight ring, or
// nothing.
func (v *labLanes) selMark(id string, i int, ln *sim.Lane, hist []sim.Record, a ui.Axis) app.UI {
	k, ok := v.M.selIndex(i, ln, hist)
	if !ok || hist[k].At < a.From || hist[k].At > a.To {
		return app.Text("")
	}
	rec := hist[k]
	c := min(int(a.X(rec.At)/markCol), nCols-1)
	x := float64(c)*markCol + markCol/2 // the column the mark is drawn in
	y := okY
	if !rec.Allowed {
		y = noY
	}
	if sx, sy, ok := v.rungAt(k, a); ok {
		x, y = sx, sy
	}
	return ui.SVG("rect").ID(id+"-sel").Attr("x", ui.F1(min(max(x-6, 1), laneW-13))).Attr("y", ui.F1(y-7)).Attr("width", 12).Attr("height", 14).Attr("rx", 3).
		Attr("fill", "none").Attr("stroke", "#8250df").Attr("stroke-width", 2).
		DataSet("g", v.M.sel.g).DataSet("allowed", rec.Allowed)
}

// selLine says which decision of lane i is selected, for everyone (and
// screen readers: it is a live region).
func (v *labLanes) selLine(id string, i int, ln *sim.Lane) app.UI {
	text := ""
	if v.M.sel.lane != i {
		return app.Elem("p").ID(id+"-selected").Class("hint small sel-line").Attr("aria-live", "polite").Text(text)
	}
	v.hist = ln.History(v.hist[:0])
	hist := v.hist
	if k, ok := v.M.selIndex(i, ln, hist); ok {
		text = "Selected: " + labDecisionLabel(v.M.sel.g, hist[k]) + " — Enter explains it"
	}
	return app.Elem("p").ID(id+"-selected").Class("hint small sel-line").Attr("aria-live", "polite").Text(text)
}

// inspectorUI is the lab's inspector panel, under the lane it explains.
func (v *labLanes) inspectorUI() app.UI {
	m := v.M
	in := m.insp
	say := "The clock is paused while you inspect, so these numbers stay put (Resume continues the run). Close with ✕ or Escape."
	if !m.lab.Clock().Paused() && m.scrub == nil {
		say = "The clock runs again: the lanes move on, and these numbers stay those of the decision explained. Close with ✕ or Escape."
	}
	note := app.Elem("p").ID("lab-insp-note").Class("hint").Text(say)
	if in.err != "" {
		return app.Elem("section").ID("lab-inspector").Class("card").Attr("aria-label", "Decision inspector").Body(
			app.Elem("p").ID("inspector").Class("param-error").Role("alert").Text("⚠ "+in.err),
			app.Elem("button").ID("insp-close").Class("btn").Text("✕ Close").OnClick(func(ctx app.Context, e app.Event) { v.closeInspector(ctx) }),
		)
	}
	return app.Elem("div").ID("lab-inspector").Class("card lab-inspector").Body(
		note,
		&ui.Inspector{Key: in.key, Heading: in.heading, Exp: in.exp, OnClose: v.closeInspector},
	)
}

// closeInspector closes the panel and puts the focus back on the chart of
// the lane it explained. At once: ctx may be the panel's own, which is gone
// (with its deferred calls) by the next frame, and the chart stays (each
// lane and its panel have their own slot, see labLanes.Render).
func (v *labLanes) closeInspector(ctx app.Context) {
	m := v.M
	if m.insp == nil {
		return
	}
	lane := m.insp.lane
	m.insp = nil
	m.changed()
	browser.FocusFirst("lane-" + strconv.Itoa(lane) + "-svg")
}
