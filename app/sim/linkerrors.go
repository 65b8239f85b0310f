package sim

import (
	"errors"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"
)

// PartError is what was wrong with one part of a shared link; that part
// fell back to its default.
type PartError struct {
	// Part is the query key ("lane", "client", "seed", "speed", "trace",
	// "worst").
	Part string
	Err  error
}

func (e *PartError) Error() string {
	if e.Part == "lane tier" { // says what it does instead
		return "link: " + e.Err.Error()
	}
	if e.Part == "trace" {
		return fmt.Sprintf("link: trace: %v; replaying no trace", e.Err)
	}
	if e.Part == "tier" { // no default: New reads the multiples from the lanes
		return fmt.Sprintf("link: tier: %v; reading each tier's multiple from the lanes instead", e.Err)
	}
	// The lanes and the clients fall back as a whole.
	def := DefaultSetup()
	what := map[string]string{"lane": "lanes (all of them)", "client": "clients (all of them)", "focus": "focus (the first client)",
		"seed": "seed, " + strconv.FormatUint(def.Seed, 10), "speed": "speed, " + ftoa(def.Speed) + "×",
		"worst": "worst-case window, " + def.Worst.String(),
		"t":     "instant, t = 0 s", "paused": "clock, running", "zoom": "zoom, the whole run following the clock"}[e.Part]
	if what == "" {
		what = e.Part
	}
	return fmt.Sprintf("link: %s: %v; using the default %s", e.Part, e.Err, what)
}

func (e *PartError) Unwrap() error { return e.Err }

// parseNum reads a link's number (name "" for a part that is one number),
// saying whether text that is not one is not a number at all or beyond a
// float64 ("1e309").
func parseNum(name, s string) (float64, error) {
	x, err := strconv.ParseFloat(s, 64)
	what := strconv.Quote(s)
	if name != "" {
		what = name + " " + what
	}
	switch {
	case errors.Is(err, strconv.ErrRange):
		return x, fmt.Errorf("%s is too large or too small to read", what)
	case err != nil:
		return x, fmt.Errorf("%s is not a number", what)
	}
	return x, nil
}

// clipRunes is how much of a value from a link a message quotes.
const clipRunes = 40

// Clip cuts a value or key from a link to clipRunes characters, with "…",
// for a message: a link may carry a value of any length, and the page shows
// the message (the lab's, the lessons' and the playground's link messages
// all quote it this way).
func Clip(v string) string {
	if utf8.RuneCountInString(v) <= clipRunes {
		return v
	}
	return string([]rune(v)[:clipRunes]) + "…"
}

// nFields is "1 field" or "n fields".
func nFields(n int) string {
	if n == 1 {
		return "1 field"
	}
	return strconv.Itoa(n) + " fields"
}

// linkFields reads the fields of one value of a link (a lane, a client),
// keeping the first error, which names the field.
type linkFields struct{ err error }

func (fs *linkFields) keep(err error) {
	if err != nil && fs.err == nil {
		fs.err = err
	}
}

// atoi reads an integer field.
func (fs *linkFields) atoi(name, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		fs.keep(fmt.Errorf("%s %q is not an integer", name, Clip(s)))
	}
	return n
}

// num reads a number field (parseNum).
func (fs *linkFields) num(name, s string) float64 {
	x, err := parseNum(name, s)
	fs.keep(err)
	return x
}

// dur reads a duration field in Go's notation ("1s", "250ms").
func (fs *linkFields) dur(name, s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		fs.keep(fmt.Errorf("%s %q is not a duration; want e.g. 1s", name, Clip(s)))
	}
	return d
}
