package explain

import (
	"fmt"
	"math"
	"strconv"

	"github.com/ratelab/ratelab/limiter"
)

// StepCode names the line of package limiter that computes an inspector
// step, and says how the code's integers map to the step's formula.
// TestStepCodeLines checks that every Text is on exactly one line of its
// file, so the line the page names holds the named code.
type StepCode struct {
	// File is the limiter file ("bucket.go").
	File string
	// Text is the code, as it appears on exactly one line of File.
	Text string
	// Units says what the code computes in its own units and how that is
	// the formula, with this decision's integers where they are exact.
	Units string
}

// Line returns the 1-based line of content (File's text) that holds Text.
func (c StepCode) Line(content string) (int, error) {
	from, _, err := Mark{Text: c.Text}.Find(content)
	return from, err
}

// codeLine is where a step is computed: a file and the code on one line.
type codeLine struct{ file, text string }

// The lines of bucket.go that the token bucket, GCRA and leaky bucket share.
var (
	bucketPaid   = codeLine{"bucket.go", "if paid := int64(elapsed) * b.perNs; paid < debt {"}
	bucketLeft   = codeLine{"bucket.go", "return debt - paid"}
	bucketTest   = codeLine{"bucket.go", "if next := debt + int64(n)*b.unit; next <= b.full {"}
	bucketRetry  = codeLine{"bucket.go", "d.RetryAfter = time.Duration(b.perNsDiv.ceil(o.next + int64(n)*b.unit - b.full))"}
	bucketRemain = codeLine{"bucket.go", "d.Remaining = int(max(b.burst-b.unitDiv.ceil(o.next), 0))"}
	retryHeader  = codeLine{"http.go", "func RetryAfterSeconds(d Decision) string {"}
)

// stepLines maps each strategy's step labels (Explain's) to the line that
// computes them. A step with no entry (the request's n, the memory of a
// log) is not computed by one line of the limiter.
var stepLines = map[limiter.Kind]map[string]codeLine{
	limiter.KindTokenBucket: {
		"now":                       {"tokenbucket.go", "if now < tb.last {"},
		"elapsed since last update": {"tokenbucket.go", "return now, tb.m.pay(tb.debt, now-tb.last)"},
		"tokens at last update":     {"tokenbucket.go", "tb.used, tb.last, tb.debt = true, at, next"},
		"refill":                    bucketPaid,
		"tokens now":                bucketLeft,
		"test":                      bucketTest,
		"tokens after":              {"tokenbucket.go", "tb.used, tb.last, tb.debt = true, at, next"},
		"retry after":               bucketRetry,
		"Retry-After header":        retryHeader,
		"remaining":                 bucketRemain,
	},
	limiter.KindGCRA: {
		"now":                            {"gcra.go", "if now < g.last {"},
		"emission interval T":            {"gcra.go", "s.EmissionInterval = time.Duration(g.m.unit / g.m.perNs)"},
		"tolerance τ":                    {"gcra.go", "s.Tolerance = time.Duration(g.m.full / g.m.perNs)"},
		"TAT (theoretical arrival time)": {"gcra.go", "return now, g.m.pay(g.ahead, now-g.last)"},
		"new TAT":                        {"gcra.go", "ok, next := g.m.admit(ahead, n)"},
		"test":                           bucketTest,
		"TAT after":                      {"gcra.go", "g.used, g.last, g.ahead = true, at, next"},
		"retry after":                    bucketRetry,
		"Retry-After header":             retryHeader,
		"remaining":                      bucketRemain,
	},
	limiter.KindLeakyBucket: {
		"now":                       {"leakybucket.go", "if now < lb.last {"},
		"elapsed since last update": {"leakybucket.go", "return now, lb.m.pay(lb.water, now-lb.last)"},
		"level at last update":      {"leakybucket.go", "lb.used, lb.last, lb.water = true, at, next"},
		"leaked":                    bucketPaid,
		"level now":                 bucketLeft,
		"test":                      bucketTest,
		"level after":               {"leakybucket.go", "lb.used, lb.last, lb.water = true, at, next"},
		queueStep:                   {"leakybucket.go", "d.Delay = max(time.Duration(o.next)-o.m.interval, 0)"},
		"retry after":               bucketRetry,
		"Retry-After header":        retryHeader,
		"remaining":                 bucketRemain,
	},
	limiter.KindFixedWindow: {
		"now":                {"fixedwindow.go", "if fw.used && now < fw.last {"},
		"window index":       {"fixedwindow.go", "idx := floorDiv(int64(now), int64(fw.window))"},
		"count":              {"fixedwindow.go", "if !fw.used || idx != fw.index {"},
		"test":               {"fixedwindow.go", "case n > 0 && int64(n) > fw.limit-count:"},
		"count after":        {"fixedwindow.go", "count += int64(n)"},
		"retry after":        {"fixedwindow.go", "untilNext := time.Duration((idx+1)*int64(fw.window)) - at"},
		"Retry-After header": retryHeader,
		"remaining":          {"fixedwindow.go", "d.Remaining = int(max(fw.limit-count, 0))"},
	},
	limiter.KindSlidingWindowLog: {
		"now":                       {"slidinglog.go", "if sl.used && now < sl.last {"},
		"remaining":                 {"slidinglog.go", "d.Remaining = max(sl.limit-count, 0)"},
		"expired since last update": {"slidinglog.go", "now-sl.entry(i) < sl.window"},
		"count":                     {"slidinglog.go", "count := sl.size - expired"},
		"test":                      {"slidinglog.go", "case n > 0 && count+n > sl.limit:"},
		"log after":                 {"slidinglog.go", "sl.record(at, expired, n)"},
		"retry after":               {"slidinglog.go", "d.RetryAfter = sl.entry(expired+count+n-sl.limit-1) + sl.window - at"},
		"Retry-After header":        retryHeader,
	},
	limiter.KindSlidingWindowCounter: {
		"now":                {"slidingcounter.go", "if sc.used && now < sc.last {"},
		"remaining":          {"slidingcounter.go", "d.Remaining = int(c.remaining())"},
		"elapsed in window":  {"slidingcounter.go", "c.elapsed = int64(now) - c.index*w"},
		"weighted estimate":  {"slidingcounter.go", "return mulLE(c.prev, c.window-e, r-n, c.window)"},
		"test":               {"slidingcounter.go", "case n > 0 && !c.fits(n64, c.elapsed):"},
		"estimate after":     {"slidingcounter.go", "sc.used, sc.last, sc.index, sc.curr, sc.prev = true, c.at, c.index, c.curr, c.prev"},
		"retry after":        {"slidingcounter.go", "d.RetryAfter = c.retryAfter(n64)"},
		"Retry-After header": retryHeader,
	},
}

