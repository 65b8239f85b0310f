package sim

import (
	"testing"
	"time"
)

// TestParseClockLink: paused and t of a link, each read on its own; a bad
// one falls back alone, with the message the page shows by its clock.
func TestParseClockLink(t *testing.T) {
	const want = "want seconds from 0 to 86400, as the lab's clock shows them (t=12.345), or a duration (1.5s, 250ms, 2m)"
	cases := []struct {
		query string
		want  ClockLink
		err   string
	}{
		{"", ClockLink{}, ""},
		{"paused=1", ClockLink{Paused: true}, ""},
		{"paused=0&t=3", ClockLink{At: 3 * time.Second}, ""},
		{"paused=1&t=12.345", ClockLink{Paused: true, At: 12345 * ms}, ""},
		{"paused=1&t=0.3", ClockLink{Paused: true, At: 300 * ms}, ""},
		{"paused=1&t=1.000000001", ClockLink{Paused: true, At: time.Second + 1}, ""},
		{"paused=1&t=007.50", ClockLink{Paused: true, At: 7500 * ms}, ""},
		{"paused=1&t=86400", ClockLink{Paused: true, At: 24 * time.Hour}, ""},
		{"paused=1&t=39568", ClockLink{Paused: true, At: 39568 * time.Second}, ""},
		{"paused=1&t=1.5s", ClockLink{Paused: true, At: 1500 * ms}, ""},
		{"paused=1&t=250ms", ClockLink{Paused: true, At: 250 * ms}, ""},
		{"paused=1&t=2m", ClockLink{Paused: true, At: 2 * time.Minute}, ""},
		{"paused=1&t=1h30m0.000000001s", ClockLink{Paused: true, At: 90*time.Minute + 1}, ""},
		{"paused=1&t=24h", ClockLink{Paused: true, At: 24 * time.Hour}, ""},
		{"paused=1&t=24h1ns", ClockLink{Paused: true},
			`link: t: "24h1ns" is later than 86400 s; ` + want + `; using the default instant, t = 0 s`},
		{"paused=1&t=-1s", ClockLink{Paused: true},
			`link: t: "-1s" is before the lab's start; ` + want + `; using the default instant, t = 0 s`},
		{"paused=1&t=-x", ClockLink{Paused: true},
			`link: t: "-x" is not a number of seconds or a duration; ` + want + `; using the default instant, t = 0 s`},
		{"paused=1&t=1.5x", ClockLink{Paused: true},
			`link: t: "1.5x" is not a number of seconds or a duration; ` + want + `; using the default instant, t = 0 s`},
		{"paused=1&t=ms", ClockLink{Paused: true},
			`link: t: "ms" is not a number of seconds or a duration; ` + want + `; using the default instant, t = 0 s`},
		{"paused=1&t=abc", ClockLink{Paused: true},
			`link: t: "abc" is not a number of seconds or a duration; ` + want + `; using the default instant, t = 0 s`},
		{"paused=1&t=", ClockLink{Paused: true},
			`link: t: "" is not a number of seconds or a duration; ` + want + `; using the default instant, t = 0 s`},
		{"paused=1&t=-1", ClockLink{Paused: true},
			`link: t: "-1" is before the lab's start; ` + want + `; using the default instant, t = 0 s`},
		{"paused=1&t=1e3", ClockLink{Paused: true},
			`link: t: "1e3" is not a number of seconds or a duration; ` + want + `; using the default instant, t = 0 s`},
		{"paused=1&t=1.", ClockLink{Paused: true},
			`link: t: "1." is not a number of seconds or a duration; ` + want + `; using the default instant, t = 0 s`},
		{"paused=1&t=.5", ClockLink{Paused: true},
			`link: t: ".5" is not a number of seconds or a duration; ` + want + `; using the default instant, t = 0 s`},
		{"paused=1&t=1.0000000001", ClockLink{Paused: true},
			`link: t: "1.0000000001" has 10 decimals; want at most 9 (1 ns); using the default instant, t = 0 s`},
		{"paused=1&t=86400.000000001", ClockLink{Paused: true},
			`link: t: "86400.000000001" is later than 86400 s; ` + want + `; using the default instant, t = 0 s`},
		{"paused=1&t=99999999999999999999", ClockLink{Paused: true},
			`link: t: "99999999999999999999" is later than 86400 s; ` + want + `; using the default instant, t = 0 s`},
		{"paused=yes&t=2", ClockLink{At: 2 * time.Second},
			`link: paused: "yes" is not 1 or 0; want paused=1 to open paused; using the default clock, running`},
		{"paused=2&t=x", ClockLink{},
			"link: paused: \"2\" is not 1 or 0; want paused=1 to open paused; using the default clock, running\n" +
				`link: t: "x" is not a number of seconds or a duration; ` + want + `; using the default instant, t = 0 s`},
	}
	for _, c := range cases {
		q, err := ParseLink(c.query)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseClockLink(q)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if got != c.want || msg != c.err {
			t.Errorf("%q: %+v, %q; want %+v, %q", c.query, got, msg, c.want, c.err)
		}
	}
}

