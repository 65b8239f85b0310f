// Package redisstore keeps rate limits in Redis, so that many instances of a
// service (gateways, API servers) share one limit per key. Each decision is
// one atomic Lua script (EVALSHA; EVAL once when the server answers
// NOSCRIPT), for every strategy of package limiter, and it makes exactly the
// decisions, with exactly the metadata (Remaining, RetryAfter, ResetAfter,
// Delay), of the in-memory strategy with the same limiter.Config at the same
// instants (the rules of package limiter's documentation).
//
// Instants are whole microseconds since the Unix epoch: the server's TIME by
// default (one clock for every instance, so clock skew between instances
// cannot matter), or the instant passed to TakeAt. A Decision equals the
// in-memory strategy's at the Instant time.Duration(µs)·1000 on a clock
// whose origin is the Unix epoch. Lua numbers are doubles, exact only below
// 2^53, so the scripts keep every value an integer below 2^53: instants in
// µs (TakeAt takes instants within 2^52 µs, about 142 years, of the epoch,
// so that instant plus two windows stays below 2^53), counts as they are,
// and a bucket's debt in a unit reduced to what µs instants can reach (see
// bucketParams); products that may pass 2^53 (the sliding window counter's
// weighting) are compared in base 2^18. New refuses a Config whose integers
// would not fit, and a bucket on package limiter's 128-bit arithmetic (a
// token bucket or GCRA below 1e-9 per second or refilling in over 73 years,
// a leaky bucket whose capacity × leak interval passes 2^61 ns, such as
// 1e12 units leaking one per hour), with the error of
// limiter.Config.BucketUnits, which names the largest burst or capacity at
// its rate or leak interval. The scripts decide and keep the state; the Decision's
// durations are worked out in Go, in int64 nanoseconds, with the in-memory
// strategies' formulas.
//
// Keys: "<prefix>{<key>}:<strategy and parameters>" (and ":log" for the
// sliding window log), so that every key of one decision shares a Redis
// Cluster hash slot; a key's state is its Config's, and a new Config starts
// from a fresh state. Each Redis key expires (PX, PEXPIRE) when its state
// would be fresh again, plus Options.TTLSlack, so expiry never forgives debt;
// expiry runs on the server's clock, so instants passed to TakeAt should
// keep pace with it.
//
// Store has the method Take(ctx, key, n) (limiter.Result, error) that
// limiter/httplimit accepts, so a service moves from memory to Redis by
// changing one constructor.
package redisstore

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"github.com/redis/go-redis/v9"
)

// Taker decides a request of n units for a key: a Store, or an in-memory
// limiter used as Options.Fallback.
type Taker interface {
	Take(ctx context.Context, key string, n int) (limiter.Result, error)
}

// Options tunes a Store. The zero value is usable.
type Options struct {
	// Prefix starts every Redis key; default "ratelab:". It must not hold
	// '{' or '}', which would move the Cluster hash tag.
	Prefix string
	// TTLSlack is added to each key's expiry (the time until its state is
	// fresh again), so that a request stamped up to TTLSlack before the
	// key's latest instant is still evaluated at that instant; default 1 s
	// (limiter.EvictionSlack). Whole milliseconds (PEXPIRE), rounded up.
	TTLSlack time.Duration
	// Timeout, when set, bounds each call to Redis as the deadline of the
	// call's context. go-redis applies a context's deadline to the
	// connection only for a client made with ContextTimeoutEnabled: true.
	// When unset, the client's own read and write timeouts bound each call
	// (go-redis: 3 s each by default), and no call pays for a context of
	// its own.
	Timeout time.Duration
	// On a Redis error (timeout, connection, script), Take returns the error
	// (fail closed), unless Fallback is set (Take returns what Fallback
	// decides) or FailOpen is (Take admits the request; its Decision has
	// Remaining = Limit). OnError, when set, sees each such error.
	Fallback Taker
	FailOpen bool
	OnError  func(key string, err error)
	// LocalDeny keeps, for each key, the latest denial Redis gave, or the
	// latest admission that left too little for another request of its n
	// (not for the sliding window log, whose reply does not say when), and
	// denies a request of at least that n before the instant that decision
	// names, without a round trip: state in a limiter only grows with
	// admissions, so Redis would deny it too, as long as requests reach
	// Redis in the order of their instants (the server's clock, or instances
	// that pass the same clock to TakeAt). Such a denial's Remaining and
	// ResetAfter are those of the decision kept. LocalKeys bounds the keys
	// kept (default 10000).
	LocalDeny bool
	LocalKeys int
}