// attachCode names, on each step of e, the line that computes it and how
// its units map to the formula.
func (x *explainer) attachCode() {
	lines := stepLines[x.e.Kind]
	for i := range x.e.Steps {
		s := &x.e.Steps[i]
		cl, ok := lines[s.Label]
		if !ok {
			continue
		}
		s.Code = StepCode{File: cl.file, Text: cl.text, Units: x.units(s.Label)}
	}
}

// units says how the code's units map to step label's formula.
func (x *explainer) units(label string) string {
	switch x.e.Kind {
	case limiter.KindTokenBucket:
		return x.tokenBucketUnits(label)
	case limiter.KindGCRA:
		return gcraUnits[label]
	case limiter.KindLeakyBucket:
		return leakyUnits[label]
	case limiter.KindSlidingWindowCounter:
		if label == "remaining" {
			return "limit − ⌈prev × (window − elapsed) ÷ window⌉ − curr, at least 0, in integers."
		}
	}
	return windowUnits[label]
}

// bucketScale is a token bucket's integer arithmetic for rate p/q tokens
// per second: one token is unit = q·10⁹ of debt, and one nanosecond pays
// back perNs = p. ok is false when the limiter takes another form (rate 0
// or +Inf, a rate below 10⁻⁹ per second, or a burst × unit past 2⁶¹) or
// when the debt could pass 2⁵⁰, where the integers read back from the
// float64 token counts might not be exact.
type bucketScale struct {
	p, q, unit, full int64
	ok               bool
}

