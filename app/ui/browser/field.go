package browser

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/units"
)

// FieldText returns an input's value, or units.Unreadable when the browser flags
// its text as bad input.
func FieldText(el app.Value) string {
	if v := el.Get("validity"); v.Truthy() && v.Get("badInput").Truthy() {
		return units.Unreadable
	}
	return el.Get("value").String()
}

// SetValue sets the value property of the element id, when it is on the
// page.
func SetValue(id, value string) {
	if !app.IsClient {
		return
	}
	if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Set("value", value)
	}
}