// Store decides requests against one limiter.Config, one state per key, in
// Redis. It is safe for concurrent use.
type Store struct {
	client redis.UniversalClient
	cfg    limiter.Config
	p      params
	prefix string
	head   []any   // EVALSHA, the kind's script's SHA1 and its number of keys
	consts any     // the script's ARGV[2]: the TTL slack and the kind's parameters, packed
	takes  [16]any // Take's ARGV[1] for n below 16: n alone, packed
	opts   Options
	local  *denials

	calls, localDenials atomic.Int64
}

// Stats counts a Store's decisions.
type Stats struct {
	Calls        int64 // round trips to Redis
	LocalDenials int64 // requests denied by LocalDeny without one
}

// New returns a Store for c on client (a single node, Sentinel or Cluster
// client). It returns c's parameter error (as limiter.New does), or an error
// wrapping limiter.ErrInvalid when c's integers do not fit Redis's exact
// range, its window is not whole microseconds, or an option is out of range.
func New(client redis.UniversalClient, c limiter.Config, o Options) (*Store, error) {
	if client == nil {
		return nil, errorf("client is nil; want a redis.UniversalClient")
	}
	p, err := newParams(c)
	if err != nil {
		return nil, err
	}
	p.script = scripts[p.kind]
	switch {
	case strings.ContainsAny(o.Prefix, "{}"):
		return nil, errorf("prefix %q holds '{' or '}'; want none (the key's {hash tag} follows it)", o.Prefix)
	case o.TTLSlack < 0:
		return nil, errorf("TTL slack %v is negative; want >= 0", o.TTLSlack)
	case o.Timeout < 0:
		return nil, errorf("timeout %v is negative; want >= 0 (0: the client's own)", o.Timeout)
	case o.LocalKeys < 0:
		return nil, errorf("local keys %d is negative; want >= 0 (0: 10000)", o.LocalKeys)
	}
	if o.Prefix == "" {
		o.Prefix = "ratelab:"
	}
	if o.TTLSlack == 0 {
		o.TTLSlack = limiter.EvictionSlack
	}
	slack := float64((o.TTLSlack + time.Millisecond - 1) / time.Millisecond)
	s := &Store{client: client, cfg: kindOnly(c), p: p, prefix: o.Prefix, opts: o,
		consts: string(packDoubles(nil, append([]float64{slack}, p.nums...)...)),
		head:   []any{"evalsha", p.script.Hash(), "1"}}
	if p.kind == "swl" {
		s.head[2] = "2"
	}
	for n := range s.takes {
		s.takes[n] = string(packDoubles(nil, float64(n)))
	}
	if o.LocalDeny {
		if o.LocalKeys == 0 {
			o.LocalKeys = 10000
		}
		s.local = newDenials(o.LocalKeys)
	}
	return s, nil
}

// kindOnly returns c with only the fields of its Kind set.
func kindOnly(c limiter.Config) limiter.Config {
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA:
		return limiter.Config{Kind: c.Kind, Rate: c.Rate, Burst: c.Burst}
	case limiter.KindLeakyBucket:
		return limiter.Config{Kind: c.Kind, Capacity: c.Capacity, LeakInterval: c.LeakInterval}
	}
	return limiter.Config{Kind: c.Kind, Limit: c.Limit, Window: c.Window}
}

// Config returns the store's strategy and parameters.
func (s *Store) Config() limiter.Config { return s.cfg }

// Stats returns the store's counts so far.
func (s *Store) Stats() Stats {
	return Stats{Calls: s.calls.Load(), LocalDenials: s.localDenials.Load()}
}

// Take decides a request of n units for key at the Redis server's clock
// (TIME). n == 0 is a peek: allowed, changes nothing. The Result has one
// limit, named "default". It returns an error wrapping limiter.ErrInvalid
// for a negative n, and a Redis error unless Options chose otherwise.
func (s *Store) Take(ctx context.Context, key string, n int) (limiter.Result, error) {
	return s.take(ctx, false, 0, key, n)
}

// TakeAt decides a request of n units for key at now, truncated to whole
// microseconds, instead of the server's clock: for tests, for simulations,
// and for managed Redis offerings that refuse TIME in scripts. Instances
// that pass their own clocks must keep them in step: a request stamped
// earlier than the key's latest instant is evaluated at that instant. It
// returns an error wrapping limiter.ErrInvalid for now more than 2^52 µs
// (about 142 years) from the Unix epoch, beyond what the script keeps exact.
func (s *Store) TakeAt(ctx context.Context, now time.Time, key string, n int) (limiter.Result, error) {
	us := now.UnixMicro()
	if us <= -maxExact/2 || us >= maxExact/2 {
		return limiter.Result{}, errorf("instant %v is outside ±2^52 µs of the Unix epoch; want an instant Redis holds exactly", now)
	}
	return s.take(ctx, true, us, key, n)
}

