package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/limiter"
)

const SVGNS = "http://www.w3.org/2000/svg"

// SVG returns an SVG element: go-app has no SVG builders, and an element
// without the SVG namespace renders nothing.
func SVG(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(SVGNS) }

// Axis maps simulated instants to x.
type Axis struct {
	X0, X1   float64
	From, To limiter.Instant
}

func (a Axis) X(t limiter.Instant) float64 {
	return a.X0 + float64(t-a.From)/float64(a.To-a.From)*(a.X1-a.X0)
}

func F1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }
