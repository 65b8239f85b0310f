// Package uitest renders go-app components natively (go-app's client
// tester) for the pages' and widgets' tests.
package uitest

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// TextOf returns the text directly inside the element with the given id in
// rendered HTML, and whether it was found.
func TextOf(html, id string) (string, bool) {
	m := regexp.MustCompile(`id="` + regexp.QuoteMeta(id) + `"[^>]*>([^<]*)<`).FindStringSubmatch(html)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// WantTexts checks the text of each element id in want.
func WantTexts(t *testing.T, html string, want map[string]string) {
	t.Helper()
	for id, w := range want {
		got, ok := TextOf(html, id)
		if !ok {
			t.Errorf("#%s missing", id)
		} else if got != w {
			t.Errorf("#%s = %q, want %q", id, got, w)
		}
	}
}

// Mount renders c in go-app's client tester and returns its HTML, each
// element's attributes in name order: go-app writes them from a map, in an
// order that changes from run to run.
func Mount(t *testing.T, c app.UI) string {
	t.Helper()
	d := app.NewClientTester(c)
	t.Cleanup(d.Close)
	return sortAttrs(app.HTMLString(c))
}

var (
	startTag = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)+)\s*(/?)>`)
	attr     = regexp.MustCompile(`[^\s=>/]+(?:="[^"]*")?`)
)

// sortAttrs puts the attributes of every start tag in html in name order.
func sortAttrs(html string) string {
	return startTag.ReplaceAllStringFunc(html, func(tag string) string {
		m := startTag.FindStringSubmatch(tag)
		attrs := attr.FindAllString(m[2], -1)
		slices.Sort(attrs)
		return "<" + m[1] + " " + strings.Join(attrs, " ") + m[3] + ">"
	})
}
