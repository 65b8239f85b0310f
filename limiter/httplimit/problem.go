package httplimit

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/ratelab/ratelab/limiter"
)

// QuotaExceeded is the problem type of a denial, from
// draft-ietf-httpapi-ratelimit-headers-10 §6 (registered by it in IANA's
// HTTP Problem Types registry).
const QuotaExceeded = "https://iana.org/assignments/http-problem-types#quota-exceeded"

// problem is an RFC 9457 problem details object.
type problem struct {
	Type     string   `json:"type"`
	Title    string   `json:"title"`
	Status   int      `json:"status"`
	Detail   string   `json:"detail,omitempty"`
	Violated []string `json:"violated-policies,omitempty"`
}

// WriteProblem is the default [Options.Denied]: 429 Too Many Requests with
// an RFC 9457 application/problem+json body of type [QuotaExceeded] whose
// extension member "violated-policies" names every limit that denied the
// request, and a detail giving the wait in seconds:
//
//	{"type":"https://iana.org/assignments/http-problem-types#quota-exceeded",
//	 "title":"Request cannot be satisfied as assigned quota has been exceeded",
//	 "status":429,"detail":"retry after 30 s","violated-policies":["default"]}
//
// A request that no wait will admit (n above a limit, or a rate of 0) has
// no Retry-After and the detail says so.
func WriteProblem(w http.ResponseWriter, r *http.Request, res limiter.Result) {
	p := problem{Type: QuotaExceeded, Title: "Request cannot be satisfied as assigned quota has been exceeded", Status: http.StatusTooManyRequests}
	for _, o := range res.Limits {
		if !o.Allowed {
			p.Violated = append(p.Violated, o.Name)
		}
	}
	if wait := res.RetryAfter(); wait == limiter.Never {
		p.Detail = "no wait will admit this request"
	} else {
		p.Detail = "retry after " + limiter.RetryAfterSeconds(limiter.Decision{RetryAfter: wait}) + " s"
	}
	writeProblem(w, http.StatusTooManyRequests, p)
}

func writeProblem(w http.ResponseWriter, status int, p problem) {
	body, _ := json.Marshal(p) // strings and ints only: cannot fail
	h := w.Header()
	h["Content-Type"] = []string{"application/problem+json"}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	h["X-Content-Type-Options"] = []string{"nosniff"}
	w.WriteHeader(status)
	w.Write(body)
}
