package explain

import (
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/limiter"
)

const ms = time.Millisecond

// req is one request of a fixed scenario.
type req struct {
	at limiter.Instant
	n  int
}

// explainAll replays the requests through a real strategy and returns the
// text of each decision.
func explainAll(t *testing.T, cfg limiter.Config, reqs []req) []string {
	t.Helper()
	var r Replayer
	if err := r.Reset(cfg); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, q := range reqs {
		in, err := r.Decide(q.at, q.n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Explain(in).Text())
	}
	return out
}

func checkText(t *testing.T, got []string, want map[int]string) {
	t.Helper()
	for i, w := range want {
		w = strings.TrimLeft(w, "\n")
		if got[i] != w {
			t.Errorf("decision %d:\n got:\n%s\nwant:\n%s", i, got[i], w)
		}
	}
}

func TestExplainTokenBucket(t *testing.T) {
	cfg := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 2, Burst: 3}
	got := explainAll(t, cfg, []req{{0, 1}, {0, 1}, {0, 1}, {100 * ms, 1}, {1250 * ms, 1}, {1300 * ms, 5}})
	checkText(t, got, map[int]string{0: `
token bucket: 2/s, burst 3 — request of 1 at 0 s
now: 0 s
tokens now: a new bucket starts full: burst = 3
request: n = 1
test: tokens ≥ n: 3 ≥ 1 = true
tokens after: 3 − 1 = 2
remaining: whole units that still fit now = 2
→ allowed: 2 remaining
`, 3: `
token bucket: 2/s, burst 3 — request of 1 at 100 ms
now: 100 ms
elapsed since last update: now − last = 100 ms − 0 s = 100 ms
tokens at last update: 0
refill: elapsed × rate = 100 ms × 2/s = 0.2
tokens now: min(burst, tokens + refill) = min(3, 0 + 0.2) = 0.2
request: n = 1
test: tokens ≥ n: 0.2 ≥ 1 = false
retry after: (n − tokens) ÷ rate = (1 − 0.2) ÷ 2/s, rounded up to 1 ns = 400 ms
Retry-After header: seconds, rounded up, at least 1 = 1
remaining: whole units that still fit now = 0
→ denied: retry after 400 ms (HTTP 429, Retry-After: 1)
`, 4: `
token bucket: 2/s, burst 3 — request of 1 at 1.25 s
now: 1.25 s
elapsed since last update: now − last = 1.25 s − 0 s = 1.25 s
tokens at last update: 0
refill: elapsed × rate = 1.25 s × 2/s = 2.5
tokens now: min(burst, tokens + refill) = min(3, 0 + 2.5) = 2.5
request: n = 1
test: tokens ≥ n: 2.5 ≥ 1 = true
tokens after: 2.5 − 1 = 1.5
remaining: whole units that still fit now = 1
→ allowed: 1 remaining
`, 5: `
token bucket: 2/s, burst 3 — request of 5 at 1.3 s
now: 1.3 s
elapsed since last update: now − last = 1.3 s − 1.25 s = 50 ms
tokens at last update: 1.5
refill: elapsed × rate = 50 ms × 2/s = 0.1
tokens now: min(burst, tokens + refill) = min(3, 1.5 + 0.1) = 1.6
request: n = 5
test: n ≤ limit: 5 ≤ 3 = false (never: more than the limiter can ever hold)
remaining: whole units that still fit now = 1
→ denied for good: retrying never helps (HTTP 429 without Retry-After)
`})
}

func TestExplainGCRA(t *testing.T) {
	cfg := limiter.Config{Kind: limiter.KindGCRA, Rate: 4, Burst: 2}
	got := explainAll(t, cfg, []req{{0, 1}, {0, 1}, {100 * ms, 1}, {600 * ms, 1}})
	checkText(t, got, map[int]string{2: `
GCRA: 4/s, burst 2 — request of 1 at 100 ms
now: 100 ms
emission interval T: 1 ÷ rate = 1 ÷ 4/s = 250 ms
tolerance τ: burst × T = 2 × 250 ms = 500 ms
TAT (theoretical arrival time): when the bucket would be full again (now if it is full) = 500 ms
new TAT: max(TAT, now) + n × T = max(500 ms, 100 ms) + 1 × 250 ms = 750 ms
test: new TAT − now ≤ τ: 750 ms − 100 ms ≤ 500 ms = false
tokens (token bucket view): burst − (TAT − now) ÷ T, before → after = 0.4 → 0.4
retry after: new TAT − now − τ = 750 ms − 100 ms − 500 ms = 150 ms
Retry-After header: seconds, rounded up, at least 1 = 1
remaining: whole units that still fit now = 0
→ denied: retry after 150 ms (HTTP 429, Retry-After: 1)
`, 3: `
GCRA: 4/s, burst 2 — request of 1 at 600 ms
now: 600 ms
emission interval T: 1 ÷ rate = 1 ÷ 4/s = 250 ms
tolerance τ: burst × T = 2 × 250 ms = 500 ms
TAT (theoretical arrival time): when the bucket would be full again (now if it is full) = 600 ms
new TAT: max(TAT, now) + n × T = max(600 ms, 600 ms) + 1 × 250 ms = 850 ms
test: new TAT − now ≤ τ: 850 ms − 600 ms ≤ 500 ms = true
TAT after: 850 ms
tokens (token bucket view): burst − (TAT − now) ÷ T, before → after = 2 → 1
remaining: whole units that still fit now = 1
→ allowed: 1 remaining
`})
}

