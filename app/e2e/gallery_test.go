//go:build e2e

package e2e

import "testing"

// TestGallery: /gallery, which the navigation does not link, draws every
// widget and every strategy alone with its fixed inputs; the screenshot is
// testout/gallery.png.
func TestGallery(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base).freshAt(base+"/gallery", "Component gallery")
	p.waitCount(`nav.nav a[href="/gallery"]`, 0)
	p.waitCount("nav.nav a", 3)
	p.waitText("#gallery-rate-value", "2.5 tokens/s")
	p.waitText("#gallery-burst-error", "⚠ burst 0 is out of range; want 1 to 100 tokens")
	p.waitText("#gallery-stat .stat-value", "7")
	p.waitCount("#gallery-playground figure.gallery-item", 2)
	p.waitCount("#gallery-lab .lane[id^=lane-]", 6)
	p.waitText("#gallery-lab #lab-clock", "t = 5.000 s")
	p.waitText("#gallery-lab #lab-clock-state", "paused")
	if got := p.eval(`document.title`); got != "Component gallery: ratelab" {
		t.Errorf("title %q, want \"Component gallery: ratelab\"", got)
	}
	p.screenshot("gallery.png")
}
