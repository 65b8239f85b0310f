package explain

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// DesignType is one box of the design lesson's class diagram: a type of
// package limiter as Go declares it. TestDesignTypesAreLimiters checks every
// name, field and signature against limiter/'s source (go/parser), so the
// diagram cannot drift from the package.
type DesignType struct {
	// Name is the type's name in package limiter ("Strategy").
	Name string
	// Kind is "interface", "struct" or "func type".
	Kind string
	// File is the limiter file that declares it ("limiter.go"), served at
	// ShippedDir + File.
	File string
	// Fields are exported fields, "Name Type", all of them, in order.
	Fields []string
	// Methods are method signatures as declared ("AllowN(now Instant, n int)
	// (Decision, error)"): an interface's whole method set, in order; some
	// of a struct's methods otherwise.
	Methods []string
	// Funcs are package functions that make the type, as declared
	// ("NewTokenBucket(rate float64, burst int) (*TokenBucket, error)"),
	// or a func type's own signature ("func(key string) (Strategy, error)").
	Funcs []string
	// Implements names the interface the type satisfies ("Strategy").
	Implements string
}

// The six strategies' boxes.
var strategyTypes = []DesignType{
	{Name: "TokenBucket", Kind: "struct", File: "tokenbucket.go", Implements: "Strategy",
		Funcs: []string{"NewTokenBucket(rate float64, burst int) (*TokenBucket, error)"}},
	{Name: "GCRA", Kind: "struct", File: "gcra.go", Implements: "Strategy",
		Funcs: []string{"NewGCRA(rate float64, burst int) (*GCRA, error)"}},
	{Name: "LeakyBucket", Kind: "struct", File: "leakybucket.go", Implements: "Strategy",
		Funcs: []string{"NewLeakyBucket(capacity int, leakInterval time.Duration) (*LeakyBucket, error)"}},
	{Name: "FixedWindow", Kind: "struct", File: "fixedwindow.go", Implements: "Strategy",
		Funcs: []string{"NewFixedWindow(limit int, window time.Duration) (*FixedWindow, error)"}},
	{Name: "SlidingWindowLog", Kind: "struct", File: "slidinglog.go", Implements: "Strategy",
		Funcs: []string{"NewSlidingWindowLog(limit int, window time.Duration) (*SlidingWindowLog, error)"}},
	{Name: "SlidingWindowCounter", Kind: "struct", File: "slidingcounter.go", Implements: "Strategy",
		Funcs: []string{"NewSlidingWindowCounter(limit int, window time.Duration) (*SlidingWindowCounter, error)"}},
}

// DesignTypes returns the diagram's boxes: Strategy, Keyed, Factory and
// Config, then the six strategies in the order of limiter.Kinds.
func DesignTypes() []DesignType {
	core := []DesignType{
		{Name: "Strategy", Kind: "interface", File: "limiter.go", Methods: []string{
			"AllowN(now Instant, n int) (Decision, error)",
			"State(now Instant) State",
			"Fresh(now Instant) bool",
			"Kind() Kind",
		}},
		{Name: "Keyed", Kind: "struct", File: "keyed.go",
			Funcs: []string{"NewKeyed(factory Factory, opts KeyedOptions) (*Keyed, error)"},
			Methods: []string{
				"AllowNAt(now Instant, key string, n int) (Decision, error)",
				"State(now Instant, key string) (State, bool)",
				"Sweep(now Instant) int",
				"Len() int",
			}},
		{Name: "Factory", Kind: "func type", File: "keyed.go", Funcs: []string{"func(key string) (Strategy, error)"}},
		{Name: "Config", Kind: "struct", File: "config.go",
			Fields: []string{"Kind Kind", "Rate float64", "Burst int", "Capacity int", "LeakInterval time.Duration", "Limit int", "Window time.Duration"},
			Funcs:  []string{"New(c Config) (Strategy, error)"}},
	}
	return append(core, strategyTypes...)
}

