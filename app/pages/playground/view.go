package playground

import (
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/browser"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// FrameEvery is the period of the view's animation loop.
const FrameEvery = time.Second / 60

// flightTime is how long (real time) a token takes to leave the bucket.
const flightTime = 600 * time.Millisecond

// view is the right column: totals, the limiter drawn live, and the latest
// decisions. It owns the animation loop: each frame moves the simulated clock
// by the real time elapsed and redraws this component only.
type view struct {
	app.Compo
	Sim *sim.Playground

	loop       ui.Frames
	drawn      uint64 // Sim.Version() last drawn
	seenSeq    int    // last request seen, to launch tokens
	flyers     [maxFlyers]time.Time
	flyerNext  int
	flashUntil time.Time // denial flash of the bucket
	animating  bool
	state      limiter.State
	zoom       figZoom
}

const maxFlyers = 8

func (v *view) OnMount(ctx app.Context) {
	if !app.IsClient { // native component tests draw frames by hand
		return
	}
	browser.InstallKeyGuard()
	browser.InstallWheelGuard()
	v.loop.Start(ctx, v, FrameEvery, v.frame)
}

// frame runs on the UI goroutine: it advances the clock and redraws, or skips
// the redraw when nothing moved (paused and no animation running).
func (v *view) frame(ctx app.Context, now time.Time, dt time.Duration) bool {
	v.Sim.Advance(dt)
	was := v.animating
	v.track(now)
	// One more redraw after the animations end: the last one drawn while
	// they ran may have caught a token just short of its end, or the
	// bucket still flashing, and nothing else would clear it while paused.
	return v.Sim.Version() != v.drawn || v.animating || was
}

// track launches a token for each newly allowed request and flashes the
// bucket for a denial.
func (v *view) track(now time.Time) {
	s := v.Sim
	last, ok := s.Last()
	if !ok || last.Seq < v.seenSeq { // reset or switched strategy
		v.seenSeq = 0
	}
	if ok && last.Seq > v.seenSeq {
		for i := s.Events() - 1; i >= 0; i-- {
			e := s.Event(i)
			if e.Seq <= v.seenSeq {
				break
			}
			if e.Allowed {
				v.flyers[v.flyerNext] = now
				v.flyerNext = (v.flyerNext + 1) % maxFlyers
			} else {
				v.flashUntil = now.Add(350 * time.Millisecond)
			}
		}
		v.seenSeq = last.Seq
	}
	v.animating = now.Before(v.flashUntil)
	for _, f := range v.flyers {
		if !f.IsZero() && now.Sub(f) < flightTime {
			v.animating = true
		}
	}
}

func (v *view) Render() app.UI {
	s := v.Sim
	v.drawn = s.Version()
	v.state = s.State()
	allowed, denied := s.Totals()
	tb := s.Kind() == limiter.KindTokenBucket

	var gauge app.UI
	if tb {
		gauge = ui.Stat("Tokens in bucket", app.Elem("span").Body(
			app.Elem("span").ID("level").Class("big").Text(units.FormatTokens(v.state.Tokens)),
			app.Elem("span").ID("level-of").Class("of").Text(" of "+units.Plural(v.state.Limit, "token")),
		))
	} else {
		gauge = ui.Stat("In window", app.Elem("span").Body(
			app.Elem("span").ID("window-count").Class("big").Text(strconv.Itoa(v.state.Count)),
			app.Elem("span").ID("window-of").Class("of").Text(" of "+strconv.Itoa(v.state.Limit)+" allowed"),
		))
	}
	clockState, clockClass := "running", "badge run"
	if !s.Running() {
		clockState, clockClass = "paused", "badge pause"
	}
	return app.Elem("section").Class("card view").Attr("aria-label", "Live view").Body(
		app.Elem("div").Class("stats").Body(
			gauge,
			ui.Stat("Allowed", app.Elem("span").Class("big ok").Body(app.Elem("span").Class("sym").Text("✓ "), app.Elem("span").ID("allowed-count").Text(strconv.Itoa(allowed)))),
			ui.Stat("Denied", app.Elem("span").Class("big no").Body(app.Elem("span").Class("sym").Text("✕ "), app.Elem("span").ID("denied-count").Text(strconv.Itoa(denied)))),
			v.retryStat(),
			ui.Stat("Clock", app.Elem("span").Body(
				app.Elem("span").ID("clock").Class("mono").Text("t = "+units.FormatClock(s.Now())),
				app.Elem("span").ID("clock-state").Class(clockClass).Text(clockState),
			)),
		),
		v.figure(tb),
		v.decisions(),
	)
}

// retryStat counts down the last request's retry-after when it was denied:
// the time left until the instant the limiter named for a retry, beside the
// retry-after it gave ("0.40 s", "left of 1.00 s"). Beside the live bucket
// or window, a fixed retry-after read as a wait still to come; the fixed
// value is in the decision line. Once that instant has passed, the wait is
// over: retry-after is the shortest wait after which the same request is
// allowed if nothing else happens, and nothing has (the denial is still the
// last request, the parameters unchanged), so the card says "0 s", the same
// request would now be allowed.
func (v *view) retryStat() app.UI {
	value, of := "—", ""
	room := "0.00 s" // the widest countdown value
	if e, ok := v.Sim.Last(); ok && !e.Allowed {
		value = units.FormatRetry(e.RetryAfter)
		if e.RetryAfter != limiter.Never {
			room = value
		}
		switch {
		case v.Sim.ParamsChangedSince(e):
			// The parameters changed since: the retry instant that denial
			// named no longer holds.
			value, of = "—", retryParamsChanged
		case e.RetryAfter == limiter.Never:
		case e.At+e.RetryAfter > v.Sim.Now():
			value = units.FormatRetry(e.At + e.RetryAfter - v.Sim.Now())
			of = "left of " + units.FormatRetry(e.RetryAfter)
		default:
			value, of = "0 s", retryWaitOver
		}
	}
	// Every state the card can move to without a new request is laid out
	// in the same cell, hidden but for the one shown, so the card keeps its
	// size when the countdown ends or a parameter changes.
	return ui.Stat("Retry-after", app.Elem("span").Class("retry").Body(
		app.Elem("span").Body(
			app.Elem("span").ID("retry-after").Class("big").Text(value),
			app.Elem("span").ID("retry-after-of").Class("of").Text(of),
		),
		retryRoom(room, "left of "+room),
		retryRoom("0 s", retryWaitOver),
		retryRoom("—", retryParamsChanged),
	))
}

// The Retry-after card's captions once the countdown no longer applies.
const (
	retryWaitOver      = "the same request would now be allowed"
	retryParamsChanged = "parameters changed since the denial"
)

// retryRoom is a hidden copy of a state of the Retry-after card, which
// holds its room.
func retryRoom(value, of string) app.UI {
	return app.Elem("span").Class("retry-room").Attr("aria-hidden", true).Body(
		app.Elem("span").Class("big").Text(value),
		app.Elem("span").Class("of").Text(of),
	)
}

// decisions lists the latest requests, newest first.
func (v *view) decisions() app.UI {
	s := v.Sim
	n := min(s.Events(), 6)
	var last app.UI = app.Elem("p").ID("last-decision").Class("decision idle").Text("No request yet: press Send request or Space.")
	if e, ok := s.Last(); ok {
		last = app.Elem("p").ID("last-decision").Class(decisionClass(e)).Body(decisionBody(e)...)
	}
	return app.Elem("div").Class("decisions").Body(
		last,
		app.Elem("h3").Text("Latest requests"),
		app.Elem("ol").ID("log").Class("log").Body(
			app.Range(make([]struct{}, n)).Slice(func(i int) app.UI {
				e := s.Event(s.Events() - 1 - i)
				return app.Elem("li").Class(decisionClass(e)).Body(decisionBody(e)...)
			}),
		),
	)
}

func decisionClass(e sim.Sent) string {
	if e.Allowed {
		return "decision ok"
	}
	return "decision no"
}

func decisionBody(e sim.Sent) []app.UI {
	head := []app.UI{
		app.Elem("span").Class("seq mono").Text("#" + strconv.Itoa(e.Seq)),
		app.Elem("span").Class("at mono").Text("t = " + units.FormatClock(e.At)),
	}
	if e.Allowed {
		return append(head,
			app.Elem("span").Class("verdict").Text("✓ allowed"),
			app.Elem("span").Class("detail").Text(units.Remaining(e.Remaining)))
	}
	return append(head,
		app.Elem("span").Class("verdict").Text("✕ denied"),
		app.Elem("span").Class("detail").Text("retry after "+units.FormatRetry(e.RetryAfter)))
}
