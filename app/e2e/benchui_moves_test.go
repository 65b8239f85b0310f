//go:build e2e && benchui

package e2e

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestPageMoves: the time from a click on a navigation link until the page
// it opens can be used (benchPages' ready), playground → lab → lessons →
// playground, each round in a fresh browser, against a fresh load of the
// page opened (an empty cache, as a reload to another binary had); medians
// of benchLoads rounds. The bound: a move takes at most half a fresh load.
func TestPageMoves(t *testing.T) {
	fmt.Println("machine:", machine())
	chromium := findChromium(t)
	base := startServer(t)
	res := map[string][]float64{}
	fresh := map[string][]float64{}
	for range *benchLoads {
		for k, ms := range timeMoves(t, chromium, base) {
			res[k] = append(res[k], ms)
		}
		for _, pg := range benchPages {
			fresh[pg.name] = append(fresh[pg.name], timeLoad(t, chromium, base+pg.path, pg.ready).Ready)
		}
	}
	for _, mv := range []struct{ key, to string }{{"move playground→lab", "lab"}, {"move lab→learn", "learn"}, {"move learn→playground", "playground"}} {
		m, f := median(res[mv.key]), median(fresh[mv.to])
		report(t, mv.key, fmt.Sprintf("%.0f ms, %.2f× a fresh load of %s (%.0f ms; medians of %d: moves %v)", m, m/f, mv.to, f, len(res[mv.key]), res[mv.key]), "≤ 0.5× a fresh load", m <= f/2)
	}
}

// timeMoves loads the playground in a fresh browser, then follows the
// navigation links to the lab, the lessons and back, timing each move from
// the click until the page it opens can be used (Date.now(), kept in
// sessionStorage across a reload).
func timeMoves(t *testing.T, chromium, base string) map[string]float64 {
	b := newBrowser(t, chromium)
	defer b.cancel()
	b.onNewDocument(t, moveScript())
	p := b.page(t, base)
	p.do(chromedp.Navigate(base + "/"))
	p.evalFor(waitJS(benchPages[0].ready), 70*time.Second)
	out := map[string]float64{}
	from := benchPages[0]
	for _, to := range []int{1, 2, 0} {
		pg := benchPages[to]
		p.evalFor(`(() => { sessionStorage.setItem("moveReady", `+strconv.Quote(pg.ready)+`); sessionStorage.removeItem("moveEnd");
			sessionStorage.setItem("moveStart", String(Date.now())); document.getElementById("nav-`+pg.name+`").click(); return ""; })()`, 10*time.Second)
		var ms string
		deadline := time.Now().Add(70 * time.Second)
		for {
			ms, _ = evalQuiet(p, `String(sessionStorage.getItem("moveEnd") === null ? "" : Number(sessionStorage.getItem("moveEnd")) - Number(sessionStorage.getItem("moveStart")))`)
			if ms != "" || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		v, err := strconv.ParseFloat(ms, 64)
		if err != nil {
			t.Fatalf("move %s→%s: %q", from.name, pg.name, ms)
		}
		out["move "+from.name+"→"+pg.name] = v
		from = pg
	}
	return out
}

func evalQuiet(p *page, js string) (string, error) {
	return chromedp.Run(p.ctx, chromedp.Evaluate[string](js))
}

func waitJS(ready string) string {
	return `new Promise(done => { const f = () => { let ok = false; try { ok = ` + ready + ` && !document.getElementById("app-wasm-loader"); } catch (e) {} if (ok) done(""); else setTimeout(f, 10); }; f(); })`
}

// moveScript watches every document for the move's target page becoming
// usable and writes the time into sessionStorage.
func moveScript() string {
	return `(() => {
	const check = () => {
		const r = sessionStorage.getItem("moveReady");
		if (!r || sessionStorage.getItem("moveEnd") !== null || document.getElementById("app-wasm-loader")) return;
		let ok = false; try { ok = (0, eval)(r); } catch (e) {}
		if (ok) sessionStorage.setItem("moveEnd", String(Date.now()));
	};
	new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();`
}
