package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// When renders f() only when cond holds: app.If evaluates its argument
// even when the condition is false.
func When(cond bool, f func() app.UI) app.UI {
	if !cond {
		return app.If(false, nil)
	}
	return f()
}
