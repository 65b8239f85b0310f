package httplimit

import (
	"net/http"
	"strconv"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// HeaderStyle selects the rate-limit header fields of every limited
// response. Retry-After is sent on a 429 whatever the style.
type HeaderStyle int

const (
	// HeadersDraft10 is the default: the RateLimit-Policy and RateLimit
	// structured fields (RFC 9651 lists) of the IETF draft
	// draft-ietf-httpapi-ratelimit-headers-10, one item per limit, named by
	// the limit (`"default"` for a [limiter.Keyed]):
	//
	//	RateLimit-Policy: "default";q=100;w=60
	//	RateLimit: "default";r=50;t=30
	//
	// Per strategy, q (quota) is the per-window limit of the fixed window,
	// sliding window log and sliding window counter, with w its window in
	// seconds, rounded up; for the token bucket and GCRA it is the burst,
	// and for the leaky bucket the capacity, with no w (they have no
	// window: the quota is what can pass at once) and instead the
	// parameter ratelab-rate, a string holding the refill rate, or leak
	// rate, in units per second ("10", "0.5", "+Inf"). r is the units
	// remaining at once (Decision.Remaining, at least 0). t is the seconds,
	// rounded up, until the limit is back to full (window strategies: until
	// the counted units expire; buckets: until the bucket is full or
	// empty), except for a limit that denied the request, where it is that
	// limit's retry-after; t is left out when that wait is never.
	HeadersDraft10 HeaderStyle = iota
	// HeadersDraft06 is the older trio of drafts 00 to 06,
	// RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (delta
	// seconds), for the limit that binds: on a denial the denying limit
	// with the longest retry-after, otherwise the one with the fewest units
	// remaining (see [limiter.RateLimitHeaders]).
	HeadersDraft06
	// HeadersXRateLimit is the de facto X-RateLimit-Limit,
	// X-RateLimit-Remaining and X-RateLimit-Reset of GitHub's API and of
	// go-chi/httprate, for the same binding limit; X-RateLimit-Reset is
	// the Unix time in seconds at which that limit resets.
	HeadersXRateLimit
	// HeadersNone sends no rate-limit field (Retry-After only).
	HeadersNone
)

// Canonical header keys, so that setting them neither canonicalizes nor
// allocates.
const (
	hPolicy     = "Ratelimit-Policy"
	hRateLimit  = "Ratelimit"
	hLimit      = "Ratelimit-Limit"
	hRemaining  = "Ratelimit-Remaining"
	hReset      = "Ratelimit-Reset"
	hXLimit     = "X-Ratelimit-Limit"
	hXRemaining = "X-Ratelimit-Remaining"
	hXReset     = "X-Ratelimit-Reset"
	hRetryAfter = "Retry-After"
)

// policyCache holds the last RateLimit-Policy value written, since a
// limiter's policy changes rarely (tiers, reconfiguration) while every
// response states it.
type policyCache struct {
	limits []policyOf
	value  []string
}

type policyOf struct {
	name   string
	config limiter.Config
	limit  int
}

func (m *Middleware) writeHeaders(h http.Header, res limiter.Result) {
	switch m.opts.Headers {
	case HeadersDraft10:
		h[hPolicy] = m.policy(res.Limits)
		h[hRateLimit] = m.rateLimit(res)
	case HeadersDraft06, HeadersXRateLimit:
		if len(res.Limits) == 0 {
			break
		}
		limit, remaining, reset := limiter.RateLimitHeaders(binding(res).Decision)
		if m.opts.Headers == HeadersDraft06 {
			h[hLimit], h[hRemaining] = []string{limit}, []string{remaining}
			if reset != "" {
				h[hReset] = []string{reset}
			}
			break
		}
		h[hXLimit], h[hXRemaining] = []string{limit}, []string{remaining}
		if reset != "" {
			secs, _ := strconv.ParseInt(reset, 10, 64)
			h[hXReset] = []string{strconv.FormatInt(time.Now().Unix()+secs, 10)}
		}
	}
	if !res.Allowed {
		if w := res.RetryAfter(); w != limiter.Never {
			h[hRetryAfter] = []string{limiter.RetryAfterSeconds(limiter.Decision{RetryAfter: w})}
		}
	}
}

// binding is the limit the older single-limit fields describe.
func binding(res limiter.Result) limiter.Outcome {
	b := res.Limits[0]
	for _, o := range res.Limits[1:] {
		switch {
		case !res.Allowed:
			if !o.Allowed && (b.Allowed || o.RetryAfter > b.RetryAfter) {
				b = o
			}
		case o.Remaining < b.Remaining:
			b = o
		}
	}
	return b
}

func (m *Middleware) policy(limits []limiter.Outcome) []string {
	if c := m.policyCache.Load(); c != nil && samePolicy(c.limits, limits) {
		return c.value
	}
	c := &policyCache{limits: make([]policyOf, len(limits))}
	var b []byte
	for i, o := range limits {
		c.limits[i] = policyOf{o.Name, o.Config, o.Limit}
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendPolicyItem(b, o)
	}
	c.value = []string{string(b)}
	m.policyCache.Store(c)
	return c.value
}

func samePolicy(a []policyOf, b []limiter.Outcome) bool {
	if len(a) != len(b) {
		return false
	}
	for i, o := range b {
		if a[i].name != o.Name || a[i].config != o.Config || a[i].limit != o.Limit {
			return false
		}
	}
	return true
}

func appendPolicyItem(b []byte, o limiter.Outcome) []byte {
	b = appendSFString(b, o.Name)
	b = append(b, ";q="...)
	b = strconv.AppendInt(b, int64(max(o.Limit, 0)), 10)
	c := o.Config
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		b = appendRate(b, c.Rate)
	case limiter.KindLeakyBucket:
		if c.LeakInterval > 0 {
			b = appendRate(b, float64(time.Second)/float64(c.LeakInterval))
		}
	default:
		if c.Window > 0 {
			b = append(b, ";w="...)
			b = strconv.AppendInt(b, ceilSeconds(c.Window), 10)
		}
	}
	return b
}

