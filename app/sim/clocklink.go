package sim

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ClockLink is where a link opens the lab's clock: at instant At, paused
// or running. The zero value is the lab's default: running from 0.
type ClockLink struct {
	Paused bool
	At     Instant
}

// MaxLinkInstant is the latest instant a link may open at: a day, past the
// NASA trace's end (10h59m28s); the page replays every request up to it.
const MaxLinkInstant = 24 * time.Hour

// maxLinkDecimals is the most decimals of a link's t: seconds to the
// nanosecond, the lab's own resolution.
const maxLinkDecimals = 9

// Values encodes c as the query keys paused and t: "paused=1&t=12.345"
// when paused (t in seconds, the unit of the lab's clock, exact to the
// nanosecond and without trailing zeros: 0.99, 12, 1.000000001), nothing
// when running (a running clock's instant is stale once the link is read).
func (c ClockLink) Values() url.Values {
	v := url.Values{}
	if c.Paused {
		v.Set("paused", "1")
		v.Set("t", FormatLinkInstant(c.At))
	}
	return v
}

// FormatLinkInstant writes an instant as a link's t: seconds, with as
// many decimals as it needs (at most 9).
func FormatLinkInstant(t Instant) string {
	s := strconv.FormatInt(int64(t/time.Second), 10)
	ns := int64(t % time.Second)
	if ns == 0 {
		return s
	}
	frac := strings.TrimRight(fmt.Sprintf("%09d", ns), "0")
	return s + "." + frac
}

// ParseClockLink reads a link's paused and t (see ClockLink.Values):
// paused is 1 (open paused) or 0 (running), t a decimal number of seconds
// from 0 to MaxLinkInstant with at most 9 decimals ("12", "12.345"; no
// sign, no exponent) or a duration with its unit ("1.5s", "250ms", "2m"). A missing key takes the default: running, at 0. A
// bad part falls back alone, and the error (nil when both were good) joins
// a *PartError for each ("t", "paused"). Pure: the page moves the clock.
func ParseClockLink(q url.Values) (ClockLink, error) {
	var c ClockLink
	var errs []error
	if q.Has("paused") {
		switch p := q.Get("paused"); p {
		case "1":
			c.Paused = true
		case "0":
		default:
			errs = append(errs, &PartError{Part: "paused", Err: fmt.Errorf("%q is not 1 or 0; want paused=1 to open paused", Clip(p))})
		}
	}
	if q.Has("t") {
		at, err := parseLinkInstant(q.Get("t"))
		if err != nil {
			errs = append(errs, &PartError{Part: "t", Err: err})
		} else {
			c.At = at
		}
	}
	return c, errors.Join(errs...)
}

// linkInstantWant is what a link's instant may be, for its messages.
const linkInstantWant = "want seconds from 0 to 86400, as the lab's clock shows them (t=12.345), or a duration (1.5s, 250ms, 2m)"

// parseLinkInstant reads t exactly: seconds as digits, not a float (0.3 s
// is 300,000,000 ns, not one less), or a Go duration with its unit, as the
// lessons' links take them ("1.5s", "250ms", "2m"; time.ParseDuration is
// exact to the nanosecond too).
func parseLinkInstant(text string) (Instant, error) {
	limit := int64(MaxLinkInstant / time.Second)
	if rest, neg := strings.CutPrefix(text, "-"); neg {
		if _, err := parseLinkInstant(rest); err == nil {
			return 0, fmt.Errorf("%q is before the lab's start; %s", Clip(text), linkInstantWant)
		}
		return 0, fmt.Errorf("%q is not a number of seconds or a duration; %s", Clip(text), linkInstantWant)
	}
	if text != "" && strings.ContainsAny(text[len(text)-1:], "smh") {
		d, err := time.ParseDuration(text)
		switch {
		case err != nil:
			return 0, fmt.Errorf("%q is not a number of seconds or a duration; %s", Clip(text), linkInstantWant)
		case d > MaxLinkInstant:
			return 0, fmt.Errorf("%q is later than %d s; %s", Clip(text), limit, linkInstantWant)
		}
		return d, nil
	}
	whole, frac, hasFrac := strings.Cut(text, ".")
	digits := func(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
	if !digits(whole) || hasFrac && !digits(frac) {
		return 0, fmt.Errorf("%q is not a number of seconds or a duration; %s", Clip(text), linkInstantWant)
	}
	if len(frac) > maxLinkDecimals {
		return 0, fmt.Errorf("%q has %d decimals; want at most %d (1 ns)", Clip(text), len(frac), maxLinkDecimals)
	}
	secs, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || secs > limit {
		return 0, fmt.Errorf("%q is later than %d s; %s", Clip(text), limit, linkInstantWant)
	}
	ns, _ := strconv.ParseInt(frac+strings.Repeat("0", maxLinkDecimals-len(frac)), 10, 64)
	at := Instant(secs)*time.Second + Instant(ns)
	if at > MaxLinkInstant {
		return 0, fmt.Errorf("%q is later than %d s; %s", Clip(text), limit, linkInstantWant)
	}
	return at, nil
}

// FormatZoomLink writes the lanes' time window [from, to) as a link's
// zoom: two instants as t has them, "0.98,1.01".
func FormatZoomLink(from, to Instant) string {
	return FormatLinkInstant(from) + "," + FormatLinkInstant(to)
}

// ParseZoomLink reads a link's zoom (see FormatZoomLink): two instants
// from 0 to MaxLinkInstant, as t takes them (seconds or durations), the
// first before the second. Its error is a *PartError for "zoom".
func ParseZoomLink(text string) (from, to Instant, err error) {
	fail := func(err error) (Instant, Instant, error) { return 0, 0, &PartError{Part: "zoom", Err: err} }
	a, b, ok := strings.Cut(text, ",")
	if !ok || strings.Contains(b, ",") {
		return fail(fmt.Errorf("%q is not two instants; want from,to in seconds (zoom=0.98,1.01)", Clip(text)))
	}
	if from, err = parseLinkInstant(a); err != nil {
		return fail(fmt.Errorf("from: %w", err))
	}
	if to, err = parseLinkInstant(b); err != nil {
		return fail(fmt.Errorf("to: %w", err))
	}
	if to <= from {
		return fail(fmt.Errorf("%q ends before it starts; want from < to (zoom=0.98,1.01)", Clip(text)))
	}
	return from, to, nil
}
