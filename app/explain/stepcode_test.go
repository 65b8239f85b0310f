package explain

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/limiter"
)

func readLimiter(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../limiter", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// stepLabels collects the labels Explain gives, per strategy, over
// requests that are allowed, denied, never allowed and stale.
func stepLabels(t *testing.T) map[limiter.Kind]map[string]bool {
	t.Helper()
	evs := []sim.Event{{At: 0, N: 1}, {At: 0, N: 5}, {At: 0, N: 1}, {At: 300 * time.Millisecond, N: 1},
		{At: 100 * time.Millisecond, N: 1}, {At: 1200 * time.Millisecond, N: 2}, {At: 1200 * time.Millisecond, N: 99}}
	seen := map[limiter.Kind]map[string]bool{}
	for _, k := range limiter.Kinds {
		seen[k] = map[string]bool{}
		for i := range evs {
			e, err := Replay(Budget(k, 5, time.Second), "", evs, i)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range e.Steps {
				seen[k][s.Label] = true
			}
		}
	}
	return seen
}

// TestStepCodeLines checks every step's named code: its text is on exactly
// one line of its limiter file, the line number the page shows holds it,
// and every label mapped is one Explain gives.
func TestStepCodeLines(t *testing.T) {
	seen := stepLabels(t)
	for k, lines := range stepLines {
		for label, cl := range lines {
			if !seen[k][label] {
				t.Errorf("%s: no step %q", k, label)
			}
			content := readLimiter(t, cl.file)
			n, err := StepCode{File: cl.file, Text: cl.text}.Line(content)
			if err != nil {
				t.Errorf("%s %q: %v", k, label, err)
				continue
			}
			if line := strings.Split(content, "\n")[n-1]; !strings.Contains(line, cl.text) {
				t.Errorf("%s %q: %s line %d is %q; want it to hold %q", k, label, cl.file, n, line, cl.text)
			}
		}
	}
	// Steps with no one line: the request's size, the log's counted entries.
	for _, k := range limiter.Kinds {
		for label := range seen[k] {
			if _, ok := stepLines[k][label]; !ok && !map[string]bool{"request": true, "window": true, "counted": true,
				"memory": true, "previous window count": true, "current window count": true, "tokens (token bucket view)": true}[label] {
				t.Errorf("%s: step %q names no line", k, label)
			}
		}
	}
}

// TestTokenBucketStepCode is request 15 of the burst-vs-rate lesson's
// first lane (token bucket 5/s, burst 10, one request every 50 ms): at
// 700 ms the bucket holds 0.5 tokens and the request is denied. Each step
// names its line (checked against limiter/) and its integers: unit = 10⁹,
// perNs = 5, full = 10¹⁰.
func TestTokenBucketStepCode(t *testing.T) {
	var evs []sim.Event
	for i := range 15 {
		evs = append(evs, sim.Event{At: time.Duration(i) * 50 * time.Millisecond, N: 1})
	}
	e, err := Replay(limiter.Config{Kind: limiter.KindTokenBucket, Rate: 5, Burst: 10}, "", evs, 14)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"tokens at last update": {"tokenbucket.go", "Here 5/s = 5/1: unit = 1 000 000 000, perNs = 5, and debt = (10 − 0) × 1 000 000 000 = 10 000 000 000."},
		"refill":                {"bucket.go", "Here 100 000 000 ns × 5 = 500 000 000, that is 0.5 tokens."},
		"tokens now":            {"bucket.go", "Here debt = 9 500 000 000: 10 − 9 500 000 000 ÷ 1 000 000 000 = 0.5 tokens."},
		"test":                  {"bucket.go", "Here 9 500 000 000 + 1 × 1 000 000 000 = 10 500 000 000 ≤ 10 000 000 000 is false."},
		"retry after":           {"bucket.go", "Here ⌈500 000 000 ÷ 5⌉ = 100 000 000 ns."},
	}
	lineOf := map[string]string{
		"tokens at last update": "tb.used, tb.last, tb.debt = true, at, next",
		"refill":                "if paid := int64(elapsed) * b.perNs; paid < debt {",
		"tokens now":            "return debt - paid",
		"test":                  "if next := debt + int64(n)*b.unit; next <= b.full {",
		"retry after":           "d.RetryAfter = time.Duration(b.perNsDiv.ceil(o.next + int64(n)*b.unit - b.full))",
	}
	found := 0
	for _, s := range e.Steps {
		w, ok := want[s.Label]
		if !ok {
			continue
		}
		found++
		units := strings.ReplaceAll(s.Code.Units, "\u202f", " ")
		if s.Code.File != w[0] || !strings.HasSuffix(units, w[1]) {
			t.Errorf("%s: %s %q; want %s, ending %q", s.Label, s.Code.File, units, w[0], w[1])
		}
		content := readLimiter(t, s.Code.File)
		n, err := s.Code.Line(content)
		if err != nil || strings.TrimSpace(strings.Split(content, "\n")[n-1]) != lineOf[s.Label] {
			t.Errorf("%s: line %d of %s is not %q (%v)", s.Label, n, s.Code.File, lineOf[s.Label], err)
		}
	}
	if found != len(want) {
		t.Errorf("%d of %d steps found", found, len(want))
	}
}

// TestBucketScaleIsLimiters checks scaleOf's p/q against the limiter's
// own arithmetic: a bucket of burst 1 that has just spent its token is
// told to retry after exactly ⌈unit ÷ perNs⌉ = ⌈q·10⁹ ÷ p⌉ ns.
func TestBucketScaleIsLimiters(t *testing.T) {
	for _, c := range []struct {
		rate float64
		p, q int64
	}{{5, 5, 1}, {2, 2, 1}, {0.1, 1, 10}, {1.0 / 3, 1, 3}, {5.0 / 60, 1, 12}, {50.0 / 60, 5, 6}, {7, 7, 1}, {123.456, 15432, 125}, {0.001, 1, 1000}} {
		s := scaleOf(c.rate, 1)
		if !s.ok || s.p != c.p || s.q != c.q {
			t.Errorf("rate %v: %+v; want %d/%d", c.rate, s, c.p, c.q)
			continue
		}
		tb, _ := limiter.NewTokenBucket(c.rate, 1)
		tb.AllowN(0, 1)
		d, _ := tb.AllowN(0, 1)
		if want := (s.unit + s.p - 1) / s.p; int64(d.RetryAfter) != want {
			t.Errorf("rate %v: retry after %d ns; want %d (%d/%d)", c.rate, d.RetryAfter, want, s.p, s.q)
		}
	}
	for _, r := range []float64{0, 1e-12} {
		if s := scaleOf(r, 1); s.ok {
			t.Errorf("rate %v: %+v; want no integer form shown", r, s)
		}
	}
	if got := num(-1234567); got != "-1\u202f234\u202f567" {
		t.Errorf("num: %q", strconv.Quote(got))
	}
}
