package lab

import (
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/limiter"
)

// laneSVG draws the strategy's window or timestamps, the allowed and denied
// marks (merged per column: a few paths, not one node per request), the
// worst-case stretch, the offered and admitted rates and the state.
//
// It is split into small functions on purpose: it runs every frame, so V8
// soon optimises it, and its optimising compiler takes far longer on one
// large function than on several small ones (the lab's start-up was waiting
// for cores busy compiling it).
func (v *labLanes) laneSVG(i int, id string, ln *sim.Lane, l *sim.Lab, a ui.Axis, rmax float64, st limiter.State, wc sim.WorstCase) app.UI {
	now := l.Now()
	v.hist = ln.History(v.hist[:0])
	okPath, noPath, okStack, noStack := v.markPaths(a)
	off, adm, stp := v.ratePaths(ln, l, a, rmax, st)
	band, marks := v.stateBand(st, a, now)
	svg := ui.SVG("svg").ID(id+"-svg").Attr("viewBox", "0 0 600 140").Attr("width", "100%").
		TabIndex(0).Role("application").
		Attr("aria-label", "Lane "+strconv.Itoa(i+1)+" requests: ←/→ choose a request, Enter explains it (or click a mark); + and − zoom every lane, Shift+←/→ pan, 0 fits").
		DataSet("keys", "ArrowLeft ArrowRight Home End "+ui.ZoomKeys).OnClick(v.onStripClick(i), i).OnFocus(v.onStripFocus(i), i).OnKeyDown(v.onStripKey(i), i)
	return v.zoomable(svg).Body(
		band,
		worstBand(id, a, wc, now),
		svgEl("path", "id", id+"-bounds", "d", marks, "stroke", "#0969da", "stroke-width", "1", "stroke-dasharray", "3 2", "fill", "none"),
		svgEl("path", "id", id+"-ok", "d", okPath, "stroke", "#1a7f37", "stroke-width", "1.8", "fill", "none", "stroke-linecap", "round"),
		svgEl("path", "id", id+"-no", "d", noPath, "stroke", "#cf222e", "stroke-width", "1.8", "fill", "none", "stroke-linecap", "round"),
		svgEl("path", "id", id+"-stack-ok", "d", okStack, "stroke", "#1a7f37", "stroke-width", ui.F1(rungW), "fill", "none"),
		svgEl("path", "id", id+"-stack-no", "d", noStack, "stroke", "#cf222e", "stroke-width", ui.F1(rungW), "fill", "none"),
		v.countLabels(id),
		svgEl("rect", "x", "0", "y", "56", "width", "600", "height", "40", "fill", "#f6f8fa"), // rateTop to rateBot
		svgEl("polyline", "points", off, "fill", "none", "stroke", "#8c959f", "stroke-width", "1.5"),
		svgEl("polyline", "points", adm, "fill", "none", "stroke", "#1a7f37", "stroke-width", "1.5"),
		svgEl("text", "x", "3", "y", "66", "font-size", "9", "fill", "#57606a", "stroke", "#f6f8fa", "stroke-width", "3", "paint-order", "stroke").Text("rate /s"),
		svgEl("rect", "x", "0", "y", "104", "width", "600", "height", "32", "fill", "#fffbf0"), // stateTop to stateBot
		svgEl("line", "x1", "0", "x2", "600", "y1", "104", "y2", "104", "stroke", "#d4a72c", "stroke-dasharray", "3 3"),
		svgEl("polyline", "id", id+"-state-line", "points", stp, "fill", "none", "stroke", "#9a6700", "stroke-width", "1.5"),
		svgEl("text", "x", "3", "y", "114", "font-size", "9", "fill", "#57606a", "stroke", "#fffbf0", "stroke-width", "3", "paint-order", "stroke").Text("state (max "+strconv.Itoa(st.Limit)+")"),
		nowLine(ui.F1(a.X(now))),
		v.selMark(id, i, ln, v.hist, a),
	)
}

// svgEl is an SVG element with attributes given as name, value pairs.
func svgEl(tag string, attrs ...string) app.HTMLElem {
	e := ui.SVG(tag)
	for k := 0; k+1 < len(attrs); k += 2 {
		e = e.Attr(attrs[k], attrs[k+1])
	}
	return e
}

