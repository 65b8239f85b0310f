package sim

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxTraceLines is the most lines a trace file may have (header included),
// so a dropped file cannot exhaust a browser tab's memory.
const MaxTraceLines = 200000

// maxLineBytes is the longest line a trace may have.
const maxLineBytes = 64 << 10

// Trace is a recorded stream of requests, in time order, with instants
// relative to the trace's first request.
type Trace struct {
	// Name describes where the trace came from ("nasa-1995-08-01.csv").
	Name   string
	Events []Event
	// Clients lists the distinct clients in order of first appearance.
	Clients []string
}

// End returns the instant of the trace's last request (0 when empty).
func (t *Trace) End() Instant {
	if t == nil || len(t.Events) == 0 {
		return 0
	}
	return t.Events[len(t.Events)-1].At
}

// traceBuilder interns client names, so that 20,000 requests from 1,656
// clients hold 1,656 strings.
type traceBuilder struct {
	t      Trace
	intern map[string]string
}

func (b *traceBuilder) add(at Instant, client []byte, n int) {
	c, ok := b.intern[string(client)] // no allocation for the lookup
	if !ok {
		c = string(client)
		b.intern[c] = c
		b.t.Clients = append(b.t.Clients, c)
	}
	b.t.Events = append(b.t.Events, Event{At: at, Client: c, N: n})
}

// lineReader yields a file's lines one at a time (without the end of line,
// "\r\n" or "\n"), numbered from 1, and reports lines over the limits.
type lineReader struct {
	sc   *bufio.Scanner
	num  int
	read int // bytes consumed, ends of line included
}

func newLineReader(r io.Reader) *lineReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	return &lineReader{sc: sc}
}

// next returns the next line and its number; ok is false at the end.
func (lr *lineReader) next() (num int, line []byte, ok bool, err error) {
	if !lr.sc.Scan() {
		if err := lr.sc.Err(); err != nil {
			if err == bufio.ErrTooLong {
				return 0, nil, false, fmt.Errorf("line %d: longer than %d bytes; want shorter lines", lr.num+1, maxLineBytes)
			}
			return 0, nil, false, fmt.Errorf("line %d: %v", lr.num+1, err)
		}
		return 0, nil, false, nil
	}
	lr.num++
	lr.read += len(lr.sc.Bytes()) + 1
	if lr.num > MaxTraceLines {
		return 0, nil, false, fmt.Errorf("line %d: the trace has more than %d lines; want at most %d", lr.num, MaxTraceLines, MaxTraceLines)
	}
	line = bytes.TrimSuffix(lr.sc.Bytes(), []byte("\r"))
	if !utf8.Valid(line) {
		// Read as UTF-8, "José" and "Josè" in Latin-1 would both
		// become "Jos\ufffd": two clients counted as one.
		return 0, nil, false, fmt.Errorf("line %d: is not UTF-8 text; want the file saved as UTF-8", lr.num)
	}
	return lr.num, line, true, nil
}

// lineParser reads a trace format line by line.
type lineParser interface {
	line(num int, line []byte) error
	trace() *Trace
}

// parseAll reads every line of r with p.
func parseAll(r io.Reader, p lineParser) (*Trace, error) {
	lr := newLineReader(r)
	for {
		num, line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return p.trace(), nil
		}
		if err := p.line(num, line); err != nil {
			return nil, err
		}
	}
}

// ParseCSV reads a trace of lines "t_ms,client[,n]": t_ms is the request's
// instant in milliseconds (a decimal number ≥ 0, fractions allowed down to
// the nanosecond, "-0" being 0), client a non-empty name, n the units
// requested (an integer ≥ 1; 1 when absent). A first line with a field
// "t_ms" or "client" is a header: its column names select t_ms, client and
// n, so the built-in NASA file (t_ms,client,method,path,status,bytes) is
// read as is. Blank lines are skipped.
//
// Times must be non-decreasing: a CSV trace is a recording, and a line out
// of order is far more likely a wrong column than a real event, so it is an
// error naming the line rather than silently sorted.
//
// On any error, ParseCSV returns no trace and an error naming the line and
// what was wrong, e.g. `line 7: t_ms "abc" is not a number`.
func ParseCSV(r io.Reader) (*Trace, error) { return parseAll(r, newCSVParser()) }

