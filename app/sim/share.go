package sim

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ratelab/ratelab/limiter"
)

// BuiltinTraces lists the trace names a link may carry.
var BuiltinTraces = []string{"nasa"}

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
		"t":     "instant, t = 0 s", "paused": "clock, running"}[e.Part]
	if what == "" {
		what = e.Part
	}
	return fmt.Sprintf("link: %s: %v; using the default %s", e.Part, e.Err, what)
}

func (e *PartError) Unwrap() error { return e.Err }

// Values encodes s as URL query values, exactly (floats and durations in
// their shortest exact form); only the fields of each Config's kind are
// kept. The keys are:
//
//	lane    one per lane: kind,p1,p2[;tier=kind,p1,p2]…   e.g. token_bucket,10,10
//	client  one per client: name,weight,tier,pattern[,params]  e.g. alice,1,,poisson,8
//	tier    one per tier: name,multiple  e.g. pro,5 (see Setup.Tiers)
//	focus   the client whose state is drawn, when not the first
//	seed, speed, trace, worst
//
// A setup with no lanes or no clients has one empty lane or client value.
func (s Setup) Values() url.Values {
	v := url.Values{}
	for _, l := range s.Lanes {
		parts := []string{encodeConfig(l.Config)}
		names := make([]string, 0, len(l.Tiers))
		for name := range l.Tiers {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			parts = append(parts, name+"="+encodeConfig(l.Tiers[name]))
		}
		v.Add("lane", strings.Join(parts, ";"))
	}
	if len(s.Lanes) == 0 {
		v.Set("lane", "")
	}
	for _, c := range s.Clients {
		v.Add("client", encodeClient(c))
	}
	if len(s.Clients) == 0 {
		v.Set("client", "")
	}
	for _, name := range slices.Sorted(maps.Keys(s.Tiers)) {
		v.Add("tier", name+","+ftoa(s.Tiers[name]))
	}
	v.Set("seed", strconv.FormatUint(s.Seed, 10))
	v.Set("speed", ftoa(s.Speed))
	if s.Trace != "" {
		v.Set("trace", s.Trace)
	}
	v.Set("worst", s.Worst.String())
	if s.Focus != "" {
		v.Set("focus", s.Focus)
	}
	return v
}

// ParseLink parses a link's query. A literal ";" is part of a value (a
// lane's tiers are joined by ";", as in
// lane=fixed_window,10,1s;pro=fixed_window,50,1s), not a separator as
// url.ParseQuery would have it (it drops such a part): parts are separated
// by "&". It returns what it could read and an error naming a part it
// could not (a bad %-escape).
func ParseLink(rawQuery string) (url.Values, error) {
	return url.ParseQuery(strings.ReplaceAll(rawQuery, ";", "%3B"))
}

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

// clip cuts a value from a link to clipRunes characters, with "…", for a
// message: a link may carry a value of any length, and the page shows the
// message.
func clip(v string) string {
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

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func encodeConfig(c limiter.Config) string {
	// Joined by hand: fmt formats a named string type such as Kind by
	// reflection, code the page would otherwise compile at start-up.
	k := string(c.Kind)
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		return k + "," + ftoa(c.Rate) + "," + strconv.Itoa(c.Burst)
	case limiter.KindLeakyBucket:
		return k + "," + strconv.Itoa(c.Capacity) + "," + c.LeakInterval.String()
	}
	return k + "," + strconv.Itoa(c.Limit) + "," + c.Window.String()
}

func encodeClient(c Client) string {
	p := c.Pattern
	f := []string{c.Name, ftoa(c.weight()), c.Tier, string(p.Kind)} // weight 0 means 1, which the weight field takes
	switch p.Kind {
	case PatternSteady, PatternPoisson:
		f = append(f, ftoa(p.Rate))
	case PatternOnOff:
		f = append(f, ftoa(p.Rate), p.On.String(), p.Off.String())
	case PatternRamp:
		f = append(f, ftoa(p.Rate), ftoa(p.To), p.Ramp.String())
	case PatternEdge:
		f = append(f, strconv.Itoa(p.Size), p.Window.String(), p.Gap.String())
	}
	return strings.Join(f, ",")
}

