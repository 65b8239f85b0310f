package sim

import (
	"maps"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ratelab/ratelab/limiter"
)

// BuiltinTraces lists the trace names a link may carry.
var BuiltinTraces = []string{"nasa"}

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