func TestExplainLeakyBucket(t *testing.T) {
	cfg := limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 3, LeakInterval: 100 * ms}
	got := explainAll(t, cfg, []req{{0, 1}, {0, 1}, {0, 1}, {50 * ms, 1}, {250 * ms, 1}})
	checkText(t, got, map[int]string{3: `
leaky bucket: capacity 3, leaks 1 per 100 ms — request of 1 at 50 ms
now: 50 ms
elapsed since last update: now − last = 50 ms − 0 s = 50 ms
level at last update: 3
leaked: elapsed ÷ leak interval = 50 ms ÷ 100 ms = 0.5
level now: max(0, level − leaked) = max(0, 3 − 0.5) = 2.5
request: n = 1
test: level + n ≤ capacity: 2.5 + 1 ≤ 3 = false
retry after: (level + n − capacity) × leak interval = (2.5 + 1 − 3) × 100 ms = 50 ms
Retry-After header: seconds, rounded up, at least 1 = 1
remaining: whole units that still fit now = 0
→ denied: retry after 50 ms (HTTP 429, Retry-After: 1)
`, 4: `
leaky bucket: capacity 3, leaks 1 per 100 ms — request of 1 at 250 ms
now: 250 ms
elapsed since last update: now − last = 250 ms − 0 s = 250 ms
level at last update: 3
leaked: elapsed ÷ leak interval = 250 ms ÷ 100 ms = 2.5
level now: max(0, level − leaked) = max(0, 3 − 2.5) = 0.5
request: n = 1
test: level + n ≤ capacity: 0.5 + 1 ≤ 3 = true
level after: 0.5 + 1 = 1.5
queue delay (as a queue; a meter passes it at once): (level after − 1) × leak interval = (1.5 − 1) × 100 ms = 50 ms
remaining: whole units that still fit now = 1
→ allowed: 1 remaining, served after 50 ms in a queue
`})
}

func TestExplainFixedWindow(t *testing.T) {
	cfg := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 3, Window: time.Second}
	got := explainAll(t, cfg, []req{{900 * ms, 1}, {900 * ms, 1}, {900 * ms, 1}, {950 * ms, 1}, {1000 * ms, 1}})
	checkText(t, got, map[int]string{3: `
fixed window: 3 per 1 s — request of 1 at 950 ms
now: 950 ms
window index: ⌊now ÷ window⌋ = ⌊950 ms ÷ 1 s⌋ = 0
window: [index × window, (index + 1) × window) = [0 s, 1 s)
count: units admitted in this window = 3
request: n = 1
test: count + n ≤ limit: 3 + 1 ≤ 3 = false
retry after: window end − now = 1 s − 950 ms = 50 ms
Retry-After header: seconds, rounded up, at least 1 = 1
remaining: whole units that still fit now = 0
→ denied: retry after 50 ms (HTTP 429, Retry-After: 1)
`, 4: `
fixed window: 3 per 1 s — request of 1 at 1 s
now: 1 s
window index: ⌊now ÷ window⌋ = ⌊1 s ÷ 1 s⌋ = 1
window: [index × window, (index + 1) × window) = [1 s, 2 s)
count: units admitted in this window = 0
request: n = 1
test: count + n ≤ limit: 0 + 1 ≤ 3 = true
count after: 0 + 1 = 1
remaining: whole units that still fit now = 2
→ allowed: 2 remaining
`})
}