// DecodeSetup decodes query values written by Setup.Values. Each part (all
// lanes, all clients, seed, speed, trace, worst) is decoded and validated on
// its own, the lanes and the clients also against the ranges of the page's
// own fields (LaneRanges, PatternRanges, WeightRange): a malformed, tampered
// or out-of-range part falls back to DefaultSetup's and is reported as a
// *PartError naming it; the other parts are kept. A missing
// part takes its default silently. The error joins every PartError (nil
// when all parts were good).
func DecodeSetup(q url.Values) (Setup, error) {
	d := &setupDecoder{q: q, s: DefaultSetup()}
	d.lanes()
	d.tierMultiples()
	d.seed()
	d.speed()
	d.trace()
	d.worst()
	d.focus()
	return d.s, errors.Join(d.errs...)
}

// setupDecoder is DecodeSetup's work: the setup so far, and what was wrong
// with each part.
type setupDecoder struct {
	q    url.Values
	s    Setup
	errs []error
}

func (d *setupDecoder) fail(part string, err error) {
	d.errs = append(d.errs, &PartError{Part: part, Err: err})
}

// lanes decodes the lanes, the clients and the tiers.
func (d *setupDecoder) lanes() {
	// The tiers first: a lane's tier that tier= gives is set at its
	// multiple below, and one it does not give keeps its own multiple, which
	// decodeLane checks as tier= would.
	var tiers map[string]float64
	var tierErr error
	if vs, ok := d.q["tier"]; ok {
		tiers, tierErr = decodeTiers(vs)
	}
	if vs, ok := d.q["lane"]; ok {
		if lanes, err := decodeLanes(vs, tiers); err != nil {
			d.fail("lane", err)
		} else {
			d.s.Lanes = lanes
		}
	}
	if vs, ok := d.q["client"]; ok {
		if clients, err := decodeClients(vs); err != nil {
			d.fail("client", err)
		} else {
			d.s.Clients = clients
		}
	}
	if tierErr != nil {
		d.fail("tier", tierErr)
	} else if tiers != nil {
		d.s.Tiers = tiers
	}
}

// tierMultiples makes each tier's multiple the truth for every lane.
func (d *setupDecoder) tierMultiples() {
	// A tier's multiple is the truth for every lane (as SetTier and a lane
	// added later make it): a lane without the tier gets it, and a lane
	// whose tier says otherwise (a link edited by hand) is told.
	for i := range d.s.Lanes {
		ln := &d.s.Lanes[i]
		for _, name := range slices.Sorted(maps.Keys(d.s.Tiers)) {
			f := d.s.Tiers[name]
			want, err := ScaleConfig(ln.Config, f)
			if err != nil {
				d.fail("lane tier", fmt.Errorf("lane %d: tier %s at %s×: %w; that lane has no tier %s", i+1, name, ftoa(f), err, name))
				delete(ln.Tiers, name)
				continue
			}
			if got, ok := ln.Tiers[name]; ok && got != want {
				d.fail("lane tier", fmt.Errorf("lane %d: tier %s is %v, not %s× the lane's %v; using %v, as tier=%s,%s says",
					i+1, name, got, ftoa(f), ln.Config, want, name, ftoa(f)))
			}
			if ln.Tiers == nil {
				ln.Tiers = map[string]limiter.Config{}
			}
			ln.Tiers[name] = want
		}
	}
}

func (d *setupDecoder) seed() {
	if d.q.Has("seed") {
		if v, err := ParseSeed(d.q.Get("seed")); err != nil {
			d.fail("seed", err)
		} else {
			d.s.Seed = v
		}
	}
}

