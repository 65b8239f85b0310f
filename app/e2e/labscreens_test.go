//go:build e2e

package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLabScreens screenshots the lab at 1280×800, 1024×768 and 390×844,
// and presenting at 1024×768, and logs where its first chart and its Send
// button stand.
func TestLabScreens(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	t.Cleanup(func() { p.do(chromedp.EmulateViewport(1360, 940)) })
	for _, s := range []screen{{"1280x800", 1280, 800, 1}, {"1024x768", 1024, 768, 1}, {"390x844", 390, 844, 1}} {
		p.emulate(s)
		f := p.openLab(p.base + "/lab")
		f.screenshot("lab-" + s.name + ".png")
		b := f.boxes("lane-0-svg")
		t.Logf("%s: first chart top %.0f", s.name, b["lane-0-svg"].Top)
	}
	p.emulate(screen{"1024x768", 1024, 768, 1})
	f := p.openLab(p.base + "/lab")
	f.do(chromedp.KeyEvent("p"))
	f.waitAttr("html", "data-present", "")
	b := f.boxes("lane-0-svg")
	t.Logf("presenting 1024x768: first chart top %.0f", b["lane-0-svg"].Top)
	f.screenshot("lab-present-1024x768.png")
}
