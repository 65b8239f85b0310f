package units

import (
	"math"
	"testing"
	"time"
)

func TestFormatRate(t *testing.T) {
	for _, c := range []struct {
		r    float64
		want string
	}{
		{5, "5 per second"},
		{1, "1 per second"},
		{2.5, "150 per minute"},
		{5.0 / 60, "5 per minute"},
		{50.0 / 60, "50 per minute"},
		{2.0 / 60, "2 per minute"},
		{5000.0 / 3600, "5000 per hour"},
		{1.0 / 3600, "1 per hour"},
		{1.0 / 86400, "1 per day"},
		{1.0 / 7, "1 every 7 s"},
		{1.0 / (7 * 86400), "1 every 168 h"},
		{2.0 / 7, "1 every 3.5 s"},
		{3.0 / 7, "3 every 7 s"},
		{1.0 / (3 * 86400 * 7), "1 every 504 h"},
		{math.Pi, "3.14159265359 per second"},
		{0, "none"},
		{-1, "none"},
		{math.NaN(), "none"},
		{math.Inf(1), "unlimited"},
	} {
		if got := FormatRate(c.r); got != c.want {
			t.Errorf("FormatRate(%v) = %q, want %q", c.r, got, c.want)
		}
	}
}

func TestFormatBudget(t *testing.T) {
	for _, c := range []struct {
		limit  int
		window time.Duration
		want   string
	}{
		{5, time.Second, "5 per second"},
		{50, time.Minute, "50 per minute"},
		{1000, time.Hour, "1000 per hour"},
		{1, 24 * time.Hour, "1 per day"},
		{10, 1500 * time.Millisecond, "10 per 1.5 s"},
		{10, 2 * time.Minute, "10 per 2 min"},
		{3, 100 * time.Millisecond, "3 per 100 ms"},
	} {
		if got := FormatBudget(c.limit, c.window); got != c.want {
			t.Errorf("FormatBudget(%d, %v) = %q, want %q", c.limit, c.window, got, c.want)
		}
	}
}