func (d *setupDecoder) speed() {
	if d.q.Has("speed") {
		v, err := parseNum("", d.q.Get("speed"))
		if err != nil {
			err = fmt.Errorf("%w; want %g to %g", err, float64(MinSpeed), float64(MaxSpeed))
		} else {
			err = checkSpeed(v)
		}
		if err != nil {
			d.fail("speed", err)
		} else {
			d.s.Speed = v
		}
	}
}

func (d *setupDecoder) trace() {
	if d.q.Has("trace") {
		t := d.q.Get("trace")
		ok := t == ""
		for _, b := range BuiltinTraces {
			ok = ok || t == b
		}
		if !ok {
			d.fail("trace", fmt.Errorf("%q is not a built-in trace; want one of %v", clip(t), BuiltinTraces))
		} else {
			d.s.Trace = t
		}
	}
}

func (d *setupDecoder) worst() {
	if d.q.Has("worst") {
		dur, err := time.ParseDuration(d.q.Get("worst"))
		switch {
		case err != nil:
			d.fail("worst", fmt.Errorf("%q is not a duration; want e.g. 1s", clip(d.q.Get("worst"))))
		case checkWorst(dur) != nil:
			d.fail("worst", checkWorst(dur))
		default:
			d.s.Worst = dur
		}
	}
}

func (d *setupDecoder) focus() {
	if d.q.Has("focus") {
		// A trace's clients are known only once it is loaded: with one, any
		// word is taken (a name it lacks draws a client with no requests).
		f := d.q.Get("focus")
		names := d.s.ClientNames()
		switch {
		case f == "":
		case d.s.Trace == "" && !slices.Contains(names, f):
			d.fail("focus", fmt.Errorf("%q is not a client of the link; want one of %v", clip(f), names))
		case !isWord(f) || len(f) > MaxNameLen:
			d.fail("focus", fmt.Errorf("%q is not a client's name; want a word of at most %d letters, digits, '-' or '_'", clip(f), MaxNameLen))
		default:
			d.s.Focus = f
		}
	}
}

// decodeTiers reads tier values "name,multiple".
func decodeTiers(vs []string) (map[string]float64, error) {
	tiers := map[string]float64{}
	for _, v := range vs {
		name, f, ok := strings.Cut(v, ",")
		if !ok {
			return nil, fmt.Errorf("%q is not name,multiple; want e.g. pro,5", clip(v))
		}
		if err := checkTierName(name); err != nil {
			return nil, err
		}
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || !(x > 0 && x <= MaxTierFactor) {
			return nil, fmt.Errorf("tier %s: multiple %q is not a number above 0 and at most %d", name, clip(f), MaxTierFactor)
		}
		if _, dup := tiers[name]; dup {
			return nil, fmt.Errorf("tier %s is given twice; want one multiple per tier", name)
		}
		tiers[name] = x
	}
	return tiers, nil
}

// decodeLanes decodes the lane values; tiers are the multiples tier= gives
// (nil for none).
func decodeLanes(vs []string, tiers map[string]float64) ([]LaneSpec, error) {
	return decodeParts(vs, MaxLanes, "lanes", func(i int, v string) (LaneSpec, error) {
		spec, err := decodeLane(v, tiers)
		if err != nil {
			return spec, fmt.Errorf("lane %d: %w", i+1, err)
		}
		return spec, nil
	})
}

// decodeParts decodes the values of one repeated part of a link (lane=,
// client=), the i-th with decode, whose error names the value: one empty
// value is none, more than most values are refused ("7 lanes; want at most
// 6"), and the error of a bad value lists every bad one (partErrors).
func decodeParts[T any](vs []string, most int, plural string, decode func(i int, v string) (T, error)) ([]T, error) {
	if len(vs) == 1 && vs[0] == "" {
		return []T{}, nil
	}
	if len(vs) > most {
		return nil, fmt.Errorf("%d %s; want at most %d", len(vs), plural, most)
	}
	out := make([]T, 0, len(vs))
	var bad partErrors
	for i, v := range vs {
		x, err := decode(i, v)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		out = append(out, x)
	}
	if bad != nil {
		return nil, bad
	}
	return out, nil
}

