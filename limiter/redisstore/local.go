package redisstore

import (
	"sync"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// denials is Options.LocalDeny's copy: for each key, the latest denial Redis
// gave, or the latest admission that left too little for another request of
// its n. A key's state only grows with admissions, from any instance, and
// otherwise only moves toward fresh with time, so a request of at least that
// n is denied, by Redis too, until the instant the decision names (now +
// RetryAfter for a denial). This holds while requests reach Redis in the
// order of their instants, as they do on the server's clock.
type denials struct {
	mu  sync.Mutex
	m   map[string]denial
	max int
}

type denial struct {
	n        int
	explicit bool      // instants passed to TakeAt: until is in µs
	until    int64     // TakeAt: the retry instant in ns since the Unix epoch
	local    time.Time // server clock: the local instant before which the server's clock is still before the retry instant
	never    bool
	d        limiter.Decision
	from     int64 // TakeAt: the denied request's instant, µs
	fromAt   time.Time
}

func newDenials(max int) *denials { return &denials{m: make(map[string]denial), max: max} }

// deny reports whether a request of n for key, at us (explicit) or at the
// local instant now, is certainly denied, and its Decision.
func (l *denials) deny(key string, n int, explicit bool, us int64, now time.Time) (limiter.Decision, bool) {
	if n == 0 {
		return limiter.Decision{}, false
	}
	l.mu.Lock()
	e, ok := l.m[key]
	l.mu.Unlock()
	if !ok || n < e.n || e.explicit != explicit {
		return limiter.Decision{}, false
	}
	var left, since time.Duration
	switch {
	case e.never:
	case explicit:
		if us*1000 >= e.until || us < e.from {
			return limiter.Decision{}, false
		}
		left, since = time.Duration(e.until-us*1000), time.Duration(us-e.from)*time.Microsecond
	default:
		if !now.Before(e.local) {
			return limiter.Decision{}, false
		}
		left, since = e.local.Sub(now), now.Sub(e.fromAt)
	}
	d := limiter.Decision{Limit: e.d.Limit, Remaining: e.d.Remaining, RetryAfter: limiter.Never, ResetAfter: e.d.ResetAfter}
	if !e.never {
		d.RetryAfter = left
	}
	if d.ResetAfter != limiter.Never {
		d.ResetAfter = max(d.ResetAfter-since, d.RetryAfter)
	}
	return d, true
}

// note keeps what Redis's decision d of a request of n for key, sent at the
// local instant sent (server clock) and answered with r, says of the next
// request of at least n: a denial names its retry instant, and an admission
// that left too little for another n names the instant it would be admitted
// (again).
func (l *denials) note(p *params, key string, n int, r reply, d limiter.Decision, explicit bool, sent time.Time) {
	if n == 0 {
		return
	}
	wait, from := d.RetryAfter, r.now // a denial's wait counts from the request's own instant
	if d.Allowed {
		var ok bool
		if wait, ok = p.again(r, n); !ok {
			return
		}
		from = r.at // again's wait counts from the evaluation instant
	}
	e := denial{n: n, explicit: explicit, d: d, never: wait == limiter.Never, from: r.now, fromAt: sent}
	e.d.Allowed, e.d.Delay = false, 0
	if !e.never {
		if from > 0 && wait > limiter.Never-time.Duration(from*1000) {
			e.never = true // beyond the largest instant
		}
		e.until = from*1000 + int64(wait)
		// The server's clock read r.now at or after sent, so at a later
		// local instant x it reads at most r.now + (x − sent).
		e.local = sent.Add(time.Duration(e.until - r.now*1000))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.m[key]; !ok && len(l.m) >= l.max {
		for k := range l.m { // a random key (map order) makes room
			delete(l.m, k)
			break
		}
	}
	l.m[key] = e
}