// take decides at the instant us when explicit, else at the server's clock.
func (s *Store) take(ctx context.Context, explicit bool, us int64, key string, n int) (limiter.Result, error) {
	if n < 0 {
		return limiter.Result{}, errorf("n %d is negative; want >= 0", n)
	}
	var sent time.Time
	if s.local != nil {
		sent = time.Now()
		if d, ok := s.local.deny(key, n, explicit, us, sent); ok {
			s.localDenials.Add(1)
			return s.result(d), nil
		}
	}
	r, err := s.run(ctx, explicit, us, key, n)
	if err != nil {
		return s.failed(ctx, key, n, err)
	}
	d := s.p.decision(r, n)
	if s.local != nil {
		s.local.note(&s.p, key, n, r, d, explicit, sent)
	}
	return s.result(d), nil
}

func (s *Store) result(d limiter.Decision) limiter.Result {
	return limiter.Result{Allowed: d.Allowed, Limits: []limiter.Outcome{{Name: "default", Config: s.cfg, Decision: d}}}
}

// Keys returns the Redis keys that hold key's state.
func (s *Store) Keys(key string) []string {
	k := s.key(key)
	if s.p.kind == "swl" {
		return []string{k, k + ":log"}
	}
	return []string{k}
}

// key is the Redis key of key's state.
func (s *Store) key(key string) string { return s.prefix + "{" + key + "}:" + s.p.sig }

// run calls the script once, within the store's timeout, with n and, when
// explicit, the instant us as ARGV[1] (see lua/prelude.lua).
func (s *Store) run(ctx context.Context, explicit bool, us int64, key string, n int) (reply, error) {
	if s.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.opts.Timeout)
		defer cancel()
	}
	var dyn any
	if !explicit && n < len(s.takes) {
		dyn = s.takes[n]
	} else {
		var buf [16]byte
		b := packDoubles(buf[:0], float64(n))
		if explicit {
			b = packDoubles(b, float64(us))
		}
		dyn = string(b)
	}
	s.calls.Add(1)
	// EVALSHA as a StringCmd of our own arguments, rather than Script.Run:
	// the constant arguments are boxed once, in New, and the reply is read
	// as one string.
	k := s.key(key)
	args := append(make([]any, 0, 7), s.head...)
	args = append(args, k)
	if s.p.kind == "swl" {
		args = append(args, k+":log")
	}
	cmd := redis.NewStringCmd(ctx, append(args, dyn, s.consts)...)
	_ = s.client.Process(ctx, cmd)
	v, err := cmd.Result()
	if redis.HasErrorPrefix(err, "NOSCRIPT") {
		v, err = s.p.script.Eval(ctx, s.client, s.Keys(key), dyn, s.consts).Text()
	}
	if err != nil {
		return reply{}, fmt.Errorf("redisstore: key %q: %w", key, err)
	}
	r, ok := parseReply(v)
	if !ok {
		return reply{}, fmt.Errorf("redisstore: key %q: script replied %q; want 4 to 6 little-endian doubles", key, v)
	}
	return r, nil
}

// failed answers a request whose Redis call failed, as Options say.
func (s *Store) failed(ctx context.Context, key string, n int, err error) (limiter.Result, error) {
	switch {
	case s.opts.Fallback != nil:
		if s.opts.OnError != nil {
			s.opts.OnError(key, err)
		}
		return s.opts.Fallback.Take(ctx, key, n)
	case s.opts.FailOpen:
		if s.opts.OnError != nil {
			s.opts.OnError(key, err)
		}
		l := s.p.limitOf(s.cfg)
		return s.result(limiter.Decision{Allowed: true, Limit: l, Remaining: l}), nil
	}
	return limiter.Result{}, err
}

func (p *params) limitOf(c limiter.Config) int {
	if p.kind == "b" {
		return int(p.bu.Burst)
	}
	return c.Limit
}

type paramError struct{ msg string }

func (e *paramError) Error() string { return "redisstore: " + e.msg }
func (e *paramError) Unwrap() error { return limiter.ErrInvalid }

func errorf(format string, args ...any) error {
	return &paramError{msg: fmt.Sprintf(format, args...)}
}
