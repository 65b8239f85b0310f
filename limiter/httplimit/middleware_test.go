package httplimit_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"github.com/ratelab/ratelab/limiter/httplimit"
)

// keyedAt returns a Keyed of c on a manual clock set to at.
func keyedAt(t *testing.T, c limiter.Config, at time.Duration) (*limiter.Keyed, *limiter.ManualClock) {
	t.Helper()
	clock := &limiter.ManualClock{}
	clock.Set(at)
	k, err := limiter.NewKeyed(func(string) (limiter.Strategy, error) { return limiter.New(c) }, limiter.KeyedOptions{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	return k, clock
}

// served counts the requests that reached the handler.
type served struct{ n int }

func (s *served) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.n++ }

func mustNew(t *testing.T, l httplimit.Limiter, opts httplimit.Options) (*httplimit.Middleware, *served) {
	t.Helper()
	m, err := httplimit.New(l, opts)
	if err != nil {
		t.Fatal(err)
	}
	return m, &served{}
}

// response is what a test compares: status, the fields named, the body.
type response struct {
	status int
	fields map[string]string
	body   string
}

var fieldNames = []string{"RateLimit-Policy", "RateLimit", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset",
	"X-RateLimit-Limit", "X-RateLimit-Remaining", "Retry-After", "Content-Type"}

func do(h http.Handler, r *http.Request) response {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	res := rec.Result()
	body, _ := io.ReadAll(res.Body)
	got := response{status: res.StatusCode, fields: map[string]string{}, body: string(body)}
	for _, name := range fieldNames {
		if v, ok := res.Header[http.CanonicalHeaderKey(name)]; ok {
			got.fields[name] = v[0]
		}
	}
	return got
}

func request(remote string) *http.Request {
	r := httptest.NewRequest("GET", "/items/7", nil)
	r.RemoteAddr = remote
	return r
}

func check(t *testing.T, step string, got, want response) {
	t.Helper()
	if got.status != want.status || got.body != want.body || len(got.fields) != len(want.fields) {
		t.Errorf("%s: got %d %v %q, want %d %v %q", step, got.status, got.fields, got.body, want.status, want.fields, want.body)
		return
	}
	for k, v := range want.fields {
		if got.fields[k] != v {
			t.Errorf("%s: %s = %q, want %q", step, k, got.fields[k], v)
		}
	}
}

const quotaBody = `{"type":"https://iana.org/assignments/http-problem-types#quota-exceeded",` +
	`"title":"Request cannot be satisfied as assigned quota has been exceeded","status":429,`

func TestDraft10FixedWindow(t *testing.T) {
	k, _ := keyedAt(t, limiter.Config{Kind: limiter.KindFixedWindow, Limit: 2, Window: time.Minute}, 10*time.Second)
	m, h := mustNew(t, k, httplimit.Options{})
	handler := m.Handler(h)
	policy := `"default";q=2;w=60`
	check(t, "1st", do(handler, request("192.0.2.1:1234")), response{200, map[string]string{"RateLimit-Policy": policy, "RateLimit": `"default";r=1;t=50`}, ""})
	check(t, "2nd", do(handler, request("192.0.2.1:1234")), response{200, map[string]string{"RateLimit-Policy": policy, "RateLimit": `"default";r=0;t=50`}, ""})
	check(t, "3rd", do(handler, request("192.0.2.1:1235")), response{429, map[string]string{"RateLimit-Policy": policy, "RateLimit": `"default";r=0;t=50`,
		"Retry-After": "50", "Content-Type": "application/problem+json"}, quotaBody + `"detail":"retry after 50 s","violated-policies":["default"]}`})
	check(t, "other client", do(handler, request("192.0.2.2:1234")), response{200, map[string]string{"RateLimit-Policy": policy, "RateLimit": `"default";r=1;t=50`}, ""})
	if h.n != 3 {
		t.Errorf("handler served %d requests, want 3", h.n)
	}
}

func TestDraft10Buckets(t *testing.T) {
	for _, tc := range []struct {
		c              limiter.Config
		policy, first  string
		denied, detail string
	}{
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 0.5, Burst: 1}, `"default";q=1;ratelab-rate="0.5"`, `"default";r=0;t=2`, `"default";r=0;t=2`, "2"},
		{limiter.Config{Kind: limiter.KindGCRA, Rate: 3, Burst: 1}, `"default";q=1;ratelab-rate="3"`, `"default";r=0;t=1`, `"default";r=0;t=1`, "1"},
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 2e9, Burst: 1}, `"default";q=1;ratelab-rate="2000000000"`, `"default";r=0;t=1`, `"default";r=0;t=1`, "1"}, // 1 ns to wait: 1 s
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1e-9, Burst: 1}, `"default";q=1;ratelab-rate="1e-09"`, `"default";r=0;t=1000000000`, `"default";r=0;t=1000000000`, "1000000000"},
		{limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 1, LeakInterval: 250 * time.Millisecond}, `"default";q=1;ratelab-rate="4"`, `"default";r=0;t=1`, `"default";r=0;t=1`, "1"},
		{limiter.Config{Kind: limiter.KindSlidingWindowLog, Limit: 1, Window: 1500 * time.Millisecond}, `"default";q=1;w=2`, `"default";r=0;t=2`, `"default";r=0;t=2`, "2"},
	} {
		k, _ := keyedAt(t, tc.c, 0)
		m, h := mustNew(t, k, httplimit.Options{})
		name := string(tc.c.Kind)
		check(t, name+" 1st", do(m.Handler(h), request("192.0.2.1:1")), response{200, map[string]string{"RateLimit-Policy": tc.policy, "RateLimit": tc.first}, ""})
		check(t, name+" 2nd", do(m.Handler(h), request("192.0.2.1:1")), response{429, map[string]string{"RateLimit-Policy": tc.policy, "RateLimit": tc.denied,
			"Retry-After": tc.detail, "Content-Type": "application/problem+json"}, quotaBody + `"detail":"retry after ` + tc.detail + ` s","violated-policies":["default"]}`})
	}
}

