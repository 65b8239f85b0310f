package sim

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
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

// lines calls f with each line (without its end of line, "\r\n" or "\n")
// and its 1-based number; it stops at f's first error, and reports lines
// over the limits.
func lines(r io.Reader, f func(num int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	num := 0
	for sc.Scan() {
		num++
		if num > MaxTraceLines {
			return fmt.Errorf("line %d: the trace has more than %d lines; want at most %d", num, MaxTraceLines, MaxTraceLines)
		}
		line := bytes.TrimSuffix(sc.Bytes(), []byte("\r"))
		if !utf8.Valid(line) {
			// Read as UTF-8, "José" and "Josè" in Latin-1 would both
			// become "Jos\ufffd": two clients counted as one.
			return fmt.Errorf("line %d: is not UTF-8 text; want the file saved as UTF-8", num)
		}
		if err := f(num, line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return fmt.Errorf("line %d: longer than %d bytes; want shorter lines", num+1, maxLineBytes)
		}
		return fmt.Errorf("line %d: %v", num+1, err)
	}
	return nil
}

// ParseCSV reads a trace of lines "t_ms,client[,n]": t_ms is the request's
// instant in milliseconds (a decimal number ≥ 0, fractions allowed down to
// the nanosecond), client a non-empty name, n the units requested (an
// integer ≥ 1; 1 when absent). A first line with a field "t_ms" or
// "client" is a header: its column names select t_ms, client and n, so the built-in NASA
// file (t_ms,client,method,path,status,bytes) is read as is. Blank lines are
// skipped.
//
// Times must be non-decreasing: a CSV trace is a recording, and a line out
// of order is far more likely a wrong column than a real event, so it is an
// error naming the line rather than silently sorted.
//
// On any error, ParseCSV returns no trace and an error naming the line and
// what was wrong, e.g. `line 7: t_ms "abc" is not a number`.
func ParseCSV(r io.Reader) (*Trace, error) {
	b := traceBuilder{intern: map[string]string{}}
	colT, colC, colN, nCols := 0, 1, 2, -1
	var prev Instant
	fields := make([][]byte, 0, 8)
	first := true // a header can only be the first non-blank line
	err := lines(r, func(num int, line []byte) error {
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		fields = splitComma(fields[:0], line)
		isFirst := first
		first = false
		if isFirst && isHeader(fields) {
			return header(num, fields, &colT, &colC, &colN, &nCols)
		}
		if nCols < 0 && len(fields) != 2 && len(fields) != 3 {
			return fmt.Errorf("line %d: %s; want 2 or 3 (t_ms,client[,n])", num, nFields(len(fields)))
		}
		if nCols >= 0 && len(fields) != nCols {
			return fmt.Errorf("line %d: %s; want %d as in the header", num, nFields(len(fields)), nCols)
		}
		at, err := parseMillis(string(bytes.TrimSpace(fields[colT])))
		if err != nil {
			return fmt.Errorf("line %d: %v", num, err)
		}
		client := bytes.TrimSpace(fields[colC])
		if len(client) == 0 {
			return fmt.Errorf("line %d: client is empty; want a name", num)
		}
		n := 1
		if colN >= 0 && colN < len(fields) {
			s := string(bytes.TrimSpace(fields[colN]))
			v, err := strconv.Atoi(s)
			switch {
			case errors.Is(err, strconv.ErrRange):
				return fmt.Errorf("line %d: n %s is out of range; want an integer from 1 to %d", num, s, math.MaxInt)
			case err != nil:
				return fmt.Errorf("line %d: n %q is not an integer; want an integer >= 1", num, s)
			case v < 1:
				return fmt.Errorf("line %d: n %d is below 1; want an integer >= 1", num, v)
			}
			n = v
		}
		if len(b.t.Events) > 0 && at < prev {
			return fmt.Errorf("line %d: t_ms %s is before the previous request's %s; want non-decreasing times", num, fmtMillis(at), fmtMillis(prev))
		}
		prev = at
		b.add(at, client, n)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &b.t, nil
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

// parseMillis parses a decimal number of milliseconds exactly.
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
		if strings.HasPrefix(s, "-") {
			return 0, fmt.Errorf("t_ms %q is negative; want milliseconds >= 0", s)
		}
		return 0, fmt.Errorf("t_ms %q is not a number in plain digits; want milliseconds >= 0, such as 1500 or 12.5", s)
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
	b := traceBuilder{intern: map[string]string{}}
	var stamps []time.Time
	err := lines(r, func(num int, line []byte) error {
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
		stamps = append(stamps, t)
		b.add(0, line[:sp], 1)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(stamps) == 0 {
		return &b.t, nil
	}
	first := stamps[0]
	for _, t := range stamps {
		if t.Before(first) {
			first = t
		}
	}
	for i, t := range stamps {
		b.t.Events[i].At = t.Sub(first)
	}
	sort.SliceStable(b.t.Events, func(i, j int) bool { return b.t.Events[i].At < b.t.Events[j].At })
	return &b.t, nil
}

// ParseTrace reads a trace in either format: an access log when the first
// non-blank line has a CLF timestamp ("[10/Oct/2000:13:55:36"), else CSV (a
// CSV client may hold a '[', as an IPv6 address "[::1]" does).
func ParseTrace(name string, data []byte) (*Trace, error) {
	// A byte-order mark, as spreadsheets write at the start of a UTF-8 CSV.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	first := data
	for len(first) > 0 {
		i := bytes.IndexByte(first, '\n')
		line := first
		if i >= 0 {
			line = first[:i]
		}
		if len(bytes.TrimSpace(line)) > 0 {
			first = line
			break
		}
		if i < 0 {
			first = nil
			break
		}
		first = first[i+1:]
	}
	var t *Trace
	var err error
	if looksCLF(first) {
		t, err = ParseCLF(bytes.NewReader(data))
	} else {
		t, err = ParseCSV(bytes.NewReader(data))
	}
	if err != nil {
		return nil, err
	}
	if len(t.Events) == 0 {
		return nil, errors.New("the file has no requests; want lines of t_ms,client[,n] or an access log in Common / Combined Log Format")
	}
	if end := t.Events[len(t.Events)-1].At; end > MaxTraceSpan {
		return nil, fmt.Errorf("the log spans more than %d ms (about 158 years) from its first request; want a shorter span", MaxTraceSpan/time.Millisecond)
	}
	t.Name = name
	return t, nil
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
