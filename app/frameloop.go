package main

import (
	"sync/atomic"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// frames drives an animated component: every interval, its frame function
// runs on the UI goroutine with the real time elapsed since the previous
// frame. A frame is never queued while the previous one is still pending, so
// a slow frame drops ticks instead of piling them up. Each animated
// component owns its loop, so only it re-renders per frame.
type frames struct {
	pending atomic.Bool // a frame is queued on the UI goroutine
	last    time.Time   // real time of the previous frame (UI goroutine only)
}

// start runs the loop until the component is dismounted (ctx done). Call it
// from OnMount.
func (f *frames) start(ctx app.Context, every time.Duration, frame func(ctx app.Context, now time.Time, dt time.Duration)) {
	f.last = time.Now()
	tick := func(ctx app.Context) {
		f.pending.Store(false)
		now := time.Now()
		dt := now.Sub(f.last)
		f.last = now
		frame(ctx, now, dt)
	}
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if f.pending.CompareAndSwap(false, true) {
					ctx.Dispatch(tick)
				}
			}
		}
	}()
}

// resync makes the next frame's dt count from now, so that real time spent
// paused or before a restart is not simulated. UI goroutine only.
func (f *frames) resync() { f.last = time.Now() }

// fieldText returns an input's value, or unreadable when the browser flags
// its text as bad input.
func fieldText(el app.Value) string {
	if v := el.Get("validity"); v.Truthy() && v.Get("badInput").Truthy() {
		return unreadable
	}
	return el.Get("value").String()
}
