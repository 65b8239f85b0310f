// Package site is what every page shares: the page registry, the header
// with its navigation, the theme and keyboard help, and the stand-in for
// another page's route.
//
// The pages build their HTML with app.Elem("div") and
// app.ElemSelfClosing("input") rather than go-app's typed constructors
// (app.Div, app.Input, ...): each typed element is its own Go type with its
// own copy of go-app's element methods, while Elem's are shared by every
// tag, so the wasm stays smaller. Setters only the typed elements have
// become .Attr("href", v), .Attr("step", 1.0) and so on.
package site

// Page is one page of the site.
type Page struct {
	Key   string // the navigation link's id is "nav-" + key
	Path  string // the route
	Name  string // as the navigation names it
	Title string // the document's title (tabs, history, bookmarks)
	About string // its meta description
}

// GalleryPath is the component gallery's address; it is not in the
// navigation.
const GalleryPath = "/gallery"

// Pages are the site's pages, in the navigation's order.
var Pages = []Page{
	{"playground", "/", "Playground",
		"Rate limiter playground: token bucket and sliding window log",
		"Drive a real token bucket and sliding window log in the browser and watch them decide."},
	{"lab", "/lab", "Comparison lab",
		"Comparison lab: rate-limiting strategies side by side",
		"Six rate-limiting strategies fed the same requests: fixed window, sliding window log and counter, token bucket, leaky bucket, GCRA."},
	{"learn", "/learn", "Learn",
		"Learn rate limiting: lessons, inspector, quiz and drill cards",
		"Guided lessons on rate-limiting algorithms, an inspector that works out each decision, a quiz and interview drill cards."},
}
