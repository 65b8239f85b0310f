package lab

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui/uitest"
)

// The totals table: its cells carry the counts, names from a link or a
// trace file are text, never markup, and each name is a button (it draws
// that client's state).
func TestLabTotalsHTML(t *testing.T) {
	snap := &totalsSnap{
		Lanes:   []string{"#1 fixed window", "#2 token bucket"},
		Totals:  []sim.Counts{{Allowed: 7, Denied: 3}, {Allowed: 9, Denied: 1}},
		Top:     []totalsTop{{`<b>&"'x`, ": 3 of 5 denied"}, {Text: "nobody denied"}},
		Clients: 12,
		Rows: []totalsRow{
			{Client: `<b>&"'x`, Cells: []sim.Counts{{Allowed: 2, Denied: 3}, {Allowed: 5, Denied: 0}}},
		},
	}
	html := strings.ReplaceAll(uitest.Mount(t, &labTotals{M: newLabModel(), Snap: snap}), "\n", "")
	// go-app writes attributes in a map's order: the name's button's sorted.
	attr := regexp.MustCompile(`[a-z-]+="(?:\\.|[^"\\])*"`)
	html = regexp.MustCompile(`<button(?: [a-z-]+="(?:\\.|[^"\\])*")*>`).ReplaceAllStringFunc(html, func(tag string) string {
		as := attr.FindAllString(tag, -1)
		slices.Sort(as)
		return "<button " + strings.Join(as, " ") + ">"
	})
	name := `<button class="client-name btn link" title="<b>&\"'x" type="button">&lt;b&gt;&amp;&#34;&#39;x</button>`
	for _, want := range []string{
		`<h2>Per-client totals: allowed / denied (the 1 denied most of 12)</h2>`,
		`<tr class="total"><th>all 12 clients</th><td class="num-cell"><span class="ok">7</span><span class="sep"> / </span><span class="no">3</span></td><td class="num-cell"><span class="ok">9</span><span class="sep"> / </span><span class="no">1</span></td></tr>`,
		`<tr class="top"><th>throttles most</th><td class="small">` + name + `: 3 of 5 denied</td><td class="small">nobody denied</td></tr>`,
		`<tr><th class="mono">` + name + `</th><td class="num-cell"><span class="ok">2</span><span class="sep"> / </span><span class="no">3</span></td>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("totals HTML lacks %s\nin %s", want, html)
		}
	}
	// The full name is in a title (the cell cuts a long one): an attribute,
	// which the browser's go-app sets with setAttribute, never markup. (This
	// HTML is go-app's pre-render, which quotes an attribute with
	// strconv.Quote; it never sees a trace's names.)
	if strings.Contains(regexp.MustCompile(`="(\\.|[^"\\])*"`).ReplaceAllString(html, `=""`), "<b>") {
		t.Errorf("a client name became markup: %s", html)
	}
}

// The presets card lists every preset with its source, as plain HTML.
func TestPresetsHTML(t *testing.T) {
	html := presetsHTML()
	// Each preset's configuration in the pages' notation (explain.ConfigText).
	configs := map[string]string{
		"github":        "fixed window: 5000 per 1 h",
		"shopify":       "leaky bucket: capacity 40, leaks 1 per 500 ms",
		"stripe":        "token bucket: 100/s, burst 100",
		"nginx-nodelay": "leaky bucket: capacity 21, leaks 1 per 100 ms",
		"nginx-delay":   "leaky bucket: capacity 21, leaks 1 per 100 ms",
		"cloudflare":    "sliding window counter: 50 per 1 min",
	}
	if len(configs) != len(sim.Presets()) {
		t.Errorf("%d presets; the test knows %d", len(sim.Presets()), len(configs))
	}
	for _, p := range sim.Presets() {
		want := `<li id="preset-` + p.ID + `"><strong>` + template.HTMLEscapeString(p.Name) + `</strong><div class="mono small">` + configs[p.ID] + `</div>`
		if !strings.Contains(html, want) {
			t.Errorf("presets HTML lacks %s", want)
		}
		if !strings.Contains(html, `href="`+p.Source+`" target="_blank" rel="noopener">`) {
			t.Errorf("presets HTML lacks the link to %s", p.Source)
		}
	}
	if n := strings.Count(html, "<li "); n != len(sim.Presets()) {
		t.Errorf("%d presets listed, want %d", n, len(sim.Presets()))
	}
}