// scaleOf works out rate's p/q as package limiter does (NewTokenBucket's
// documentation: the simplest fraction with q ≤ 10⁹ within a relative
// 10⁻¹² of rate, the convergents of its continued fraction);
// TestBucketScaleIsLimiters checks its retry-afters against the limiter.
func scaleOf(rate float64, burst int) bucketScale {
	if rate <= 0 || math.IsInf(rate, 1) || math.IsNaN(rate) || rate < 1e-9 {
		return bucketScale{}
	}
	h0, h1, k0, k1 := int64(0), int64(1), int64(1), int64(0)
	r := rate
	for range 64 {
		a := math.Floor(r)
		if a > 1e18 || a*float64(h1)+float64(h0) > math.MaxInt64/4 || a*float64(k1)+float64(k0) > 1e9 {
			break
		}
		ai := int64(a)
		h0, h1, k0, k1 = h1, ai*h1+h0, k1, ai*k1+k0
		if math.Abs(float64(h1)/float64(k1)-rate) <= 1e-12*rate || r == a {
			break
		}
		r = 1 / (r - a)
	}
	if k1 == 0 || h1 == 0 {
		return bucketScale{}
	}
	s := bucketScale{p: h1, q: k1, unit: k1 * 1e9}
	if int64(burst) > (1<<50)/s.unit {
		return bucketScale{}
	}
	s.full, s.ok = int64(burst)*s.unit, true
	return s
}

// debt is the integer debt of a bucket holding tokens.
func (s bucketScale) debt(tokens float64) int64 {
	return s.full - int64(math.Round(tokens*float64(s.unit)))
}

// tokenBucketUnits maps the token bucket's steps to its integers, with
// this decision's values when they are exact (see bucketScale).
func (x *explainer) tokenBucketUnits(label string) string {
	c, in := x.in.Config, x.in
	s := scaleOf(c.Rate, c.Burst)
	generic := map[string]string{
		"now":                       "Instant is a time.Duration: int64 nanoseconds on the limiter's clock. A stamp before the latest admission is moved up to it.",
		"elapsed since last update": "now-tb.last, in int64 nanoseconds.",
		"tokens at last update":     "The bucket keeps no token count: it keeps debt = (burst − tokens) × unit, the tokens missing from a full bucket, with unit = q × 10⁹ for a rate of p/q tokens per second.",
		"refill":                    "paid = elapsed (ns) × perNs, perNs = p: paid ÷ unit = elapsed × p ÷ (q × 10⁹) tokens, which is elapsed × rate, in integers.",
		"tokens now":                "debt − paid, or 0 (a full bucket) once paid ≥ debt: that floor is the min with burst. tokens = burst − debt ÷ unit.",
		"test":                      "tokens ≥ n ⇔ debt + n × unit ≤ full, with full = burst × unit: one integer comparison.",
		"tokens after":              "The new debt, next = debt + n × unit, is stored with the instant.",
		"retry after":               "The missing debt, debt + n × unit − full, divided by perNs and rounded up: (n − tokens) ÷ rate in whole nanoseconds.",
		"Retry-After header":        "RetryAfter in whole seconds, rounded up, at least 1.",
		"remaining":                 "burst − ⌈debt ÷ unit⌉: the whole tokens left.",
	}[label]
	if !s.ok {
		return generic
	}
	rateIs := fmt.Sprintf("%s/s = %d/%d: unit = %s, perNs = %d", strconv.FormatFloat(c.Rate, 'g', -1, 64), s.p, s.q, num(s.unit), s.p)
	before := s.debt(in.Before.Tokens)
	switch label {
	case "tokens at last update":
		last := s.debt(in.LastState.Tokens)
		return fmt.Sprintf("%s Here %s, and debt = (%d − %s) × %s = %s.", generic, rateIs, c.Burst, Tokens(in.LastState.Tokens), num(s.unit), num(last))
	case "refill":
		el := int64(x.elapsed())
		return fmt.Sprintf("%s Here %s ns × %d = %s, that is %s tokens.", generic, num(el), s.p, mulText(el, s.p), Tokens(float64(el)*float64(s.p)/float64(s.unit)))
	case "tokens now":
		if !in.HasLast {
			return "A new bucket's debt is 0: full, burst tokens."
		}
		return fmt.Sprintf("%s Here debt = %s: %d − %s ÷ %s = %s tokens.", generic, num(before), c.Burst, num(before), num(s.unit), Tokens(in.Before.Tokens))
	case "test":
		next := before + int64(in.N)*s.unit
		return fmt.Sprintf("%s Here %s + %d × %s = %s ≤ %s is %s.", generic, num(before), in.N, num(s.unit), num(next), num(s.full), holds(next <= s.full))
	case "tokens after":
		return fmt.Sprintf("%s Here next = %s.", generic, num(s.debt(in.After.Tokens)))
	case "retry after":
		miss := before + int64(in.N)*s.unit - s.full
		return fmt.Sprintf("%s Here ⌈%s ÷ %d⌉ = %s ns.", generic, num(miss), s.p, num(int64(in.Decision.RetryAfter)))
	}
	return generic
}

