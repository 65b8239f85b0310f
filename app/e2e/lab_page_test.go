//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
)

// labPage is the comparison lab (/lab) in a tab, with the actions its
// tests repeat.
type labPage struct{ *page }

// openLab loads link, a lab address, as a new document (from a blank page,
// so nothing of the previous page survives) and waits for the lab.
func (p *page) openLab(link string) *labPage {
	return &labPage{p.freshAt(link, "Comparison lab")}
}

// pause pauses the lab's clock if it is running.
func (l *labPage) pause() {
	l.t.Helper()
	l.pauseClock("#lab-clock-state", "#lab-pause")
}

// restart is the lab's Reset: the lanes start again at t = 0.
func (l *labPage) restart() {
	l.t.Helper()
	l.click("#lab-reset")
	l.waitText("#lab-clock", "t = 0.000 s")
}

// runSeconds pauses, restarts and steps the clock 1 s at a time to n s.
func (l *labPage) runSeconds(n int) {
	l.t.Helper()
	l.pause()
	l.restart()
	for range n {
		l.click("#step-1s")
	}
	l.waitText("#lab-clock", fmt.Sprintf("t = %d.000 s", n))
}

// sameBudget gives every lane the budget of limit requests per window
// seconds ("Same budget").
func (l *labPage) sameBudget(limit, window string) {
	l.t.Helper()
	l.setNumber("budget-limit", limit)
	l.setNumber("budget-window", window)
	l.click("#budget-apply")
}

// loadPreset loads the traffic preset name (edge, …).
func (l *labPage) loadPreset(name string) {
	l.t.Helper()
	l.click("#preset-" + name)
}

// addLane picks v in "+ Add a lane…" (a strategy, or "preset:" and a
// preset's name); the menu goes back to its prompt, so its value is not
// waited for.
func (l *labPage) addLane(v string) {
	l.t.Helper()
	l.eval(fmt.Sprintf(`(() => { const el = document.getElementById("add-lane"); el.value = %q;
		el.dispatchEvent(new Event("change", {bubbles: true})); return el.value; })()`, v))
}

// applyTier types name into the tier's name field and presses "Set tier".
func (l *labPage) applyTier(name string) {
	l.t.Helper()
	l.eval(fmt.Sprintf(`(() => { const el = document.getElementById("tier-name"); el.value = %q; return el.value; })()`, name))
	l.click("#tier-apply")
}

// uploadTrace gives the trace field a file name holding data.
func (l *labPage) uploadTrace(name string, data []byte) {
	l.t.Helper()
	l.uploadFile("#trace-file", name, data)
}

// clockMs reads the lab's clock in milliseconds.
func (l *labPage) clockMs() int {
	var s, ms int
	fmt.Sscanf(l.text("#lab-clock"), "t = %d.%d s", &s, &ms)
	return s*1000 + ms
}

// laneSummary is every lane's kind, configuration and counts, and the clock.
func (l *labPage) laneSummary() string {
	var parts []string
	n, _ := strconv.Atoi(l.eval(`String(document.querySelectorAll(".lane[id^=lane-]").length)`))
	for i := range n {
		id := fmt.Sprintf("#lane-%d", i)
		parts = append(parts, l.text(id+"-config")+" "+l.text(id+"-allowed")+"/"+l.text(id+"-denied"))
	}
	return strings.Join(parts, "; ") + " @ " + l.text("#lab-clock")
}

// linkSetup is the setup of the lab's share link, as app/sim decodes it.
func (l *labPage) linkSetup() sim.Setup {
	l.t.Helper()
	u, err := url.Parse(l.eval(`document.getElementById("share-link").value`))
	if err != nil {
		l.t.Fatal(err)
	}
	s, err := sim.DecodeSetup(u.Query())
	if err != nil {
		l.t.Fatal(err)
	}
	return s
}

// replayNatively runs the trace tr on setup to its end in app/sim, natively:
// what the page's "Run to end" must show.
func replayNatively(t *testing.T, setup sim.Setup, tr *sim.Trace) *sim.Lab {
	t.Helper()
	lab, err := sim.New(setup, tr, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.RunTrace(); err != nil {
		t.Fatal(err)
	}
	return lab
}

// waitTotals waits until each lane shows the counts of the same lane of
// lab, where each lane decided n requests.
func (l *labPage) waitTotals(lab *sim.Lab, n int64) {
	l.t.Helper()
	for i, ln := range lab.Lanes() {
		tot := ln.Total()
		if tot.Allowed+tot.Denied != n {
			l.t.Errorf("lane %d: native total %d; want %d", i+1, tot.Allowed+tot.Denied, n)
		}
		id := fmt.Sprintf("#lane-%d", i)
		l.waitText(id+"-allowed", strconv.FormatInt(tot.Allowed, 10))
		l.waitText(id+"-denied", strconv.FormatInt(tot.Denied, 10))
		l.t.Logf("lane %d (%s): %d allowed, %d denied", i+1, ln.Spec().Config, tot.Allowed, tot.Denied)
	}
}

// waitNASATrace waits until the NASA trace is loaded and replaying. The
// page fetches, inflates and parses its 20,000 requests in the wasm, which
// on a loaded 2-core machine took longer than poll's 5 s, so it has 30 s.
func (p *page) waitNASATrace() {
	p.t.Helper()
	const want = "Replaying: NASA 1995 trace (20000 requests, 1656 clients)remove"
	p.pollFor(30*time.Second, "#trace-status", want, func() string { return p.text("#trace-status") })
}
