package httplimit_test

import (
	"net/http"
	"testing"

	"github.com/ratelab/ratelab/limiter"
	"github.com/ratelab/ratelab/limiter/httplimit"
)

// headerWriter is a ResponseWriter that keeps only a header map, cleared
// before each request, so that what allocates is the middleware.
type headerWriter struct{ h http.Header }

func (w *headerWriter) Header() http.Header         { return w.h }
func (w *headerWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *headerWriter) WriteHeader(int)             {}

// An admitted request through a Keyed allocates nothing (the benchmark's
// bound, kept by a test so that a change that allocates fails); through a
// Policy, only its RateLimit value, which holds a count per limit and so is
// new on most requests (a string and its one-element slice).
func TestAdmittedRequestAllocatesNothing(t *testing.T) {
	clock := &limiter.ManualClock{}
	tb := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1e9, Burst: 1_000_000}
	keyed, _ := limiter.NewKeyed(func(string) (limiter.Strategy, error) { return limiter.New(tb) }, limiter.KeyedOptions{Clock: clock})
	policy, _ := limiter.NewPolicy([]limiter.Limit{{Name: "second", Config: tb},
		{Name: "day", Config: limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 1 << 40, Window: 24 * 60 * 60 * 1e9}}},
		limiter.PolicyOptions{Clock: clock})
	for _, tc := range []struct {
		l    httplimit.Limiter
		want float64
	}{{keyed, 0}, {policy, 2}} {
		l := tc.l
		m, _ := httplimit.New(l, httplimit.Options{})
		h := m.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
		r := request("192.0.2.1:1234")
		w := &headerWriter{h: http.Header{}}
		allocs := testing.AllocsPerRun(100, func() {
			clear(w.h)
			clock.Advance(1)
			h.ServeHTTP(w, r)
		})
		if allocs != tc.want || w.h.Get("RateLimit") == "" {
			t.Errorf("%T: %v allocations per admitted request, RateLimit %q; want %v and the field", l, allocs, w.h.Get("RateLimit"), tc.want)
		}
	}
}
