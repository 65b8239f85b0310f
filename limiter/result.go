package limiter

import "time"

// Result is the outcome of one request of n units for one key against every
// limit that applies to that key: one limit for a single strategy, several
// for a policy ("10 per second and 1000 per hour"). It is what a decider
// that takes a key returns (an in-memory [Keyed], a policy of several
// limits, a shared store), so that HTTP middleware can serve any of them.
type Result struct {
	// Allowed reports whether every limit admitted the request. A denied
	// request spends nothing on any limit.
	Allowed bool
	// Limits holds each limit's decision, in the policy's order.
	Limits []Outcome
}

// Outcome is one named limit's decision within a [Result].
type Outcome struct {
	// Name identifies the limit, e.g. in the RateLimit-Policy header field
	// and in problem details; a single limit is named "default".
	Name string
	// Config is the limit's strategy and parameters (only the fields of its
	// Kind are set), so that headers can state the policy truthfully.
	Config Config
	Decision
}

// RetryAfter is the longest RetryAfter of the limits that denied the request
// (the wait after which every one of them would admit it, if nothing else
// happens), Never when one of them never will, and 0 for an allowed result.
func (r Result) RetryAfter() time.Duration {
	var w time.Duration
	for _, o := range r.Limits {
		if !o.Allowed {
			w = max(w, o.RetryAfter)
		}
	}
	return w
}

// Remaining is the smallest Remaining of the limits: the most units that
// could still be admitted at the same instant. It is 0 with no limits.
func (r Result) Remaining() int {
	if len(r.Limits) == 0 {
		return 0
	}
	m := r.Limits[0].Remaining
	for _, o := range r.Limits[1:] {
		m = min(m, o.Remaining)
	}
	return m
}
