package benchmarks

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-chi/httprate"
	"github.com/ratelab/ratelab/limiter"
	"github.com/ratelab/ratelab/limiter/httplimit"
	sethvargohttp "github.com/sethvargo/go-limiter/httplimit"
	sethvargo "github.com/sethvargo/go-limiter/memorystore"
	ulule "github.com/ulule/limiter/v3"
	ululestdlib "github.com/ulule/limiter/v3/drivers/middleware/stdlib"
	ululemem "github.com/ulule/limiter/v3/drivers/store/memory"
)

// nothing is the handler behind every middleware: it writes nothing, so
// what is measured is the middleware.
var nothing = http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})

// discard is a ResponseWriter whose header map is emptied before each
// request, so that net/http's own per-request allocations (a response, its
// header map) are left out and what remains is the middleware's.
type discard struct {
	h    http.Header
	code int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(code int)        { d.code = code }

// Limits high enough that every request is admitted: the benchmark measures
// the admitted path, keyed by the client IP, with the real clock. The peers
// take mwPeerLimit per second, ours' rate: a million per second, as they
// had, is less than a peer serves in a second on an idle machine (sethvargo
// about 2.5 million), so its limit was reached and the run failed on a 429.
// sethvargo's store refills, once its first interval is over, interval ÷
// tokens tokens per elapsed interval (capped at tokens), so no "per second"
// setting outlasts a second of this loop: it gets 2^23 tokens for a day,
// which one run (about 2.5 million requests) never reaches.
const (
	mwRate      = 1e9
	mwBurst     = 1_000_000
	mwPeerLimit = 1_000_000_000
)

// BenchmarkMiddleware: one request from one client IP through each
// middleware to a handler that writes nothing, one goroutine.
func BenchmarkMiddleware(b *testing.B) {
	keyed := func() *limiter.Keyed {
		k, err := limiter.NewKeyed(func(string) (limiter.Strategy, error) {
			return limiter.NewTokenBucket(mwRate, mwBurst)
		}, limiter.KeyedOptions{})
		if err != nil {
			b.Fatal(err)
		}
		return k
	}
	runMiddleware(b, "ours-token-bucket", func() http.Handler {
		m, err := httplimit.New(keyed(), httplimit.Options{})
		if err != nil {
			b.Fatal(err)
		}
		return m.Handler(nothing)
	})
	runMiddleware(b, "ours-token-bucket-x-ratelimit", func() http.Handler {
		m, err := httplimit.New(keyed(), httplimit.Options{Headers: httplimit.HeadersXRateLimit})
		if err != nil {
			b.Fatal(err)
		}
		return m.Handler(nothing)
	})
	// Two limits on each key, all-or-nothing: what a peer would need two
	// middlewares for.
	runMiddleware(b, "ours-policy-2-limits", func() http.Handler {
		p, err := limiter.NewPolicy([]limiter.Limit{
			{Name: "second", Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: mwRate, Burst: mwBurst}},
			{Name: "day", Config: limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 1 << 40, Window: 24 * time.Hour}},
		}, limiter.PolicyOptions{})
		if err != nil {
			b.Fatal(err)
		}
		m, err := httplimit.New(p, httplimit.Options{})
		if err != nil {
			b.Fatal(err)
		}
		return m.Handler(nothing)
	})
	runMiddleware(b, "sethvargo-httplimit", func() http.Handler {
		store, err := sethvargo.New(&sethvargo.Config{Tokens: 1 << 23, Interval: 24 * time.Hour})
		if err != nil {
			b.Fatal(err)
		}
		m, err := sethvargohttp.NewMiddleware(store, sethvargohttp.IPKeyFunc())
		if err != nil {
			b.Fatal(err)
		}
		return m.Handle(nothing)
	})
	runMiddleware(b, "ulule-stdlib", func() http.Handler {
		l := ulule.New(ululemem.NewStore(), ulule.Rate{Period: time.Second, Limit: mwPeerLimit})
		return ululestdlib.NewMiddleware(l).Handler(nothing)
	})
	runMiddleware(b, "go-chi-httprate", func() http.Handler {
		return httprate.LimitBy(mwPeerLimit, time.Second, func(r *http.Request) (string, error) {
			ip, _, err := net.SplitHostPort(r.RemoteAddr)
			if err != nil {
				ip = r.RemoteAddr
			}
			return httprate.CanonicalizeIP(ip), nil
		})(nothing)
	})
}

// runMiddleware measures a fresh middleware from newHandler per run, so
// that no run finds the quota spent by another.
func runMiddleware(b *testing.B, name string, newHandler func() http.Handler) {
	b.Run(name, func(b *testing.B) {
		h := newHandler()
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "192.0.2.1:1234"
		w := &discard{h: http.Header{}}
		b.ReportAllocs()
		for b.Loop() {
			clear(w.h)
			w.code = 0
			h.ServeHTTP(w, r)
		}
		if w.code != 0 && w.code != http.StatusOK {
			b.Fatalf("%s answered %d: the limit was reached, so the admitted path was not measured", name, w.code)
		}
	})
}
