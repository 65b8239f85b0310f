package explain

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// GoSetup is what "Copy as Go" turns into a program: one limit per client,
// as a lab lane or the playground's limiter has it.
type GoSetup struct {
	// From says where the setup comes from, for the program's doc comment
	// ("lane 1 of the comparison lab").
	From string
	// Config is the limit of a client without a tier.
	Config limiter.Config
	// Tiers maps a tier name to its limit; clients of a tier are told
	// apart by their API key (TierOf), every other client by its IP
	// address.
	Tiers map[string]limiter.Config
	// TierOf maps a client's API key (the lab's client name) to its tier.
	TierOf map[string]string
}

// GoProgram returns a complete, gofmt-formatted main.go that serves a
// hello handler on 127.0.0.1:8080 (or -addr) behind package httplimit
// with exactly s's strategy and parameters: one limiter per client IP
// address, or, with tiers, per API key (header X-API-Key) with each tier's
// limit from the factory.
func GoProgram(s GoSetup) string {
	var b strings.Builder
	b.WriteString("// Command hello serves \"hello\" behind a rate limit per client: " + s.Config.String() + ".\n")
	if s.From != "" {
		b.WriteString("// Made by ratelab from " + s.From + ".\n")
	}
	b.WriteString("package main\n\nimport (\n\t\"flag\"\n\t\"fmt\"\n\t\"log\"\n")
	if usesMath(s) {
		b.WriteString("\t\"math\"\n")
	}
	b.WriteString("\t\"net/http\"\n\t\"time\"\n\n\t\"github.com/ratelab/ratelab/limiter\"\n\t\"github.com/ratelab/ratelab/limiter/httplimit\"\n)\n\n")
	tiers := tierNames(s)
	if len(tiers) > 0 {
		writeTierTable(&b, s)
	}
	b.WriteString("func main() {\n\taddr := flag.String(\"addr\", \"127.0.0.1:8080\", \"address to listen on\")\n\tflag.Parse()\n\n")
	if len(tiers) == 0 {
		b.WriteString("\t// One limiter per client IP address, made on its first request.\n")
		b.WriteString("\tclients, err := limiter.NewKeyed(func(string) (limiter.Strategy, error) {\n")
		b.WriteString("\t\treturn " + goConstructor(s.Config) + "\n")
	} else {
		b.WriteString("\t// One limiter per API key, made on its first request with its tier's limit.\n")
		b.WriteString("\tclients, err := limiter.NewKeyed(func(apiKey string) (limiter.Strategy, error) {\n")
		b.WriteString("\t\tswitch tierOf(apiKey) {\n")
		for _, t := range tiers {
			b.WriteString("\t\tcase " + strconv.Quote(t) + ":\n\t\t\treturn " + goConstructor(s.Tiers[t]) + "\n")
		}
		b.WriteString("\t\t}\n\t\treturn " + goConstructor(s.Config) + "\n")
	}
	b.WriteString("\t}, limiter.KeyedOptions{IdleTTL: 10 * time.Minute})\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n")
	if len(tiers) == 0 {
		b.WriteString("\tlimit, err := httplimit.New(clients, httplimit.Options{})\n")
	} else {
		b.WriteString("\tlimit, err := httplimit.New(clients, httplimit.Options{Key: httplimit.KeyByHeader(\"X-API-Key\")})\n")
	}
	b.WriteString("\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n\n")
	b.WriteString("\tmux := http.NewServeMux()\n\tmux.HandleFunc(\"/\", func(w http.ResponseWriter, r *http.Request) {\n\t\tfmt.Fprintln(w, \"hello\")\n\t})\n")
	b.WriteString("\tlog.Printf(\"serving http://%s\", *addr)\n\tlog.Fatal(http.ListenAndServe(*addr, limit.Handler(mux)))\n}\n")
	return b.String()
}

