package lab

import (
	"html"
	"net/url"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui/uitest"
)

// openLink loads link's query as OnNav does (no trace) and runs the
// opening to its end.
func openLink(t *testing.T, query string) *labModel {
	t.Helper()
	q, err := sim.ParseLink(query)
	if err != nil {
		t.Fatal(err)
	}
	m := newLabModel()
	m.loadSetup(q)
	m.openClock(q, false)
	for m.toEnd != nil {
		m.runStep()
	}
	return m
}

// A paused=1&t=… link opens paused at t, and the page's own link then
// carries that instant; the clock shows it.
func TestOpenPausedLink(t *testing.T) {
	m := openLink(t, "seed=9&paused=1&t=2.5")
	if m.lab.Now() != 2500*time.Millisecond || !m.lab.Clock().Paused() || m.lab.Setup().Seed != 9 {
		t.Fatalf("at %v, paused %v, seed %d; want 2.5s, paused, 9", m.lab.Now(), m.lab.Clock().Paused(), m.lab.Setup().Seed)
	}
	if _, bad := m.errs["clock"]; bad {
		t.Errorf("clock error %q", m.errs["clock"])
	}
	q, _ := url.ParseQuery(linkQuery(m))
	if got := q.Get("paused") + " " + q.Get("t") + " " + q.Get("seed"); got != "1 2.5 9" {
		t.Errorf("link's paused, t, seed: %q; want \"1 2.5 9\"", got)
	}
	// The same requests as a lab stepped there by hand.
	ref, _ := sim.New(m.lab.Setup(), nil, labOptions)
	if err := ref.AdvanceTo(2500 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if got, want := m.lab.Lanes()[0].Total(), ref.Lanes()[0].Total(); got != want || got.Allowed == 0 {
		t.Errorf("lane 1 counts %+v; want %+v", got, want)
	}
	html := uitest.Mount(t, &labLanes{M: m})
	uitest.WantTexts(t, html, map[string]string{"lab-clock": "t = 2.500 s", "lab-clock-state": "paused"})
	// Scrubbed back to 1 s, the link gives the instant shown.
	m.scrubTo(time.Second)
	q, _ = url.ParseQuery(linkQuery(m))
	if got := q.Get("paused") + " " + q.Get("t"); got != "1 1" {
		t.Errorf("scrubbed link's paused, t: %q; want \"1 1\"", got)
	}
	// Running, the link carries no instant.
	m.live()
	m.lab.Clock().Resume()
	if q, _ := url.ParseQuery(linkQuery(m)); q.Has("paused") || q.Has("t") {
		t.Errorf("running link %v has paused or t", q)
	}
}

// paused=0&t=… runs to t, then the clock runs on.
func TestOpenRunningLinkAt(t *testing.T) {
	m := openLink(t, "paused=0&t=1")
	if m.lab.Now() != time.Second || m.lab.Clock().Paused() {
		t.Errorf("at %v, paused %v; want 1s, running", m.lab.Now(), m.lab.Clock().Paused())
	}
}

// A bad t is said by the clock; the rest of the link (the seed, paused) is
// kept, and the clock opens at 0.
func TestOpenBadInstant(t *testing.T) {
	m := openLink(t, "seed=9&paused=1&t=soon")
	want := `link: t: "soon" is not a number of seconds or a duration; want seconds from 0 to 86400, as the lab's clock shows them (t=12.345), or a duration (1.5s, 250ms, 2m); using the default instant, t = 0 s`
	if m.errs["clock"] != want {
		t.Errorf("clock error %q; want %q", m.errs["clock"], want)
	}
	if m.lab.Now() != 0 || !m.lab.Clock().Paused() || m.lab.Setup().Seed != 9 || len(m.linkErrs) != 0 {
		t.Errorf("at %v, paused %v, seed %d, banner %q; want 0, paused, 9, none", m.lab.Now(), m.lab.Clock().Paused(), m.lab.Setup().Seed, m.linkErrs)
	}
	page := uitest.Mount(t, &labLanes{M: m})
	uitest.WantTexts(t, page, map[string]string{"clock-error": "⚠ " + html.EscapeString(want), "lab-clock": "t = 0.000 s"})
}
