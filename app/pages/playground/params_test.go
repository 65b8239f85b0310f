package playground

import (
	"math"
	"testing"

	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/units"
)

func TestParamParse(t *testing.T) {
	for _, c := range []struct {
		p       units.Param
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
		p    units.Param
		pos  float64
		want float64
	}{
		{ParamRate, 0.5, 0.5},
		{ParamRate, 0.30000000000000004, 0.3},
		{ParamBurst, 3, 3},
		{ParamWindow, 1, 1},
		{ParamAutoRate, 0, 0.1},
		{ParamAutoRate, units.LogSteps, 200},
		{ParamAutoRate, units.LogSteps / 2, 4.5}, // √(0.1·200) ≈ 4.47, two digits
	} {
		if got := c.p.FromSlider(c.pos); got != c.want {
			t.Errorf("%s.FromSlider(%v) = %v, want %v", c.p.ID, c.pos, got, c.want)
		}
	}
	// Every value a log slider produces maps back to its own position.
	for pos := 0.0; pos <= units.LogSteps; pos++ {
		v := ParamAutoRate.FromSlider(pos)
		if back := ParamAutoRate.FromSlider(ParamAutoRate.SliderPos(v)); math.Abs(back-v) > 1e-9 {
			t.Fatalf("position %v → %v → position %v → %v", pos, v, ParamAutoRate.SliderPos(v), back)
		}
	}
}

// A logarithmic slider stays where the user put it while that position
// still gives the value shown; otherwise it goes to the value's position.
func TestSliderMemory(t *testing.T) {
	var m ui.SliderMemory
	if got := m.Pos(ParamAutoRate, 4); got != 485 {
		t.Errorf("no memory: position %v for 4/s, want 485", got)
	}
	m.Set(ParamAutoRate, 486) // 0.1 × 2000^0.486 = 4.02…, shown as 4
	if got := m.Pos(ParamAutoRate, 4); got != 486 {
		t.Errorf("moved to 486: position %v for 4/s, want 486", got)
	}
	m.Set(ParamAutoRate, 490) // 4.14…, shown as 4.1: not the value 4
	if got := m.Pos(ParamAutoRate, 4); got != 485 {
		t.Errorf("moved to 490: position %v for 4/s, want 485", got)
	}
	m.Set(ParamBurst, 7) // a linear slider: nothing to remember
	if _, ok := m[ParamBurst.ID]; ok {
		t.Errorf("a linear slider's position was remembered")
	}
}

func TestFormatValue(t *testing.T) {
	for _, c := range []struct {
		name, got, want string
	}{
		{"rate label tiny", ParamRate.FormatValue(0.0000001), "0.0000001 tokens/s"},
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
