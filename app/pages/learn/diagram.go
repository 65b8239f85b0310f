package learn

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/ui"
)

// The class diagram's geometry, in SVG user units: two columns of boxes
// 490 wide (a member line is at most 62 characters at 12.5 units of
// monospace), 100 apart for the edges' labels.
const (
	diagW       = 1100
	diagH       = 560
	colLeft     = 10
	colRight    = 600
	boxW        = 490
	memberLine  = 17
	maxMemberCh = 62
	busX        = 570 // the implements bus, left of the strategies
)

// diagramSVG draws explain.DesignTypes: Keyed, Factory and Config on the
// left; Strategy and the six strategies that implement it on the right.
// Each box links to its file in /web/src/.
func diagramSVG() app.UI {
	types := explain.DesignTypes()
	byName := map[string]explain.DesignType{}
	for _, d := range types {
		byName[d.Name] = d
	}
	var nodes []app.UI
	add := func(d explain.DesignType, x, y float64) (bottom float64) {
		n, h := diagramBox(d, x, y)
		nodes = append(nodes, n)
		return y + h
	}
	strategyBottom := add(byName["Strategy"], colRight, 10)
	keyedBottom := add(byName["Keyed"], colLeft, 10)
	add(byName["Factory"], colLeft, 190)
	add(byName["Config"], colLeft, 310)
	var edges []app.UI
	y := 165.0
	lastMid := 0.0
	for _, d := range types {
		if d.Implements == "" {
			continue
		}
		b := add(d, colRight, y)
		lastMid = (y + b) / 2
		edges = append(edges, edge("M "+f(busX)+" "+f(lastMid)+" H "+f(colRight), true))
		y = b + 10
	}
	apex := colRight + boxW/2.0
	edges = append(edges,
		// Implements: a hollow triangle under Strategy, the bus to the strategies.
		svgPath("M "+f(apex)+" "+f(strategyBottom)+" l -8 13 h 16 z", "triangle"),
		edge("M "+f(apex)+" "+f(strategyBottom+13)+" V 150 H "+f(busX)+" V "+f(lastMid), true),
		// Keyed holds Strategies: a diamond at Keyed.
		svgPath("M 500 50 l 10 -6 l 10 6 l -10 6 z", "diamond"),
		edge("M 520 50 H "+f(colRight), false),
		label(550, 42, "0..*"),
		label(550, 68, "one per key"),
		// Keyed calls its Factory; the Factory returns a Strategy and may call New(Config).
		edge("M 250 "+f(keyedBottom)+" V 188", false), arrowHead(250, 188),
		label(258, 168, "calls it on a key's first request"),
		edge("M 500 222 H 540 V 100 H 598", false), arrowHead2(598, 100),
		label(506, 214, "returns"),
		edge("M 250 257 V 308", true), arrowHead(250, 308),
		label(258, 288, "may build it with New(cfg)"),
	)
	return ui.SVG("svg").ID("design-diagram").Attr("viewBox", "0 0 "+strconv.Itoa(diagW)+" "+strconv.Itoa(diagH)).
		Attr("role", "group").Attr("aria-label", "Class diagram of package limiter: Keyed holds one Strategy per key, made by a Factory; "+
		"six strategies implement Strategy; Config and New choose one").
		Body(append(edges, nodes...)...)
}

// diagramBox draws one type as a box linking to its source, and returns
// its height.
func diagramBox(d explain.DesignType, x, y float64) (app.UI, float64) {
	stereo := map[string]string{"interface": "«interface»", "func type": "«func type»"}[d.Kind]
	sep := y + 30
	var parts []app.UI
	if stereo != "" {
		sep = y + 42
		parts = append(parts, svgText(x+boxW/2, y+16, "stereo", "middle", stereo))
		parts = append(parts, svgText(x+boxW/2, y+34, "name", "middle", d.Name))
	} else {
		parts = append(parts, svgText(x+boxW/2, y+21, "name", "middle", d.Name))
	}
	members := append(append(append([]string{}, d.Fields...), d.Funcs...), d.Methods...)
	full := make([]string, 0, len(members)+1)
	for i, m := range members {
		parts = append(parts, svgText(x+10, sep+float64(i+1)*memberLine-3, "member", "start", memberText(m)).
			DataSet("member", m))
		full = append(full, m)
	}
	h := sep - y + float64(len(members))*memberLine + 8
	box := ui.SVG("rect").Attr("x", f(x)).Attr("y", f(y)).Attr("width", f(boxW)).Attr("height", f(h)).Attr("rx", "6").DataSet("part", "box")
	line := ui.SVG("line").Attr("x1", f(x)).Attr("x2", f(x+boxW)).Attr("y1", f(sep)).Attr("y2", f(sep)).DataSet("part", "sep")
	title := ui.SVG("title").Text("limiter/" + d.File + ": " + d.Name + "\n" + strings.Join(full, "\n"))
	body := append([]app.UI{title, box, line}, parts...)
	return ui.SVG("a").ID("design-box-"+d.Name).Attr("href", explain.ShippedDir+d.File).Attr("target", "_blank").
		Attr("aria-label", d.Name+": its source, limiter/"+d.File).DataSet("file", d.File).Body(body...), h
}

// memberText is a member as the box shows it: a constructor too long for
// the box loses its results ("NewSlidingWindowCounter(limit int, window
// time.Duration) …"); the box's title has it whole.
func memberText(m string) string {
	if len(m) <= maxMemberCh {
		return m
	}
	if i := strings.Index(m, ") ("); i > 0 {
		return m[:i+1] + " …"
	}
	return m
}

func svgText(x, y float64, part, anchor, s string) app.HTMLElem {
	return ui.SVG("text").Attr("x", f(x)).Attr("y", f(y)).Attr("text-anchor", anchor).DataSet("part", part).Text(s)
}

func svgPath(d, part string) app.UI { return ui.SVG("path").Attr("d", d).DataSet("part", part) }

func edge(d string, dashed bool) app.UI {
	p := ui.SVG("path").Attr("d", d).DataSet("part", "edge")
	if dashed {
		p = p.Attr("stroke-dasharray", "6 4")
	}
	return p
}

// arrowHead points down at (x, y); arrowHead2 points right.
func arrowHead(x, y float64) app.UI {
	return svgPath("M "+f(x)+" "+f(y)+" l -6 -10 h 12 z", "head")
}

func arrowHead2(x, y float64) app.UI {
	return svgPath("M "+f(x)+" "+f(y)+" l -10 -6 v 12 z", "head")
}

func label(x, y float64, s string) app.UI { return svgText(x, y, "edge-label", "start", s) }

func f(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
