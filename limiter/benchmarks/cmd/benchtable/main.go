// Command benchtable reads `go test -bench` output (several -count runs) on
// standard input and prints, for each benchmark group, ours beside each peer:
// the median of each (with its 95% confidence interval, from
// golang.org/x/perf/benchmath) and the ratio of the medians, ours / peer.
//
// Sub-benchmarks are named <group>/<implementation>; ours start with "ours".
// An implementation ending in "-<N>proc" is compared only with peers of the
// same suffix. Besides sec/op it reports allocs/op and the custom units
// B/key, calls/req, admitted/req and ours/peer. Where ours is compared with
// several peers, a last row gives its ratio to the fastest of them.
package main

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

type key struct{ group, impl, unit string }

var procSuffix = regexp.MustCompile(`-\d+proc$`)

// extraUnits are the custom units reported besides sec/op, B/key and
// allocs/op: the Redis benchmarks' calls and admissions per request, and
// the paired benchmark's ratio of times per decision.
var extraUnits = map[string]bool{"calls/req": true, "admitted/req": true, "ours/peer": true}

func main() {
	values := map[key][]float64{}
	var order []key
	r := benchfmt.NewReader(os.Stdin, "stdin")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		base, parts := res.Name.Parts()
		if len(parts) == 0 {
			continue
		}
		impl := strings.TrimPrefix(string(parts[0]), "/")
		for _, v := range res.Values {
			if v.Unit != "sec/op" && v.Unit != "B/key" && v.Unit != "allocs/op" && !extraUnits[v.Unit] {
				continue
			}
			k := key{string(base), impl, v.Unit}
			if _, seen := values[k]; !seen {
				order = append(order, k)
			}
			values[k] = append(values[k], v.Value)
		}
	}
	if err := r.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
	if len(order) == 0 {
		fmt.Fprintln(os.Stderr, "benchtable: no benchmark results on standard input")
		os.Exit(1)
	}
	thresholds := benchmath.DefaultThresholds
	summary := func(k key) benchmath.Summary {
		return benchmath.AssumeNothing.Summary(benchmath.NewSample(values[k], &thresholds), 0.95)
	}
	fmt.Printf("%-22s %-28s %-9s %18s  %-24s %18s  %7s\n", "benchmark", "ours", "unit", "ours (median)", "peer", "peer (median)", "ratio")
	for _, unit := range []string{"sec/op", "B/key", "allocs/op", "calls/req", "admitted/req", "ours/peer"} {
		groups := map[string][]key{}
		var names []string
		for _, k := range order {
			if k.unit != unit {
				continue
			}
			if _, ok := groups[k.group]; !ok {
				names = append(names, k.group)
			}
			groups[k.group] = append(groups[k.group], k)
		}
		for _, g := range names {
			var ours, peers []key
			for _, k := range groups[g] {
				if strings.HasPrefix(k.impl, "ours") {
					ours = append(ours, k)
				} else {
					peers = append(peers, k)
				}
			}
			sort.SliceStable(ours, func(i, j int) bool { return ours[i].impl < ours[j].impl })
			for _, o := range ours {
				so := summary(o)
				printed := false
				var fastest *key
				var fastestSummary benchmath.Summary
				compared := 0
				for _, p := range peers {
					if procSuffix.FindString(o.impl) != procSuffix.FindString(p.impl) {
						continue
					}
					sp := summary(p)
					ratio := "-"
					if sp.Center != 0 {
						ratio = fmt.Sprintf("%.2fx", so.Center/sp.Center)
					}
					fmt.Printf("%-22s %-28s %-9s %18s  %-24s %18s  %7s\n", g, o.impl, unit, format(so, unit), p.impl, format(sp, unit), ratio)
					printed = true
					compared++
					if sp.Center != 0 && (fastest == nil || sp.Center < fastestSummary.Center) {
						fastest, fastestSummary = &p, sp
					}
				}
				// Against several peers, the bound that matters is the
				// fastest peer's (issue 21: "≤ 0.5× the fastest of them").
				if unit == "sec/op" && compared > 1 && fastest != nil {
					fmt.Printf("%-22s %-28s %-9s %18s  %-24s %18s  %7s\n", g, o.impl, unit, format(so, unit),
						"fastest: "+fastest.impl, format(fastestSummary, unit), fmt.Sprintf("%.2fx", so.Center/fastestSummary.Center))
				}
				if !printed {
					fmt.Printf("%-22s %-28s %-9s %18s  %-24s %18s  %7s\n", g, o.impl, unit, format(so, unit), "", "", "")
				}
			}
		}
	}
}

func format(s benchmath.Summary, unit string) string {
	if unit == "sec/op" {
		return fmt.Sprintf("%.1fns ±%s", s.Center*1e9, strings.TrimSpace(s.PctRangeString()))
	}
	if strings.HasSuffix(unit, "/req") || unit == "ours/peer" {
		return fmt.Sprintf("%.3f", s.Center)
	}
	return fmt.Sprintf("%.1f", s.Center)
}
