package playground

import (
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/ui"
	"github.com/ratelab/ratelab/app/ui/uitest"
)

// TestTimelineZoom: the token bucket's timeline (the last 9.5 s and 0.5 s
// ahead of now) zooms about now, where the next request lands, down to 25.2 ms (504 units wide,
// before the page measured it: 1 ms = 20 units), and Fit
// unzooms it.
func TestTimelineZoom(t *testing.T) {
	s := pausedSim()
	v := &view{Sim: s}
	v.state = s.State()
	now := s.Now()
	auto := v.autoAxis()
	if w := v.zoom.window(auto, now); w.From != now-9500*time.Millisecond || w.To != now+500*time.Millisecond || !w.Full() {
		t.Fatalf("unzoomed: [%v, %v) at now %v", w.From, w.To, now)
	}
	v.ApplyZoom(ui.ZoomAction{Factor: ui.ZoomStep}, v.nowAnchor())
	if w := v.zoom.window(auto, now); w.From != now-4750*time.Millisecond || w.To != now+250*time.Millisecond {
		t.Errorf("zoomed once: [%v, %v) from now, want now − 4.75 s to now + 0.25 s (now stays at 95 %%)", w.From-now, w.To-now)
	}
	for range 20 {
		v.ApplyZoom(ui.ZoomAction{Factor: ui.ZoomStep}, v.nowAnchor())
	}
	if w := v.zoom.window(auto, now); w.Span() != 25200*time.Microsecond {
		t.Errorf("zoomed in fully at %v units: span %v, want 25.2ms (504 / 20 ms)", timelineR-tbTimelineL, w.Span())
	}
	html := uitest.Mount(t, v)
	if !strings.Contains(html, `id="fig-zoom-shown"`) || !strings.Contains(html, "1 ms = 20 px") {
		t.Errorf("the zoom bar does not say 1 ms = 20 px")
	}
	v.ApplyZoom(ui.ZoomAction{Fit: true}, 0)
	if v.zoom.zoomed {
		t.Error("Fit: still zoomed")
	}
}
