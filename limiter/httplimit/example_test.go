package httplimit_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"github.com/ratelab/ratelab/limiter/httplimit"
)

func hello(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "hello") }

// show sends a GET from the client at remote and prints the status and
// rate-limit fields.
func show(h http.Handler, target, remote string) {
	r := httptest.NewRequest("GET", target, nil)
	r.RemoteAddr = remote
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Println(strings.TrimSpace(fmt.Sprint(w.Code, " ", w.Header().Get("RateLimit"), " ", w.Header().Get("Retry-After"))))
}

// A token bucket of 2 tokens refilled at 1 per second for each client IP,
// in front of a net/http handler. (The manual clock makes the output exact;
// leave KeyedOptions.Clock nil in a server.)
func ExampleNew() {
	clock := &limiter.ManualClock{}
	keyed, _ := limiter.NewKeyed(func(string) (limiter.Strategy, error) {
		return limiter.NewTokenBucket(1, 2)
	}, limiter.KeyedOptions{Clock: clock})
	mw, _ := httplimit.New(keyed, httplimit.Options{})
	h := mw.Handler(http.HandlerFunc(hello))

	show(h, "/", "192.0.2.1:1234")
	show(h, "/", "192.0.2.1:1234")
	show(h, "/", "192.0.2.1:1234")
	show(h, "/", "192.0.2.9:1234") // another client
	clock.Advance(time.Second)
	show(h, "/", "192.0.2.1:1234")
	// Output:
	// 200 "default";r=1;t=1
	// 200 "default";r=0;t=2
	// 429 "default";r=0;t=1 1
	// 200 "default";r=1;t=1
	// 200 "default";r=0;t=2
}

// chain applies middlewares the way chi's Use and alice do: the first
// wraps the outermost.
func chain(h http.Handler, mws ...func(http.Handler) http.Handler) http.Handler {
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
}

// Middleware.Handler is a func(http.Handler) http.Handler, the shape chi,
// gorilla/mux and alice take, so no adapter package is needed: here behind
// a logging middleware, with clients behind a trusted proxy keyed by the
// X-Forwarded-For entry that proxy appended.
func ExampleMiddleware_Handler() {
	clock := &limiter.ManualClock{}
	keyed, _ := limiter.NewKeyed(func(string) (limiter.Strategy, error) {
		return limiter.NewFixedWindow(1, time.Minute)
	}, limiter.KeyedOptions{Clock: clock})
	key, _ := httplimit.KeyByIP(httplimit.IPOptions{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	mw, _ := httplimit.New(keyed, httplimit.Options{Key: key})
	logging := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Print("log: ")
			next.ServeHTTP(w, r)
		})
	}
	h := chain(http.HandlerFunc(hello), logging, mw.Handler)

	for _, xff := range []string{"198.51.100.7", "6.6.6.6, 198.51.100.7", "198.51.100.8"} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "10.0.0.1:443" // the proxy
		r.Header.Set("X-Forwarded-For", xff)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Println(w.Code, w.Header().Get("RateLimit"))
	}
	// Output:
	// log: 200 "default";r=0;t=60
	// log: 429 "default";r=0;t=60
	// log: 200 "default";r=0;t=60
}

// Per-route limits: each route's handler gets its own middleware, here a
// tight limit on login by client IP and a generous one on the API by API
// key, with a request costing more units for a bulk endpoint.
func Example_perRoute() {
	clock := &limiter.ManualClock{}
	newKeyed := func(c limiter.Config) *limiter.Keyed {
		k, _ := limiter.NewKeyed(func(string) (limiter.Strategy, error) { return limiter.New(c) }, limiter.KeyedOptions{Clock: clock})
		return k
	}
	login, _ := httplimit.New(newKeyed(limiter.Config{Kind: limiter.KindSlidingWindowLog, Limit: 1, Window: time.Minute}), httplimit.Options{})
	api, _ := httplimit.New(newKeyed(limiter.Config{Kind: limiter.KindGCRA, Rate: 10, Burst: 10}), httplimit.Options{
		Key: httplimit.KeyByHeader("X-Api-Key"),
		Cost: func(r *http.Request) (int, error) {
			if r.Pattern == "POST /api/bulk" {
				return 5, nil
			}
			return 1, nil
		},
	})
	mux := http.NewServeMux()
	mux.Handle("POST /login", login.Handler(http.HandlerFunc(hello)))
	mux.Handle("GET /api/items", api.Handler(http.HandlerFunc(hello)))
	mux.Handle("POST /api/bulk", api.Handler(http.HandlerFunc(hello)))

	for _, req := range [][2]string{{"POST", "/login"}, {"POST", "/login"}, {"GET", "/api/items"}, {"POST", "/api/bulk"}, {"POST", "/api/bulk"}} {
		r := httptest.NewRequest(req[0], req[1], nil)
		r.RemoteAddr = "192.0.2.1:1"
		r.Header.Set("X-Api-Key", "team-a")
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		fmt.Println(req[0], req[1], w.Code, w.Header().Get("RateLimit-Policy"), w.Header().Get("RateLimit"))
	}
	// Output:
	// POST /login 200 "default";q=1;w=60 "default";r=0;t=60
	// POST /login 429 "default";q=1;w=60 "default";r=0;t=60
	// GET /api/items 200 "default";q=10;ratelab-rate="10" "default";r=9;t=1
	// POST /api/bulk 200 "default";q=10;ratelab-rate="10" "default";r=4;t=1
	// POST /api/bulk 429 "default";q=10;ratelab-rate="10" "default";r=4;t=1
}
