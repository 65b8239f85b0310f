package ui

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/units"
)

// Speeds are the speed menus' choices (the lab's clock, a lesson's pace).
var Speeds = []float64{0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 50, 100}

// SpeedOptions are a speed menu's options, with speed selected: a speed
// from a link that the list lacks (3×) is shown, in its place, rather than
// a listed one it is not.
func SpeedOptions(speed float64) []app.UI {
	var speeds []app.UI
	listed := false
	for _, x := range Speeds {
		if !listed && x > speed {
			speeds = append(speeds, app.Elem("option").Attr("value", units.Num(speed)).Attr("selected", true).Text(units.Num(speed)+"×"))
		}
		listed = listed || x >= speed
		speeds = append(speeds, BoolAttr(app.Elem("option").Attr("value", units.Num(x)), "selected", x == speed).Text(units.Num(x)+"×"))
	}
	return speeds
}
