package limiter

import (
	"context"
	"math"
	"time"
)

// DefaultLimitName names the single limit of a [Keyed] in a [Result]: the
// name the RateLimit-Policy header field gives it.
const DefaultLimitName = "default"

// Take decides a request of n for key at the clock's current instant, as
// [Keyed.AllowN], and returns it as a [Result] with one limit named
// "default" whose Config is the key's strategy's (see [ConfigOf]). ctx is
// not read: an in-memory decision never blocks. It is the method by which
// HTTP middleware (package httplimit) serves a Keyed.
func (k *Keyed) Take(ctx context.Context, key string, n int) (Result, error) {
	return k.TakeInto(ctx, key, n, nil)
}

// TakeInto is Take writing the outcome into limits[:0] (appending, so a
// buffer of capacity 1 means no allocation): for callers that keep no
// Result past the request, such as httplimit's middleware.
func (k *Keyed) TakeInto(ctx context.Context, key string, n int, limits []Outcome) (Result, error) {
	now := k.clock.Now()
	d, err := k.AllowNAt(now, key, n)
	if err != nil {
		return Result{}, err
	}
	c := Config{Limit: d.Limit}
	if s := k.held(key); s != nil {
		c = ConfigOf(s, now)
	}
	limits = append(limits[:0], Outcome{Name: DefaultLimitName, Config: c, Decision: d})
	return Result{Allowed: d.Allowed, Limits: limits}, nil
}

// held returns key's strategy, or nil when the key is not held (evicted
// since its request: a peek or a request it can never admit left it fresh).
func (k *Keyed) held(key string) Strategy {
	hash := k.hash(key)
	sh := &k.shards[hash%numShards]
	sh.mu.RLock()
	h := sh.tab.lookup(hash, key)
	sh.mu.RUnlock()
	if h == nil {
		return nil
	}
	return h.strategy()
}

// ConfigOf returns the parameters of s: its Config method's result for the
// strategies of this package (and any strategy with such a method), and
// otherwise what s.State(now) tells: Kind, the rate and burst (token bucket,
// GCRA), the capacity and a leak interval of 1/Rate rounded to the
// nanosecond (leaky bucket), or the limit and window (window strategies
// and any other Kind).
func ConfigOf(s Strategy, now Instant) Config {
	if c, ok := s.(interface{ Config() Config }); ok {
		return c.Config()
	}
	st := s.State(now)
	c := Config{Kind: st.Kind}
	switch st.Kind {
	case KindTokenBucket, KindGCRA:
		c.Rate, c.Burst = st.Rate, st.Limit
	case KindLeakyBucket:
		c.Capacity = st.Limit
		if st.Rate > 0 {
			c.LeakInterval = time.Duration(math.Round(float64(time.Second) / st.Rate))
		}
	default:
		c.Limit, c.Window = st.Limit, st.Window
	}
	return c
}
