package explain

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ratelab/ratelab/limiter"
)

// Mark is a stretch of a limiter file that matters to a decision, found by
// its text rather than by line numbers, so edits to the file move it with
// them. The stretch starts on the one line that contains Text; when that
// line ends with "{", it runs to the line, at the same indentation, that
// starts with "}" (the block); otherwise it is that line alone.
type Mark struct {
	// Label says what the lines do ("refill: pay back debt for elapsed time").
	Label string
	// Text occurs on exactly one line of the file.
	Text string
	// When lists the outcomes the lines matter for; empty means all.
	When []Outcome
}

// Matters reports whether the mark matters for outcome o.
func (m Mark) Matters(o Outcome) bool { return len(m.When) == 0 || slices.Contains(m.When, o) }

// File is one limiter source file and its marks.
type File struct {
	// Name is the file's name in limiter/ and in the shipped copy
	// (web/src/Name, served at /web/src/Name).
	Name  string
	Marks []Mark
}

// Source is the limiter code that decides for one Kind: the strategy's own
// file, then the shared arithmetic it calls.
type Source struct {
	Kind  limiter.Kind
	Files []File
}

// Highlight is a stretch of lines of one file to highlight, 1-based and
// inclusive, with what it does.
type Highlight struct {
	File     string
	From, To int
	Label    string
}

// ShippedDir is where the page fetches the shipped limiter sources from:
// the Makefile copies limiter/*.go (tests excluded) to web/src/.
const ShippedDir = "/web/src/"

// bucketMarks are bucket.go's lines shared by the token bucket, GCRA and
// leaky bucket: the refill and the one comparison all three make.
var bucketMarks = []Mark{
	{Label: "refill: elapsed time pays back debt (time × rate, exact integers)", Text: "func (b *bucketMath) pay(", When: []Outcome{Allowed, Denied, Never, Peek}},
	{Label: "more than the bucket can ever hold: never", Text: "case int64(n) > b.burst:", When: []Outcome{Never}},
	{Label: "the test: debt + n tokens still within a full bucket's debt", Text: "next <= b.full {", When: []Outcome{Allowed, Denied}},
	{Label: "retry after: the time that pays back the missing debt, rounded up", Text: "d.RetryAfter = time.Duration(b.perNsDiv.ceil(o.next + int64(n)*b.unit - b.full))", When: []Outcome{Denied}},
}