func tierNames(s GoSetup) []string {
	var names []string
	for t := range s.Tiers {
		names = append(names, t)
	}
	slices.Sort(names)
	return names
}

// writeTierTable writes tierOf, from API key to tier.
func writeTierTable(b *strings.Builder, s GoSetup) {
	b.WriteString("// tierOf gives an API key's tier (\"\" for the default limit); look the key\n// up in your own store instead.\nfunc tierOf(apiKey string) string {\n")
	keys := map[string][]string{}
	for k, t := range s.TierOf {
		if _, ok := s.Tiers[t]; ok {
			keys[t] = append(keys[t], strconv.Quote(k))
		}
	}
	if len(keys) > 0 {
		b.WriteString("\tswitch apiKey {\n")
		for _, t := range tierNames(s) {
			if len(keys[t]) > 0 {
				slices.Sort(keys[t])
				b.WriteString("\tcase " + strings.Join(keys[t], ", ") + ":\n\t\treturn " + strconv.Quote(t) + "\n")
			}
		}
		b.WriteString("\t}\n")
	}
	b.WriteString("\treturn \"\"\n}\n\n")
}

func usesMath(s GoSetup) bool {
	for _, c := range append([]limiter.Config{s.Config}, mapValues(s.Tiers)...) {
		if (c.Kind == limiter.KindTokenBucket || c.Kind == limiter.KindGCRA) && math.IsInf(c.Rate, 1) {
			return true
		}
	}
	return false
}

func mapValues(m map[string]limiter.Config) []limiter.Config {
	var v []limiter.Config
	for _, c := range m {
		v = append(v, c)
	}
	return v
}

// goConstructor is the Go call that makes c's strategy, e.g.
// "limiter.NewTokenBucket(10, 5)".
func goConstructor(c limiter.Config) string {
	switch c.Kind {
	case limiter.KindTokenBucket:
		return fmt.Sprintf("limiter.NewTokenBucket(%s, %d)", goRate(c.Rate), c.Burst)
	case limiter.KindGCRA:
		return fmt.Sprintf("limiter.NewGCRA(%s, %d)", goRate(c.Rate), c.Burst)
	case limiter.KindLeakyBucket:
		return fmt.Sprintf("limiter.NewLeakyBucket(%d, %s)", c.Capacity, goDuration(c.LeakInterval))
	case limiter.KindFixedWindow:
		return fmt.Sprintf("limiter.NewFixedWindow(%d, %s)", c.Limit, goDuration(c.Window))
	case limiter.KindSlidingWindowLog:
		return fmt.Sprintf("limiter.NewSlidingWindowLog(%d, %s)", c.Limit, goDuration(c.Window))
	case limiter.KindSlidingWindowCounter:
		return fmt.Sprintf("limiter.NewSlidingWindowCounter(%d, %s)", c.Limit, goDuration(c.Window))
	}
	return fmt.Sprintf("limiter.New(limiter.Config{Kind: %q})", string(c.Kind))
}

// goRate is a rate in tokens per second as a Go expression that reads back
// as exactly the same float64.
func goRate(r float64) string {
	if math.IsInf(r, 1) {
		return "math.Inf(1)"
	}
	return strconv.FormatFloat(r, 'g', -1, 64)
}

// goDuration is d as a Go expression in its largest whole unit:
// "time.Second", "10*time.Second", "83333333*time.Nanosecond" (spaced as
// gofmt spaces a call's argument).
func goDuration(d time.Duration) string {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "time.Hour"}, {time.Minute, "time.Minute"}, {time.Second, "time.Second"}, {time.Millisecond, "time.Millisecond"}, {time.Microsecond, "time.Microsecond"}} {
		if d != 0 && d%u.d == 0 {
			if d == u.d {
				return u.name
			}
			return strconv.FormatInt(int64(d/u.d), 10) + "*" + u.name
		}
	}
	return strconv.FormatInt(int64(d), 10) + "*time.Nanosecond"
}