// csvParser is ParseCSV's state between lines.
type csvParser struct {
	b                       traceBuilder
	colT, colC, colN, nCols int
	prev                    Instant
	fields                  [][]byte
	first                   bool // a header can only be the first non-blank line
}

func newCSVParser() *csvParser {
	return &csvParser{b: traceBuilder{intern: map[string]string{}}, colT: 0, colC: 1, colN: 2, nCols: -1, fields: make([][]byte, 0, 8), first: true}
}

func (p *csvParser) trace() *Trace { return &p.b.t }

func (p *csvParser) line(num int, line []byte) error {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	p.fields = splitComma(p.fields[:0], line)
	isFirst := p.first
	p.first = false
	if isFirst && isHeader(p.fields) {
		return header(num, p.fields, &p.colT, &p.colC, &p.colN, &p.nCols)
	}
	if err := p.checkFieldCount(num); err != nil {
		return err
	}
	at, err := parseMillis(string(bytes.TrimSpace(p.fields[p.colT])))
	if err != nil {
		return fmt.Errorf("line %d: %v", num, err)
	}
	client := bytes.TrimSpace(p.fields[p.colC])
	if len(client) == 0 {
		return fmt.Errorf("line %d: client is empty; want a name", num)
	}
	n := 1
	if p.colN >= 0 && p.colN < len(p.fields) {
		if n, err = parseUnits(string(bytes.TrimSpace(p.fields[p.colN]))); err != nil {
			return fmt.Errorf("line %d: %v", num, err)
		}
	}
	if len(p.b.t.Events) > 0 && at < p.prev {
		return fmt.Errorf("line %d: t_ms %s is before the previous request's %s; want non-decreasing times", num, fmtMillis(at), fmtMillis(p.prev))
	}
	p.prev = at
	p.b.add(at, client, n)
	return nil
}

// checkFieldCount checks the number of fields of line num: 2 or 3, or as
// many as the header has.
func (p *csvParser) checkFieldCount(num int) error {
	if p.nCols < 0 && len(p.fields) != 2 && len(p.fields) != 3 {
		return fmt.Errorf("line %d: %s; want 2 or 3 (t_ms,client[,n])", num, nFields(len(p.fields)))
	}
	if p.nCols >= 0 && len(p.fields) != p.nCols {
		return fmt.Errorf("line %d: %s; want %d as in the header", num, nFields(len(p.fields)), p.nCols)
	}
	return nil
}

// parseUnits reads a line's n: an integer ≥ 1.
func parseUnits(s string) (int, error) {
	v, err := strconv.Atoi(s)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("n %s is out of range; want an integer from 1 to %d", s, math.MaxInt)
	case err != nil:
		return 0, fmt.Errorf("n %q is not an integer; want an integer >= 1", s)
	case v < 1:
		return 0, fmt.Errorf("n %d is below 1; want an integer >= 1", v)
	}
	return v, nil
}

// isHeader reports whether a first line names columns: it has a field
// "t_ms" or "client" (a client may not be called "client" on line 1).
func isHeader(fields [][]byte) bool {
	for _, f := range fields {
		if s := string(bytes.TrimSpace(f)); s == "t_ms" || s == "client" {
			return true
		}
	}
	return false
}

func header(num int, fields [][]byte, colT, colC, colN, nCols *int) error {
	*colT, *colC, *colN = -1, -1, -1
	for i, f := range fields {
		switch strings.TrimSpace(string(f)) {
		case "t_ms":
			*colT = i
		case "client":
			*colC = i
		case "n":
			*colN = i
		}
	}
	if *colT < 0 || *colC < 0 {
		return fmt.Errorf("line %d: header lacks a t_ms or client column; want t_ms,client[,n]", num)
	}
	*nCols = len(fields)
	return nil
}

func splitComma(dst [][]byte, line []byte) [][]byte {
	for {
		i := bytes.IndexByte(line, ',')
		if i < 0 {
			return append(dst, line)
		}
		dst = append(dst, line[:i])
		line = line[i+1:]
	}
}

