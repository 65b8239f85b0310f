package ui

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/limiter"
)

// Inspector shows one decision worked out with its real numbers (from
// explain), and on request the limiter's Go source that took it, as
// shipped under /web/src/, with the lines that matter highlighted.
type Inspector struct {
	app.Compo
	// Key identifies the decision shown (the source view stays open
	// across decisions of the same strategy).
	Key     string
	Heading string
	Exp     explain.Explanation
	// OnClose, when set, shows a close button.
	OnClose func(ctx app.Context)

	showSource bool
	loading    bool
	loadErr    string
}

// shipped caches the source files fetched from /web/src/ for the page's
// lifetime (they only change with a rebuild).
var shipped = map[string]string{}

func (in *Inspector) Render() app.UI {
	e := in.Exp
	cls := "inspector " + string(e.Outcome)
	verdict := "✓ " + e.Verdict
	if e.Outcome == explain.Denied || e.Outcome == explain.Never {
		verdict = "✕ " + e.Verdict
	}
	heading := in.Heading
	if heading == "" {
		heading = "Why this decision"
	}
	return app.Elem("section").ID("inspector").Class(cls).Attr("aria-label", "Decision inspector").
		OnKeyDown(func(ctx app.Context, ev app.Event) {
			// Escape closes it from inside too (its ✕, the source toggle).
			if in.OnClose != nil && ev.Get("key").String() == "Escape" {
				ev.PreventDefault()
				in.OnClose(ctx)
			}
		}).Body(
		app.Elem("div").Class("insp-head").Body(
			app.Elem("h3").ID("insp-title").Text(heading),
			app.If(in.OnClose != nil, app.Elem("button").ID("insp-close").Class("btn icon").Text("✕ Close the inspector").
				OnClick(func(ctx app.Context, ev app.Event) { in.OnClose(ctx) })),
		),
		app.Elem("p").ID("insp-what").Class("insp-what mono").Text(strings.SplitN(e.Text(), "\n", 2)[0]),
		app.Elem("ol").ID("insp-steps").Class("insp-steps").Body(
			app.Range(e.Steps).Slice(func(i int) app.UI {
				s := e.Steps[i]
				// The text of each line is exactly Step.String().
				value := s.Value
				if s.Formula != "" {
					value = "= " + value
				}
				return app.Elem("li").Class("step").Body(
					app.Elem("span").Class("step-label").Text(s.Label+": "),
					app.If(s.Formula != "", app.Elem("span").Class("step-formula mono").Text(s.Formula+" ")),
					app.Elem("span").Class("step-value mono").Text(value),
				)
			}),
		),
		// Rounded quantities: a sum of shown values may differ from the
		// shown result (7.7 + 2.08 shown as 9.79: 7.705… + 2.083… = 9.788…).
		app.If(e.Kind != limiter.KindFixedWindow && e.Kind != limiter.KindSlidingWindowLog,
			app.Elem("p").ID("insp-rounding").Class("hint").Text("Shown to 2 decimals: tokens rounded down, levels and estimates rounded up. "+
				"Each result is worked out from the exact values, so it can differ slightly from arithmetic on the shown numbers.")),
		app.Elem("p").ID("insp-verdict").Class("insp-verdict").Text(verdict),
		app.Elem("div").Class("row").Body(
			app.Elem("button").ID("insp-source-toggle").Class("btn").Attr("aria-expanded", in.showSource).Attr("aria-controls", "insp-source").
				Text(sourceToggleText(in.showSource)).OnClick(in.onToggleSource),
		),
		When(in.showSource, in.sourceView),
	)
}

func sourceToggleText(open bool) string {
	if open {
		return "Hide the Go source"
	}
	return "Show the Go source"
}

func (in *Inspector) onToggleSource(ctx app.Context, e app.Event) {
	in.showSource = !in.showSource
	if in.showSource {
		in.load(ctx)
	}
}