func nowLine(x string) app.UI {
	return svgEl("line", "x1", x, "x2", x, "y1", "0", "y2", "140", "stroke", "#1f2328", "stroke-width", "1")
}

// markPaths draws v.hist's allowed and denied requests on the strip: one
// check or cross per column of markCol units (ok, no) where the column's
// requests are at several instants, and where they hold a burst (requests
// at one instant), a stack of one rung per request of the column
// (okStack, noStack), in the order decided from the bottom up, as the
// zoomed view draws every burst. A column with a burst of more than
// maxRungs requests keeps its marks and gets their counts (v.counts), so
// that unzoomed a burst still says how many it was. Zoomed in, requests
// 1 ms apart are columns apart: the window-edge attack's 10 at 0.990 s
// and 10 at 1.000 s are 20 rungs.
func (v *labLanes) markPaths(a ui.Axis) (ok, no, okStack, noStack string) {
	v.okCol, v.noCol = [nCols]int32{}, [nCols]int32{}
	v.stacks, v.counts = v.stacks[:0], v.counts[:0]
	lo := visibleRange(v.hist, a)
	for i := lo; i < len(v.hist); {
		r := v.hist[i]
		if r.At > a.To {
			break
		}
		c := min(int(a.X(r.At)/markCol), nCols-1)
		j, burst := i+1, false
		for ; j < len(v.hist) && v.hist[j].At <= a.To && min(int(a.X(v.hist[j].At)/markCol), nCols-1) == c; j++ {
			burst = burst || v.hist[j].At == v.hist[j-1].At
		}
		if burst && j-i <= maxRungs {
			v.stacks = append(v.stacks, [2]int{i, j})
			i = j
			continue
		}
		for _, r := range v.hist[i:j] {
			if r.Allowed {
				v.okCol[c]++
			} else {
				v.noCol[c]++
			}
		}
		if burst && len(v.counts) < maxCounts {
			v.counts = append(v.counts, c)
		}
		i = j
	}
	b := appendMarks(v.buf[:0], v.okCol[:], -3.5, okY, "l2.5 3.5l5-7")
	ok = string(b)
	b = appendMarks(b[:0], v.noCol[:], -3, noY-3, "l6 6m0-6l-6 6")
	no = string(b)
	b = v.appendRungs(b[:0], a, true)
	okStack = string(b)
	b = v.appendRungs(b[:0], a, false)
	v.buf = b
	return ok, no, okStack, string(b)
}

// maxCounts is the most burst counts a lane draws: text is an element
// each, redrawn every frame (a trace whose requests share whole seconds
// is a burst in every column).
const maxCounts = 40

// countLabels are the counts of v.counts's columns (drawn last by
// markPaths), "×25" right of the column's check and cross.
func (v *labLanes) countLabels(id string) app.UI {
	labels := make([]app.UI, 0, 2*len(v.counts))
	for _, c := range v.counts {
		x := ui.F1(float64(c)*markCol + markCol/2 + 6)
		if n := v.okCol[c]; n > 0 {
			labels = append(labels, svgEl("text", "x", x, "y", ui.F1(okY), "dominant-baseline", "central", "fill", "#1a7f37", "font-weight", "700").Text("×"+strconv.Itoa(int(n))))
		}
		if n := v.noCol[c]; n > 0 {
			labels = append(labels, svgEl("text", "x", x, "y", ui.F1(noY), "dominant-baseline", "central", "fill", "#cf222e", "font-weight", "700").Text("×"+strconv.Itoa(int(n))))
		}
	}
	return ui.SVG("g").ID(id + "-counts").Body(labels...)
}

// A stack's geometry: rungs rungW thick, from the strip's foot (stackBot)
// up, at most rungStep apart and closer when the burst is taller than the
// strip; a burst of more than maxRungs is drawn as one mark per kind.
const (
	rungW, rungHalf    = 2.0, 4.0 // thickness, half width
	rungStep           = 4.0
	stackTop, stackBot = 4.0, 52.0
	maxRungs           = int((stackBot-stackTop)/(rungW+1)) + 1
)