func TestOlderHeaderStyles(t *testing.T) {
	c := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 1, Window: time.Minute}
	k, _ := keyedAt(t, c, 45*time.Second)
	m, h := mustNew(t, k, httplimit.Options{Headers: httplimit.HeadersDraft06})
	check(t, "draft 06", do(m.Handler(h), request("192.0.2.1:1")), response{200, map[string]string{"RateLimit-Limit": "1", "RateLimit-Remaining": "0", "RateLimit-Reset": "15"}, ""})
	denied := do(m.Handler(h), request("192.0.2.1:1"))
	check(t, "draft 06 denied", denied, response{429, map[string]string{"RateLimit-Limit": "1", "RateLimit-Remaining": "0", "RateLimit-Reset": "15",
		"Retry-After": "15", "Content-Type": "application/problem+json"}, quotaBody + `"detail":"retry after 15 s","violated-policies":["default"]}`})

	k, _ = keyedAt(t, c, 45*time.Second)
	m, h = mustNew(t, k, httplimit.Options{Headers: httplimit.HeadersXRateLimit})
	rec := httptest.NewRecorder()
	before := time.Now().Unix()
	m.Handler(h).ServeHTTP(rec, request("192.0.2.1:1"))
	after := time.Now().Unix()
	reset, _ := strconv.ParseInt(rec.Header().Get("X-RateLimit-Reset"), 10, 64)
	if rec.Code != 200 || rec.Header().Get("X-RateLimit-Limit") != "1" || rec.Header().Get("X-RateLimit-Remaining") != "0" ||
		reset < before+15 || reset > after+15 || rec.Header().Get("RateLimit") != "" {
		t.Errorf("X-RateLimit: %d %v, want 200, limit 1, remaining 0, reset %d to %d", rec.Code, rec.Header(), before+15, after+15)
	}

	k, _ = keyedAt(t, c, 45*time.Second)
	m, h = mustNew(t, k, httplimit.Options{Headers: httplimit.HeadersNone})
	check(t, "none", do(m.Handler(h), request("192.0.2.1:1")), response{200, map[string]string{}, ""})
	check(t, "none denied", do(m.Handler(h), request("192.0.2.1:1")), response{429, map[string]string{"Retry-After": "15", "Content-Type": "application/problem+json"},
		quotaBody + `"detail":"retry after 15 s","violated-policies":["default"]}`})
}

