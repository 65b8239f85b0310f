package ui

import (
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Frames drives an animated component: every interval, its frame function
// runs on the UI goroutine with the real time elapsed since the previous
// frame, and the component re-renders only when the function returns true.
// The next frame starts an interval after the previous one began, and never
// sooner than restAfterFrame after it was drawn: a slow frame drops ticks
// instead of piling them up, and the browser always gets a turn between two
// frames to handle input and paint. Each animated component owns its loop,
// so only it re-renders per frame.
//
// The tick is dispatched in go-app's Next mode, which schedules no update:
// in the default Update mode go-app v9.8.0 schedules the component's update
// after the function has run, overriding a ctx.PreventUpdate() made in it,
// and a paused page would re-render every frame.
type Frames struct {
	last time.Time // real time of the previous frame (UI goroutine only)
}

// restAfterFrame is the least time between the end of a frame (drawn) and
// the start of the next, for a frame of interval every: a quarter of it. A
// Go program compiled to wasm hands the page's only thread back to the
// browser only when no goroutine can run and no timer is due, so a frame
// longer than its interval must not find the next tick already due: the
// browser would get no turn to handle input and paint.
func restAfterFrame(every time.Duration) time.Duration { return every / 4 }

// Start runs the loop until the component is dismounted (ctx done). Call it
// from OnMount, with the component c.
func (f *Frames) Start(ctx app.Context, c interface{ Update() }, every time.Duration, frame func(ctx app.Context, now time.Time, dt time.Duration) (redraw bool)) {
	f.last = time.Now()
	drawn := make(chan struct{}, 1)
	tick := func(ctx app.Context) {
		now := time.Now()
		dt := now.Sub(f.last)
		f.last = now
		if frame(ctx, now, dt) {
			c.Update()
		}
		// go-app runs deferred functions after the updates it has queued:
		// this one says the frame is drawn.
		ctx.Defer(func(app.Context) {
			select {
			case drawn <- struct{}{}:
			default:
			}
		})
	}
	src := ctx.Src()
	go func() {
		t := time.NewTimer(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			began := time.Now()
			ctx.Dispatcher().Dispatch(app.Dispatch{Mode: app.Next, Source: src, Function: tick})
			select {
			case <-ctx.Done():
				return
			case <-drawn:
			}
			t.Reset(max(every-time.Since(began), restAfterFrame(every)))
		}
	}()
}

// Resync makes the next frame's dt count from now, so that real time spent
// paused or before a restart is not simulated. UI goroutine only.
func (f *Frames) Resync() { f.last = time.Now() }
