package learn

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/ui"
)

// The class diagram's geometry, in SVG user units: two columns of boxes
// 390 wide, 80 apart for the edges' labels. A member line holds at most 46
// characters (13-unit monospace); longer signatures wrap, their results
// and then their parameters on indented lines.
const (
	diagW      = 880
	colLeft    = 10
	colRight   = 480
	boxW       = 390
	memberLine = 17
	wrapAt     = 46
	busX       = 460 // the implements bus, left of the strategies
	colGap     = 55  // between the left column's boxes, for the arrows' labels
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
	factoryTop := keyedBottom + colGap
	factoryBottom := add(byName["Factory"], colLeft, factoryTop)
	configTop := factoryBottom + colGap
	bottom := add(byName["Config"], colLeft, configTop)
	busTop := strategyBottom + 22
	var edges []app.UI
	y, lastMid := busTop+15, 0.0
	for _, d := range types {
		if d.Implements == "" {
			continue
		}
		b := add(d, colRight, y)
		lastMid = y + 24
		edges = append(edges, edge("M "+f(busX)+" "+f(lastMid)+" H "+f(colRight), true))
		y = b + 10
	}
	bottom = max(bottom, y)
	apex := colRight + boxW/2.0
	midX := colLeft + boxW/2.0
	returnsY := (factoryTop + factoryBottom) / 2
	edges = append(edges,
		// Implements: a hollow triangle under Strategy, the bus to the strategies.
		svgPath("M "+f(apex)+" "+f(strategyBottom)+" l -8 13 h 16 z", "triangle"),
		edge("M "+f(apex)+" "+f(strategyBottom+13)+" V "+f(busTop)+" H "+f(busX)+" V "+f(lastMid), true),
		// Keyed holds Strategies: a diamond at Keyed.
		svgPath("M 400 50 l 10 -6 l 10 6 l -10 6 z", "diamond"),
		edge("M 420 50 H "+f(colRight), false),
		label(412, 42, "0..*"),
		label(404, 68, "one per key"),
		// Keyed calls its Factory; the Factory returns a Strategy and may call New(Config).
		edge("M "+f(midX)+" "+f(keyedBottom)+" V "+f(factoryTop-2), false), arrowHead(midX, factoryTop-2),
		label(midX+8, keyedBottom+colGap/2+4, "calls it on a key's first request"),
		edge("M 400 "+f(returnsY)+" H 440 V 100 H "+f(colRight-2), false), arrowHead2(colRight-2, 100),
		label(404, returnsY-8, "returns"),
		edge("M "+f(midX)+" "+f(factoryBottom)+" V "+f(configTop-2), true), arrowHead(midX, configTop-2),
		label(midX+8, factoryBottom+colGap/2+4, "may build it with New(cfg)"),
	)
	return ui.SVG("svg").ID("design-diagram").Attr("viewBox", "0 0 "+strconv.Itoa(diagW)+" "+f(bottom+10)).
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
		parts = append(parts, diagramText(x+boxW/2, y+16, "stereo", "middle", stereo))
		parts = append(parts, diagramText(x+boxW/2, y+34, "name", "middle", d.Name))
	} else {
		parts = append(parts, diagramText(x+boxW/2, y+21, "name", "middle", d.Name))
	}
	members := append(append(append([]string{}, d.Fields...), d.Funcs...), d.Methods...)
	lines := 0
	for _, m := range members {
		wrapped := wrapMember(m, wrapAt)
		spans := make([]app.UI, len(wrapped))
		for i, w := range wrapped {
			spans[i] = ui.SVG("tspan").Attr("x", f(x+10)).Attr("y", f(sep+float64(lines+i+1)*memberLine-3)).Text(w)
		}
		parts = append(parts, ui.SVG("text").DataSet("part", "member").DataSet("member", m).Body(spans...))
		lines += len(wrapped)
	}
	h := sep - y + float64(lines)*memberLine + 8
	box := ui.SVG("rect").Attr("x", f(x)).Attr("y", f(y)).Attr("width", f(boxW)).Attr("height", f(h)).Attr("rx", "6").DataSet("part", "box")
	line := ui.SVG("line").Attr("x1", f(x)).Attr("x2", f(x+boxW)).Attr("y1", f(sep)).Attr("y2", f(sep)).DataSet("part", "sep")
	title := ui.SVG("title").Text("limiter/" + d.File + ": " + d.Name + "\n" + strings.Join(members, "\n"))
	body := append([]app.UI{title, box, line}, parts...)
	return ui.SVG("a").ID("design-box-"+d.Name).Attr("href", explain.ShippedDir+d.File).Attr("target", "_blank").
		DataSet("file", d.File).Body(body...), h
}

// wrapMember splits a signature longer than width characters: its results
// go to a line of their own, then its parameters are broken after commas;
// the lines after the first are indented by 4.
func wrapMember(m string, width int) []string {
	if len([]rune(m)) <= width {
		return []string{m}
	}
	head, results := m, ""
	if i := strings.Index(m, ") ("); i > 0 {
		head, results = m[:i+1], m[i+2:]
	}
	var out []string
	line := ""
	for _, part := range strings.SplitAfter(head, ", ") {
		if line != "" && len([]rune(line+part)) > width {
			out = append(out, strings.TrimRight(line, " "))
			line = "    "
		}
		line += part
	}
	out = append(out, line)
	if results != "" {
		if last := out[len(out)-1]; len([]rune(last+" "+results)) <= width {
			out[len(out)-1] = last + " " + results
		} else {
			out = append(out, "    "+results)
		}
	}
	return out
}

func diagramText(x, y float64, part, anchor, s string) app.HTMLElem {
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

func label(x, y float64, s string) app.UI { return diagramText(x, y, "edge-label", "start", s) }

func f(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// diagramList is the class diagram for a narrow screen, where the drawing's
// text would be under 12 px: the same types as boxes of HTML, one under
// another, each with its kind, what it implements or what holds it, its
// members as Go declares them, and a link to its source (CSS shows it in
// place of the drawing under 840 px).
func diagramList() app.UI {
	types := explain.DesignTypes()
	return app.Elem("ul").ID("design-types").Class("design-types").Attr("aria-label", "The class diagram as a list of types").Body(
		app.Range(types).Slice(func(i int) app.UI {
			d := types[i]
			members := append(append(append([]string{}, d.Fields...), d.Funcs...), d.Methods...)
			return app.Elem("li").ID("design-type-"+d.Name).Class("design-type").Body(
				app.Elem("h4").Body(
					app.Elem("a").Attr("href", explain.ShippedDir+d.File).Attr("target", "_blank").Text(d.Name),
					app.Elem("span").Class("stereo").Text(" "+d.Kind+", limiter/"+d.File),
				),
				app.If(relation(d) != "", app.Elem("p").Class("rel").Text(relation(d))),
				app.Elem("ul").Body(app.Range(members).Slice(func(j int) app.UI {
					return app.Elem("li").Body(app.Elem("code").Text(members[j]))
				})),
			)
		}),
	)
}

// relation is what the drawing's edges say about type d, in words.
func relation(d explain.DesignType) string {
	switch {
	case d.Implements != "":
		return "implements " + d.Implements
	case d.Name == "Strategy":
		return "the six strategies implement it; Keyed holds one per key"
	case d.Name == "Keyed":
		return "holds one Strategy per key (0..*), made on the key's first request by its Factory"
	case d.Name == "Factory":
		return "returns a Strategy; may build it with New(cfg)"
	case d.Name == "Config":
		return "New(Config) builds the Strategy of its Kind"
	}
	return ""
}