// partErrors lists the problems of every bad lane (or client) of a link,
// in order, so that the reader sees them all at once: "lane 1: …; lane 3: …".
type partErrors []error

func (e partErrors) Error() string {
	s := make([]string, len(e))
	for i, err := range e {
		s[i] = err.Error()
	}
	return strings.Join(s, "; ")
}

func (e partErrors) Unwrap() []error { return e }

// decodeLane decodes one lane value, kind,p1,p2[;tier=kind,p1,p2]…, and
// returns its first problem. The lane's parameters are held to its fields'
// ranges (LaneRanges), a tier's to up to MaxTierFactor times them
// (tierRanges), and a tier's name to tier='s rules. A tier that tier= does
// not give keeps its own multiple of the lane (the lab reads it from the
// lanes, and a link of the page then gives it as tier=), so that multiple
// is held to tier='s range too: above MaxTierFactor, the page wrote a
// tier= that it refused, and adding a lane failed.
func decodeLane(v string, tiers map[string]float64) (LaneSpec, error) {
	parts := strings.Split(v, ";")
	c, err := decodeConfig(parts[0], LaneRanges)
	if err != nil {
		return LaneSpec{}, err
	}
	spec := LaneSpec{Config: c}
	for _, p := range parts[1:] {
		name, cfg, ok := strings.Cut(p, "=")
		if !ok {
			return LaneSpec{}, fmt.Errorf("tier %q has no '='; want name=kind,p1,p2", clip(p))
		}
		if err := checkTierName(name); err != nil {
			return LaneSpec{}, err
		}
		tc, err := decodeConfig(cfg, tierRanges)
		if err != nil {
			return LaneSpec{}, fmt.Errorf("tier %s: %w", name, err)
		}
		if spec.Tiers == nil {
			spec.Tiers = map[string]limiter.Config{}
		}
		if _, dup := spec.Tiers[name]; dup {
			return LaneSpec{}, fmt.Errorf("tier %s appears twice; want it once", name)
		}
		if _, given := tiers[name]; !given {
			if f := FactorOf(c, tc); !(f > 0 && f <= MaxTierFactor) {
				return LaneSpec{}, fmt.Errorf("tier %s is %v, %s× the lane's %v; want at most %d×", name, tc, formatNum(f), c, MaxTierFactor)
			}
		}
		spec.Tiers[name] = tc
	}
	if err := spec.validate(); err != nil {
		return LaneSpec{}, err
	}
	return spec, nil
}

// decodeConfig decodes kind,p1,p2 and holds it to the limiter and then to
// ranges of its kind.
func decodeConfig(v string, ranges func(limiter.Kind) [2]Range) (limiter.Config, error) {
	f := strings.Split(v, ",")
	if len(f) != 3 {
		return limiter.Config{}, fmt.Errorf("%q has %s; want kind,p1,p2", clip(v), nFields(len(f)))
	}
	c := limiter.Config{Kind: limiter.Kind(f[0])}
	var fs linkFields
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		c.Rate, c.Burst = fs.num("rate", f[1]), fs.atoi("burst", f[2])
	case limiter.KindLeakyBucket:
		c.Capacity, c.LeakInterval = fs.atoi("capacity", f[1]), fs.dur("leak interval", f[2])
	case limiter.KindFixedWindow, limiter.KindSlidingWindowLog, limiter.KindSlidingWindowCounter:
		c.Limit, c.Window = fs.atoi("limit", f[1]), fs.dur("window", f[2])
	default:
		return limiter.Config{}, fmt.Errorf("kind %q is unknown; want one of %v", clip(f[0]), limiter.Kinds)
	}
	if fs.err != nil {
		return limiter.Config{}, fs.err
	}
	// The fields' ranges first: the limiter's own message names a wider
	// range ("[0, 1e9] or +Inf") than a link may carry.
	if err := checkConfig(c, ranges(c.Kind)); err != nil {
		return limiter.Config{}, err
	}
	if _, err := limiter.New(c); err != nil {
		return limiter.Config{}, err
	}
	return c, nil
}

