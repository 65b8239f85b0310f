//go:build e2e

package e2e

import "testing"

// TestPlaygroundLink: the playground reads nothing from its link; a link
// with a query (a guessed /?rate=abc) opens the defaults and says which
// parts it ignored, with the way to the lab, whose links carry a setup.
func TestPlaygroundLink(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	g := &playgroundPage{p.freshAt(base+"/?rate=abc&burst=9", "Rate limiter playground")}
	g.waitText("#link-note", `The playground reads nothing from its link, so "burst", "rate" was ignored and the page opened with its defaults. The comparison lab's links carry a whole setup: open the lab.`)
	g.waitText("#level-of", " of 5 tokens") // the default bucket, burst 5
	if got := g.eval(`new URL(document.getElementById("link-note-lab").href).pathname`); got != "/lab" {
		t.Errorf("the note's link goes to %q; want /lab", got)
	}
	g.click("#send")
	g.waitText("#allowed-count", "1")
	g = p.openPlayground()
	g.waitText("#allowed-count", "0")
	if n := g.eval(`String(document.querySelectorAll("#link-note").length)`); n != "0" {
		t.Errorf("without a query the page shows %s link notes; want 0", n)
	}
}
