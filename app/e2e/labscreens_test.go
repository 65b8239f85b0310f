//go:build e2e

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// firstScreen saves the viewport (the first screen, not the whole page)
// as testout/<name>.
func (p *page) firstScreen(name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repoRoot, "testout", name), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

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
		f.firstScreen("lab-first-" + s.name + ".png")
		b := f.boxes("lane-0-svg", "lab-send")
		t.Logf("%s: first chart %.0f to %.0f, send %+v", s.name, b["lane-0-svg"].Top, b["lane-0-svg"].Bottom, b["lab-send"])
	}
	p.emulate(screen{"1024x768", 1024, 768, 1})
	f := p.openLab(p.base + "/lab")
	f.do(chromedp.KeyEvent("p"))
	f.waitAttr("html", "data-present", "")
	b := f.boxes("lane-0-svg", "lab-send", "lane-0-kind", "lane-0-config", "axis", "scrub")
	t.Logf("presenting 1024x768: first chart %.0f to %.0f, send %+v, boxes %+v", b["lane-0-svg"].Top, b["lane-0-svg"].Bottom, b["lab-send"], b)
	f.screenshot("lab-present-1024x768.png")
	f.firstScreen("lab-first-present-1024x768.png")
}