// rungAt is the centre of history index k's rung when it is drawn in a
// stack of v.stacks (drawn last for this lane by markPaths).
func (v *labLanes) rungAt(k int, a ui.Axis) (x, y float64, ok bool) {
	for _, st := range v.stacks {
		if k >= st[0] && k < st[1] {
			step := min(rungStep, (stackBot-stackTop)/float64(st[1]-st[0]-1))
			return a.X(v.hist[st[0]].At), stackBot - float64(k-st[0])*step, true
		}
	}
	return 0, 0, false
}

// appendRungs appends the rungs of the allowed (or denied) requests of
// v.stacks: "M x0 y h8" each, centred on the instant.
func (v *labLanes) appendRungs(b []byte, a ui.Axis, allowed bool) []byte {
	for _, st := range v.stacks {
		n := st[1] - st[0]
		step := min(rungStep, (stackBot-stackTop)/float64(n-1))
		x := a.X(v.hist[st[0]].At) - rungHalf
		for k, r := range v.hist[st[0]:st[1]] {
			if r.Allowed != allowed {
				continue
			}
			b = append(b, 'M')
			b = appendF(b, x)
			b = append(b, ' ')
			b = appendF(b, stackBot-float64(k)*step)
			b = append(b, 'h')
			b = appendF(b, 2*rungHalf)
		}
	}
	return b
}

// appendMarks appends to b an SVG path of one mark for every column with a
// count: the mark's path drawn from the column's centre moved by dx, at y.
func appendMarks(b []byte, cols []int32, dx, y float64, mark string) []byte {
	for c, k := range cols {
		if k > 0 {
			b = append(b, 'M')
			b = appendF(b, float64(c)*markCol+markCol/2+dx)
			b = append(b, ' ')
			b = appendF(b, y)
			b = append(b, mark...)
		}
	}
	return b
}

// ratePaths are the polylines of the offered rate and the admitted rate,
// one point per chart bucket at its middle, and of the strategy's state: at
// each bucket's end, where the bucket samples it, or, zoomed in, the
// replayed state (fineState).
func (v *labLanes) ratePaths(ln *sim.Lane, l *sim.Lab, a ui.Axis, rmax float64, st limiter.State) (off, adm, stp string) {
	width := l.Options().ChartBucket
	v.bks = ln.Buckets(v.bks[:0])
	smax := max(float64(st.Limit), 1)
	var out [3]string
	passes := 3
	if fine, ok := v.fineState(ln, l, a, width, smax); ok {
		out[2], passes = fine, 2
	}
	for pass := range passes {
		b := v.buf[:0]
		for _, bk := range v.bks {
			if bk.Start+width < a.From {
				continue
			}
			o, ad := bk.Rates(width)
			switch pass {
			case 0:
				b = appendPoint(b, a.X(bk.Start+width/2), rateBot-min(o/rmax, 1)*(rateBot-rateTop))
			case 1:
				b = appendPoint(b, a.X(bk.Start+width/2), rateBot-min(ad/rmax, 1)*(rateBot-rateTop))
			default:
				b = appendPoint(b, a.X(bk.Start+width), stateY(bk.State, smax))
			}
		}
		out[pass] = string(b)
		v.buf = b
	}
	return out[0], out[1], out[2]
}

// fineBucket is the width, in chart units, above which a chart bucket is
// too coarse for the state: zoomed to less than about 7.5 s of 100 ms
// buckets, a fixed window's count drawn per bucket slopes across the
// window boundary and rises before the requests that fill it.
const fineBucket = 8.0

// fineState is the polyline of the focus client's state replayed
// (sim.Lane.StateSeries) every 4 chart units and at each of its requests,
// up to now, when the axis is zoomed past fineBucket; ok is false when it
// is not, or the lane's history no longer reaches its start (the buckets
// are drawn then).
func (v *labLanes) fineState(ln *sim.Lane, l *sim.Lab, a ui.Axis, width sim.Instant, smax float64) (string, bool) {
	if a.X(a.From+width)-a.X(a.From) <= fineBucket || l.Focus() == "" {
		return "", false
	}
	step := max((a.To-a.From)*4/laneW, 1)
	to := min(a.To, l.Now())
	var ok bool
	v.pts, ok = ln.StateSeries(v.pts[:0], l.Focus(), max(a.From, 0), to, step)
	if !ok || len(v.pts) == 0 {
		return "", false
	}
	b := v.buf[:0]
	for _, p := range v.pts {
		b = appendPoint(b, a.X(p.At), stateY(p.Value, smax))
	}
	v.buf = b
	return string(b), true
}

