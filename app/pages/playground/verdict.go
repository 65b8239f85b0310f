package playground

import (
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// verdictEvery is how often the verdict under Send looks for a new decision.
const verdictEvery = time.Second / 30

// sendVerdict is the latest decision under the Send button: its number (a
// burst's numbers and counts), ✓ or ✕, and the tokens (or places in the
// window) left or the retry-after.
// On a phone the live view is a screen below the button, and Send seemed to
// do nothing. Space and auto-fire send without the controls re-rendering,
// so it watches the simulation on its own loop, and re-renders only when
// its text changes.
type sendVerdict struct {
	app.Compo
	Sim *sim.Playground

	loop  ui.Frames
	shown verdictText
}

// verdictText is what sendVerdict shows. Denied is a burst's denied part
// when some of its requests were allowed (Verdict is then the allowed part),
// each in its own colour.
type verdictText struct {
	Class, Seq, Verdict, Denied, Detail string
}

// verdictOf is the text of the latest request e (ok false: none yet) of a
// limiter of kind k, sent in batch b: a Burst ×N names its N requests and
// how many of them were allowed and denied, then what the last one left
// (tokens, or its retry-after).
func verdictOf(k limiter.Kind, e sim.Sent, ok bool, b sim.Batch) verdictText {
	var v verdictText
	switch {
	case !ok:
		return verdictText{Class: "send-decision idle", Verdict: "no request yet"}
	case !e.Allowed:
		v = verdictText{Class: "send-decision no", Seq: "#" + strconv.Itoa(e.Seq), Verdict: "✕ denied", Detail: "retry after " + units.FormatRetry(e.RetryAfter)}
	case k == limiter.KindTokenBucket:
		v = verdictText{Class: "send-decision ok", Seq: "#" + strconv.Itoa(e.Seq), Verdict: "✓ allowed", Detail: units.Plural(e.Remaining, "token") + " left"}
	default:
		v = verdictText{Class: "send-decision ok", Seq: "#" + strconv.Itoa(e.Seq), Verdict: "✓ allowed", Detail: strconv.Itoa(e.Remaining) + " left in the window"}
	}
	if b.Allowed+b.Denied > 1 && b.First+b.Allowed+b.Denied-1 == e.Seq {
		v.Seq = "#" + strconv.Itoa(b.First) + "–" + v.Seq
		switch {
		case b.Denied == 0:
			v.Verdict = "✓ " + strconv.Itoa(b.Allowed) + " allowed"
		case b.Allowed == 0:
			v.Verdict = "✕ " + strconv.Itoa(b.Denied) + " denied"
		default:
			v.Class = "send-decision mixed"
			v.Verdict, v.Denied = "✓ "+strconv.Itoa(b.Allowed)+" allowed,", "✕ "+strconv.Itoa(b.Denied)+" denied"
		}
	}
	return v
}

func (v *sendVerdict) OnMount(ctx app.Context) {
	if !app.IsClient { // native component tests render it once
		return
	}
	v.loop.Start(ctx, v, verdictEvery, func(app.Context, time.Time, time.Duration) bool {
		e, ok := v.Sim.Last()
		return verdictOf(v.Sim.Kind(), e, ok, v.Sim.LastBatch()) != v.shown
	})
}

func (v *sendVerdict) Render() app.UI {
	e, ok := v.Sim.Last()
	v.shown = verdictOf(v.Sim.Kind(), e, ok, v.Sim.LastBatch())
	return app.Elem("p").ID("send-decision").Class(v.shown.Class).Body(
		app.If(v.shown.Seq != "", app.Elem("span").Class("seq mono").Text(v.shown.Seq)),
		app.Elem("span").Class("verdict").Text(v.shown.Verdict),
		app.If(v.shown.Denied != "", app.Elem("span").Class("verdict denied").Text(v.shown.Denied)),
		app.If(v.shown.Detail != "", app.Elem("span").Class("detail").Text(v.shown.Detail)),
	)
}