// parseMillis parses a decimal number of milliseconds exactly: plain
// digits with at most one '.', at most 6 decimal places that are not zero
// (a nanosecond is the finest instant), and "-0" (any zero) as 0.
func parseMillis(s string) (Instant, error) {
	ok := s != ""
	dots := 0
	for i := 0; i < len(s) && ok; i++ {
		switch c := s[i]; {
		case c == '.':
			dots++
			ok = dots == 1 && len(s) > 1
		case c < '0' || c > '9':
			ok = false
		}
	}
	if !ok {
		if rest, neg := strings.CutPrefix(s, "-"); neg {
			if z, err := parseMillis(rest); err == nil && z == 0 && !strings.HasPrefix(rest, "-") {
				return 0, nil
			}
			return 0, fmt.Errorf("t_ms %q is negative; want milliseconds >= 0", s)
		}
		return 0, fmt.Errorf("t_ms %q is not a number in plain digits; want milliseconds >= 0, such as 1500 or 12.5", s)
	}
	if _, frac, _ := strings.Cut(s, "."); len(strings.TrimRight(frac, "0")) > 6 {
		return 0, fmt.Errorf("t_ms %s is finer than 1 ns; want at most 6 decimal places", s)
	}
	d, err := time.ParseDuration(s + "ms")
	if err != nil || d > MaxTraceSpan {
		return 0, fmt.Errorf("t_ms %s is out of range; want at most %d (about 158 years)", s, MaxTraceSpan/time.Millisecond)
	}
	return d, nil
}

// MaxTraceSpan is the latest instant of a trace, 5 × 10^12 ms (about 158
// years): far enough for a Unix time in milliseconds (until 2128), and far
// enough below the largest instant, 292 years, that the lab's arithmetic
// on it cannot overflow. At the largest instant itself, "Run to end" never
// ended.
const MaxTraceSpan = 5e12 * time.Millisecond

func fmtMillis(d Instant) string {
	return strconv.FormatFloat(float64(d)/1e6, 'f', -1, 64)
}

// clfLayout is the timestamp of the Common Log Format.
const clfLayout = "02/Jan/2006:15:04:05 -0700"

// ParseCLF reads an access log in Common or Combined Log Format:
//
//	host ident authuser [02/Jan/2006:15:04:05 -0700] "GET / HTTP/1.0" 200 2326 ["referer" "agent"]
//
// The client is the host; the instant is the bracketed timestamp relative to
// the earliest line's, in milliseconds (one-second resolution, as logged);
// every request is of 1 unit. Servers write a line when the response is
// complete, so a log can be slightly out of order: lines are sorted stably
// by time (equal times keep the file's order). Blank lines are skipped.
//
// On any error, ParseCLF returns no trace and an error naming the line and
// what was wrong.
func ParseCLF(r io.Reader) (*Trace, error) {
	return parseAll(r, &clfParser{b: traceBuilder{intern: map[string]string{}}})
}

// clfParser is ParseCLF's state between lines.
type clfParser struct {
	b      traceBuilder
	stamps []time.Time
}

func (p *clfParser) line(num int, line []byte) error {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	sp := bytes.IndexByte(line, ' ')
	if sp <= 0 {
		return fmt.Errorf("line %d: no host before the first space; want Common Log Format: host ident authuser [02/Jan/2006:15:04:05 -0700] \"request\" status bytes", num)
	}
	open := bytes.IndexByte(line, '[')
	end := bytes.IndexByte(line, ']')
	if open < 0 || end < open {
		return fmt.Errorf("line %d: no [timestamp]; want Common Log Format: host ident authuser [02/Jan/2006:15:04:05 -0700] \"request\" status bytes", num)
	}
	ts := string(line[open+1 : end])
	t, err := time.Parse(clfLayout, ts)
	if err != nil {
		return fmt.Errorf("line %d: timestamp %q is not a date like 01/Aug/1995:00:00:01 -0400", num, ts)
	}
	p.stamps = append(p.stamps, t)
	p.b.add(0, line[:sp], 1)
	return nil
}

