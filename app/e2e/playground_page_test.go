//go:build e2e

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// playgroundPage is the playground (/) in a tab, with the actions its
// tests repeat.
type playgroundPage struct{ *page }

// openPlayground loads the playground as a new document: its clock runs,
// the token bucket of burst 5 refilling at 1 token/s is chosen, and nothing
// has been sent.
func (p *page) openPlayground() *playgroundPage {
	return &playgroundPage{p.freshAt(p.base+"/", "Rate limiter playground")}
}

// pause stops the clock if it runs.
func (g *playgroundPage) pause() {
	g.t.Helper()
	g.pauseClock("#clock-state", "#pause")
}

// reset clears the log and the limiter; the counts are redrawn in the
// frame after, so it waits for them.
func (g *playgroundPage) reset() {
	g.t.Helper()
	g.click("#reset")
	g.waitText("#allowed-count", "0")
	g.waitText("#denied-count", "0")
}

// useBucket chooses a token bucket of the given burst and refill rate with
// the sliders, and waits until each slider's label, number field and the
// bucket's level say so.
func (g *playgroundPage) useBucket(burst, rate string) {
	g.t.Helper()
	g.waitText("#strategy-token_bucket", "token bucket")
	g.waitAttr("#strategy-token_bucket", "aria-pressed", "true")
	g.setRange("capacity", burst)
	g.waitText("#capacity-value", burst+" tokens")
	g.waitValue("#capacity-num", burst)
	g.setRange("rate", rate)
	g.waitText("#rate-value", rate+" tokens/s")
	g.waitValue("#rate-num", rate)
	g.waitText("#level-of", " of "+burst+" tokens")
}

// set types value into the number field of param (capacity, rate, limit,
// window, autofire-rate) and waits until its label reads shown.
func (g *playgroundPage) set(param, value, shown string) {
	g.t.Helper()
	g.setNumber(param+"-num", value)
	g.waitText("#"+param+"-value", shown)
}

// refused types in into the number field id and waits for its message.
func (g *playgroundPage) refused(id, in, msg string) {
	g.t.Helper()
	g.setNumber(id, in)
	g.waitText("#"+strings.TrimSuffix(id, "-num")+"-error", msg)
}

// burst sends n requests at once with Burst ×n.
func (g *playgroundPage) burst(n int) {
	g.t.Helper()
	g.setBurstN(n)
	g.click("#burst")
}

// setBurstN sets the N of Burst ×N.
func (g *playgroundPage) setBurstN(n int) {
	g.t.Helper()
	g.setNumber("burst-n", strconv.Itoa(n))
	g.waitText("#burst", fmt.Sprintf("Burst ×%d", n))
}

// pollLevelAtLeast waits, on the running clock, until the bucket shows at
// least min tokens; real sleeps are not exact, so it polls.
func (p *playgroundPage) pollLevelAtLeast(min float64, timeout time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		s := p.text("#level")
		if v, err := strconv.ParseFloat(s, 64); err == nil && v >= min {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("#level = %q after %v, want >= %.2f", s, timeout, min)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// addMs adds ms to a clock text "t = 1.234 s".
func addMs(t *testing.T, clock string, ms int) string {
	var sec, milli int
	if _, err := fmt.Sscanf(clock, "t = %d.%d s", &sec, &milli); err != nil {
		t.Fatalf("clock %q: %v", clock, err)
	}
	total := sec*1000 + milli + ms
	return fmt.Sprintf("t = %d.%03d s", total/1000, total%1000)
}