// appendRate appends the ratelab-rate parameter: the rate in plain digits
// ("2000000000", "0.5") from 1e-4 up, as %g below ("1e-09"), "+Inf".
func appendRate(b []byte, rate float64) []byte {
	b = append(b, `;ratelab-rate="`...)
	format := byte('f')
	if rate < 1e-4 {
		format = 'g'
	}
	b = strconv.AppendFloat(b, rate, format, -1, 64)
	return append(b, '"')
}

// valueCache is one RateLimit value of a single limit, kept because most
// responses repeat a few (a client far from its limit is told the same r and
// t request after request).
type valueCache struct {
	name      string
	remaining int
	t         int64
	value     []string
}

const valueCacheSize = 64

// rateLimit returns the RateLimit field's value: from a small direct-mapped
// cache for a single limit, else formatted.
func (m *Middleware) rateLimit(res limiter.Result) []string {
	if len(res.Limits) != 1 {
		return []string{rateLimitValue(res)}
	}
	o := res.Limits[0]
	t := int64(-1)
	if w := resetOf(o); w != limiter.Never {
		t = ceilSeconds(w)
	}
	slot := &m.values[uint64(o.Remaining*31+int(t))%valueCacheSize]
	if c := slot.Load(); c != nil && c.remaining == o.Remaining && c.t == t && c.name == o.Name {
		return c.value
	}
	c := &valueCache{name: o.Name, remaining: o.Remaining, t: t, value: []string{rateLimitValue(res)}}
	slot.Store(c)
	return c.value
}

// resetOf is the wait a limit's t parameter states: its retry-after if it
// denied the request, else the time until it is back to full.
func resetOf(o limiter.Outcome) time.Duration {
	if !o.Allowed {
		return o.RetryAfter
	}
	return o.ResetAfter
}

// rateLimitValue is the RateLimit field: one item per limit.
func rateLimitValue(res limiter.Result) string {
	var buf [128]byte
	b := buf[:0]
	for i, o := range res.Limits {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendSFString(b, o.Name)
		b = append(b, ";r="...)
		b = strconv.AppendInt(b, int64(max(o.Remaining, 0)), 10)
		if t := resetOf(o); t != limiter.Never {
			b = append(b, ";t="...)
			b = strconv.AppendInt(b, ceilSeconds(t), 10)
		}
	}
	return string(b)
}

func ceilSeconds(d time.Duration) int64 {
	s := int64(d / time.Second)
	if d%time.Second > 0 {
		s++
	}
	return s
}

// appendSFString appends s as a structured-field string (RFC 9651 §3.3.3):
// quoted, with '"' and '\' escaped; characters outside printable ASCII,
// which a string cannot hold, are written as '?'.
func appendSFString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20 || c > 0x7e:
			b = append(b, '?')
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