// Reply is what the design lesson's caller answers one request with, as an
// HTTP handler would: 200, or 429 with the wait, or 500 for an error.
type Reply struct {
	Status     int
	Remaining  int
	RetryAfter time.Duration
	Err        string
}

// designCode is designcode.go, the caller and the factories of the demos,
// embedded so that the page shows the very text the demos run.
//
//go:embed designcode.go
var designCode string

// The source the page shows, cut from designcode.go: Serve, Tiers, and
// EndpointKey with PerEndpoint, each with its doc comment.
var (
	ServeCode       = declText(designCode, "Serve", "Serve")
	TiersCode       = declText(designCode, "Tiers", "Tiers")
	PerEndpointCode = declText(designCode, "EndpointKey", "PerEndpoint")
)

// declText is the text of src from the doc comment of function first to
// the end of function last, for top-level functions, gofmt'd, each with a
// doc comment: from the line "// first ..." to the "}" that closes last
// (alone on its line, or the end of a one-line function). It is "" when
// either is missing. TestDesignCodeIsSource checks its cuts against
// go/parser's; the page's wasm does without go/parser.
func declText(src, first, last string) string {
	doc := strings.Index(src, "\n// "+first+" ")
	if doc < 0 {
		return ""
	}
	head := strings.Index(src[doc:], "\nfunc "+last+"(")
	if head < 0 {
		return ""
	}
	head += doc + 1
	line, _, _ := strings.Cut(src[head:], "\n")
	end := head + len(line)
	if strings.HasSuffix(line, "{") {
		close := strings.Index(src[head:], "\n}\n")
		if close < 0 {
			return ""
		}
		end = head + close + 2
	}
	return src[doc+1 : end]
}

// OneLimit is the strategy switch's factory: every key gets cfg.
func OneLimit(cfg limiter.Config) limiter.Factory {
	return func(key string) (limiter.Strategy, error) { return limiter.New(cfg) }
}

// OneLimitCode is the factory the page shows for cfg: the same code for
// every strategy but its one constructor line, which builds exactly cfg.
func OneLimitCode(cfg limiter.Config) string {
	return "keyed, err := limiter.NewKeyed(func(key string) (limiter.Strategy, error) {\n" +
		"\t// The only line that changes with the strategy:\n" +
		"\treturn " + goConstructor(cfg) + "\n" +
		"}, limiter.KeyedOptions{})"
}

// The design lesson's budgets: the strategy switch at 5 per second, the
// tiers at 5 and 50 per minute, the endpoints at 5 and 2 per minute.
const (
	SwitchLimit  = 5
	SwitchWindow = time.Second
	FreeLimit    = 5
	ProLimit     = 50
	SearchLimit  = 5
	UploadLimit  = 2
	DemoWindow   = time.Minute
)

// Budget is kind's config for "limit per window" (sim.SameBudget): the
// same budget whatever the strategy.
func Budget(kind limiter.Kind, limit int, window time.Duration) limiter.Config {
	c, _ := sim.SameBudget(kind, limit, window) // kind is one of limiter.Kinds, limit and window positive
	return c
}

// TierConfigs are the tiers demo's configs for kind.
func TierConfigs(kind limiter.Kind) (free, pro limiter.Config) {
	return Budget(kind, FreeLimit, DemoWindow), Budget(kind, ProLimit, DemoWindow)
}

// EndpointLimits are the composite-key demo's configs for kind.
func EndpointLimits(kind limiter.Kind) map[string]limiter.Config {
	return map[string]limiter.Config{"/search": Budget(kind, SearchLimit, DemoWindow), "/upload": Budget(kind, UploadLimit, DemoWindow)}
}

