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
// RateLimit-Remaining and RateLimit-Reset headers (IETF httpapi
// "RateLimit header fields", draft 07 and earlier) for a decision: the limit,
// the units remaining, and ResetAfter in whole seconds rounded up, at least 1.
func RateLimitHeaders(d Decision) (limit, remaining, reset string) {
	return strconv.Itoa(d.Limit), strconv.Itoa(max(d.Remaining, 0)), strconv.FormatInt(headerSeconds(d.ResetAfter), 10)
}

func headerSeconds(d time.Duration) int64 {
	return max(ceilDiv(int64(d), int64(time.Second)), 1)
}
