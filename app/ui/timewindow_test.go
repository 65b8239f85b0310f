package ui

import (
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

func TestMinSpanFor(t *testing.T) {
	for _, c := range []struct {
		px   float64
		want time.Duration
	}{
		{600, 30 * ms}, {390, 19500 * time.Microsecond}, {1280, 64 * ms}, {1, 50 * time.Microsecond}, {0, 1},
		{333.3, 16665 * time.Microsecond},
	} {
		if got := MinSpanFor(c.px); got != c.want {
			t.Errorf("MinSpanFor(%v) = %v, want %v", c.px, got, c.want)
		}
	}
}

func win(from, to time.Duration) TimeWindow {
	return TimeWindow{From: from, To: to, Lo: 0, Hi: 10 * time.Second, MinSpan: 30 * ms}
}

func TestTimeWindowZoom(t *testing.T) {
	full := FullWindow(0, 10*time.Second, MinSpanFor(600))
	if full != win(0, 10*time.Second) || !full.Full() {
		t.Fatalf("FullWindow = %+v", full)
	}
	for _, c := range []struct {
		name     string
		w        TimeWindow
		anchor   time.Duration
		factor   float64
		from, to time.Duration
	}{
		{"in about the middle", full, 5 * time.Second, 0.5, 2500 * ms, 7500 * ms},
		{"in about 0.99 s", full, 990 * ms, 0.5, 495 * ms, 5495 * ms},
		{"in about the left edge", full, 0, 0.25, 0, 2500 * ms},
		{"in about the right edge", full, 10 * time.Second, 0.1, 9 * time.Second, 10 * time.Second},
		{"anchor outside is the nearest edge", win(time.Second, 2*time.Second), 5 * time.Second, 0.5, 1500 * ms, 2 * time.Second},
		{"stops at the minimum span", win(980*ms, 1020*ms), 990 * ms, 0.1, 982500 * time.Microsecond, 1012500 * time.Microsecond},
		{"out stops at the bounds", win(4*time.Second, 6*time.Second), 5 * time.Second, 100, 0, 10 * time.Second},
		{"out near an edge moves back in", win(0, 2*time.Second), 500 * ms, 2, 0, 4 * time.Second},
		{"out near the right edge", win(9*time.Second, 10*time.Second), 9500 * ms, 4, 6 * time.Second, 10 * time.Second},
		{"a factor of 0 changes nothing", win(time.Second, 2*time.Second), 0, 0, time.Second, 2 * time.Second},
		{"thirds round down to the ns", win(0, time.Second), 1, 1.0 / 3, 1, 333333334},
	} {
		got := c.w.Zoom(c.anchor, c.factor)
		if got.From != c.from || got.To != c.to {
			t.Errorf("%s: Zoom(%v, %v) of [%v, %v) = [%v, %v), want [%v, %v)", c.name, c.anchor, c.factor, c.w.From, c.w.To, got.From, got.To, c.from, c.to)
		}
	}
}

// TestTimeWindowZoomToTheEdgeAttack: from the lab's full 10 s at 600 px,
// halving about 0.995 s (the pointer) reaches the minimum span of 30 ms in
// 9 steps with 0.995 s still 9.95 % from the left edge; centred on it, the
// window holds 0.990 s and 1.000 s 200 px apart (20 px per ms).
func TestTimeWindowZoomToTheEdgeAttack(t *testing.T) {
	w := FullWindow(0, 10*time.Second, MinSpanFor(600))
	steps := 0
	for w.Span() > w.MinSpan {
		w = w.Zoom(995*ms, 0.5)
		steps++
	}
	if steps != 9 || w.From != 992015001 || w.To != 1022015001 {
		t.Fatalf("after %d steps: [%d, %d) ns, want 9 steps to [992015001, 1022015001)", steps, w.From, w.To)
	}
	w = w.CenterOn(995 * ms)
	if w.From != 980*ms || w.To != 1010*ms {
		t.Fatalf("centred on 0.995 s: [%v, %v), want [980ms, 1.01s)", w.From, w.To)
	}
	a := w.Axis(0, 600)
	if x0, x1 := a.X(990*ms), a.X(time.Second); x0 != 200 || x1 != 400 {
		t.Errorf("0.99 s at x = %v and 1 s at x = %v, want 200 and 400", x0, x1)
	}
	if got := FullWindow(0, 10*time.Second, MinSpanFor(600)).CenterOn(0); got.From != 0 || got.To != 10*time.Second {
		t.Errorf("full window centred on 0: [%v, %v)", got.From, got.To)
	}
	if got := win(0, time.Second).CenterOn(9900 * ms); got.From != 9*time.Second || got.To != 10*time.Second {
		t.Errorf("centred near Hi: [%v, %v), want [9s, 10s)", got.From, got.To)
	}
}

func TestTimeWindowPanAndClamp(t *testing.T) {
	for _, c := range []struct {
		name     string
		w        TimeWindow
		d        time.Duration
		from, to time.Duration
	}{
		{"right", win(time.Second, 2*time.Second), 250 * ms, 1250 * ms, 2250 * ms},
		{"left", win(time.Second, 2*time.Second), -250 * ms, 750 * ms, 1750 * ms},
		{"stops at Lo", win(time.Second, 2*time.Second), -5 * time.Second, 0, time.Second},
		{"stops at Hi", win(time.Second, 2*time.Second), 20 * time.Second, 9 * time.Second, 10 * time.Second},
		{"full cannot move", win(0, 10*time.Second), time.Second, 0, 10 * time.Second},
	} {
		got := c.w.Pan(c.d)
		if got.From != c.from || got.To != c.to {
			t.Errorf("%s: Pan(%v) = [%v, %v), want [%v, %v)", c.name, c.d, got.From, got.To, c.from, c.to)
		}
	}
	for _, c := range []struct {
		name     string
		w        TimeWindow
		from, to time.Duration
	}{
		{"too narrow widens from From", win(time.Second, time.Second+ms), time.Second, 1030 * ms},
		{"too wide is the bounds", win(-time.Second, 12*time.Second), 0, 10 * time.Second},
		{"bounds narrower than MinSpan", TimeWindow{From: 0, To: ms, Lo: 0, Hi: 10 * ms, MinSpan: 30 * ms}, 0, 30 * ms},
		{"beyond Hi moves back", win(9990*ms, 10500*ms), 9490 * ms, 10 * time.Second},
	} {
		got := c.w.Clamp()
		if got.From != c.from || got.To != c.to {
			t.Errorf("%s: Clamp = [%v, %v), want [%v, %v)", c.name, got.From, got.To, c.from, c.to)
		}
	}
	// Bounds that grow (a running clock) keep a zoomed window where it is.
	w := win(time.Second, 2*time.Second)
	w.Hi = 20 * time.Second
	if got := w.Clamp(); got.From != time.Second || got.To != 2*time.Second || got.Full() {
		t.Errorf("grown bounds: [%v, %v) full=%v", got.From, got.To, got.Full())
	}
}

func TestTimeWindowAt(t *testing.T) {
	w := win(980*ms, 1010*ms)
	for _, c := range []struct {
		f    float64
		want time.Duration
	}{{0, 980 * ms}, {1, 1010 * ms}, {1.0 / 3, 990 * ms}, {0.5, 995 * ms}, {-1, 980 * ms}, {2, 1010 * ms}} {
		if got := w.At(c.f); got != c.want {
			t.Errorf("At(%v) = %v, want %v", c.f, got, c.want)
		}
	}
}

func TestTimeWindowTicks(t *testing.T) {
	labels := func(w TimeWindow, n int) string {
		var s []string
		for _, tk := range w.Ticks(n) {
			s = append(s, tk.Label)
		}
		return strings.Join(s, " ")
	}
	for _, c := range []struct {
		name string
		w    TimeWindow
		n    int
		want string
	}{
		{"10 s", win(0, 10*time.Second), 10, "0 s 1 s 2 s 3 s 4 s 5 s 6 s 7 s 8 s 9 s 10 s"},
		{"10 s, 5 ticks", win(0, 10*time.Second), 5, "0 s 2 s 4 s 6 s 8 s 10 s"},
		{"30 ms at the edge attack", win(980*ms, 1010*ms), 6, "0.980 s 0.985 s 0.990 s 0.995 s 1.000 s 1.005 s 1.010 s"},
		{"30 ms, 3 ticks", win(980*ms, 1010*ms), 3, "0.98 s 0.99 s 1.00 s 1.01 s"},
		{"not on a step", win(1234*ms, 2234*ms), 5, "1.4 s 1.6 s 1.8 s 2.0 s 2.2 s"},
		{"negative start", TimeWindow{From: -500 * ms, To: 500 * ms}, 4, "-0.5 s 0.0 s 0.5 s"},
		{"negative start, 5 ticks", TimeWindow{From: -500 * ms, To: 500 * ms}, 5, "-0.4 s -0.2 s 0.0 s 0.2 s 0.4 s"},
	} {
		if got := labels(c.w, c.n); got != c.want {
			t.Errorf("%s: ticks %q, want %q", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		span time.Duration
		n    int
		want time.Duration
	}{
		{10 * time.Second, 10, time.Second}, {10 * time.Second, 9, 2 * time.Second}, {30 * ms, 6, 5 * ms},
		{30 * ms, 30, ms}, {30 * ms, 31, ms}, {7, 100, 1}, {time.Hour, 10, 500 * time.Second},
	} {
		if got := TickStep(c.span, c.n); got != c.want {
			t.Errorf("TickStep(%v, %d) = %v, want %v", c.span, c.n, got, c.want)
		}
	}
}
