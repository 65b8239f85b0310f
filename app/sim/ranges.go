package sim

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// Range is what one number field of the lab accepts, in the field's unit.
// The lab's fields are built from these, and DecodeSetup holds a link to
// them: a link carries nothing that the page's own fields would refuse,
// so no link can ask the page for more work than its fields allow.
type Range struct {
	// Name is the field's term ("rate", "leak interval"); Unit the field's
	// unit ("tokens/s", "ms").
	Name, Unit string
	Min, Max   float64
	// Integer fields take whole numbers only.
	Integer bool
	// Dur is the length of one unit of a duration field (time.Second for
	// "s", time.Millisecond for "ms"); 0 for a plain number.
	Dur time.Duration
}

// MaxBudget is the largest count a lane's fields take (a window's limit, a
// bucket's burst or capacity), and the "Same budget" limit's.
const MaxBudget = 10000

// LaneRanges returns the ranges of the two parameters of a lane of kind k,
// in the order the lane shows them. They hold every lane the same budget
// makes (limit 1 to MaxBudget per MinWorst to MaxWorst): a rate of 1/86400
// to 10^7 tokens/s, a leak interval of 0.0001 ms to 24 h, so that a value the
// lab set can be typed back.
func LaneRanges(k limiter.Kind) [2]Range {
	ms, s := time.Millisecond, time.Second
	switch k {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		return [2]Range{
			{Name: "rate", Unit: "tokens/s", Min: 0.00001, Max: 1e7}, // 1 per 24 h is 0.0000116; MaxBudget per MinWorst
			{Name: "burst", Unit: "tokens", Min: 1, Max: MaxBudget, Integer: true},
		}
	case limiter.KindLeakyBucket:
		return [2]Range{
			{Name: "capacity", Unit: "requests", Min: 1, Max: MaxBudget, Integer: true},
			{Name: "leak interval", Unit: "ms", Min: inUnit(MinWorst/MaxBudget, ms), Max: inUnit(MaxWorst, ms), Dur: ms},
		}
	}
	return [2]Range{
		{Name: "limit", Unit: "requests", Min: 1, Max: MaxBudget, Integer: true},
		{Name: "window", Unit: "s", Min: inUnit(MinWorst, s), Max: inUnit(MaxWorst, s), Dur: s},
	}
}

// tierRanges are the ranges of a lane's tier of kind k, up to MaxTierFactor
// times a lane's budget (see ScaleConfig): the counts and the rate up to
// MaxTierFactor times the lane's most, the leak interval down to the lane's
// least divided by it; a window stays the lane's. Below, the limiter's own
// bounds hold (a tier's multiple may be small).
func tierRanges(k limiter.Kind) [2]Range {
	r := LaneRanges(k)
	switch k {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		r[0].Min, r[0].Max = 0, r[0].Max*MaxTierFactor
		r[1].Max *= MaxTierFactor
	case limiter.KindLeakyBucket:
		r[0].Max *= MaxTierFactor
		r[1].Min, r[1].Max = r[1].Min/MaxTierFactor, math.Inf(1)
	default:
		r[0].Max *= MaxTierFactor
	}
	return r
}

// WeightRange is the range of a client's weight field.
var WeightRange = Range{Name: "weight", Unit: "×", Min: 0.001, Max: MaxRate}

// PatternRanges returns the ranges of the parameters of a traffic pattern of
// kind k, in the order Client's link value and the client's fields have
// them: rate; rate, on, off; rate, to, over (the ramp's length); burst (the
// size), window, gap. They are the simulation's own (Client.validate): a
// rate above 0 (a ramp's ends may be 0), phases and windows of at least 1 ms,
// a gap above 0, each at most 24 h; the rate times the weight is checked
// there, with a message naming both.
func PatternRanges(k PatternKind) []Range {
	ms := time.Millisecond
	day := inUnit(MaxWorst, ms)
	rate := Range{Name: "rate", Unit: "req/s", Min: 0.001, Max: MaxRate}
	switch k {
	case PatternSteady, PatternPoisson:
		return []Range{rate}
	case PatternOnOff:
		return []Range{rate,
			{Name: "on", Unit: "ms", Min: 1, Max: day, Dur: ms},
			{Name: "off", Unit: "ms", Min: 0, Max: day, Dur: ms},
		}
	case PatternRamp:
		rate.Min = 0
		return []Range{rate,
			{Name: "to", Unit: "req/s", Min: 0, Max: MaxRate},
			{Name: "over", Unit: "ms", Min: 1, Max: day, Dur: ms},
		}
	case PatternEdge:
		return []Range{
			{Name: "burst", Unit: "req", Min: 1, Max: MaxRate, Integer: true},
			{Name: "window", Unit: "ms", Min: 1, Max: day, Dur: ms},
			{Name: "gap", Unit: "ms", Min: 0.001, Max: day, Dur: ms},
		}
	}
	return nil
}