var sources = []Source{
	{Kind: limiter.KindTokenBucket, Files: []File{
		{Name: "tokenbucket.go", Marks: []Mark{
			{Label: "time never runs backwards: a stale request is evaluated at the latest instant", Text: "if now < tb.last {"},
			{Label: "tokens now: the debt at the last update, minus the refill since", Text: "return now, tb.m.pay(tb.debt, now-tb.last)"},
			{Label: "decide against the bucket", Text: "ok, next := tb.m.admit(debt, n)"},
			{Label: "only an admitted request changes the state", Text: "tb.used, tb.last, tb.debt = true, at, next", When: []Outcome{Allowed}},
		}},
		{Name: "bucket.go", Marks: bucketMarks},
	}},
	{Kind: limiter.KindGCRA, Files: []File{
		{Name: "gcra.go", Marks: []Mark{
			{Label: "time never runs backwards", Text: "if now < g.last {"},
			{Label: "how far TAT is ahead of now (0 when the bucket is full): its lead at the last update, minus the time since", Text: "return now, g.m.pay(g.ahead, now-g.last)"},
			{Label: "decide: max(TAT, now) + n × T − now ≤ τ, as a debt", Text: "ok, next := g.m.admit(ahead, n)"},
			{Label: "admitted: TAT moves to max(TAT, now) + n × T, kept as its lead over now", Text: "g.used, g.last, g.ahead = true, at, next", When: []Outcome{Allowed}},
		}},
		{Name: "bucket.go", Marks: bucketMarks},
	}},
	{Kind: limiter.KindLeakyBucket, Files: []File{
		{Name: "leakybucket.go", Marks: []Mark{
			{Label: "time never runs backwards", Text: "if now < lb.last {"},
			{Label: "level now: the water at the last update, minus what leaked since", Text: "return now, lb.m.pay(lb.water, now-lb.last)"},
			{Label: "decide: level + n ≤ capacity", Text: "ok, next := lb.m.admit(water, n)"},
			{Label: "queue delay: (level after − 1) × leak interval", Text: "d.Delay = max(time.Duration(o.next)-o.m.interval, 0)", When: []Outcome{Allowed}},
		}},
		{Name: "bucket.go", Marks: bucketMarks},
	}},
	{Kind: limiter.KindFixedWindow, Files: []File{{Name: "fixedwindow.go", Marks: []Mark{
		{Label: "window index: ⌊now ÷ window⌋", Text: "idx := floorDiv(int64(now), int64(fw.window))"},
		{Label: "a new window starts at count 0", Text: "if !fw.used || idx != fw.index {"},
		{Label: "more than a window can ever hold: never", Text: "case int64(n) > fw.limit:", When: []Outcome{Never}},
		{Label: "the test: count + n > limit denies", Text: "case n > 0 && int64(n) > fw.limit-count:", When: []Outcome{Denied}},
		{Label: "retry after: until the next window", Text: "d.RetryAfter = untilNext", When: []Outcome{Denied}},
		{Label: "admitted: counted in this window", Text: "fw.used, fw.last, fw.index, fw.count = true, at, idx, count", When: []Outcome{Allowed}},
	}}}},
	{Kind: limiter.KindSlidingWindowLog, Files: []File{{Name: "slidinglog.go", Marks: []Mark{
		{Label: "expired entries: now − e ≥ window (binary search, the log is in time order)", Text: "now-sl.entry(i) < sl.window"},
		{Label: "count the entries still in the window", Text: "count := sl.size - expired"},
		{Label: "more than a window can ever hold: never", Text: "case n > sl.limit:", When: []Outcome{Never}},
		{Label: "the test: count + n > limit denies", Text: "case n > 0 && count+n > sl.limit:", When: []Outcome{Denied}},
		{Label: "retry after: when the entry that blocks expires", Text: "d.RetryAfter = sl.entry(expired+count+n-sl.limit-1) + sl.window - at", When: []Outcome{Denied}},
		{Label: "admitted: trim the expired entries, record n instants", Text: "sl.record(at, expired, n)", When: []Outcome{Allowed}},
	}}}},
	{Kind: limiter.KindSlidingWindowCounter, Files: []File{{Name: "slidingcounter.go", Marks: []Mark{
		{Label: "elapsed time into the current window", Text: "c.elapsed = int64(now) - c.index*w"},
		{Label: "the window just before: its count becomes prev", Text: "case sc.index + 1:"},
		{Label: "the weighted test, in integers: prev × (window − e) ≤ (limit − curr − n) × window", Text: "return mulLE(c.prev, c.window-e, r-n, c.window)"},
		{Label: "more than a window can ever hold: never", Text: "case n64 > sc.limit:", When: []Outcome{Never}},
		{Label: "denied when n does not fit", Text: "case n > 0 && !c.fits(n64, c.elapsed):", When: []Outcome{Denied}},
		{Label: "retry after: when prev's weight has shrunk enough, or the next window", Text: "d.RetryAfter = c.retryAfter(n64)", When: []Outcome{Denied}},
		{Label: "admitted: counted in the current window", Text: "sc.used, sc.last, sc.index, sc.curr, sc.prev = true, c.at, c.index, c.curr, c.prev", When: []Outcome{Allowed}},
	}}}},
}

// Sources returns the source index: one Source per strategy, in the order of
// limiter.Kinds.
func Sources() []Source { return slices.Clone(sources) }

// SourceOf returns the Source for kind, and false for an unknown kind.
func SourceOf(kind limiter.Kind) (Source, bool) {
	for _, s := range sources {
		if s.Kind == kind {
			return s, true
		}
	}
	return Source{}, false
}

// FileNames returns the names of the files a Source shows, in order.
func (s Source) FileNames() []string {
	names := make([]string, len(s.Files))
	for i, f := range s.Files {
		names[i] = f.Name
	}
	return names
}