func decodeClients(vs []string) ([]Client, error) {
	seen := map[string]bool{}
	return decodeParts(vs, MaxClients, "clients", func(i int, v string) (Client, error) {
		c, err := decodeClient(v)
		if err != nil {
			return c, fmt.Errorf("client %d: %w", i+1, err)
		}
		if err := c.validateAt(i, seen); err != nil { // as Setup.Validate, each client's first problem
			return c, err
		}
		if err := c.checkRanges(); err != nil { // and what the client's fields take
			return c, fmt.Errorf("client %d (%s): %w", i+1, c.Name, err)
		}
		return c, nil
	})
}

func decodeClient(v string) (Client, error) {
	f := strings.Split(v, ",")
	if len(f) < 4 {
		return Client{}, fmt.Errorf("%q has %s; want name,weight,tier,pattern[,params]", clip(v), nFields(len(f)))
	}
	c := Client{Name: f[0], Tier: f[2], Pattern: Pattern{Kind: PatternKind(f[3])}}
	if c.Tier == "default" {
		c.Tier = "" // as the client's tier field reads it: no tier, each lane's own budget
	}
	var fs linkFields
	c.Weight = fs.num("weight", f[1])
	params := f[4:]
	want := map[PatternKind]int{PatternNone: 0, PatternSteady: 1, PatternPoisson: 1, PatternOnOff: 3, PatternRamp: 3, PatternEdge: 3}
	n, known := want[c.Pattern.Kind]
	if !known {
		return Client{}, fmt.Errorf("pattern %q is unknown; want one of %v", clip(f[3]), PatternKinds)
	}
	if len(params) != n {
		return Client{}, fmt.Errorf("pattern %s has %d parameters; want %d", f[3], len(params), n)
	}
	p := &c.Pattern
	switch p.Kind {
	case PatternSteady, PatternPoisson:
		p.Rate = fs.num("rate", params[0])
	case PatternOnOff:
		p.Rate, p.On, p.Off = fs.num("rate", params[0]), fs.dur("on", params[1]), fs.dur("off", params[2])
	case PatternRamp:
		p.Rate, p.To, p.Ramp = fs.num("rate", params[0]), fs.num("to", params[1]), fs.dur("ramp", params[2])
	case PatternEdge:
		k, e := strconv.Atoi(params[0])
		if e != nil { // said rather than a bad weight
			fs.err = fmt.Errorf("size %q is not an integer", clip(params[0]))
		}
		p.Size, p.Window, p.Gap = k, fs.dur("window", params[1]), fs.dur("gap", params[2])
	}
	if fs.err != nil {
		return Client{}, fs.err
	}
	return c, nil
}

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
// sign, no exponent). A missing key takes the default: running, at 0. A
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
			errs = append(errs, &PartError{Part: "paused", Err: fmt.Errorf("%q is not 1 or 0; want paused=1 to open paused", clip(p))})
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

