package lab

import (
	"strings"
	"sync"
	"text/template"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
)

// presets lists the real providers' limits with their sources.
func (c *labControls) presets() app.UI { return app.Raw(presetsHTML()) }

// presetsHTML is the card of real limits. It never changes, so it is one
// piece of HTML the browser parses at once (app.Raw), not some fifty
// elements for the page to create one call at a time while it starts; and
// it is built once (the server pre-renders pages concurrently, hence the
// sync.Once), not on every redraw of the controls.
func presetsHTML() string {
	presetsOnce.Do(func() { presetsCache = buildPresetsHTML() })
	return presetsCache
}

var (
	presetsOnce  sync.Once // zero value: nothing runs at start-up
	presetsCache string
)

func buildPresetsHTML() string {
	var b strings.Builder
	esc := template.HTMLEscapeString // text/template is in every go-app wasm; html's escaper would add strings.Replacer
	b.WriteString(`<section class="card" aria-label="Presets"><h2>Presets: real limits</h2>` +
		`<p class="explain">Add one as a lane from “+ Add a lane…”. Each cites its public source and says where it simplifies.</p>` +
		`<ul id="presets" class="presets">`)
	for _, p := range sim.Presets() {
		b.WriteString(`<li id="preset-` + esc(p.ID) + `"><strong>` + esc(p.Name) + `</strong>` +
			`<div class="mono small">` + esc(explain.ConfigText(p.Config)) + `</div>` +
			`<div class="small">Source: <a href="` + esc(p.Source) + `" target="_blank" rel="noopener">` + esc(p.Source) + `</a></div>` +
			`<details><summary>Where it simplifies</summary><p class="small">` + esc(p.Note) + `</p></details></li>`)
	}
	b.WriteString(`</ul></section>`)
	return b.String()
}
