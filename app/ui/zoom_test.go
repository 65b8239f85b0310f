package ui

import (
	"testing"
	"time"
)

func TestZoomKey(t *testing.T) {
	for _, c := range []struct {
		key              string
		shift, arrowsPan bool
		want             ZoomAction
		ok               bool
	}{
		{"+", false, false, ZoomAction{Factor: 0.5}, true},
		{"=", false, false, ZoomAction{Factor: 0.5}, true},
		{"-", false, false, ZoomAction{Factor: 2}, true},
		{"0", false, false, ZoomAction{Fit: true}, true},
		{"ArrowLeft", false, true, ZoomAction{Pan: -0.1}, true},
		{"ArrowRight", false, true, ZoomAction{Pan: 0.1}, true},
		{"ArrowRight", false, false, ZoomAction{}, false}, // a lane's arrows choose a request
		{"ArrowRight", true, false, ZoomAction{Pan: 0.1}, true},
		{"x", false, true, ZoomAction{}, false},
	} {
		got, ok := ZoomKey(c.key, c.shift, c.arrowsPan)
		if got != c.want || ok != c.ok {
			t.Errorf("ZoomKey(%q, shift %v, arrows pan %v) = %+v, %v; want %+v, %v", c.key, c.shift, c.arrowsPan, got, ok, c.want, c.ok)
		}
	}
}

func TestWheelZoom(t *testing.T) {
	for _, c := range []struct {
		name   string
		dx, dy float64
		mode   int
		shift  bool
		want   ZoomAction
	}{
		{"three notches down zoom out twice", 0, 300, 0, false, ZoomAction{Factor: 2}},
		{"three notches up zoom in twice", 0, -300, 0, false, ZoomAction{Factor: 0.5}},
		{"lines are 40 px", 0, 15, 1, false, ZoomAction{Factor: 4}},
		{"shift pans by the delta over the width", 0, 60, 0, true, ZoomAction{Pan: 0.1}},
		{"horizontal pans", -120, 0, 0, false, ZoomAction{Pan: -0.2}},
		{"shift with a sideways trace pans", 0.5, 59.5, 0, true, ZoomAction{Pan: 0.1}},
		{"nothing", 0, 0, 0, false, ZoomAction{}},
	} {
		if got := WheelZoom(c.dx, c.dy, c.mode, c.shift, 600); got != c.want {
			t.Errorf("%s: WheelZoom = %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestZoomActionApply(t *testing.T) {
	w := win(2*time.Second, 4*time.Second)
	for _, c := range []struct {
		name     string
		a        ZoomAction
		anchor   TimeAnchor
		from, to time.Duration
	}{
		{"button in, about the middle", ZoomAction{Factor: 0.5}, 0.5, 2500 * ms, 3500 * ms},
		{"wheel in at the left quarter", ZoomAction{Factor: 0.5}, 0.25, 2250 * ms, 3250 * ms},
		{"out", ZoomAction{Factor: 2}, 0.5, time.Second, 5 * time.Second},
		{"pan a tenth right", ZoomAction{Pan: 0.1}, 0, 2200 * ms, 4200 * ms},
		{"pan a tenth left", ZoomAction{Pan: -0.1}, 0, 1800 * ms, 3800 * ms},
		{"fit", ZoomAction{Fit: true}, 0, 0, 10 * time.Second},
		{"nothing", ZoomAction{}, 0, 2 * time.Second, 4 * time.Second},
	} {
		got := c.a.Apply(w, c.anchor)
		if got.From != c.from || got.To != c.to {
			t.Errorf("%s: [%v, %v), want [%v, %v)", c.name, got.From, got.To, c.from, c.to)
		}
	}
}

func TestZoomBarShown(t *testing.T) {
	for _, c := range []struct {
		w    TimeWindow
		px   float64
		want string
	}{
		{win(980*ms, 1010*ms), 600, "0.98–1.01 s · 1 ms = 20 px"},
		{win(0, 10*time.Second), 600, "0–10 s · 1 ms = 0.06 px"},
		{win(0, 10*time.Second), 0, "0–10 s"},
		{win(500*ms, 10500*ms), 230, "0.5–10.5 s · 1 ms = 0.023 px"},
		{win(0, 19*ms), 390, "0.000–0.019 s · 1 ms = 21 px"},
		{win(992015001, 1022015001), 600, "0.992–1.022 s · 1 ms = 20 px"},
		{win(1250*ms, 3750*ms), 480, "1.25–3.75 s · 1 ms = 0.19 px"},
	} {
		if got := (ZoomBar{W: c.w, WidthPx: c.px}).Shown(); got != c.want {
			t.Errorf("Shown of [%v, %v) at %v px = %q, want %q", c.w.From, c.w.To, c.px, got, c.want)
		}
	}
}