// parseLinkInstant reads t exactly (digits, not a float: 0.3 s is
// 300,000,000 ns, not one less).
func parseLinkInstant(text string) (Instant, error) {
	want := fmt.Sprintf("want seconds from 0 to %d, as the lab's clock shows them (t=12.345)", int64(MaxLinkInstant/time.Second))
	whole, frac, hasFrac := strings.Cut(text, ".")
	digits := func(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
	if !digits(whole) || hasFrac && !digits(frac) {
		return 0, fmt.Errorf("%q is not a number of seconds; %s", clip(text), want)
	}
	if len(frac) > maxLinkDecimals {
		return 0, fmt.Errorf("%q has %d decimals; want at most %d (1 ns)", clip(text), len(frac), maxLinkDecimals)
	}
	limit := int64(MaxLinkInstant / time.Second)
	secs, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || secs > limit {
		return 0, fmt.Errorf("%q is later than %d s; %s", clip(text), limit, want)
	}
	ns, _ := strconv.ParseInt(frac+strings.Repeat("0", maxLinkDecimals-len(frac)), 10, 64)
	at := Instant(secs)*time.Second + Instant(ns)
	if at > MaxLinkInstant {
		return 0, fmt.Errorf("%q is later than %d s; %s", clip(text), limit, want)
	}
	return at, nil
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
		fs.keep(fmt.Errorf("%s %q is not an integer", name, clip(s)))
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
		fs.keep(fmt.Errorf("%s %q is not a duration; want e.g. 1s", name, clip(s)))
	}
	return d
}

// ParseSeed reads a seed: a whole number from 0 to 2^64 − 1, in decimal
// (also with an exponent or a zero fraction: "1e9", "12.0").
// Its error quotes the text (cut to clipRunes characters) and gives that
// range: the number is negative, too large, not a whole number, or longer
// than maxSeedText characters (a number of that length is read no further).
func ParseSeed(text string) (uint64, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return 0, fmt.Errorf("seed is empty; want %s", SeedRange)
	}
	if len(text) > maxSeedText {
		return 0, fmt.Errorf("%q is %d characters long; want %s, in at most %d characters", clip(text), len(text), SeedRange, maxSeedText)
	}
	v, err := strconv.ParseUint(text, 10, 64)
	if err == nil {
		return v, nil
	}
	// Not plain digits within range: read it exactly as a decimal number
	// (negative, too large, "1e9", "12.0") to say what is wrong, if anything.
	problem := "is not a whole number"
	if r, ok := decimalRat(text); ok {
		switch {
		case r.Sign() < 0:
			problem = "is negative"
		case !r.IsInt():
		case !r.Num().IsUint64():
			problem = "is too large"
		default:
			return r.Num().Uint64(), nil
		}
	}
	return 0, fmt.Errorf("%q %s; want %s", clip(text), problem, SeedRange)
}

// maxSeedText is the longest seed text ParseSeed reads: far more than any
// way of writing a seed needs, and short enough to read at once.
const maxSeedText = 100

// decimalRat reads a number in decimal notation, with an optional fraction
// and exponent, exactly. A nonzero mantissa m of n characters is below
// 10^n and at least 10^-n, so an exponent e with e − n > 20 makes the
// number larger than any seed, and one with e + n < 0 makes it smaller than
// 1: those read as 2^64 and 1/2 (with m's sign), which is all a seed needs
// to know, without computing 10^e ("1e999999999" costs nothing).
func decimalRat(text string) (*big.Rat, bool) {
	mant, exp, hasExp := strings.Cut(strings.ToLower(text), "e")
	if strings.Trim(mant, "0123456789.+-") != "" { // no "1/2", "0x10", "Inf"
		return nil, false
	}
	m, ok := new(big.Rat).SetString(mant)
	if !ok {
		return nil, false
	}
	if !hasExp {
		return m, true
	}
	e, err := strconv.Atoi(strings.TrimPrefix(exp, "+"))
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, false
	}
	n := len(mant)
	sign := big.NewRat(int64(m.Sign()), 1)
	switch {
	case m.Sign() == 0:
		return m, true
	case e-n > 20:
		return sign.Mul(sign, new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(1))), true
	case e+n < 0:
		return sign.Mul(sign, big.NewRat(1, 2)), true
	}
	return new(big.Rat).SetString(text)
}

// SeedRange is the seeds ParseSeed accepts (0 to 2^64 − 1), as its
// messages say it.
const SeedRange = "0 to 18446744073709551615"