// stateY is the height of state value s of at most smax in the state band.
func stateY(s, smax float64) float64 {
	return stateBot - min(max(s/smax, 0), 1)*(stateBot-stateTop)
}

// appendPoint appends "x,y " to a polyline's points.
func appendPoint(b []byte, x, y float64) []byte {
	b = appendF(b, x)
	b = append(b, ',')
	b = appendF(b, y)
	return append(b, ' ')
}

// stateBand draws the strategy's own state on the strip: the window (fixed
// window, sliding window counter), the window and its timestamps (sliding
// window log), or TAT against now (GCRA); marks is the path of the window
// boundaries, timestamps or TAT.
func (v *labLanes) stateBand(st limiter.State, a ui.Axis, now sim.Instant) (band app.UI, marks string) {
	b := v.buf[:0]
	band = app.Text("")
	switch st.Kind {
	case limiter.KindFixedWindow, limiter.KindSlidingWindowCounter:
		b = windowLines(b, st, a)
		x0, x1 := st.WindowStart, st.WindowStart+st.Window
		fill := "#ddf4ff"
		if st.Kind == limiter.KindSlidingWindowCounter {
			// The sliding window [now − W, now) over the two fixed ones.
			x0, x1, fill = now-st.Window, now, "#fbefff"
		}
		band = stripRect(a, x0, x1, 0, "46", fill) // to stripBot
	case limiter.KindSlidingWindowLog:
		band = stripRect(a, now-st.Window, now, 0, "46", "#ddf4ff")
		for _, t := range st.Log {
			if t >= a.From && t <= a.To {
				b = append(b, 'M')
				b = appendF(b, a.X(t))
				b = append(b, " 2v7"...)
			}
		}
	case limiter.KindGCRA:
		if st.TAT > now {
			band = stripRect(a, now, st.TAT, 1, "8", "#fff1e5")
		}
		b = append(b, 'M')
		b = appendF(b, min(max(a.X(st.TAT), 0), laneW))
		b = append(b, " 2V"...)
		b = appendF(b, stripBot)
	}
	v.buf = b
	return band, string(b)
}

// windowLines appends the path of the window boundaries on the axis.
func windowLines(b []byte, st limiter.State, a ui.Axis) []byte {
	if st.Window <= 0 {
		return b
	}
	start := st.WindowStart - (st.WindowStart-a.From)/st.Window*st.Window
	if start > a.From {
		start -= st.Window
	}
	n := 0
	for t := start; t <= a.To && n < 400; t += st.Window {
		if t >= a.From {
			b = append(b, 'M')
			b = appendF(b, a.X(t))
			b = append(b, " 2V"...)
			b = appendF(b, stripBot)
		}
		n++
	}
	return b
}

// stripRect is the band from t0 to t1 at the top of the strip, at least
// minW units wide.
func stripRect(a ui.Axis, t0, t1 sim.Instant, minW float64, height, fill string) app.UI {
	x0, x1 := min(max(a.X(t0), 0), laneW), min(max(a.X(t1), 0), laneW)
	return svgEl("rect", "x", ui.F1(x0), "y", "2", "width", ui.F1(max(x1-x0, minW)), "height", height, "fill", fill)
}

// worstBand marks the worst-case stretch, when it is on the axis, up to now
// while its window is still open.
func worstBand(id string, a ui.Axis, wc sim.WorstCase, now sim.Instant) app.UI {
	wx0, wx1 := a.X(wc.Start), a.X(min(wc.End, now))
	if wc.Units <= 0 || wx1 < 0 || wx0 > laneW {
		return nil
	}
	return svgEl("rect", "id", id+"-worst-band", "x", ui.F1(max(wx0, 0)), "y", "10", "width", ui.F1(max(min(wx1, laneW)-max(wx0, 0), 2)),
		"height", "40", "fill", "#fff8c5", "stroke", "#d4a72c", "stroke-width", "1.5", "rx", "3")
}

func appendF(b []byte, x float64) []byte {
	return strconv.AppendFloat(b, math.Round(x*10)/10, 'f', -1, 64)
}
