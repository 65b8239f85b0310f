package playground

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/site"
)

// linkNote says what the playground does with a link's query: nothing. Its
// setup lives in its controls; a link that carries one (someone edited a
// lab link, or guessed /?rate=2) would otherwise open the defaults without
// a word, so the page names the parts it ignored and points to the lab,
// whose links carry a whole setup. "" when the link has no query.
func linkNote(rawQuery string) string {
	q, err := url.ParseQuery(rawQuery)
	if rawQuery == "" || err == nil && len(q) == 0 {
		return ""
	}
	var keys []string
	for k := range q {
		keys = append(keys, strconv.Quote(sim.Clip(k)))
	}
	slices.Sort(keys)
	what := "its query"
	if len(keys) > 0 {
		what = strings.Join(keys, ", ")
	}
	return "The playground reads nothing from its link, so " + what + " was ignored and the page opened with its defaults. " +
		"The comparison lab's links carry a whole setup:"
}

// linkNoteUI is the note above the playground, with a link to the lab.
func linkNoteUI(note string) app.UI {
	return app.If(note != "",
		app.Elem("div").ID("link-note").Class("banner").Role("status").Body(
			app.Text(note+" "),
			app.A().ID("link-note-lab").Href(site.Href("/lab")).Text("open the lab"),
			app.Text("."),
		),
	)
}
