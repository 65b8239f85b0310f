package limiter

import (
	"strconv"
	"time"
)

// RetryAfterSeconds returns the value of an HTTP Retry-After header (RFC 9110
// §10.2.3, delay-seconds) for a denial: RetryAfter in whole seconds, rounded
// up, at least 1. It returns "" when the decision is allowed or the request
// can never be allowed (RetryAfter == Never), where no Retry-After applies.
func RetryAfterSeconds(d Decision) string {
	if d.Allowed || d.RetryAfter == Never {
		return ""
	}
	return strconv.FormatInt(headerSeconds(d.RetryAfter), 10)
}

// RateLimitHeaders returns the values of the RateLimit-Limit,
// RateLimit-Remaining and RateLimit-Reset fields of the IETF httpapi draft
// "RateLimit header fields for HTTP", drafts 00 to 06 (draft 07 merged them
// into one RateLimit field; draft 10's RateLimit and RateLimit-Policy
// structured fields, one item per limit, are written by package httplimit),
// for a decision: the limit, the units remaining (≥ 0), and the seconds
// until the reset, rounded up, at least 1. These older fields are still
// what many clients read, and httplimit sends them on request
// (HeadersDraft06). The reset is ResetAfter, except for a denial that has a
// Retry-After: there it is RetryAfter, following draft 06's rule that a
// response carrying both fields name the same point in time in each. reset
// is "" when that wait is Never (rate 0: the quota never comes back), where
// no reset applies and the field is best left out.
func RateLimitHeaders(d Decision) (limit, remaining, reset string) {
	w := d.ResetAfter
	if !d.Allowed && d.RetryAfter != Never {
		w = d.RetryAfter
	}
	if w != Never {
		reset = strconv.FormatInt(headerSeconds(w), 10)
	}
	return strconv.Itoa(d.Limit), strconv.Itoa(max(d.Remaining, 0)), reset
}

func headerSeconds(d time.Duration) int64 {
	return max(ceilDiv(int64(d), int64(time.Second)), 1)
}
