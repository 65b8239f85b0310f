package sim

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseCSV(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Event
	}{
		{"no header, optional n", "0,alice\n1000,bob,3\n1000.5,alice\n", []Event{{0, "alice", 1}, {1000 * ms, "bob", 3}, {1000*ms + 500*time.Microsecond, "alice", 1}}},
		{"header t_ms,client,n; CRLF; blank lines", "t_ms,client,n\r\n\r\n5,a,2\r\n7,b,1\r\n", []Event{{5 * ms, "a", 2}, {7 * ms, "b", 1}}},
		{"NASA header", "t_ms,client,method,path,status,bytes\n0,c0001,GET,/,200,1839\n6000,c0002,GET,/images/a.gif,304,0\n", []Event{{0, "c0001", 1}, {6 * time.Second, "c0002", 1}}},
		{"header with columns in another order", "client,t_ms\nx,10\n", []Event{{10 * ms, "x", 1}}},
		{"-0 is 0; trailing zeros past the nanosecond", "-0,a\n-0.000,b\n1.0000010000,c\n", []Event{{0, "a", 1}, {0, "b", 1}, {ms + time.Nanosecond, "c", 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ParseCSV(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(tr.Events, tt.want) {
				t.Errorf("events = %v; want %v", tr.Events, tt.want)
			}
		})
	}
}

func TestParseCSVErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0,a\n1,b\nabc,c\n", `line 3: t_ms "abc" is not a number in plain digits; want milliseconds >= 0, such as 1500 or 12.5`},
		{"0,a\n-5,b\n", `line 2: t_ms "-5" is negative; want milliseconds >= 0`},
		{"0,a\n1.0000001,b\n", "line 2: t_ms 1.0000001 is finer than 1 ns; want at most 6 decimal places"},
		{"0,a\n0.1234567890,b\n", "line 2: t_ms 0.1234567890 is finer than 1 ns; want at most 6 decimal places"},
		{"0,a\n-0.5,b\n", `line 2: t_ms "-0.5" is negative; want milliseconds >= 0`},
		{"0,a\n--0,b\n", `line 2: t_ms "--0" is negative; want milliseconds >= 0`},
		{"0,a\n1e300,b\n", `line 2: t_ms "1e300" is not a number in plain digits; want milliseconds >= 0, such as 1500 or 12.5`},
		{"0,a\n\n1.2.3,b\n", `line 3: t_ms "1.2.3" is not a number in plain digits; want milliseconds >= 0, such as 1500 or 12.5`},
		{"0,a\n1\n", "line 2: 1 field; want 2 or 3 (t_ms,client[,n])"},
		{"0,a,1,x\n", "line 1: 4 fields; want 2 or 3 (t_ms,client[,n])"},
		{"0, \n", "line 1: client is empty; want a name"},
		{"0,a,x\n", `line 1: n "x" is not an integer; want an integer >= 1`},
		{"0,a,0\n", "line 1: n 0 is below 1; want an integer >= 1"},
		{"0,a\n2000,b\n1500,c\n", "line 3: t_ms 1500 is before the previous request's 2000; want non-decreasing times"},
		{"t_ms,client,n\n1,a\n", "line 2: 2 fields; want 3 as in the header"},
		{"t_ms,host\n1,a\n", "line 1: header lacks a t_ms or client column; want t_ms,client[,n]"},
		{"0,a\n" + strings.Repeat("x", 70000) + "\n", "line 2: longer than 65536 bytes; want shorter lines"},
		{"0,a,12345678901234567890\n", "line 1: n 12345678901234567890 is out of range; want an integer from 1 to 9223372036854775807"},
		// The largest instant "Run to end" can reach and stop (before, t_ms
		// up to 9223372036854 was taken, and the lab never got there).
		{"0,a\n5000000000001,b\n", "line 2: t_ms 5000000000001 is out of range; want at most 5000000000000 (about 158 years)"},
		{"0,a\n9223372036854,b\n", "line 2: t_ms 9223372036854 is out of range; want at most 5000000000000 (about 158 years)"},
		// Latin-1 "José": read as UTF-8 it would merge with "Josè".
		{"t_ms,client\n0,Jos\xe9\n5,Jos\xe8\n", "line 2: is not UTF-8 text; want the file saved as UTF-8"},
	}
	for _, tt := range tests {
		tr, err := ParseCSV(strings.NewReader(tt.in))
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseCSV(%.40q) error = %v\nwant %s", tt.in, err, tt.want)
		}
		if tr != nil {
			t.Errorf("ParseCSV(%.40q) returned a partial trace", tt.in)
		}
	}
}

