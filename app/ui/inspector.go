package ui

import (
	"slices"
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
	seenKey    string // the Key of the decision last shown
	// focus is the source line a step's "line N" button asked for (file ""
	// for none): the source view scrolls to it and outlines it.
	focus struct {
		file string
		line int
	}
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
		in.codeList(),
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

// OnMount and OnUpdate fetch the files the steps name, so that their line
// numbers can be shown, and bring an open source view to its first
// highlight for a new decision. A parent redraws its inspector at every
// frame of a running clock (OnClose, a func, never compares equal), so
// only a new Key counts as a new decision.
func (in *Inspector) OnMount(ctx app.Context) {
	in.seenKey = in.Key
	in.load(ctx)
}

func (in *Inspector) OnUpdate(ctx app.Context) {
	if in.Key == in.seenKey {
		return
	}
	in.seenKey = in.Key
	in.focus.file = ""
	in.load(ctx)
	if in.showSource {
		ctx.Defer(in.scrollSource)
	}
}

func (in *Inspector) onToggleSource(ctx app.Context, e app.Event) {
	in.showSource = !in.showSource
	in.focus.file = ""
	if in.showSource {
		in.load(ctx)
		ctx.Defer(in.scrollSource)
	}
}

// files are the limiter files the inspector shows or names: the strategy's
// source, then those of the steps' lines.
func (in *Inspector) files() []string {
	names := in.Exp.Source.FileNames()
	for _, s := range in.Exp.Steps {
		if s.Code.File != "" && !slices.Contains(names, s.Code.File) {
			names = append(names, s.Code.File)
		}
	}
	return names
}

// load fetches the files not yet fetched; once they are in, an open source
// view scrolls to its first highlight (or the line asked for).
func (in *Inspector) load(ctx app.Context) {
	var missing []string
	for _, n := range in.files() {
		if _, ok := shipped[n]; !ok && !slices.Contains(missing, n) {
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
					if in.showSource {
						ctx.Defer(in.scrollSource)
					}
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
			focus := 0
			if in.focus.file == files[i] {
				focus = in.focus.line
			}
			return sourceFile(files[i], shipped[files[i]], hls, focus)
		}),
	)
}

// scrollSource scrolls each file of the open source view to the line a
// step asked for, or else to its first highlighted stretch (its label), so
// that what decided is in view without scrolling by hand.
func (in *Inspector) scrollSource(ctx app.Context) {
	for _, n := range in.Exp.Source.FileNames() {
		box := "#insp-source pre[data-file='" + n + "']"
		if in.focus.file == n && browser.ScrollWithin(box, "[data-line='"+strconv.Itoa(in.focus.line)+"']", 24) {
			continue
		}
		browser.ScrollWithin(box, "[data-first-note]", 4)
	}
}

// onCodeLine opens the source view at file's line.
func (in *Inspector) onCodeLine(file string, line int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		in.showSource = true
		in.focus.file, in.focus.line = file, line
		in.load(ctx)
		ctx.Defer(in.scrollSource)
	}
}

// codeList names, for each step one limiter line computes, that line (a
// button to it in the source view, or a link to a file the view does not
// show) and how the code's units map to the step's formula.
func (in *Inspector) codeList() app.UI {
	steps := in.Exp.Steps
	src := in.Exp.Source.FileNames()
	items := make([]app.UI, 0, len(steps))
	for i, s := range steps {
		c := s.Code
		if c.File == "" {
			continue
		}
		line := 0
		if text, ok := shipped[c.File]; ok {
			line, _ = c.Line(text)
		}
		where := "limiter/" + c.File
		if line > 0 {
			where += " line " + strconv.Itoa(line)
		}
		id := "insp-code-" + strconv.Itoa(i)
		var ref app.UI = app.Elem("a").ID(id+"-go").Attr("href", explain.ShippedDir+c.File).Attr("target", "_blank").Text(where)
		if slices.Contains(src, c.File) {
			ref = app.Elem("button").ID(id+"-go").Class("link-btn").Text(where).OnClick(in.onCodeLine(c.File, line), c.File, line)
		}
		items = append(items, app.Elem("li").ID(id).DataSet("step", s.Label).DataSet("file", c.File).DataSet("line", line).Body(
			app.Elem("span").Class("step-label").Text(s.Label+": "),
			ref,
			app.Elem("code").Class("code-line mono").Text(c.Text),
			app.Elem("span").Class("code-units").Text(c.Units),
		))
	}
	if len(items) == 0 {
		return app.If(false, nil)
	}
	return app.Elem("details").ID("insp-code").Class("insp-code").Attr("open", true).Body(
		app.Elem("summary").Text("Where limiter computes each step, and in which units"),
		app.Elem("ol").ID("insp-code-list").Class("insp-code-list").Body(items...),
	)
}

// sourceFile renders one file with line numbers; highlighted stretches are
// marked (class hl, and a label before each) so they are told by text as
// well as colour. The line a step asked for (focus, 0 for none) is
// outlined.
func sourceFile(name, content string, hls []explain.Highlight, focus int) app.UI {
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
			note := app.Elem("span").Class("src-note").Text("▶ " + l + "\n")
			if n == first {
				note = note.DataSet("first-note", true)
			}
			rows = append(rows, note)
		}
		cls := "src-line"
		if hl[n] {
			cls = "src-line hl"
		}
		if n == focus {
			cls += " focus"
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
