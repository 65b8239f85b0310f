package redisstore

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// reply is the script's answer: allowed, the instant the request was
// evaluated at (now, or the key's latest instant for a stale request), the
// request's own instant, both in µs since the Unix epoch, then the kind's
// values (see lua/).
type reply struct {
	ok      bool
	at, now int64
	v       [3]int64
}

// decision works out the Decision of a request of n from the script's reply
// with the in-memory strategy's formulas (limiter/bucket.go, fixedwindow.go,
// slidingcounter.go, slidinglog.go), in nanoseconds: the script decides and
// keeps the state, and returns what those formulas read.
func (p *params) decision(r reply, n int) limiter.Decision {
	at, now := time.Duration(r.at)*time.Microsecond, time.Duration(r.now)*time.Microsecond
	var d limiter.Decision
	switch p.kind {
	case "b":
		d = p.bucket(r, n)
		if p.bu.Inf {
			return d
		}
	case "fw":
		d = p.fixedWindow(r, n, at)
	case "swc":
		d = p.slidingCounter(r, n, at)
	default:
		d = p.slidingLog(r, n)
	}
	if lag := at - now; lag > 0 {
		d.RetryAfter, d.ResetAfter = addLag(d.RetryAfter, lag), addLag(d.ResetAfter, lag)
		if p.leak > 0 && d.Allowed && n > 0 {
			d.Delay = min(d.Delay, limiter.Never-1-lag) + lag
		}
	}
	return d
}

// bucket is outcome.fill and leakyFill of limiter/bucket.go and
// leakybucket.go; v[0] is the debt after the request (the debt it met for a
// denial) in the script's unit.
func (p *params) bucket(r reply, n int) limiter.Decision {
	b := p.bu
	d := limiter.Decision{Allowed: r.ok, Limit: int(b.Burst)}
	if b.Inf {
		d.Remaining = int(b.Burst)
		return d
	}
	next, full := r.v[0]*p.scale, b.Burst*b.Unit
	if !r.ok {
		switch {
		case int64(n) > b.Burst, b.PerNs == 0:
			d.RetryAfter = limiter.Never
		default:
			d.RetryAfter = time.Duration(ceilDiv(next+int64(n)*b.Unit-full, b.PerNs))
		}
	}
	if next == 0 {
		d.Remaining = int(b.Burst)
	} else {
		d.Remaining = int(max(b.Burst-ceilDiv(next, b.Unit), 0))
		d.ResetAfter = limiter.Never
		if b.PerNs > 0 {
			d.ResetAfter = time.Duration(ceilDiv(next, b.PerNs))
		}
	}
	if p.leak > 0 && r.ok && n > 0 {
		d.Delay = max(time.Duration(next)-p.leak, 0)
	}
	return d
}

// fixedWindow is FixedWindow.allowLocked; v is the window's index and its
// count after the request.
func (p *params) fixedWindow(r reply, n int, at time.Duration) limiter.Decision {
	w := time.Duration(p.window) * time.Microsecond
	untilNext := time.Duration(r.v[0]+1)*w - at
	d := limiter.Decision{Allowed: r.ok, Limit: int(p.limit)}
	switch {
	case int64(n) > p.limit:
		d.RetryAfter = limiter.Never
	case !r.ok:
		d.RetryAfter = untilNext
	}
	count := r.v[1]
	d.Remaining = int(max(p.limit-count, 0))
	if count > 0 {
		d.ResetAfter = untilNext
	}
	return d
}

// slidingCounter is SlidingWindowCounter's decision at the counts the
// script replied: v is the current window's index, its count before the
// request and the previous window's.
func (p *params) slidingCounter(r reply, n int, at time.Duration) limiter.Decision {
	return p.counts(r, 0, at).Decide(n)
}

// counts are the sliding window counter's counts at the evaluation instant
// at, with add more in the current window than the script replied.
func (p *params) counts(r reply, add int64, at time.Duration) limiter.SlidingWindowCounts {
	w := time.Duration(p.window) * time.Microsecond
	return limiter.SlidingWindowCounts{Limit: p.limit, Window: w, Elapsed: at - time.Duration(r.v[0])*w,
		Curr: r.v[1] + add, Prev: r.v[2]}
}

// slidingLog is SlidingWindowLog.allowLocked; v is the units in the window
// after the request (before it, for a denial), the instant of the oldest unit
// that must leave the window for a denied request, and the newest entry's.
func (p *params) slidingLog(r reply, n int) limiter.Decision {
	d := limiter.Decision{Allowed: r.ok, Limit: int(p.limit)}
	switch {
	case int64(n) > p.limit:
		d.RetryAfter = limiter.Never
	case !r.ok:
		d.RetryAfter = time.Duration(r.v[1]+p.window-r.at) * time.Microsecond
	}
	count := r.v[0]
	d.Remaining = int(max(p.limit-count, 0))
	if count > 0 {
		d.ResetAfter = time.Duration(r.v[2]+p.window-r.at) * time.Microsecond
	}
	return d
}

// ceilDiv is ⌈a/b⌉ for a ≥ 0, b > 0.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if q*b != a {
		q++
	}
	return q
}

// addLag is limiter's: a wait counted from the evaluation instant, counted
// from the stale request's own instant instead.
func addLag(w, lag time.Duration) time.Duration {
	if w <= 0 || w == limiter.Never {
		return w
	}
	if w > limiter.Never-lag {
		return limiter.Never
	}
	return w + lag
}

// again returns, for an admitted request of n ≥ 1, the wait from the instant
// it was evaluated at after which the same request would be admitted next,
// when it would be denied right after this one (ok), with the in-memory
// formulas. The sliding window log's reply holds too little for it.
func (p *params) again(r reply, n int) (wait time.Duration, ok bool) {
	n64 := int64(n)
	switch p.kind {
	case "b":
		b := p.bu
		next, full := r.v[0]*p.scale, b.Burst*b.Unit
		if b.Inf || next+n64*b.Unit <= full {
			return 0, false
		}
		if b.PerNs == 0 {
			return limiter.Never, true
		}
		return time.Duration(ceilDiv(next+n64*b.Unit-full, b.PerNs)), true
	case "fw":
		if n64 <= p.limit-r.v[1] {
			return 0, false
		}
		w := time.Duration(p.window) * time.Microsecond
		return time.Duration(r.v[0]+1)*w - time.Duration(r.at)*time.Microsecond, true
	case "swc":
		c := p.counts(r, n64, time.Duration(r.at)*time.Microsecond)
		if c.Fits(n) {
			return 0, false
		}
		return c.RetryAfter(n), true
	}
	return 0, false
}

// packDoubles appends each of v to b as a little-endian IEEE 754 double,
// the form the scripts' struct.unpack('<d…') reads.
func packDoubles(b []byte, v ...float64) []byte {
	for _, f := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	}
	return b
}

// parseReply reads the script's reply, 4 to 6 little-endian doubles, each an
// integer below 2^53 in magnitude.
func parseReply(s string) (reply, bool) {
	if len(s)%8 != 0 || len(s) < 32 || len(s) > 48 {
		return reply{}, false
	}
	var v [6]int64
	for i := range len(s) / 8 {
		f := math.Float64frombits(binary.LittleEndian.Uint64([]byte(s[8*i : 8*i+8])))
		if f != math.Trunc(f) || math.Abs(f) >= maxExact {
			return reply{}, false
		}
		v[i] = int64(f)
	}
	return reply{ok: v[0] == 1, at: v[1], now: v[2], v: [3]int64{v[3], v[4], v[5]}}, true
}