func TestParseCSVTooManyLines(t *testing.T) {
	var b strings.Builder
	for range MaxTraceLines + 1 {
		b.WriteString("1,a\n")
	}
	tr, err := ParseCSV(strings.NewReader(b.String()))
	want := "line 200001: the trace has more than 200000 lines; want at most 200000"
	if tr != nil || err == nil || err.Error() != want {
		t.Errorf("error = %v; want %s", err, want)
	}
}

func TestParseCLF(t *testing.T) {
	in := `in24.inetnebr.com - - [01/Aug/1995:00:00:01 -0400] "GET /shuttle/missions/sts-68/news/sts-68-mcc-05.txt HTTP/1.0" 200 1839
uplherc.upl.com - - [01/Aug/1995:00:00:07 -0400] "GET / HTTP/1.0" 304 0
uplherc.upl.com - - [01/Aug/1995:00:00:08 -0400] "GET /images/ksclogo-medium.gif HTTP/1.0" 304 0
ix-esc-ca2-07.ix.netcom.com - - [01/Aug/1995:00:00:09 -0400] "GET /images/launch-logo.gif HTTP/1.0" 200 1713
127.0.0.1 - frank [01/Aug/1995:06:00:08 +0200] "GET /apache_pb.gif HTTP/1.0" 200 2326 "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)"
`
	tr, err := ParseCLF(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	// The combined-format line is at 04:00:08 UTC, 1 s after the second
	// line: sorted stably into place.
	want := []Event{
		{0, "in24.inetnebr.com", 1},
		{6 * time.Second, "uplherc.upl.com", 1},
		{7 * time.Second, "uplherc.upl.com", 1},
		{7 * time.Second, "127.0.0.1", 1},
		{8 * time.Second, "ix-esc-ca2-07.ix.netcom.com", 1},
	}
	if !reflect.DeepEqual(tr.Events, want) {
		t.Errorf("events =\n%v\nwant\n%v", tr.Events, want)
	}
	if want := []string{"in24.inetnebr.com", "uplherc.upl.com", "ix-esc-ca2-07.ix.netcom.com", "127.0.0.1"}; !reflect.DeepEqual(tr.Clients, want) {
		t.Errorf("clients = %v; want %v", tr.Clients, want)
	}
	// ParseTrace recognises the format.
	tr2, err := ParseTrace("access.log", []byte("\n"+in))
	if err != nil || !reflect.DeepEqual(tr2.Events, want) || tr2.Name != "access.log" {
		t.Errorf("ParseTrace = %v, %v", tr2, err)
	}
}

func TestParseCLFErrors(t *testing.T) {
	ok := `a - - [01/Aug/1995:00:00:01 -0400] "GET / HTTP/1.0" 200 1` + "\n"
	tests := []struct{ in, want string }{
		{ok + `b - - 01/Aug/1995:00:00:01 -0400 "GET / HTTP/1.0" 200 1`, `line 2: no [timestamp]; want Common Log Format: host ident authuser [02/Jan/2006:15:04:05 -0700] "request" status bytes`},
		{ok + ok + `c - - [32/Aug/1995:00:00:01 -0400] "GET / HTTP/1.0" 200 1`, `line 3: timestamp "32/Aug/1995:00:00:01 -0400" is not a date like 01/Aug/1995:00:00:01 -0400`},
		{` - - [01/Aug/1995:00:00:01 -0400] "GET /"`, `line 1: no host before the first space; want Common Log Format: host ident authuser [02/Jan/2006:15:04:05 -0700] "request" status bytes`},
	}
	for _, tt := range tests {
		tr, err := ParseCLF(strings.NewReader(tt.in))
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseCLF error = %v\nwant %s", err, tt.want)
		}
		if tr != nil {
			t.Error("ParseCLF returned a partial trace")
		}
	}
}