// TestClockLinkRoundTrip: a paused clock's link reads back to the same
// instant, to the nanosecond; a running clock writes nothing.
func TestClockLinkRoundTrip(t *testing.T) {
	for _, c := range []struct {
		at   Instant
		text string
	}{{0, "0"}, {990 * ms, "0.99"}, {12 * time.Second, "12"}, {time.Second + 1, "1.000000001"}, {39568 * time.Second, "39568"}, {1234567891, "1.234567891"}} {
		v := ClockLink{Paused: true, At: c.at}.Values()
		if got := v.Encode(); got != "paused=1&t="+c.text {
			t.Errorf("%v: %s; want paused=1&t=%s", c.at, got, c.text)
		}
		back, err := ParseClockLink(v)
		if err != nil || back != (ClockLink{Paused: true, At: c.at}) {
			t.Errorf("%v: read back %+v, %v", c.at, back, err)
		}
	}
	if got := (ClockLink{At: 5 * time.Second}).Values().Encode(); got != "" {
		t.Errorf("running: %q; want nothing", got)
	}
}

// TestParseZoomLink: a link's zoom is two instants as t takes them; a bad
// one names what is wrong and falls back to the whole run.
func TestParseZoomLink(t *testing.T) {
	const tail = "; using the default zoom, the whole run following the clock"
	cases := []struct {
		text     string
		from, to Instant
		err      string
	}{
		{"0.98,1.01", 980 * ms, 1010 * ms, ""},
		{"0,10", 0, 10 * time.Second, ""},
		{"980ms,1.01s", 980 * ms, 1010 * ms, ""},
		{"1.000000001,2", time.Second + 1, 2 * time.Second, ""},
		{"1", 0, 0, `link: zoom: "1" is not two instants; want from,to in seconds (zoom=0.98,1.01)` + tail},
		{"1,2,3", 0, 0, `link: zoom: "1,2,3" is not two instants; want from,to in seconds (zoom=0.98,1.01)` + tail},
		{"2,1", 0, 0, `link: zoom: "2,1" ends before it starts; want from < to (zoom=0.98,1.01)` + tail},
		{"1,1", 0, 0, `link: zoom: "1,1" ends before it starts; want from < to (zoom=0.98,1.01)` + tail},
		{"x,1", 0, 0, `link: zoom: from: "x" is not a number of seconds or a duration; want seconds from 0 to 86400, as the lab's clock shows them (t=12.345), or a duration (1.5s, 250ms, 2m)` + tail},
		{"1,90000", 0, 0, `link: zoom: to: "90000" is later than 86400 s; want seconds from 0 to 86400, as the lab's clock shows them (t=12.345), or a duration (1.5s, 250ms, 2m)` + tail},
	}
	for _, c := range cases {
		from, to, err := ParseZoomLink(c.text)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if from != c.from || to != c.to || msg != c.err {
			t.Errorf("%q: %v, %v, %q; want %v, %v, %q", c.text, from, to, msg, c.from, c.to, c.err)
		}
	}
	if got := FormatZoomLink(980*ms, time.Second+1); got != "0.98,1.000000001" {
		t.Errorf("FormatZoomLink: %q, want 0.98,1.000000001", got)
	}
}
