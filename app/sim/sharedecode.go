package sim

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

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
			d.fail("trace", fmt.Errorf("%q is not a built-in trace; want one of %v", Clip(t), BuiltinTraces))
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
			d.fail("worst", fmt.Errorf("%q is not a duration; want e.g. 1s", Clip(d.q.Get("worst"))))
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
			d.fail("focus", fmt.Errorf("%q is not a client of the link; want one of %v", Clip(f), names))
		case !isWord(f) || len(f) > MaxNameLen:
			d.fail("focus", fmt.Errorf("%q is not a client's name; want a word of at most %d letters, digits, '-' or '_'", Clip(f), MaxNameLen))
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
			return nil, fmt.Errorf("%q is not name,multiple; want e.g. pro,5", Clip(v))
		}
		if err := checkTierName(name); err != nil {
			return nil, err
		}
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || !(x > 0 && x <= MaxTierFactor) {
			return nil, fmt.Errorf("tier %s: multiple %q is not a number above 0 and at most %d", name, Clip(f), MaxTierFactor)
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
			return LaneSpec{}, fmt.Errorf("tier %q has no '='; want name=kind,p1,p2", Clip(p))
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
		return limiter.Config{}, fmt.Errorf("%q has %s; want kind,p1,p2", Clip(v), nFields(len(f)))
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
		return limiter.Config{}, fmt.Errorf("kind %q is unknown; want one of %v", Clip(f[0]), limiter.Kinds)
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
		return Client{}, fmt.Errorf("%q has %s; want name,weight,tier,pattern[,params]", Clip(v), nFields(len(f)))
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
		return Client{}, fmt.Errorf("pattern %q is unknown; want one of %v", Clip(f[3]), PatternKinds)
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
			fs.err = fmt.Errorf("size %q is not an integer", Clip(params[0]))
		}
		p.Size, p.Window, p.Gap = k, fs.dur("window", params[1]), fs.dur("gap", params[2])
	}
	if fs.err != nil {
		return Client{}, fs.err
	}
	return c, nil
}