// The format is told by the first line's CLF timestamp, not by any '[': a
// CSV client may be an IPv6 address in brackets. An access log spanning
// more than MaxTraceSpan is refused. A Unix time in ms (2023) is taken.
func TestParseTraceFormat(t *testing.T) {
	tr, err := ParseTrace("v6.csv", []byte("0,[::1]\n5,[::2]\n"))
	if err != nil || len(tr.Events) != 2 || tr.Events[1].Client != "[::2]" || tr.Events[1].At != 5*time.Millisecond {
		t.Errorf("CSV with IPv6 clients: %v, %v", tr, err)
	}
	clf := `a - - [01/Aug/1995:00:00:01 -0400] "GET / HTTP/1.0" 200 1` + "\n" + `b - - [01/Aug/2195:00:00:01 -0400] "GET / HTTP/1.0" 200 1` + "\n"
	if tr, err := ParseTrace("long.log", []byte(clf)); tr != nil || err == nil || err.Error() != "the log spans more than 5000000000000 ms (about 158 years) from its first request; want a shorter span" {
		t.Errorf("log over 200 years: %v, %v", tr, err)
	}
	if tr, err := ParseTrace("bom.csv", []byte("\ufefft_ms,client\n0,a\n")); err != nil || len(tr.Events) != 1 || tr.Events[0].Client != "a" {
		t.Errorf("CSV with a byte-order mark: %v, %v", tr, err)
	}
	if tr, err := ParseTrace("epoch.csv", []byte("1700000000000,a\n1700000000500,a\n")); err != nil || tr.Events[1].At != 1700000000500*time.Millisecond {
		t.Errorf("Unix ms: %v, %v", tr, err)
	}
}

// An empty file, or a CSV with only its header, is refused rather than
// replacing a loaded trace with nothing.
func TestParseTraceEmpty(t *testing.T) {
	want := "the file has no requests; want lines of t_ms,client[,n] or an access log in Common / Combined Log Format"
	for _, data := range []string{"", "\n\n", "t_ms,client\n", "t_ms,client,method,path,status,bytes\n"} {
		if tr, err := ParseTrace("x.csv", []byte(data)); tr != nil || err == nil || err.Error() != want {
			t.Errorf("ParseTrace(%q) = %v, %v; want %q", data, tr, err, want)
		}
	}
}

// A file whose lines end with CR alone reads as one line; it is named as
// such rather than as a header without columns.
func TestParseTraceCROnly(t *testing.T) {
	want := "the file's lines end with a carriage return alone (classic Mac OS); want the file saved with LF or CR LF line endings"
	if tr, err := ParseTrace("mac.csv", []byte("t_ms,client\r0,a\r1,b\r")); tr != nil || err == nil || err.Error() != want {
		t.Errorf("CR-only file: %v, %v; want %s", tr, err, want)
	}
	if tr, err := ParseTrace("crlf.csv", []byte("t_ms,client\r\n0,a\r\n")); err != nil || len(tr.Events) != 1 {
		t.Errorf("CRLF file: %v, %v", tr, err)
	}
}

// TraceReader read in parts of any size gives ParseTrace's trace, with its
// progress rising to 1.
func TestTraceReaderInParts(t *testing.T) {
	data, err := os.ReadFile("../../web/data/nasa-1995-08-01.csv")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ParseTrace("nasa.csv", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []int{1, 7, 5000, 20001} {
		r := NewTraceReader("nasa.csv", data)
		steps, last := 0, 0.0
		for !r.Step(part) {
			steps++
			if p := r.Progress(); p < last || p > 1 {
				t.Fatalf("part %d: progress %v after %v", part, p, last)
			} else {
				last = p
			}
		}
		got, err := r.Result()
		if err != nil || !reflect.DeepEqual(got, want) || r.Progress() != 1 {
			t.Errorf("part %d: trace differs from ParseTrace's (err %v)", part, err)
		}
		if wantSteps := 20001 / part; steps != wantSteps {
			t.Errorf("part %d: %d steps before the end, want %d", part, steps, wantSteps)
		}
	}
	// An error stops the reading where it is, as ParseTrace does.
	r := NewTraceReader("bad.csv", []byte("0,a\n1,b\nx,c\n4,d\n"))
	if r.Step(2) {
		t.Fatal("done after 2 of 4 lines")
	}
	if !r.Step(2) {
		t.Fatal("not done after the bad line")
	}
	if tr, err := r.Result(); tr != nil || err == nil || err.Error() != `line 3: t_ms "x" is not a number in plain digits; want milliseconds >= 0, such as 1500 or 12.5` {
		t.Errorf("Result = %v, %v", tr, err)
	}
}