func mulText(a, b int64) string {
	if a != 0 && (a*b)/a != b {
		return "more than 2⁶³"
	}
	return num(a * b)
}

// num writes an integer with thin spaces between groups of three digits.
func num(v int64) string {
	s := strconv.FormatInt(v, 10)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	out := ""
	for len(s) > 3 {
		out = "\u202f" + s[len(s)-3:] + out
		s = s[:len(s)-3]
	}
	if neg {
		s = "-" + s
	}
	return s + out
}

var gcraUnits = map[string]string{
	"now":                            "Instant is a time.Duration: int64 nanoseconds. A stamp before the latest admission is moved up to it.",
	"emission interval T":            "T = unit ÷ perNs, in whole nanoseconds for State only: the decision keeps unit and perNs (the token bucket's integers) and never rounds T.",
	"tolerance τ":                    "τ = full ÷ perNs = burst × T, rounded down for State only, like T.",
	"TAT (theoretical arrival time)": "GCRA keeps TAT as its lead over the last update, ahead = (TAT − now) × perNs, and pays it back like a token bucket's debt: TAT = now + ahead ÷ perNs.",
	"new TAT":                        "next = ahead + n × unit: max(TAT, now) + n × T − now, times perNs.",
	"test":                           "new TAT − now ≤ τ, times perNs: ahead + n × unit ≤ full, the token bucket's test.",
	"TAT after":                      "ahead = next is stored with the instant: TAT = now + next ÷ perNs.",
	"retry after":                    "(new TAT − now − τ) × perNs = ahead + n × unit − full, divided by perNs and rounded up to a whole nanosecond.",
	"Retry-After header":             "RetryAfter in whole seconds, rounded up, at least 1.",
	"remaining":                      "burst − ⌈ahead ÷ unit⌉: the whole tokens left.",
}

var leakyUnits = map[string]string{
	"now":                       "Instant is a time.Duration: int64 nanoseconds. A stamp before the latest admission is moved up to it.",
	"elapsed since last update": "now-lb.last, in int64 nanoseconds.",
	"level at last update":      "The bucket keeps its water in nanoseconds of leaking: water = level × leak interval (unit = leak interval, perNs = 1).",
	"leaked":                    "paid = elapsed × 1: each nanosecond drains one nanosecond of water, so leaked = elapsed ÷ leak interval units.",
	"level now":                 "water − paid, or 0 once it has all leaked; level = water ÷ leak interval.",
	"test":                      "level + n ≤ capacity ⇔ water + n × interval ≤ capacity × interval: one integer comparison.",
	"level after":               "The new water, next = water + n × interval, is stored with the instant.",
	queueStep:                   "next − interval nanoseconds: (level after − 1) × leak interval, exact.",
	"retry after":               "water + n × interval − full nanoseconds of water must leak first, at one per nanosecond.",
	"Retry-After header":        "RetryAfter in whole seconds, rounded up, at least 1.",
	"remaining":                 "capacity − ⌈water ÷ interval⌉: the whole units that still fit.",
}

var windowUnits = map[string]string{
	"now":                       "Instant is a time.Duration: int64 nanoseconds. A stamp before the latest admission is moved up to it.",
	"window index":              "⌊now ÷ window⌋ in int64 nanoseconds (floorDiv: also for instants before 0).",
	"count":                     "The count of the window held, or 0 when the window index has moved on.",
	"test":                      "Counts are integers, compared exactly.",
	"count after":               "count + n, stored with the window index.",
	"retry after":               "Instants are int64 nanoseconds: the wait is exact.",
	"Retry-After header":        "RetryAfter in whole seconds, rounded up, at least 1.",
	"remaining":                 "limit − count, at least 0.",
	"expired since last update": "A binary search over the log, which is in time order: entries with now − e ≥ window are expired.",
	"log after":                 "n entries of the instant are appended; expired ones are dropped only now, with the admission.",
	"elapsed in window":         "now − the window's start, in int64 nanoseconds.",
	"weighted estimate":         "prev × (window − elapsed) ÷ window + curr ≤ limit − n, multiplied out by window so that no division rounds: prev × (window − elapsed) ≤ (limit − curr − n) × window, in 128 bits.",
	"estimate after":            "curr + n, stored with prev and the window index.",
}
