package learn

import (
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// picGeom is the lesson pictures' drawing area in SVG units, chosen for the
// width the lesson card gives them so that their text, 15 units, is at
// least 12 px on screen and no picture is wider than the card:
//   - from fitWide px of card up, the pictures are picWideW units wide
//     (15 units are 12.2 px and up), their labels to the left of the axis;
//   - under that, they are as many units wide as the card has pixels (at
//     least picMinW), so a unit is a pixel: a phone's 314 to 342 px get the
//     pictures drawn for them, with row labels above their rows.
type picGeom struct {
	W, Left, Right float64
	// Narrow is the phone layout: row labels above their rows, fewer
	// ticks, two-line step labels.
	Narrow bool
}

const (
	picWideW = 960.0
	fitWide  = 780.0
	picMinW  = 300.0
)

// geomFor is the pictures' geometry for a card content width of cw px (0
// when unknown: the server's pre-render, before the page is measured).
func geomFor(cw float64) picGeom {
	if cw <= 0 || cw >= fitWide {
		return picGeom{W: picWideW, Left: 150, Right: 940}
	}
	w := math.Max(math.Floor(cw), picMinW)
	return picGeom{W: w, Left: 56, Right: w - 16, Narrow: true}
}

// geom is the open lesson's picture geometry.
func (v *lessonView) geom() picGeom { return geomFor(v.cardW) }

// ticks is how many time-axis ticks a picture asks its window for.
func (g picGeom) ticks() int {
	if g.Narrow {
		return 4
	}
	return 6
}

// viewBox is the pictures' viewBox for a height of h units.
func (g picGeom) viewBox(h float64) string {
	return "0 0 " + strconv.FormatFloat(g.W, 'f', -1, 64) + " " + strconv.FormatFloat(h, 'f', -1, 64)
}

// OnResize measures the lesson card again when the window changes size.
func (v *lessonView) OnResize(ctx app.Context) { v.measure() }

// measure reads the lesson card's content width (its width inside its
// padding), which the pictures are drawn for. The zoom window's smallest
// span follows the axis' length, so it starts over when the layout changes.
func (v *lessonView) measure() {
	if !app.IsClient {
		return
	}
	el := app.Window().GetElementByID("lesson")
	if !el.Truthy() {
		return
	}
	cs := app.Window().Call("getComputedStyle", el)
	px := func(name string) float64 {
		f, _ := strconv.ParseFloat(trimPx(cs.Get(name).String()), 64)
		return f
	}
	cw := el.Get("clientWidth").Float() - px("paddingLeft") - px("paddingRight")
	if before := v.geom(); geomFor(cw) != before {
		v.winFor = ""
	}
	v.cardW = cw
}

func trimPx(s string) string {
	if len(s) > 2 && s[len(s)-2:] == "px" {
		return s[:len(s)-2]
	}
	return s
}