func TestExplainSlidingWindowLog(t *testing.T) {
	cfg := limiter.Config{Kind: limiter.KindSlidingWindowLog, Limit: 3, Window: time.Second}
	got := explainAll(t, cfg, []req{{0, 1}, {400 * ms, 1}, {800 * ms, 1}, {1100 * ms, 1}, {1200 * ms, 1}})
	checkText(t, got, map[int]string{3: `
sliding window log: 3 per 1 s — request of 1 at 1.1 s
now: 1.1 s
window: entries e with now − e < window: e in (1.1 s − 1 s, 1.1 s] = (100 ms, 1.1 s]
expired since last update: now − e ≥ window = 0 s
counted: entries in the window, oldest first = 400 ms, 800 ms
count: 2
request: n = 1
test: count + n ≤ limit: 2 + 1 ≤ 3 = true
log after: 400 ms, 800 ms, 1.1 s
memory: one instant per admitted unit still in the window (at most limit) = 3 of 3 instants
remaining: whole units that still fit now = 0
→ allowed: 0 remaining
`, 4: `
sliding window log: 3 per 1 s — request of 1 at 1.2 s
now: 1.2 s
window: entries e with now − e < window: e in (1.2 s − 1 s, 1.2 s] = (200 ms, 1.2 s]
expired since last update: now − e ≥ window = none
counted: entries in the window, oldest first = 400 ms, 800 ms, 1.1 s
count: 3
request: n = 1
test: count + n ≤ limit: 3 + 1 ≤ 3 = false
memory: one instant per admitted unit still in the window (at most limit) = 3 of 3 instants
retry after: entry 1 (oldest first) + window − now = 400 ms + 1 s − 1.2 s = 200 ms
Retry-After header: seconds, rounded up, at least 1 = 1
remaining: whole units that still fit now = 0
→ denied: retry after 200 ms (HTTP 429, Retry-After: 1)
`})
}

func TestExplainSlidingWindowCounter(t *testing.T) {
	cfg := limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 4, Window: time.Second}
	got := explainAll(t, cfg, []req{{0, 1}, {100 * ms, 1}, {200 * ms, 1}, {300 * ms, 1}, {1250 * ms, 1}, {1300 * ms, 1}})
	checkText(t, got, map[int]string{4: `
sliding window counter: 4 per 1 s — request of 1 at 1.25 s
now: 1.25 s
window: [start, start + window) = [1 s, 2 s)
elapsed in window: now − start = 1.25 s − 1 s = 250 ms
previous window count: units admitted in [0 s, 1 s) = 4
current window count: 0
weighted estimate: prev × (window − elapsed) ÷ window + curr = 4 × (1 s − 250 ms) ÷ 1 s + 0 = 3
request: n = 1
test: estimate + n ≤ limit: 3 + 1 ≤ 4 = true
estimate after: 4
remaining: whole units that still fit now = 0
→ allowed: 0 remaining
`, 5: `
sliding window counter: 4 per 1 s — request of 1 at 1.3 s
now: 1.3 s
window: [start, start + window) = [1 s, 2 s)
elapsed in window: now − start = 1.3 s − 1 s = 300 ms
previous window count: units admitted in [0 s, 1 s) = 4
current window count: 1
weighted estimate: prev × (window − elapsed) ÷ window + curr = 4 × (1 s − 300 ms) ÷ 1 s + 1 = 3.8
request: n = 1
test: estimate + n ≤ limit: 3.8 + 1 ≤ 4 = false
retry after: earliest e with prev × (window − e) + (curr + n) × window ≤ limit × window, minus elapsed: 4 × (1 s − e) + (1 + 1) × 1 s ≤ 4 × 1 s = 200 ms
Retry-After header: seconds, rounded up, at least 1 = 1
remaining: whole units that still fit now = 0
→ denied: retry after 200 ms (HTTP 429, Retry-After: 1)
`})
}

// TestReplayStale checks Replay picks one client's requests and explains a
// stale request as evaluated at the latest admission.
func TestReplayStale(t *testing.T) {
	evs := []sim.Event{{At: 500 * ms, Client: "a", N: 1}, {At: 0, Client: "b", N: 1}, {At: 200 * ms, Client: "a", N: 1}}
	e, err := Replay(limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 2}, "a", evs, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := "now: stamp 200 ms is before the latest admission 500 ms: evaluated at 500 ms (time never runs backwards) = 500 ms"
	if e.Steps[0].String() != want || e.Outcome != Allowed {
		t.Errorf("got %q, %s; want %q, allowed", e.Steps[0], e.Outcome, want)
	}
	if _, err := Replay(limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 2}, "a", evs, 2); err == nil {
		t.Error("request 2 of a: no error")
	}
}