// trace makes the instants relative to the earliest line's and sorts the
// requests stably by time (a log is usually in order already).
func (p *clfParser) trace() *Trace {
	if len(p.stamps) == 0 {
		return &p.b.t
	}
	first := p.stamps[0]
	for _, t := range p.stamps {
		if t.Before(first) {
			first = t
		}
	}
	ev := p.b.t.Events
	for i, t := range p.stamps {
		ev[i].At = t.Sub(first)
	}
	byTime := func(a, b Event) int { return cmp.Compare(a.At, b.At) }
	if !slices.IsSortedFunc(ev, byTime) {
		slices.SortStableFunc(ev, byTime)
	}
	return &p.b.t
}

// ParseTrace reads a trace in either format: an access log when the first
// non-blank line has a CLF timestamp ("[10/Oct/2000:13:55:36"), else CSV (a
// CSV client may hold a '[', as an IPv6 address "[::1]" does). It is
// NewTraceReader's whole work at once.
func ParseTrace(name string, data []byte) (*Trace, error) {
	r := NewTraceReader(name, data)
	for !r.Step(math.MaxInt) {
	}
	return r.Result()
}

// TraceReader reads a trace file in parts (Step), so that a page can read
// a file of MaxTraceLines lines between frames; its result is ParseTrace's.
type TraceReader struct {
	name string
	size int
	lr   *lineReader
	p    lineParser
	done bool
	t    *Trace
	err  error
}

// NewTraceReader starts reading data, the file called name (see
// ParseTrace for the formats).
func NewTraceReader(name string, data []byte) *TraceReader {
	// A byte-order mark, as spreadsheets write at the start of a UTF-8 CSV.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	r := &TraceReader{name: name, size: len(data), lr: newLineReader(bytes.NewReader(data))}
	if i := bytes.IndexByte(data, '\r'); i >= 0 && i < len(data)-1 && bytes.IndexByte(data, '\n') < 0 {
		r.done, r.err = true, errors.New("the file's lines end with a carriage return alone (classic Mac OS); want the file saved with LF or CR LF line endings")
		return r
	}
	if looksCLF(firstLine(data)) {
		r.p = &clfParser{b: traceBuilder{intern: map[string]string{}}}
	} else {
		r.p = newCSVParser()
	}
	return r
}

// Step reads up to maxLines more lines and reports whether the reading is
// over (then Result has the trace or the error).
func (r *TraceReader) Step(maxLines int) (done bool) {
	for i := 0; i < maxLines && !r.done; i++ {
		num, line, ok, err := r.lr.next()
		switch {
		case err != nil:
			r.done, r.err = true, err
		case !ok:
			r.done = true
			r.t, r.err = r.finish(r.p.trace())
		default:
			if err := r.p.line(num, line); err != nil {
				r.done, r.err = true, err
			}
		}
	}
	return r.done
}

// Progress is the share of the file read so far, from 0 to 1.
func (r *TraceReader) Progress() float64 {
	if r.done || r.size == 0 {
		return 1
	}
	return min(float64(r.lr.read)/float64(r.size), 1)
}

// Result returns the trace, or the error that ended the reading (nil, nil
// before Step has reported the end).
func (r *TraceReader) Result() (*Trace, error) {
	if r.err != nil {
		return nil, r.err
	}
	return r.t, nil
}

func (r *TraceReader) finish(t *Trace) (*Trace, error) {
	if len(t.Events) == 0 {
		return nil, errors.New("the file has no requests; want lines of t_ms,client[,n] or an access log in Common / Combined Log Format")
	}
	if end := t.Events[len(t.Events)-1].At; end > MaxTraceSpan {
		return nil, fmt.Errorf("the log spans more than %d ms (about 158 years) from its first request; want a shorter span", MaxTraceSpan/time.Millisecond)
	}
	t.Name = r.name
	return t, nil
}

// firstLine is data's first non-blank line (nil when there is none).
func firstLine(data []byte) []byte {
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		if len(bytes.TrimSpace(line)) > 0 {
			return line
		}
		data = rest
	}
	return nil
}

// looksCLF reports whether line has a Common Log Format timestamp: '[',
// then dd/Mon/yyyy: ("[10/Oct/2000:").
func looksCLF(line []byte) bool {
	for {
		i := bytes.IndexByte(line, '[')
		if i < 0 {
			return false
		}
		line = line[i+1:]
		if len(line) >= 12 && line[2] == '/' && line[6] == '/' && line[11] == ':' {
			return true
		}
	}
}
