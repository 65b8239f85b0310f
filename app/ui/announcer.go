package ui

import (
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Announcer is a polite live region: it reads Source at most four times a
// second and announces the latest message at most once a second, so a
// screen reader is not flooded while auto-firing.
type Announcer struct {
	app.Compo
	// Source returns a sequence number that changes with each new message,
	// and the message.
	Source func() (int, string)

	shown string
	seen  int
	last  time.Time
	loop  Frames
}

const announceEvery = time.Second

func (a *Announcer) OnMount(ctx app.Context) {
	if !app.IsClient {
		return
	}
	a.loop.Start(ctx, a, 250*time.Millisecond, a.poll)
}

func (a *Announcer) poll(ctx app.Context, now time.Time, _ time.Duration) bool {
	if a.Source == nil {
		return false
	}
	seq, msg := a.Source()
	if msg == "" {
		// The source was reset (no decision yet): empty the region at
		// once, so it does not keep the old message and so the next
		// message is told even if it has the old one's number.
		if a.shown == "" && a.seen == seq {
			return false
		}
		a.seen, a.shown = seq, ""
		return true
	}
	if seq == a.seen || now.Sub(a.last) < announceEvery {
		return false
	}
	a.seen, a.shown, a.last = seq, msg, now
	return true
}

func (a *Announcer) Render() app.UI {
	return app.Elem("div").ID("announce").Class("sr-only").Role("status").Attr("aria-live", "polite").Text(a.shown)
}