func TestCostExemptAndNever(t *testing.T) {
	k, _ := keyedAt(t, limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 5}, 0)
	var denied []string
	m, h := mustNew(t, k, httplimit.Options{
		Cost:   func(r *http.Request) (int, error) { return strconv.Atoi(r.URL.Query().Get("n")) },
		Exempt: func(r *http.Request) bool { return r.URL.Path == "/healthz" },
		OnDenied: func(r *http.Request, key string, res limiter.Result) {
			denied = append(denied, key+" "+strconv.FormatBool(res.Allowed))
		},
	})
	get := func(target string) response {
		r := httptest.NewRequest("GET", target, nil)
		r.RemoteAddr = "[2001:db8:1:2:3:4:5:6]:443"
		return do(m.Handler(h), r)
	}
	policy := `"default";q=5;ratelab-rate="1"`
	check(t, "n=3", get("/a?n=3"), response{200, map[string]string{"RateLimit-Policy": policy, "RateLimit": `"default";r=2;t=3`}, ""})
	check(t, "n=3 again", get("/a?n=3"), response{429, map[string]string{"RateLimit-Policy": policy, "RateLimit": `"default";r=2;t=1`,
		"Retry-After": "1", "Content-Type": "application/problem+json"}, quotaBody + `"detail":"retry after 1 s","violated-policies":["default"]}`})
	check(t, "n=6", get("/a?n=6"), response{429, map[string]string{"RateLimit-Policy": policy, "RateLimit": `"default";r=2`,
		"Content-Type": "application/problem+json"}, quotaBody + `"detail":"no wait will admit this request","violated-policies":["default"]}`})
	check(t, "exempt", get("/healthz?n=6"), response{200, map[string]string{}, ""})
	if h.n != 2 {
		t.Errorf("handler served %d requests, want 2", h.n)
	}
	want := []string{"2001:db8:1:2::/64 false", "2001:db8:1:2::/64 false"}
	if len(denied) != 2 || denied[0] != want[0] || denied[1] != want[1] {
		t.Errorf("OnDenied saw %q, want %q", denied, want)
	}
}

type failing struct{}

func (failing) Take(context.Context, string, int) (limiter.Result, error) {
	return limiter.Result{}, errors.New("store unreachable")
}

func TestFailures(t *testing.T) {
	var errs []string
	onError := func(r *http.Request, err error) { errs = append(errs, err.Error()) }
	m, h := mustNew(t, failing{}, httplimit.Options{OnError: onError})
	check(t, "closed", do(m.Handler(h), request("192.0.2.1:1")), response{503, map[string]string{"Content-Type": "application/problem+json"},
		`{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"the rate limiter could not decide on this request"}`})
	m, h = mustNew(t, failing{}, httplimit.Options{OnError: onError, FailOpen: true})
	check(t, "open", do(m.Handler(h), request("192.0.2.1:1")), response{200, map[string]string{}, ""})
	k, _ := keyedAt(t, limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 1}, 0)
	m, h = mustNew(t, k, httplimit.Options{OnError: onError, Key: httplimit.KeyByHeader("x-api-key")})
	check(t, "no key", do(m.Handler(h), request("192.0.2.1:1")), response{400, map[string]string{"Content-Type": "application/problem+json"},
		`{"type":"about:blank","title":"Bad Request","status":400,"detail":"the request carries no rate-limit key"}`})
	m, h = mustNew(t, k, httplimit.Options{OnError: onError, Denied: func(w http.ResponseWriter, r *http.Request, res limiter.Result) {
		http.Error(w, "slow down", http.StatusServiceUnavailable)
	}})
	do(m.Handler(h), request("192.0.2.1:1"))
	check(t, "own denial", do(m.Handler(h), request("192.0.2.1:1")), response{503, map[string]string{"RateLimit-Policy": `"default";q=1;ratelab-rate="1"`,
		"RateLimit": `"default";r=0;t=1`, "Retry-After": "1", "Content-Type": "text/plain; charset=utf-8"}, "slow down\n"})
	want := []string{`httplimit: limiter for key "192.0.2.1": store unreachable`, `httplimit: limiter for key "192.0.2.1": store unreachable`,
		"httplimit: header X-Api-Key is missing: httplimit: no key in the request"}
	if len(errs) != len(want) || errs[0] != want[0] || errs[1] != want[1] || errs[2] != want[2] {
		t.Errorf("OnError saw %q, want %q", errs, want)
	}
	if h.n != 1 {
		t.Errorf("handler served %d requests, want 1 (the request before the denial)", h.n)
	}
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		l    httplimit.Limiter
		opts httplimit.Options
		want string
	}{
		{nil, httplimit.Options{}, "httplimit: limiter is nil; want a *limiter.Keyed, a *limiter.Policy or another Limiter: invalid parameter"},
		{failing{}, httplimit.Options{Headers: 9}, "httplimit: header style 9 is unknown; want HeadersDraft10 to HeadersNone: invalid parameter"},
	} {
		_, err := httplimit.New(tc.l, tc.opts)
		if err == nil || err.Error() != tc.want || !errors.Is(err, limiter.ErrInvalid) {
			t.Errorf("New: %v, want %q wrapping ErrInvalid", err, tc.want)
		}
	}
}

