//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/limiter"
)

// TestLabClients drives the lab's aggregates and clients on the NASA trace:
// each worst case says over what it is counted, any client can be found by
// name or from the totals, and a link opens paused at an instant.
func TestLabClients(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	t.Run("WorstCaseLabels", func(t *testing.T) { p.t = t; testLabWorstLabels(p) })
	t.Run("PausedLink", func(t *testing.T) { p.t = t; testLabPausedLink(p) })
}

// nasaLab is the NASA trace alone on a fixed window, a sliding window log
// and a token bucket of 20 per 1 min, worst-case window 1 min, run natively.
func nasaLab(t *testing.T, until sim.Instant) (*sim.Lab, sim.Setup) {
	t.Helper()
	f, err := os.Open(repoRoot + "/web/data/nasa-1995-08-01.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := sim.ParseCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	s := sim.Setup{Clients: []sim.Client{}, Seed: 1, Speed: 1, Worst: time.Minute, Trace: "nasa"}
	for _, k := range []limiter.Kind{limiter.KindFixedWindow, limiter.KindSlidingWindowLog, limiter.KindTokenBucket} {
		c, err := sim.SameBudget(k, 20, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		s.Lanes = append(s.Lanes, sim.LaneSpec{Config: c})
	}
	lab, err := sim.New(s, tr, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.AdvanceTo(until); err != nil {
		t.Fatal(err)
	}
	return lab, s
}

// fixedWindowState is the lab's state line of a fixed window (the page's
// stateLine) for client at the lab's instant.
func fixedWindowState(l *sim.Lab, client string) string {
	st := l.Lanes()[0].State(l.Now(), client)
	sec := func(t sim.Instant) string { return strconv.FormatFloat(float64(t/time.Millisecond)/1000, 'f', -1, 64) }
	return fmt.Sprintf("window [%s s, %s s): %d of %d", sec(st.WindowStart), sec(st.WindowStart+st.Window), st.Count, st.Limit)
}

// testLabWorstLabels: after "Run to end" on the NASA trace at 20 per 1 min,
// each lane gives the most one client got in any minute (and which) beside
// the all-clients figure that alone read as a breach (166 in 60 s); the
// picker finds c0673 among 1656 clients, and so does a click on its name
// in the totals.
func testLabWorstLabels(p *page) {
	end := 39568 * time.Second
	lab, s := nasaLab(p.t, end)
	f := p.openLab(p.base + "/lab?" + s.Values().Encode())
	f.waitNASATrace()
	f.click("#run-trace")
	f.pollFor(60*time.Second, "#lab-clock", "t = 39568.000 s", func() string { return f.text("#lab-clock") })
	f.waitText("#lab-clock-state", "paused")
	for id, want := range map[string]string{
		"#lane-0-worst-client": "one client (c0557): 28 in 60 s at 18690–18750 s",
		"#lane-0-worst":        "all clients: 166 in 60 s at 38640–38700 s",
		"#lane-1-worst-client": "one client (c0557): 20 in 60 s at 18690–18750 s",
		"#lane-1-worst":        "all clients: 163 in 60 s at 38640–38700 s",
		"#lane-2-worst-client": "one client (c0557): 28 in 60 s at 18690–18750 s",
		"#lane-2-worst":        "all clients: 166 in 60 s at 38640–38700 s",
		"#lane-0-counts-over":  "all clients",
	} {
		f.waitText(id, want)
	}
	if got := f.text("#lane-0 .lane-worst .stat-label"); got != "Worst case, most admitted in any 60 s:" {
		f.t.Errorf("worst case's label %q", got)
	}
	// The totals' allowed count is the native run's.
	if got, want := f.text("#lane-0-allowed"), strconv.FormatInt(lab.Lanes()[0].Total().Allowed, 10); got != want {
		f.t.Errorf("#lane-0-allowed = %s; want %s", got, want)
	}
	f.screenshot("lab-clients-worst-1280.png")

	// The picker: "c067" lists the clients whose name contains it.
	var c067 []string
	for _, n := range lab.AllClients() {
		if strings.Contains(n, "c067") {
			c067 = append(c067, n)
		}
	}
	f.typeClient("c067")
	f.waitText("#focus-count", fmt.Sprintf("1656 clients, %d matching “c067”", len(c067)))
	f.poll("the picker's list", strings.Join(c067, " "), func() string {
		return f.eval(`[...document.querySelectorAll("#focus-list option")].map(o => o.value).join(" ")`)
	})
	f.do(chromedp.SendKeys("#focus", "3"+kb.Enter))
	f.waitValue("#focus", "c0673")
	f.waitText("#lane-0-state-of", "c0673: ")
	f.waitText("#lane-0-state", fixedWindowState(lab, "c0673"))
	// A name no client has: said beside the field, the focus kept.
	f.typeClient("nobody" + kb.Enter)
	f.waitText("#focus-error", "⚠ no client is named “nobody”, and none contains it")
	f.waitText("#lane-0-state-of", "c0673: ")
	// Any client, not only the first 50: the picker's list holds at most 50.
	f.typeClient("c")
	f.waitText("#focus-count", "1656 clients, 1656 matching “c” (the list shows 50: type more)")
	f.waitCount("#focus-list option", 50)
	f.do(chromedp.SendKeys("#focus", "1600"+kb.Enter))
	f.waitText("#lane-0-state-of", "c1600: ")
	f.waitText("#lane-0-state", fixedWindowState(lab, "c1600"))

	// The totals name c0673 as throttled most; clicking its name focuses it.
	f.waitText("#totals tr.top td:nth-child(2) .client-name", "c0673")
	f.click(`#totals tr.top td:nth-child(2) .client-name`)
	f.waitValue("#focus", "c0673")
	f.waitText("#lane-0-state-of", "c0673: ")
	f.waitText("#lane-0-state", fixedWindowState(lab, "c0673"))
	f.poll("the address's focus", "c0673", func() string { return f.eval(`new URLSearchParams(location.search).get("focus")`) })
	for _, vp := range [][2]int64{{1280, 800}, {1024, 768}, {390, 844}} {
		f.do(chromedp.EmulateViewport(vp[0], vp[1]))
		f.eval(`(() => { document.getElementById("focus").scrollIntoView({block: "start"}); return ""; })()`)
		f.screenshot(fmt.Sprintf("lab-clients-c0673-%dx%d.png", vp[0], vp[1]))
		if got := f.eval(`String(document.documentElement.scrollWidth <= innerWidth)`); got != "true" {
			f.t.Errorf("at %d px the page scrolls sideways (%s px wide)", vp[0], f.eval(`String(document.documentElement.scrollWidth)`))
		}
	}
	f.do(chromedp.EmulateViewport(1360, 940))
}

// testLabPausedLink: a link with paused=1&t=… opens paused at that instant
// (the NASA trace replayed up to it) and stays there; the page's own link
// carries the instant; a bad t is said under the clock, the rest kept.
func testLabPausedLink(p *page) {
	at := 3600*time.Second + 250*time.Millisecond
	lab, s := nasaLab(p.t, at)
	q := s.Values()
	q.Set("focus", "c0673")
	f := p.openLab(p.base + "/lab?" + q.Encode() + "&paused=1&t=3600.25")
	f.pollFor(30*time.Second, "#lab-clock", "t = 3600.250 s", func() string { return f.text("#lab-clock") })
	f.waitText("#lab-clock-state", "paused")
	for i := range 3 {
		f.waitText(fmt.Sprintf("#lane-%d-allowed", i), strconv.FormatInt(lab.Lanes()[i].Total().Allowed, 10))
		f.waitText(fmt.Sprintf("#lane-%d-denied", i), strconv.FormatInt(lab.Lanes()[i].Total().Denied, 10))
	}
	f.waitText("#lane-0-state-of", "c0673: ")
	f.waitText("#lane-0-state", fixedWindowState(lab, "c0673"))
	// It stays there: 60 animation frames later (the lab's clock moves on
	// frames), the same instant, still paused.
	f.eval(`new Promise(r => { let n = 0; const f = () => (++n >= 60 ? r("") : requestAnimationFrame(f)); requestAnimationFrame(f); })`)
	if got := f.text("#lab-clock") + " " + f.text("#lab-clock-state"); got != "t = 3600.250 s paused" {
		f.t.Errorf("60 frames later: %q; want \"t = 3600.250 s paused\"", got)
	}
	f.poll("share link's paused and t", "1 3600.25", func() string {
		u, err := url.Parse(f.eval(`document.getElementById("share-link").value`))
		if err != nil {
			return err.Error()
		}
		return u.Query().Get("paused") + " " + u.Query().Get("t")
	})
	f.screenshot("lab-clients-paused-link.png")
	// Resume: the link drops the instant.
	f.click("#lab-pause")
	f.waitText("#lab-clock-state", "running")
	f.poll("address bar's paused and t while running", "null null", func() string {
		return f.eval(`(q => q.get("paused") + " " + q.get("t"))(new URLSearchParams(location.search))`)
	})

	g := p.openLab(p.base + "/lab?seed=9&paused=1&t=soon")
	g.waitText("#clock-error", `⚠ link: t: "soon" is not a number of seconds or a duration; want seconds from 0 to 86400, as the lab's clock shows them (t=12.345), or a duration (1.5s, 250ms, 2m); using the default instant, t = 0 s`)
	g.waitText("#lab-clock", "t = 0.000 s")
	g.waitText("#lab-clock-state", "paused")
	g.waitGone("#link-errors")
	g.poll("share link's seed", "9", func() string {
		u, _ := url.Parse(g.eval(`document.getElementById("share-link").value`))
		return u.Query().Get("seed")
	})
	g.screenshot("lab-clients-bad-instant.png")
}

// typeClient types keys into the client picker, emptied first (as a user's
// select-all on entering it).
func (p *page) typeClient(keys string) {
	p.t.Helper()
	p.eval(`new Promise(r => { const el = document.getElementById("focus"); el.focus();
		requestAnimationFrame(() => requestAnimationFrame(() => { el.value = ""; r(""); })); })`)
	p.do(chromedp.SendKeys("#focus", keys))
}