// load fetches the strategy's files not yet fetched.
func (in *Inspector) load(ctx app.Context) {
	var missing []string
	for _, n := range in.Exp.Source.FileNames() {
		if _, ok := shipped[n]; !ok {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return
	}
	in.loading, in.loadErr = true, ""
	left := len(missing)
	for _, n := range missing {
		browser.FetchText(ctx.ResolveStaticResource(explain.ShippedDir+n), func(text string, err error) {
			ctx.Dispatch(func(ctx app.Context) {
				if err != nil {
					in.loadErr = err.Error()
				} else {
					shipped[n] = text
				}
				if left--; left == 0 {
					in.loading = false
				}
			})
		})
	}
}

func (in *Inspector) sourceView() app.UI {
	src := in.Exp.Source
	if in.loadErr != "" {
		return app.Elem("p").ID("insp-source").Class("param-error").Role("alert").Text("⚠ " + in.loadErr)
	}
	for _, n := range src.FileNames() {
		if _, ok := shipped[n]; !ok {
			return app.Elem("p").ID("insp-source").Class("hint").Text("Loading the source…")
		}
	}
	hls, err := src.Highlights(func(name string) (string, error) { return shipped[name], nil }, in.Exp.Outcome)
	if err != nil {
		return app.Elem("p").ID("insp-source").Class("param-error").Role("alert").Text("⚠ " + err.Error())
	}
	files := src.FileNames()
	return app.Elem("div").ID("insp-source").Class("insp-source").Body(
		app.Elem("p").Class("hint").Text("The limiter package's own files, exactly as this server ships them; the highlighted lines decide this request ("+string(in.Exp.Outcome)+")."),
		app.Range(files).Slice(func(i int) app.UI {
			return sourceFile(files[i], shipped[files[i]], hls)
		}),
	)
}

// sourceFile renders one file with line numbers; highlighted stretches are
// marked (class hl, and a label before each) so they are told by text as
// well as colour.
func sourceFile(name, content string, hls []explain.Highlight) app.UI {
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	label := map[int]string{}
	hl := map[int]bool{}
	for _, h := range hls {
		if h.File != name {
			continue
		}
		where := "line " + strconv.Itoa(h.From)
		if h.To > h.From {
			where = "lines " + strconv.Itoa(h.From) + "–" + strconv.Itoa(h.To)
		}
		label[h.From] = where + ": " + h.Label
		for l := h.From; l <= h.To; l++ {
			hl[l] = true
		}
	}
	first := 0
	for _, h := range hls {
		if h.File == name && (first == 0 || h.From < first) {
			first = h.From
		}
	}
	rows := make([]app.UI, 0, len(lines)+len(label))
	for i, text := range lines {
		n := i + 1
		if l, ok := label[n]; ok {
			rows = append(rows, app.Elem("span").Class("src-note").Text("▶ "+l+"\n"))
		}
		cls := "src-line"
		if hl[n] {
			cls = "src-line hl"
		}
		row := app.Elem("span").Class(cls).DataSet("line", n).Body(
			app.Elem("span").Class("ln").Attr("aria-hidden", true).Text(strconv.Itoa(n)),
			app.Elem("span").Class("code").Text(text+"\n"),
		)
		if n == first {
			row = row.ID("src-first-" + strings.TrimSuffix(name, ".go"))
		}
		rows = append(rows, row)
	}
	return app.Elem("figure").Class("src-file").Body(
		app.Elem("figcaption").Class("src-name mono").Body(
			app.Elem("a").Attr("href", explain.ShippedDir+name).Attr("target", "_blank").Text("limiter/"+name),
			app.Elem("span").Class("hint").Text(" · "+strconv.Itoa(len(lines))+" lines, "+strconv.Itoa(len(hlsOf(name, hls)))+" highlighted stretches"),
		),
		app.Elem("pre").Class("src mono").DataSet("file", name).TabIndex(0).Attr("aria-label", "Source of limiter/"+name).Body(rows...),
	)
}

func hlsOf(name string, hls []explain.Highlight) []explain.Highlight {
	var out []explain.Highlight
	for _, h := range hls {
		if h.File == name {
			out = append(out, h)
		}
	}
	return out
}
