package httplimit

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"sync/atomic"

	"github.com/ratelab/ratelab/limiter"
)

// Limiter decides a request of n units for a key: a [*limiter.Keyed], a
// [*limiter.Policy] of several limits, or a shared store. An error means no
// decision was taken (a store out of reach); see [Options.FailOpen].
type Limiter interface {
	Take(ctx context.Context, key string, n int) (limiter.Result, error)
}

// Options configures a [Middleware]. The zero value limits every request
// by its client IP address (RemoteAddr), one unit each, with the draft-10
// header fields, a 429 problem details response on denial and a 503 when
// the limiter fails.
type Options struct {
	// Key returns the key of a request. nil means the client IP address
	// from RemoteAddr, IPv6 grouped by /64 (KeyByIP with zero IPOptions).
	Key KeyFunc
	// Cost returns the units a request takes (n of Take): by route, by
	// body size. nil means 1. An error is handled as the limiter's.
	Cost func(*http.Request) (int, error)
	// Exempt reports requests that are not limited: nothing is taken and
	// no rate-limit field is sent (health checks, an allow-list).
	Exempt func(*http.Request) bool
	// Headers selects the rate-limit header fields; the zero value is
	// HeadersDraft10.
	Headers HeaderStyle
	// OnDenied is called for every denied request with its key and result,
	// before the denial is written (metrics, logs).
	OnDenied func(r *http.Request, key string, res limiter.Result)
	// Denied writes the response to a denied request, after the
	// rate-limit fields and Retry-After are set. nil means WriteProblem: a
	// 429 with an RFC 9457 application/problem+json body.
	Denied func(w http.ResponseWriter, r *http.Request, res limiter.Result)
	// OnError is called for every error of Key, Cost or the limiter, so
	// that none is silent. nil means the standard logger (log.Printf).
	OnError func(r *http.Request, err error)
	// FailOpen serves a request whose key, cost or decision failed, as if
	// it were admitted (with no rate-limit field), after OnError. By
	// default the middleware fails closed: see Error.
	FailOpen bool
	// Error writes the response when failing closed. nil means
	// WriteError: 400 when the request carries no key (an error wrapping
	// ErrNoKey), 503 Service Unavailable otherwise (the limiter, often a
	// shared store, could not decide; the request may succeed later).
	Error func(w http.ResponseWriter, r *http.Request, err error)
}

// Middleware limits the requests of an http.Handler with a [Limiter]. It is
// safe for concurrent use.
//
// An admitted request costs no allocation when the limiter is a
// [*limiter.Keyed]: the middleware calls its TakeInto with a buffer on its
// stack (as for a [*limiter.Policy]), and repeats recent RateLimit-Policy
// and single-limit RateLimit values instead of formatting them again. A
// Policy's RateLimit value, a count per limit, is new on most requests and
// costs two allocations. Those values' slices
// are shared between responses: replace a field with Header().Set or Del,
// never by writing into its slice.
type Middleware struct {
	l    Limiter
	opts Options
	// The limiters of package limiter are called directly, with an
	// outcome buffer on the stack: through the interface, the outcomes
	// would be allocated on every request.
	keyed       *limiter.Keyed
	policies    *limiter.Policy
	policyCache atomic.Pointer[policyCache]
	values      [valueCacheSize]atomic.Pointer[valueCache]
}

// New returns a middleware deciding by l with opts. It returns an error
// wrapping [limiter.ErrInvalid] when l is nil or opts.Headers is unknown.
func New(l Limiter, opts Options) (*Middleware, error) {
	if l == nil {
		return nil, fmt.Errorf("httplimit: limiter is nil; want a *limiter.Keyed, a *limiter.Policy or another Limiter: %w", limiter.ErrInvalid)
	}
	if opts.Headers < HeadersDraft10 || opts.Headers > HeadersNone {
		return nil, fmt.Errorf("httplimit: header style %d is unknown; want HeadersDraft10 to HeadersNone: %w", opts.Headers, limiter.ErrInvalid)
	}
	if opts.Key == nil {
		opts.Key, _ = KeyByIP(IPOptions{})
	}
	if opts.Denied == nil {
		opts.Denied = WriteProblem
	}
	if opts.Error == nil {
		opts.Error = WriteError
	}
	if opts.OnError == nil {
		opts.OnError = func(r *http.Request, err error) { log.Printf("httplimit: %s %s: %v", r.Method, r.URL.Path, err) }
	}
	m := &Middleware{l: l, opts: opts}
	switch l := l.(type) {
	case *limiter.Keyed:
		m.keyed = l
	case *limiter.Policy:
		m.policies = l
	}
	return m, nil
}

// Handler wraps next: the shape of a chi, gorilla/mux or alice middleware,
// func(http.Handler) http.Handler, so m.Handler can be passed to their Use.
func (m *Middleware) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { m.serve(w, r, next) })
}

func (m *Middleware) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	if m.opts.Exempt != nil && m.opts.Exempt(r) {
		next.ServeHTTP(w, r)
		return
	}
	key, err := m.opts.Key(r)
	if err != nil {
		m.fail(w, r, next, err)
		return
	}
	n := 1
	if m.opts.Cost != nil {
		if n, err = m.opts.Cost(r); err != nil {
			m.fail(w, r, next, fmt.Errorf("httplimit: cost: %w", err))
			return
		}
	}
	var buf [4]limiter.Outcome
	res, err := m.take(r.Context(), key, n, buf[:0])
	if err != nil {
		m.fail(w, r, next, fmt.Errorf("httplimit: limiter for key %q: %w", key, err))
		return
	}
	m.writeHeaders(w.Header(), res)
	if !res.Allowed {
		m.deny(w, r, key, limiter.Result{Allowed: false, Limits: append([]limiter.Outcome(nil), res.Limits...)})
		return
	}
	next.ServeHTTP(w, r)
}

func (m *Middleware) take(ctx context.Context, key string, n int, buf []limiter.Outcome) (limiter.Result, error) {
	switch {
	case m.keyed != nil:
		return m.keyed.TakeInto(ctx, key, n, buf)
	case m.policies != nil:
		return m.policies.TakeInto(ctx, key, n, buf)
	}
	return m.l.Take(ctx, key, n)
}

// deny hands a denial to the hooks; res is the caller's own copy, since
// they may keep it.
func (m *Middleware) deny(w http.ResponseWriter, r *http.Request, key string, res limiter.Result) {
	if m.opts.OnDenied != nil {
		m.opts.OnDenied(r, key, res)
	}
	m.opts.Denied(w, r, res)
}

func (m *Middleware) fail(w http.ResponseWriter, r *http.Request, next http.Handler, err error) {
	m.opts.OnError(r, err)
	if m.opts.FailOpen {
		next.ServeHTTP(w, r)
		return
	}
	m.opts.Error(w, r, err)
}

// WriteError is the default [Options.Error]: an RFC 9457 problem details
// response, 400 Bad Request for an error wrapping [ErrNoKey] and 503
// Service Unavailable otherwise. The error's text is not sent (it may name
// internal hosts); [Options.OnError] receives it.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	status, detail := http.StatusServiceUnavailable, "the rate limiter could not decide on this request"
	if errors.Is(err, ErrNoKey) {
		status, detail = http.StatusBadRequest, "the request carries no rate-limit key"
	}
	writeProblem(w, status, problem{Type: "about:blank", Title: http.StatusText(status), Status: status, Detail: detail})
}
