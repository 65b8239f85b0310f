package main

import (
	"math"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/limiter"
)

func TestFormatTokens(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{0, "0.00"}, {2.37, "2.37"}, {0.29, "0.29"}, {0.999, "0.99"}, {1, "1.00"}, {4.9999, "4.99"}, {100, "100.00"},
	} {
		if got := FormatTokens(c.in); got != c.want {
			t.Errorf("FormatTokens(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFormatDurations(t *testing.T) {
	for _, c := range []struct {
		name, got, want string
	}{
		{"retry 2s", FormatRetry(2 * time.Second), "2.00 s"},
		{"retry 1ns rounds up", FormatRetry(1), "0.01 s"},
		{"retry 1.234s", FormatRetry(1234 * time.Millisecond), "1.24 s"},
		{"retry 60s", FormatRetry(60 * time.Second), "60.00 s"},
		{"retry never", FormatRetry(limiter.Never), "never"},
		{"clock 0", FormatClock(0), "0.000 s"},
		{"clock 7ms", FormatClock(7 * time.Millisecond), "0.007 s"},
		{"clock 60.04s", FormatClock(60040 * time.Millisecond), "60.040 s"},
		{"fixed negative", fixed(-5, 100), "-0.05"},
		{"num float noise", num(0.1 + 0.2), "0.3"},
		{"num tiny rate", num(1e-9), "0.000000001"},
		{"num below 1e-9", num(1.5e-10), "1.5e-10"},
		{"num 1e-300", num(1e-300), "1e-300"},
		{"num negative tiny", num(-2.5e-300), "-2.5e-300"},
		{"num smallest float", num(5e-324), "5e-324"},
		{"num large", num(123456789), "123456789"},
		{"num just below 1e21", num(999999999999e9), "999999999999000000000"},
		{"num 1e21", num(1e21), "1e+21"},
		{"num 1e300", num(1e300), "1e+300"},
		{"num max float", num(math.MaxFloat64), "1.79769313486e+308"},
		{"num zero", num(0), "0"},
		{"rate label tiny", ParamRate.FormatValue(0.0000001), "0.0000001 tokens/s"},
		{"fixed 10.10", fixed(1010, 100), "10.10"},
		{"clock 12.3459s", FormatClock(12345900 * time.Microsecond), "12.345 s"},
		{"window 100ms", FormatWindow(100 * time.Millisecond), "100 ms"},
		{"window 1s", FormatWindow(time.Second), "1 s"},
		{"window 2.5s", FormatWindow(2500 * time.Millisecond), "2.5 s"},
		{"burst 1", ParamBurst.FormatValue(1), "1 token"},
		{"burst 3", ParamBurst.FormatValue(3), "3 tokens"},
		{"rate 0.5", ParamRate.FormatValue(0.5), "0.5 tokens/s"},
		{"window 0.1", ParamWindow.FormatValue(0.1), "100 ms"},
		{"autofire 4", ParamAutoRate.FormatValue(4), "4 requests/s"},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
}

func TestParamParse(t *testing.T) {
	for _, c := range []struct {
		p       Param
		in      string
		want    float64
		wantErr string
	}{
		{ParamBurst, "3", 3, ""},
		{ParamBurst, " 100 ", 100, ""},
		{ParamBurst, "", 0, "burst is empty; want 1 to 100 tokens"},
		{ParamBurst, "150", 0, "burst 150 is out of range; want 1 to 100 tokens"},
		{ParamBurst, "0", 0, "burst 0 is out of range; want 1 to 100 tokens"},
		{ParamBurst, "2.5", 0, "burst 2.5 is not a whole number; want 1 to 100 tokens"},
		{ParamBurst, "NaN", 0, `burst "NaN" is not a number; want 1 to 100 tokens`},
		{ParamBurst, "abc", 0, `burst "abc" is not a number; want 1 to 100 tokens`},
		{ParamRate, "0", 0, ""},
		{ParamRate, "0.5", 0.5, ""},
		{ParamRate, "-1", 0, "refill rate -1 is out of range; want 0 (no refill) or 0.001 to 50 tokens/s"},
		{ParamRate, "Inf", 0, `refill rate "Inf" is not a number; want 0 (no refill) or 0.001 to 50 tokens/s`},
		{ParamRate, "1e-9", 0, "refill rate 0.000000001 is out of range; want 0 (no refill) or 0.001 to 50 tokens/s"},
		{ParamRate, "0.001", 0.001, ""},
		{ParamRate, "1e-300", 0, "refill rate 1e-300 is out of range; want 0 (no refill) or 0.001 to 50 tokens/s"},
		{ParamRate, "1e300", 0, "refill rate 1e+300 is out of range; want 0 (no refill) or 0.001 to 50 tokens/s"},
		{ParamBurst, "-1e300", 0, "burst -1e+300 is out of range; want 1 to 100 tokens"},
		{ParamWindow, "1e-10", 0, "window 1e-10 is out of range; want 0.1 to 60 s"},
		{ParamWindow, "0.05", 0, "window 0.05 is out of range; want 0.1 to 60 s"},
		{ParamWindow, "60", 60, ""},
		{ParamWindow, "1.5", 1.5, ""},
		{ParamWindow, "0.1234", 0, "window 0.1234 is finer than 0.001 s; want 0.1 to 60 s, in steps of 0.001"},
		// The lab's window fields, in seconds, are taken to the millisecond:
		// 0.0015 became 2 ms with no word.
		{fieldOf(sim.LaneRanges(limiter.KindFixedWindow)[1], "w", 0.001, true), "0.0015", 0, "window 0.0015 is finer than 0.001 s; want 0.001 to 86400 s, in steps of 0.001"},
		{fieldOf(sim.LaneRanges(limiter.KindFixedWindow)[1], "w", 0.001, true), "0.003", 0.003, ""},
		{fieldOf(sim.LaneRanges(limiter.KindLeakyBucket)[1], "l", 0.001, true), "0.0015", 0.0015, ""}, // a leak interval in ms is taken to the ns
		{ParamAutoRate, "200.5", 0, "auto-fire rate 200.5 is out of range; want 0.1 to 200 requests/s"},
	} {
		got, err := c.p.Parse(c.in)
		switch {
		case c.wantErr == "" && (err != nil || got != c.want):
			t.Errorf("%s.Parse(%q) = %v, %v; want %v", c.p.ID, c.in, got, err, c.want)
		case c.wantErr != "" && (err == nil || err.Error() != c.wantErr):
			t.Errorf("%s.Parse(%q) error = %v; want %q", c.p.ID, c.in, err, c.wantErr)
		}
	}
}

func TestSliderPositions(t *testing.T) {
	for _, c := range []struct {
		p    Param
		pos  float64
		want float64
	}{
		{ParamRate, 0.5, 0.5},
		{ParamRate, 0.30000000000000004, 0.3},
		{ParamBurst, 3, 3},
		{ParamWindow, 1, 1},
		{ParamAutoRate, 0, 0.1},
		{ParamAutoRate, LogSteps, 200},
		{ParamAutoRate, LogSteps / 2, 4.5}, // √(0.1·200) ≈ 4.47, two digits
	} {
		if got := c.p.FromSlider(c.pos); got != c.want {
			t.Errorf("%s.FromSlider(%v) = %v, want %v", c.p.ID, c.pos, got, c.want)
		}
	}
	// Every value a log slider produces maps back to its own position.
	for pos := 0.0; pos <= LogSteps; pos++ {
		v := ParamAutoRate.FromSlider(pos)
		if back := ParamAutoRate.FromSlider(ParamAutoRate.SliderPos(v)); math.Abs(back-v) > 1e-9 {
			t.Fatalf("position %v → %v → position %v → %v", pos, v, ParamAutoRate.SliderPos(v), back)
		}
	}
}

func TestParamParseUnreadable(t *testing.T) {
	p := Param{Name: "burst", Unit: "tokens", Min: 1, Max: 100, Integer: true}
	_, err := p.Parse(unreadable)
	if want := "burst is not a number the browser can read (too large, or not a number); want 1 to 100 tokens"; err == nil || err.Error() != want {
		t.Errorf("Parse(unreadable) error = %v; want %q", err, want)
	}
}

// A logarithmic slider stays where the user put it while that position
// still gives the value shown; otherwise it goes to the value's position.
func TestSliderMemory(t *testing.T) {
	var m sliderMemory
	if got := m.pos(ParamAutoRate, 4); got != 485 {
		t.Errorf("no memory: position %v for 4/s, want 485", got)
	}
	m.set(ParamAutoRate, 486) // 0.1 × 2000^0.486 = 4.02…, shown as 4
	if got := m.pos(ParamAutoRate, 4); got != 486 {
		t.Errorf("moved to 486: position %v for 4/s, want 486", got)
	}
	m.set(ParamAutoRate, 490) // 4.14…, shown as 4.1: not the value 4
	if got := m.pos(ParamAutoRate, 4); got != 485 {
		t.Errorf("moved to 490: position %v for 4/s, want 485", got)
	}
	m.set(ParamBurst, 7) // a linear slider: nothing to remember
	if _, ok := m[ParamBurst.ID]; ok {
		t.Errorf("a linear slider's position was remembered")
	}
}

// TestGCRAStateLine: the lab's GCRA line rounds TAT − now and the tolerance
// to the nearest hundredth of a second (a state, not a wait): rate 3/s,
// burst 1 has a tolerance of 1/3 s, shown 0.33 s, not 0.34 s.
func TestGCRAStateLine(t *testing.T) {
	g, err := limiter.NewGCRA(3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.AllowN(0, 1); err != nil {
		t.Fatal(err)
	}
	if got, _ := stateLine(g.State(0), 0); got != "TAT − now = 0.33 s of tolerance 0.33 s → 0.00 tokens" {
		t.Errorf("after one request: %q", got)
	}
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{0, "0.00 s"}, {time.Second / 3, "0.33 s"}, {4999999, "0.00 s"}, {5 * time.Millisecond, "0.01 s"}, {2 * time.Second / 3, "0.67 s"}} {
		if got := FormatSeconds(c.d); got != c.want {
			t.Errorf("FormatSeconds(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
