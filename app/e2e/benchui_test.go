//go:build e2e && benchui

package e2e

// The page's frame budget, measured in headless Chromium. These are timed
// measurements, so they are not part of `make test` (a shared, loaded
// machine would make them flaky); `make bench-ui` runs them on purpose and
// fails when a bound is missed.

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/limiter"
)

// TestFrameBudget: the playground under its heaviest auto-fire, and the lab
// with six lanes, ten clients and 200 requests/s.
func TestFrameBudget(t *testing.T) {
	chromium := findChromium(t)
	base := startServer(t)
	p := openPage(t, chromium, base)
	t.Run("PlaygroundHeavyLoad", func(t *testing.T) { p.t = t; testHeavyLoad(p) })
	t.Run("LabSixLanes", func(t *testing.T) { p.t = t; testLabFrames(p) })
}

// testHeavyLoad: a sliding window log of limit 100 per 60 s under auto-fire
// at 200 requests/s (the most marks the view draws). The simulated clock
// must keep up with real time (frames under MaxFrame), and the page must
// keep painting; it logs the frame rate measured in the page.
func testHeavyLoad(p *page) {
	p.click("#strategy-sliding_window_log")
	p.waitAttr("#strategy-sliding_window_log", "aria-pressed", "true")
	p.setNumber("limit-num", "100")
	p.waitText("#limit-value", "100 requests")
	p.setNumber("window-num", "60")
	p.waitText("#window-value", "60 s")
	p.setNumber("autofire-rate-num", "200")
	p.waitText("#autofire-rate-value", "200 requests/s")
	p.click("#autofire")
	p.waitText("#autofire", "Auto-fire: on")
	p.waitText("#clock-state", "running")
	p.waitText("#window-count", "100")
	before := p.text("#clock")
	start := time.Now()
	frames := p.eval(`new Promise(done => { let n = 0; const t0 = performance.now();
		const f = () => { n++; if (performance.now() - t0 < 3000) requestAnimationFrame(f); else done(String(n)); };
		requestAnimationFrame(f); })`)
	real := time.Since(start)
	after := p.text("#clock")
	var s0, m0, s1, m1 int
	fmt.Sscanf(before, "t = %d.%d s", &s0, &m0)
	fmt.Sscanf(after, "t = %d.%d s", &s1, &m1)
	sim := time.Duration((s1-s0)*1000+(m1-m0)) * time.Millisecond
	n, _ := strconv.Atoi(frames)
	p.t.Logf("heavy load: %s browser frames in 3 s (%.0f fps); simulated clock moved %v in %v real",
		frames, float64(n)/3, sim, real.Round(time.Millisecond))
	if sim < real*6/10 {
		p.t.Errorf("simulated clock moved %v in %v real: the page cannot keep up", sim, real)
	}
	p.screenshot("8-sliding-window-log-heavy.png")
	p.click("#autofire")
	p.waitText("#autofire", "Auto-fire: off")
}

// testLabFrames: six lanes (every strategy), ten clients at 20 requests/s
// each (200/s), speed 1×: the frame interval p95 stays under 20 ms and the
// simulated clock keeps up with real time.
func testLabFrames(p *page) {
	var lanes []sim.LaneSpec
	for _, k := range limiter.Kinds {
		c, _ := sim.SameBudget(k, 50, time.Second)
		lanes = append(lanes, sim.LaneSpec{Config: c})
	}
	var clients []sim.Client
	for i := range 10 {
		clients = append(clients, sim.Client{Name: fmt.Sprintf("c%d", i+1), Pattern: sim.Pattern{Kind: sim.PatternPoisson, Rate: 20}, Weight: 1})
	}
	s := sim.Setup{Lanes: lanes, Clients: clients, Seed: 7, Speed: 1, Worst: time.Second}
	f := p.fresh(p.base + "/lab?" + s.Values().Encode())
	f.waitCount(".lane[id^=lane-]", 6)
	f.waitText("#lab-clock-state", "running")
	time.Sleep(2 * time.Second) // the strip fills up
	startClock := f.clockMs()
	start := time.Now()
	res := f.eval(`new Promise(done => { const ts = []; const t0 = performance.now();
		const f = (t) => { ts.push(t); if (t - t0 < 10000) requestAnimationFrame(f); else {
			const d = []; for (let i = 1; i < ts.length; i++) d.push(ts[i] - ts[i-1]);
			d.sort((a, b) => a - b);
			done(d.length + " " + d[Math.floor(d.length * 0.95)].toFixed(2) + " " + d[Math.floor(d.length/2)].toFixed(2) + " " + d[d.length-1].toFixed(2)); } };
		requestAnimationFrame(f); })`)
	real := time.Since(start)
	simMoved := time.Duration(f.clockMs()-startClock) * time.Millisecond
	var n int
	var p95, p50, worst float64
	fmt.Sscanf(res, "%d %g %g %g", &n, &p95, &p50, &worst)
	allowed := f.text("#lane-0-allowed")
	f.t.Logf("frames under load (6 lanes, 10 clients, 200 requests/s): %d frames in 10 s, interval p50 %.2f ms, p95 %.2f ms, max %.2f ms; simulated clock moved %v in %v real; lane 1 allowed %s",
		n, p50, p95, worst, simMoved, real.Round(time.Millisecond), allowed)
	fmt.Printf("LAB FRAME INTERVAL P95: %.2f ms (p50 %.2f ms, %d frames)\n", p95, p50, n)
	if p95 >= 20 {
		f.t.Errorf("frame interval p95 = %.2f ms; want < 20 ms", p95)
	}
	if simMoved < real*8/10 {
		f.t.Errorf("simulated clock moved %v in %v real: the lab cannot keep up", simMoved, real)
	}
	f.screenshot("lab-7-six-lanes-under-load.png")
}