// Find returns the lines of content (1-based, inclusive) that m marks. It
// returns an error when m.Text is on no line or on more than one.
func (m Mark) Find(content string) (from, to int, err error) {
	lines := strings.Split(content, "\n")
	found := 0
	for i, l := range lines {
		if strings.Contains(l, m.Text) {
			if found == 0 {
				from = i + 1
			}
			found++
		}
	}
	switch {
	case found == 0:
		return 0, 0, fmt.Errorf("mark %q: text not found", m.Text)
	case found > 1:
		return 0, 0, fmt.Errorf("mark %q: text found on %d lines; want exactly 1", m.Text, found)
	}
	to = from
	start := lines[from-1]
	if strings.HasSuffix(strings.TrimRight(start, " \t"), "{") {
		indent := start[:len(start)-len(strings.TrimLeft(start, " \t"))]
		for i := from; i < len(lines); i++ {
			if strings.HasPrefix(lines[i], indent+"}") {
				return from, i + 1, nil
			}
		}
		return 0, 0, fmt.Errorf("mark %q: block opened on line %d is not closed", m.Text, from)
	}
	return from, to, nil
}

// Highlights returns the stretches of f's content that matter for outcome
// o, in file order.
func (f File) Highlights(content string, o Outcome) ([]Highlight, error) {
	var hs []Highlight
	for _, m := range f.Marks {
		if !m.Matters(o) {
			continue
		}
		from, to, err := m.Find(content)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		hs = append(hs, Highlight{File: f.Name, From: from, To: to, Label: m.Label})
	}
	slices.SortFunc(hs, func(a, b Highlight) int { return a.From - b.From })
	return hs, nil
}

// Highlights returns, for every file of s (read with read, which gets a file
// name: from web/src/ in the page, from limiter/ in tests), the stretches
// that matter for outcome o.
func (s Source) Highlights(read func(name string) (string, error), o Outcome) ([]Highlight, error) {
	var hs []Highlight
	for _, f := range s.Files {
		content, err := read(f.Name)
		if err != nil {
			return nil, err
		}
		h, err := f.Highlights(content, o)
		if err != nil {
			return nil, err
		}
		hs = append(hs, h...)
	}
	return hs, nil
}

// CheckMarks checks every mark of every Source against the files in dir
// (limiter/ or a shipped copy): each mark's text on exactly one line, each
// block closed. It returns all problems found, joined.
func CheckMarks(dir string) error {
	var errs []error
	for _, s := range sources {
		for _, f := range s.Files {
			b, err := os.ReadFile(filepath.Join(dir, f.Name))
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", s.Kind, err))
				continue
			}
			for _, m := range f.Marks {
				if _, _, err := m.Find(string(b)); err != nil {
					errs = append(errs, fmt.Errorf("%s: %s: %w", s.Kind, f.Name, err))
				}
			}
		}
	}
	return errors.Join(errs...)
}

// LimiterDir returns the limiter/ folder of this module, found by walking up
// from the working directory to the go.mod of github.com/ratelab/ratelab
// (tests run in their package's folder).
func LimiterDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.Contains(b, []byte("module github.com/ratelab/ratelab\n")) {
			return filepath.Join(dir, "limiter"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("limiter dir: no go.mod of github.com/ratelab/ratelab above the working directory")
		}
		dir = parent
	}
}

// ShippedFiles returns the names of the files the page ships from dir: the
// .go files that are not tests, sorted.
func ShippedFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, nil
}

// CheckShipped verifies that dir (a copy of the limiter sources, such as
// web/src/, or a folder the e2e test filled from what the server serves)
// holds exactly the non-test .go files of this module's limiter/, byte for
// byte: none missing, none extra, none different. It reports every
// difference, with the first differing line of each file.
func CheckShipped(dir string) error {
	lim, err := LimiterDir()
	if err != nil {
		return err
	}
	return CompareShipped(dir, lim)
}

// CompareShipped is CheckShipped against an explicit limiter folder.
func CompareShipped(dir, limiterDir string) error {
	want, err := ShippedFiles(limiterDir)
	if err != nil {
		return err
	}
	got, err := ShippedFiles(dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, n := range got {
		if !slices.Contains(want, n) {
			errs = append(errs, fmt.Errorf("%s: shipped but not in %s", n, limiterDir))
		}
	}
	for _, n := range want {
		a, err := os.ReadFile(filepath.Join(limiterDir, n))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: not shipped: %w", n, err))
			continue
		}
		if !bytes.Equal(a, b) {
			errs = append(errs, fmt.Errorf("%s: shipped copy differs from %s, first at line %d", n, limiterDir, firstDiff(a, b)))
		}
	}
	return errors.Join(errs...)
}

func firstDiff(a, b []byte) int {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(la) && i < len(lb); i++ {
		if !bytes.Equal(la[i], lb[i]) {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}
