package units

import (
	"math"
	"testing"
	"time"

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
		{"num float noise", Num(0.1 + 0.2), "0.3"},
		{"num tiny rate", Num(1e-9), "0.000000001"},
		{"num below 1e-9", Num(1.5e-10), "1.5e-10"},
		{"num 1e-300", Num(1e-300), "1e-300"},
		{"num negative tiny", Num(-2.5e-300), "-2.5e-300"},
		{"num smallest float", Num(5e-324), "5e-324"},
		{"num large", Num(123456789), "123456789"},
		{"num just below 1e21", Num(999999999999e9), "999999999999000000000"},
		{"num 1e21", Num(1e21), "1e+21"},
		{"num 1e300", Num(1e300), "1e+300"},
		{"num max float", Num(math.MaxFloat64), "1.79769313486e+308"},
		{"num zero", Num(0), "0"},
		{"fixed 10.10", fixed(1010, 100), "10.10"},
		{"clock 12.3459s", FormatClock(12345900 * time.Microsecond), "12.345 s"},
		{"window 100ms", FormatWindow(100 * time.Millisecond), "100 ms"},
		{"window 1s", FormatWindow(time.Second), "1 s"},
		{"window 2.5s", FormatWindow(2500 * time.Millisecond), "2.5 s"},
		{"span 1h", FormatSpan(time.Hour), "1 h"},
		{"span 48h", FormatSpan(48 * time.Hour), "48 h"},
		{"span 1min", FormatSpan(time.Minute), "1 min"},
		{"span 90min", FormatSpan(90 * time.Minute), "90 min"},
		{"span 90s", FormatSpan(90 * time.Second), "90 s"},
		{"span 1.5s", FormatSpan(1500 * time.Millisecond), "1.5 s"},
		{"span 1/12 s", FormatSpan(83333333), "83.333333 ms"},
		{"secs 0", FormatSecs(0), "0"},
		{"secs 0.99", FormatSecs(990 * time.Millisecond), "0.99"},
		{"secs 12", FormatSecs(12 * time.Second), "12"},
		{"secs 1.2349 rounds down", FormatSecs(1234900 * time.Microsecond), "1.234"},
		{"secs 39559", FormatSecs(39559 * time.Second), "39559"},
		{"ago 6", FormatSecondsAgo(6), "−6 s"},
		{"ago 0.5", FormatSecondsAgo(0.5), "−0.5 s"},
		{"ago 3×0.1", FormatSecondsAgo(3 * 0.1), "−0.3 s"},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
}

func TestParamParseUnreadable(t *testing.T) {
	p := Param{Name: "burst", Unit: "tokens", Min: 1, Max: 100, Integer: true}
	_, err := p.Parse(Unreadable)
	if want := "burst is not a number the browser can read (too large, or not a number); want 1 to 100 tokens"; err == nil || err.Error() != want {
		t.Errorf("Parse(Unreadable) error = %v; want %q", err, want)
	}
}

func TestFormatAxis(t *testing.T) {
	for _, c := range []struct {
		t, step time.Duration
		want    string
	}{
		{0, time.Second, "0 s"},
		{39559 * time.Second, time.Second, "39559 s"},
		{10 * time.Second, 5 * time.Second, "10 s"},
		{200 * time.Millisecond, 200 * time.Millisecond, "0.2 s"},
		{1500 * time.Millisecond, 500 * time.Millisecond, "1.5 s"},
		{time.Second, 100 * time.Millisecond, "1.0 s"},
		{990 * time.Millisecond, 10 * time.Millisecond, "0.99 s"},
		{995 * time.Millisecond, 5 * time.Millisecond, "0.995 s"},
		{time.Second, 2 * time.Millisecond, "1.000 s"},
		{990020 * time.Microsecond, 20 * time.Microsecond, "0.99002 s"},
		{-500 * time.Millisecond, 500 * time.Millisecond, "-0.5 s"},
		{3, 1, "0.000000003 s"},
	} {
		if got := FormatAxis(c.t, c.step); got != c.want {
			t.Errorf("FormatAxis(%v, %v) = %q, want %q", c.t, c.step, got, c.want)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0 s"},
		{95473355645, "95.473355645 s"}, // Go's notation: 1m35.473355645s
		{time.Hour + 250*time.Millisecond, "3600.25 s"},
		{1250 * time.Millisecond, "1.25 s"},
		{time.Second, "1 s"},
		{250 * time.Millisecond, "250 ms"},
		{333333333, "333.333333 ms"},
		{1500 * time.Nanosecond, "1.5 µs"},
		{500, "500 ns"},
		{1, "1 ns"},
		{-9750 * time.Millisecond, "-9.75 s"},
		{math.MinInt64, "-9223372036.854775808 s"},
		{limiter.Never, "never"},
	} {
		if got := FormatDuration(c.d); got != c.want {
			t.Errorf("FormatDuration(%d) = %q, want %q", int64(c.d), got, c.want)
		}
	}
}
