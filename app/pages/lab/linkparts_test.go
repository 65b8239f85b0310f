package lab

import (
	"net/url"
	"strings"
	"testing"

	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/sim"
)

// TestLinkPresets: preset= adds a real limit's lane after the link's lanes
// or sets the traffic; a name that is not a preset is named with every
// accepted one, and the rest of the link is kept.
func TestLinkPresets(t *testing.T) {
	m := openLink(t, "preset=github&seed=7")
	lanes := m.lab.Setup().Lanes
	if len(m.linkErrs) != 0 || len(lanes) != 4 || explain.ConfigText(lanes[3].Config) != "fixed window: 5000 per 1 h" || m.lab.Setup().Seed != 7 {
		t.Fatalf("preset=github: errors %q, %d lanes, last %v, seed %d", m.linkErrs, len(lanes), lanes[len(lanes)-1].Config, m.lab.Setup().Seed)
	}
	if q := linkQuery(m); strings.Contains(q, "preset") || !strings.Contains(q, "lane=fixed_window%2C5000%2C1h0m0s") {
		t.Errorf("the link after preset=github: %s; want the lane, not the preset", q)
	}
	m = openLink(t, "preset=edge")
	if cs := m.lab.Setup().Clients; len(m.linkErrs) != 0 || len(cs) != 1 || cs[0].Name != "mallory" || cs[0].Pattern.Kind != sim.PatternEdge {
		t.Errorf("preset=edge: errors %q, clients %+v", m.linkErrs, cs)
	}
	m = openLink(t, "preset=gitbub&seed=3")
	want := `link: preset: "gitbub" is not a preset; want one of github, shopify, stripe, nginx-nodelay, nginx-delay, cloudflare, edge, noisy; ignored`
	if strings.Join(m.linkErrs, "\n") != want || len(m.lab.Lanes()) != 3 || m.lab.Setup().Seed != 3 {
		t.Errorf("preset=gitbub: %q, %d lanes, seed %d; want %q, 3, 3", m.linkErrs, len(m.lab.Lanes()), m.lab.Setup().Seed, want)
	}
	m = openLink(t, "preset=github&preset=shopify&preset=stripe&preset=cloudflare")
	want = "link: preset: cloudflare: lanes: already 6 lanes; want at most 6; not added"
	if strings.Join(m.linkErrs, "\n") != want || len(m.lab.Lanes()) != 6 {
		t.Errorf("a seventh lane: %q, %d lanes; want %q, 6", m.linkErrs, len(m.lab.Lanes()), want)
	}
}

// TestLinkUnknownParts: a key the lab does not read is named, with the
// keys it does, and the rest of the link is kept.
func TestLinkUnknownParts(t *testing.T) {
	m := openLink(t, "seed=5&lanes=token_bucket,1,1&Seed=2")
	keys := "lane, client, tier, focus, seed, speed, trace, worst, as, burst, paused, t, zoom, preset"
	want := `link: "Seed" is not a part of a lab link; the lab reads ` + keys + "; ignored\n" +
		`link: "lanes" is not a part of a lab link; the lab reads ` + keys + "; ignored"
	if got := strings.Join(m.linkErrs, "\n"); got != want || m.lab.Setup().Seed != 5 {
		t.Errorf("unknown keys: %q, seed %d; want %q, 5", got, m.lab.Setup().Seed, want)
	}
}

// TestLinkZoom: the lanes' zoom is part of the link, read back exactly; a
// bad zoom is said and the lanes follow the clock.
func TestLinkZoom(t *testing.T) {
	m := openLink(t, "zoom=0.98,1.01")
	if w := m.zoom.win; len(m.linkErrs) != 0 || w == nil || w.From != 980*ms || w.To != 1010*ms {
		t.Fatalf("zoom=0.98,1.01: errors %q, window %+v", m.linkErrs, w)
	}
	q, _ := url.ParseQuery(linkQuery(m))
	if q.Get("zoom") != "0.98,1.01" {
		t.Errorf("the link's zoom: %q, want 0.98,1.01", q.Get("zoom"))
	}
	m = openLink(t, "zoom=1.01,0.98")
	want := `link: zoom: "1.01,0.98" ends before it starts; want from < to (zoom=0.98,1.01); using the default zoom, the whole run following the clock`
	if got := strings.Join(m.linkErrs, "\n"); got != want || m.zoom.win != nil || strings.Contains(linkQuery(m), "zoom") {
		t.Errorf("zoom=1.01,0.98: %q, window %+v; want %q and none", got, m.zoom.win, want)
	}
}
