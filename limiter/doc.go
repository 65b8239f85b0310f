// Package limiter provides the classic rate-limiting algorithms behind one
// interface, [Strategy], with exact arithmetic, plus [Keyed], a limiter per
// key (client, API token, client + endpoint) with idle eviction.
//
// # Time
//
// Every decision is taken at an explicit [Instant]: the time since a clock's
// origin, in integer nanoseconds (a [time.Duration]). Any instant is valid,
// the origin and negative instants included; "not used yet" is a flag, never
// a zero timestamp. Pass instants from a [Clock] ([NewMonotonicClock] reads
// Go's monotonic clock, so wall-clock jumps never move it) or, in tests and
// simulations, write them down (1500*time.Millisecond) or use a
// [ManualClock]: no test needs to sleep.
//
// The instants one limiter sees must lie within about 292 years of each
// other (the range of a time.Duration, in which their differences are
// computed); the readings of any one clock always do.
//
// Time never runs backwards for one limiter: a request stamped earlier than
// the latest instant the limiter has admitted at is evaluated at that instant.
// It never re-credits tokens, never un-expires entries. Its RetryAfter and
// ResetAfter still count from its own stamp, so now + RetryAfter is always a
// valid retry. (A denied request changes no state, so the limiter does not
// remember its instant.)
//
// Rates are exact fractions and time is in integer nanoseconds, so decisions
// match exact arithmetic on millisecond inputs: at 3 tokens per second, 3
// tokens are back after exactly 1 s, although the emission interval is
// 333 333 333⅓ ns. Token bucket and GCRA rates go from 1e-15 to 1e12 tokens
// per second, with bursts of at least 1.7e14 at any of them (2e9 bytes per
// second with a 10 GB burst, 1e12 tokens at 1/7 per second): the rare
// parameters beyond 64-bit arithmetic (rates below 1e-9, refills over 73
// years) use 128-bit integers per limiter, still exactly; see
// [NewTokenBucket] for how a float64 rate is read as a fraction. A leaky
// bucket takes any capacity (up to the largest int) at any leak interval
// (1 ns to the largest Duration), exactly: one that drains in over 73
// years (1e12 units leaking one per hour) uses the same 128-bit integers.
//
// # Strategies
//
//	strategy               memory per key      most admitted in any    choose it when
//	                                           interval of length L
//	---------------------  ------------------  ----------------------  ------------------------------------------
//	TokenBucket            a few words         burst + rate × L        bursts are fine, the sustained rate is
//	                                                                   what matters (APIs, x/time/rate users)
//	GCRA                   one instant (TAT)   burst + rate × L        as token bucket, state in one timestamp
//	                                                                   (fits a single key in Redis, ATM cells)
//	LeakyBucket            a few words         capacity + L/interval   a meter that can also pace (shape) work:
//	                                                                   Delay tells when to serve it (nginx)
//	FixedWindow            one count           2 × limit (L = window)  quotas reset at fixed instants, cheapest
//	                                                                   ("5000 per hour" with a reset time)
//	SlidingWindowLog       ≤ limit instants    limit (L = window)      the bound must be exact in every window,
//	                                                                   and limit is small
//	SlidingWindowCounter   two counts          2 × limit − 1           close to a sliding window in O(1) memory
//	                                           (L = window)            (Cloudflare), large limits
//
// (The window strategies also keep the current window's number, and every
// strategy its latest instant. GCRA keeps its TAT exactly, as a lead over
// that instant in fractions of a nanosecond, so a token bucket, GCRA or
// leaky bucket is 64 bytes, lock and the key a Keyed holds it by included.)
//
// The token bucket, GCRA and the leaky bucket (as a meter, capacity = burst,
// leak interval = 1/rate) make exactly the same decisions with the same
// metadata; they differ in how the state is kept and shown. [New] builds any
// strategy from a [Config].
//
// # Decisions and errors
//
// AllowN(now, n) returns a [Decision]: Allowed, Limit, Remaining, RetryAfter
// (the shortest wait after which the same request is allowed if nothing else
// happens, or [Never] when it never will: n above the limit, or rate 0),
// ResetAfter (until the limiter is fresh again) and Delay (leaky bucket as a
// queue). n == 0 is a peek: allowed, changes nothing. A denied request changes
// no state and is not counted. [RetryAfterSeconds] and [RateLimitHeaders]
// turn a decision into HTTP header values. Every strategy also has Admit(now,
// n) bool ([TokenBucket.Admit]): the same decision and state change as
// AllowN, reporting only whether the request is admitted, for callers that
// need no metadata (as x/time/rate's AllowN); a negative n is not admitted.
//
// Constructors and setters validate their parameters. Every error names the
// parameter and the accepted range ("limiter: burst -1 is negative; want >=
// 0") and wraps [ErrInvalid], so errors.Is(err, limiter.ErrInvalid) tells a
// bad parameter from anything else; a setter that returns an error changes
// nothing. A negative n is an error too. Live reconfiguration (SetRate,
// SetBurst, SetCapacity, SetLeakInterval, SetLimit, SetWindow) first brings
// the state up to now under the old parameters, then applies the new ones.
// A strategy's zero value (var tb limiter.TokenBucket) has no parameters:
// its AllowN and setters return an error wrapping ErrInvalid ("limiter: zero
// TokenBucket; create it with NewTokenBucket"), its Admit reports false, and
// no method panics or leaves the strategy's lock held.
//
// # Keyed limiters
//
// [Keyed] creates one strategy per key on first use from a [Factory] that
// receives the key, so tiers ("free:alice", "pro:bob") and composite keys
// (client + endpoint) need no change to the strategies. Keys live in a sharded
// map with a lock per key. [Keyed.Sweep] evicts keys idle for the TTL whose
// state equals a fresh strategy's, so eviction never changes a decision (a
// client in debt keeps its debt); sweeping can also be amortised over
// requests ([KeyedOptions].SweepEvery), with no goroutine. Sweep holds a
// shard's lock for 256 keys at most at a time, so requests meanwhile wait
// for one batch, not for a scan of the shard; and a shard that sweeping has
// left holding under a quarter of the most keys it held gets a new map, so
// the memory of evicted keys goes back to the garbage collector (Go's maps
// never shrink). A strategy from outside this package that panics leaves no
// lock of the Keyed held.
//
// # Several limits, waiting, HTTP
//
// A [Policy] applies several named limits to each key ("10 per second and
// 1000 per hour"), all-or-nothing: a request is admitted only if every limit
// admits it, and a denial spends nothing anywhere; its [Result] holds one
// [Outcome] per limit. [Keyed.Take] and [Policy.Take] return a Result, the
// form package httplimit (net/http middleware, in limiter/httplimit) and
// shared stores decide in. The token bucket, GCRA and leaky bucket can also
// promise a later admission: Reserve(now, n) ([TokenBucket.Reserve]) returns
// a [Reservation] with its Delay and an exact Cancel, and a [Waiter] blocks
// for it with a context (a window strategy cannot: [ErrNotReservable]).
//
// # Sources
//
//   - GCRA: ITU-T Recommendation I.371, "Traffic control and congestion
//     control in B-ISDN", Annex A (virtual scheduling algorithm).
//   - Leaky bucket as a meter with a queue delay: nginx's limit_req module
//     (ngx_http_limit_req_module, "burst" and "nodelay").
//   - Sliding window counter: Cloudflare, "How we built rate limiting capable
//     of scaling to millions of domains" (2017).
//   - Token bucket API (Allow / AllowN at an explicit instant):
//     golang.org/x/time/rate, whose decisions this package's token bucket
//     reproduces (a differential test checks it) with exact instead of
//     float64 arithmetic; Reserve, Cancel and Wait follow its Reservation
//     and Wait, fixing golang/go #54541 (a wait past the deadline fails at
//     once) and #56924 (Cancel restores exactly).
//   - HTTP fields: IETF draft-ietf-httpapi-ratelimit-headers (drafts 06 and
//     10) and RFC 9110 §10.2.3 (Retry-After).
package limiter
