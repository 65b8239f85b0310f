package main

import (
	"sync/atomic"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// frames drives an animated component: every interval, its frame function
// runs on the UI goroutine with the real time elapsed since the previous
// frame, and the component re-renders only when the function returns true.
// A frame is never queued while the previous one is still pending, so a slow
// frame drops ticks instead of piling them up. Each animated component owns
// its loop, so only it re-renders per frame.
//
// The tick is dispatched in go-app's Next mode, which schedules no update:
// in the default Update mode go-app v9.8.0 schedules the component's update
// after the function has run, overriding a ctx.PreventUpdate() made in it,
// so a paused lab re-rendered its lanes about 30 times a second.
type frames struct {
	pending atomic.Bool // a frame is queued on the UI goroutine
	last    time.Time   // real time of the previous frame (UI goroutine only)
}

// start runs the loop until the component is dismounted (ctx done). Call it
// from OnMount, with the component c.
func (f *frames) start(ctx app.Context, c interface{ Update() }, every time.Duration, frame func(ctx app.Context, now time.Time, dt time.Duration) (redraw bool)) {
	f.last = time.Now()
	tick := func(ctx app.Context) {
		f.pending.Store(false)
		now := time.Now()
		dt := now.Sub(f.last)
		f.last = now
		if frame(ctx, now, dt) {
			c.Update()
		}
	}
	src := ctx.Src()
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if f.pending.CompareAndSwap(false, true) {
					ctx.Dispatcher().Dispatch(app.Dispatch{Mode: app.Next, Source: src, Function: tick})
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
