package main

import (
	"sync/atomic"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// frameLoop calls frame on the UI goroutine every interval until the
// component is dismounted (ctx done). A frame is never queued while the
// previous one is still pending, so a slow frame drops ticks instead of
// piling them up. Each animated component owns its loop, so only it
// re-renders per frame.
func frameLoop(ctx app.Context, every time.Duration, pending *atomic.Bool, frame func(app.Context)) {
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if pending.CompareAndSwap(false, true) {
					ctx.Dispatch(frame)
				}
			}
		}
	}()
}

// fieldText returns an input's value, or unreadable when the browser flags
// its text as bad input.
func fieldText(el app.Value) string {
	if v := el.Get("validity"); v.Truthy() && v.Get("badInput").Truthy() {
		return unreadable
	}
	return el.Get("value").String()
}
