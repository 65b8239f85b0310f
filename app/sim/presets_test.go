package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

func TestPresets(t *testing.T) {
	ids := map[string]bool{}
	for _, p := range Presets() {
		if !strings.HasPrefix(p.Source, "https://") || p.Note == "" || p.Name == "" || ids[p.ID] {
			t.Errorf("preset %s: missing source, note, name, or duplicate id", p.ID)
		}
		ids[p.ID] = true
		if _, err := limiter.New(p.Config); err != nil {
			t.Errorf("preset %s: %v", p.ID, err)
		}
	}
	// nginx rate=10r/s burst=20: 21 requests pass at once, the 22nd is
	// rejected; without nodelay the 2nd waits 100 ms and the 21st 2 s.
	p, _ := PresetByID("nginx-delay")
	lb, _ := limiter.New(p.Config)
	var last limiter.Decision
	for i := 1; i <= 22; i++ {
		d, _ := lb.AllowN(0, 1)
		if i == 2 && d.Delay != 100*ms || i == 21 && (d.Delay != 2*time.Second || !d.Allowed) {
			t.Errorf("request %d: %+v", i, d)
		}
		last = d
	}
	if last.Allowed {
		t.Error("22nd request allowed; want nginx's 503")
	}
	if g, _ := PresetByID("github"); g.Config.Limit != 5000 || g.Config.Window != time.Hour {
		t.Errorf("github = %v", g.Config)
	}
	if s, _ := PresetByID("shopify"); s.Config.Capacity != 40 || s.Config.LeakInterval != 500*ms {
		t.Errorf("shopify = %v", s.Config)
	}
}