// A policy's limits each get an item; the 429 names the limits that denied
// it and waits for the longest of them.
func TestPolicyHeaders(t *testing.T) {
	clock := &limiter.ManualClock{}
	p, err := limiter.NewPolicy([]limiter.Limit{
		{Name: "burst", Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 2}},
		{Name: "minute", Config: limiter.Config{Kind: limiter.KindFixedWindow, Limit: 3, Window: time.Minute}},
	}, limiter.PolicyOptions{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	m, h := mustNew(t, p, httplimit.Options{})
	policy := `"burst";q=2;ratelab-rate="1", "minute";q=3;w=60`
	get := func() response { return do(m.Handler(h), request("192.0.2.1:1")) }
	check(t, "1st", get(), response{200, map[string]string{"RateLimit-Policy": policy, "RateLimit": `"burst";r=1;t=1, "minute";r=2;t=60`}, ""})
	check(t, "2nd", get(), response{200, map[string]string{"RateLimit-Policy": policy, "RateLimit": `"burst";r=0;t=2, "minute";r=1;t=60`}, ""})
	check(t, "3rd", get(), response{429, map[string]string{"RateLimit-Policy": policy, "RateLimit": `"burst";r=0;t=1, "minute";r=1;t=60`,
		"Retry-After": "1", "Content-Type": "application/problem+json"}, quotaBody + `"detail":"retry after 1 s","violated-policies":["burst"]}`})
	clock.Advance(2 * time.Second)
	check(t, "4th", get(), response{200, map[string]string{"RateLimit-Policy": policy, "RateLimit": `"burst";r=1;t=1, "minute";r=0;t=58`}, ""})
	check(t, "5th", get(), response{429, map[string]string{"RateLimit-Policy": policy, "RateLimit": `"burst";r=1;t=1, "minute";r=0;t=58`,
		"Retry-After": "58", "Content-Type": "application/problem+json"}, quotaBody + `"detail":"retry after 58 s","violated-policies":["minute"]}`})
	m, h = mustNew(t, p, httplimit.Options{Headers: httplimit.HeadersDraft06})
	check(t, "draft 06 binding", do(m.Handler(h), request("192.0.2.1:1")), response{429, map[string]string{"RateLimit-Limit": "3", "RateLimit-Remaining": "0",
		"RateLimit-Reset": "58", "Retry-After": "58", "Content-Type": "application/problem+json"}, quotaBody + `"detail":"retry after 58 s","violated-policies":["minute"]}`})
}

// Concurrent requests share the policy and RateLimit value caches; under
// -race this checks they are safe, and the count checks each request was
// decided once.
func TestConcurrentRequests(t *testing.T) {
	k, _ := keyedAt(t, limiter.Config{Kind: limiter.KindFixedWindow, Limit: 50, Window: time.Minute}, 0)
	m, _ := mustNew(t, k, httplimit.Options{})
	var ok atomic.Int64
	h := m.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { ok.Add(1) }))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				got := do(h, request("192.0.2."+strconv.Itoa(g%2)+":1"))
				if got.fields["RateLimit-Policy"] != `"default";q=50;w=60` || got.fields["RateLimit"] == "" {
					t.Errorf("request %d: fields %v", i, got.fields)
				}
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 100 {
		t.Errorf("%d requests admitted, want 100 (50 for each of 2 clients)", ok.Load())
	}
}

// takeOnly hides Keyed's type, as a shared store would: the middleware then
// decides through the Limiter interface, with the same response.
type takeOnly struct{ l httplimit.Limiter }

func (t takeOnly) Take(ctx context.Context, key string, n int) (limiter.Result, error) {
	return t.l.Take(ctx, key, n)
}

func TestAnyLimiter(t *testing.T) {
	k, _ := keyedAt(t, limiter.Config{Kind: limiter.KindFixedWindow, Limit: 1, Window: time.Minute}, 0)
	m, h := mustNew(t, takeOnly{k}, httplimit.Options{})
	policy := `"default";q=1;w=60`
	check(t, "1st", do(m.Handler(h), request("192.0.2.1:1")), response{200, map[string]string{"RateLimit-Policy": policy, "RateLimit": `"default";r=0;t=60`}, ""})
	check(t, "2nd", do(m.Handler(h), request("192.0.2.1:1")), response{429, map[string]string{"RateLimit-Policy": policy, "RateLimit": `"default";r=0;t=60`,
		"Retry-After": "60", "Content-Type": "application/problem+json"}, quotaBody + `"detail":"retry after 60 s","violated-policies":["default"]}`})
}