// inUnit is d in units of unit.
func inUnit(d, unit time.Duration) float64 { return float64(d) / float64(unit) }

// want says the range as the field's message does: "want 1 to 10000
// requests".
func (r Range) want() string {
	return "want " + formatNum(r.Min) + " to " + formatNum(r.Max) + " " + r.Unit
}

// checkNum returns an error naming r and its range when v is outside it.
func (r Range) checkNum(v float64) error {
	if v >= r.Min && v <= r.Max { // false for NaN
		return nil
	}
	return fmt.Errorf("%s %s is out of range; %s", r.Name, formatNum(v), r.want())
}

// checkDur is checkNum for a duration field, in the link's own notation:
// "window 48h0m0s is out of range; want 1ms to 24h0m0s". The bounds are
// the field's, to the nanosecond.
func (r Range) checkDur(d time.Duration) error {
	lo := time.Duration(math.Round(r.Min * float64(r.Dur)))
	hi := time.Duration(math.MaxInt64) // no bound but the limiter's
	if h := math.Round(r.Max * float64(r.Dur)); h < math.MaxInt64 {
		hi = time.Duration(h)
	}
	if d >= lo && d <= hi {
		return nil
	}
	return fmt.Errorf("%s %v is out of range; want %v to %v", r.Name, d, lo, hi)
}

// checkConfig returns c's first parameter outside ranges (LaneRanges or
// tierRanges of its kind).
func checkConfig(c limiter.Config, ranges [2]Range) error {
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		if err := ranges[0].checkNum(c.Rate); err != nil {
			return err
		}
		return ranges[1].checkNum(float64(c.Burst))
	case limiter.KindLeakyBucket:
		if err := ranges[0].checkNum(float64(c.Capacity)); err != nil {
			return err
		}
		return ranges[1].checkDur(c.LeakInterval)
	}
	if err := ranges[0].checkNum(float64(c.Limit)); err != nil {
		return err
	}
	return ranges[1].checkDur(c.Window)
}

// CheckLane returns an error naming the first parameter of c outside the
// lane fields' ranges (LaneRanges), as a link's lane would be refused.
func CheckLane(c limiter.Config) error { return checkConfig(c, LaneRanges(c.Kind)) }

// checkRanges returns an error naming the first of c's weight and pattern
// parameters outside its field's range.
func (c Client) checkRanges() error {
	if err := WeightRange.checkNum(c.Weight); err != nil {
		return err
	}
	p := c.Pattern
	r := PatternRanges(p.Kind)
	var err error
	num := func(i int, v float64) {
		if err == nil {
			err = r[i].checkNum(v)
		}
	}
	dur := func(i int, d time.Duration) {
		if err == nil {
			err = r[i].checkDur(d)
		}
	}
	switch p.Kind {
	case PatternSteady, PatternPoisson:
		num(0, p.Rate)
	case PatternOnOff:
		num(0, p.Rate)
		dur(1, p.On)
		dur(2, p.Off)
	case PatternRamp:
		num(0, p.Rate)
		num(1, p.To)
		dur(2, p.Ramp)
	case PatternEdge:
		num(0, float64(p.Size))
		dur(1, p.Window)
		dur(2, p.Gap)
	}
	return err
}

// formatNum formats v as the page's number fields and their messages do
// (the app's num, which the playground's binary has without this package):
// no trailing zeros and no float noise (12 significant digits), 1, 0.5,
// 0.00001, 10000000; a magnitude below 1e-9 or from 1e21 up with an
// exponent, 1e-300 or 1e+300.
func formatNum(v float64) string {
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if a := math.Abs(v); a != 0 && (a < 1e-9 || a >= 1e21) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