// SwitchRequests is the strategy switch's request sequence for one client,
// "alice", 14 requests: 3 at once, 3 at 0.6 s, 3 at the window boundary
// (1 s), 2 at 1.1 s and 3 at 1.5 s, so that the buckets, the fixed window,
// the sliding window log and the sliding window counter answer each
// differently at the same budget.
func SwitchRequests() []limiter.Instant {
	ms := time.Millisecond
	return []limiter.Instant{0, 0, 0, 600 * ms, 600 * ms, 600 * ms, 1000 * ms, 1000 * ms, 1000 * ms, 1100 * ms, 1100 * ms, 1500 * ms, 1500 * ms, 1500 * ms}
}

// DemoCall is one request of a design demo and the caller's reply.
type DemoCall struct {
	At    limiter.Instant
	Key   string
	Reply Reply
}

// Demo is one Keyed from a factory, driven through Serve at explicit
// instants: what the design lesson's demos run in the page.
type Demo struct {
	keyed *limiter.Keyed
	Calls []DemoCall
}

// NewDemo returns a Demo whose Keyed takes its strategies from f.
func NewDemo(f limiter.Factory) (*Demo, error) {
	k, err := limiter.NewKeyed(f, limiter.KeyedOptions{SweepEvery: -1})
	if err != nil {
		return nil, err
	}
	return &Demo{keyed: k}, nil
}

// Send serves n requests for key at at, in order, and returns their calls.
func (d *Demo) Send(at limiter.Instant, key string, n int) []DemoCall {
	start := len(d.Calls)
	for range n {
		d.Calls = append(d.Calls, DemoCall{At: at, Key: key, Reply: Serve(d.keyed, at, key)})
	}
	return d.Calls[start:]
}

// Count returns key's replies so far: admitted (200) and refused (429).
func (d *Demo) Count(key string) (ok, refused int) {
	for _, c := range d.Calls {
		switch {
		case c.Key != key:
		case c.Reply.Status == 200:
			ok++
		case c.Reply.Status == 429:
			refused++
		}
	}
	return ok, refused
}

// Keys is the number of keys the Keyed holds: one strategy per key seen.
func (d *Demo) Keys() int { return d.keyed.Len() }

// SwitchRun runs the strategy switch's sequence through Serve on a Keyed
// whose factory gives every key kind's 5 per second.
func SwitchRun(kind limiter.Kind, at []limiter.Instant) ([]DemoCall, error) {
	d, err := NewDemo(OneLimit(Budget(kind, SwitchLimit, SwitchWindow)))
	if err != nil {
		return nil, err
	}
	for _, t := range at {
		d.Send(t, "alice", 1)
	}
	return d.Calls, nil
}

// ReplyText is a reply as the demos show it: "200 (4 left)", "429 (retry
// after 200 ms)".
func ReplyText(r Reply) string {
	switch r.Status {
	case 200:
		return fmt.Sprintf("200 (%d left)", r.Remaining)
	case 429:
		return "429 (retry after " + units.FormatDuration(r.RetryAfter) + ")"
	}
	return fmt.Sprintf("%d (%s)", r.Status, r.Err)
}

// BudgetText says a demo budget in words: "5 per minute" (units.FormatBudget).
func BudgetText(limit int, window time.Duration) string {
	return units.FormatBudget(limit, window)
}

// DemoConfigText is a demo's config as the design lesson says it, rates
// and windows in words: "token bucket: 5 per minute, burst 5"
// (units.FormatRate; ConfigText writes the library's "0.0833333/s"),
// "fixed window: 5 per minute" (units.FormatBudget); a leaky bucket as
// ConfigText writes it ("leaky bucket: capacity 5, leaks 1 per 12 s").
func DemoConfigText(c limiter.Config) string {
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		return c.Kind.Name() + ": " + units.FormatRate(c.Rate) + ", burst " + strconv.Itoa(c.Burst)
	case limiter.KindFixedWindow, limiter.KindSlidingWindowLog, limiter.KindSlidingWindowCounter:
		return c.Kind.Name() + ": " + units.FormatBudget(c.Limit, c.Window)
	}
	return ConfigText(c)
}
