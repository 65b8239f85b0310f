// Package httplimit is net/http middleware that rate-limits requests with
// package limiter: a [*limiter.Keyed] (one strategy per key), a
// [*limiter.Policy] (several named limits per key, all-or-nothing) or any
// other [Limiter], such as a store shared by several servers.
//
//	keyed, _ := limiter.NewKeyed(func(string) (limiter.Strategy, error) {
//		return limiter.NewTokenBucket(10, 20) // 10 per second, bursts of 20
//	}, limiter.KeyedOptions{})
//	mw, _ := httplimit.New(keyed, httplimit.Options{})
//	http.ListenAndServe(":8080", mw.Handler(mux))
//
// # Keys
//
// By default a request is keyed by its client's IP address from RemoteAddr:
// an IPv4 address whole, an IPv6 address by its /64 ([KeyByIP]). Behind
// proxies, list them in [IPOptions.TrustedProxies]: the forwarding header
// (X-Forwarded-For, or RFC 7239 Forwarded) is then read from the right,
// past the trusted proxies, and never its leftmost entry, which the client
// writes. [KeyByHeader] keys by an API key, [KeyByRoute] by method and
// route, any func(*http.Request) (string, error) by anything, and [Compose]
// joins keys (client and endpoint).
//
// # Response fields
//
// Every limited response carries the draft-ietf-httpapi-ratelimit-headers-10
// fields RateLimit-Policy and RateLimit, one item per limit (see
// [HeadersDraft10] for what q, w, r, t and ratelab-rate mean for each
// strategy), or, by [Options.Headers], the older RateLimit-Limit,
// RateLimit-Remaining and RateLimit-Reset, or X-RateLimit-*. A denial is a
// 429 Too Many Requests with Retry-After in whole seconds, rounded up, at
// least 1 (RFC 9110 §10.2.3), and an RFC 9457 problem details body
// ([WriteProblem]), which [Options.Denied] replaces.
//
// # Cost, exemptions, hooks and failures
//
// [Options.Cost] gives the units a request takes (by route, by body size);
// [Options.Exempt] lets requests through untouched. [Options.OnDenied] sees
// every denial. When the key, the cost or the limiter fails, [Options.OnError]
// always sees the error, and the middleware fails closed: 503 Service
// Unavailable (400 for a request without a key), since a limiter that cannot
// decide must not silently stop limiting; [Options.FailOpen] serves such
// requests instead.
//
// # Per-route limits
//
// A middleware wraps any handler, so each route can have its own: wrap the
// handler registered for the route (see the examples), or key by route on
// the whole mux.
//
// The package uses only the standard library and builds for js/wasm.
package httplimit
