package redisstore

import (
	"math"
	"math/bits"
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

// slidingCounter is SlidingWindowCounter.allowLocked; v is the current
// window's index, its count before the request and the previous window's.
func (p *params) slidingCounter(r reply, n int, at time.Duration) limiter.Decision {
	w := p.window * 1000
	c := counts{index: r.v[0], curr: r.v[1], prev: r.v[2], window: w, l: p.limit}
	c.elapsed = int64(at) - c.index*w
	n64 := int64(n)
	d := limiter.Decision{Allowed: r.ok, Limit: int(p.limit)}
	switch {
	case n64 > p.limit:
		d.RetryAfter = limiter.Never
	case !r.ok:
		d.RetryAfter = c.retryAfter(n64)
	default:
		c.curr += n64
	}
	d.Remaining = int(c.remaining())
	switch {
	case c.curr > 0:
		d.ResetAfter = time.Duration(2*c.window - c.elapsed)
	case c.prev > 0:
		d.ResetAfter = time.Duration(c.window - c.elapsed)
	}
	return d
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

// counts and its methods are limiter/slidingcounter.go's, in nanoseconds.
type counts struct {
	index, curr, prev  int64
	elapsed, window, l int64
}

func (c counts) retryAfter(n int64) time.Duration {
	w := c.window
	if c.curr <= c.l-n && c.prev > 0 {
		if q := mulDiv(c.l-c.curr-n, w, c.prev); q > 0 {
			return time.Duration(w - min(q, w) - c.elapsed)
		}
	}
	x := int64(0)
	if c.curr > 0 {
		x = max(w-mulDiv(c.l-n, w, c.curr), 0)
	}
	return time.Duration(w - c.elapsed + x)
}

func (c counts) remaining() int64 {
	r := c.l - ceilMulDiv(c.prev, c.window-c.elapsed, c.window)
	return max(r-c.curr, 0)
}

// mulDiv is ⌊a·b/c⌋ without overflow, MaxInt64 when it does not fit.
func mulDiv(a, b, c int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi >= uint64(c) {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, uint64(c))
	return int64(min(q, math.MaxInt64))
}

// ceilMulDiv is ⌈a·b/c⌉ for a·b/c that fits.
func ceilMulDiv(a, b, c int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, r := bits.Div64(hi, lo, uint64(c))
	if r != 0 {
		q++
	}
	return int64(q)
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
		w := p.window * 1000
		c := counts{index: r.v[0], curr: r.v[1] + n64, prev: r.v[2], window: w, l: p.limit}
		c.elapsed = r.at*1000 - c.index*w
		if rest := c.l - c.curr; rest >= n64 && mulLE(c.prev, w-c.elapsed, rest-n64, w) {
			return 0, false
		}
		return c.retryAfter(n64), true
	}
	return 0, false
}

// mulLE reports a·b ≤ c·d for a, b, c, d ≥ 0, in 128 bits.
func mulLE(a, b, c, d int64) bool {
	h1, l1 := bits.Mul64(uint64(a), uint64(b))
	h2, l2 := bits.Mul64(uint64(c), uint64(d))
	return h1 < h2 || h1 == h2 && l1 <= l2
}
