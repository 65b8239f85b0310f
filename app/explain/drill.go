package explain

// Card is an interview drill card: a classic question, a model answer in
// our own words, and the lesson that demonstrates it.
type Card struct {
	ID       string
	Question string
	Answer   string
	// Lesson is the ID of the lesson that shows the answer at work.
	Lesson string
}

// Cards returns the interview drill cards, in the order the page shows them.
func Cards() []Card {
	return []Card{
		{
			ID: "per-key-locks", Lesson: "lock-design",
			Question: "Why use a lock per key instead of one lock around the limiter map?",
			Answer: "A rate limiter sits on every request, so its lock is on the hot path. With one global lock, every decision " +
				"waits for every other, even for unrelated clients, and adding cores does not help: throughput is capped by one " +
				"critical section. A decision only needs the state of its own key, so give each key its own lock, and keep the " +
				"map itself in shards with their own read-write locks so lookups rarely contend. Only requests from the same " +
				"client then serialise, which they must anyway. Creation needs care: check, create and insert under the shard's " +
				"write lock (or a load-or-store), or two first requests can each create a bucket and the client gets twice the burst.",
		},
		{
			ID: "bounding-memory", Lesson: "per-client-eviction",
			Question: "How do you bound memory when millions of clients hit the limiter?",
			Answer: "Keep state only for active clients. Create a key's limiter lazily on its first request, keep it small (a " +
				"token bucket or GCRA is a few words; a sliding log is O(limit) per key, which is what to avoid at scale), and " +
				"evict idle keys. The subtle part is eviction: drop a key only when it has been idle for a TTL and its state " +
				"equals a fresh limiter's, such as a full bucket. Otherwise a client in debt can wait out the TTL and come back " +
				"with a full bucket. Sweep in bounded steps amortised over requests or on a timer, shard the map, and cap the " +
				"total number of keys as a last line of defence.",
		},
		{
			ID: "distributed", Lesson: "many-gateways",
			Question: "How do you rate-limit across many gateway instances?",
			Answer: "If each of N instances enforces the limit locally, a client spread across them gets up to N times the limit. " +
				"The usual fix is shared state: one store, typically Redis, updated atomically per request with a script or a " +
				"single-key algorithm such as GCRA, whose state is one timestamp. That costs a network round trip and makes the " +
				"store a dependency, so decide whether to fail open or closed when it is unreachable. Alternatives: split the " +
				"limit per instance (fine with sticky routing, wasteful otherwise), or decide locally and synchronise counts " +
				"periodically, accepting some overshoot. State the trade-off between accuracy, latency and availability.",
		},
		{
			ID: "choosing", Lesson: "burst-vs-rate",
			Question: "Which algorithm would you choose for a public API, and why?",
			Answer: "Usually a token bucket, or GCRA, which makes the same decisions with one timestamp of state. It enforces " +
				"a sustained rate while allowing a bounded burst, which matches how real clients behave: idle, then a page load " +
				"of several calls. It is O(1) in time and memory and gives an exact retry-after. Choose a fixed window when " +
				"quotas must reset at known instants and a 2× burst at the boundary is acceptable; a sliding window log when " +
				"the limit must hold exactly in every window and limits are small; a sliding window counter for a close, cheap " +
				"approximation of it; a leaky bucket queue when the backend needs smooth, paced traffic.",
		},
		{
			ID: "boundary-burst", Lesson: "boundary-burst",
			Question: "What is the fixed-window boundary burst, and how do you avoid it?",
			Answer: "A fixed window counts requests per aligned interval and resets the count at each boundary. A client can " +
				"send the whole limit just before a boundary and the whole limit again just after it: twice the limit within a " +
				"fraction of one window, and every request is allowed. A sliding window log avoids it exactly by remembering " +
				"each admitted instant, at O(limit) memory per client. A sliding window counter approximates the sliding window " +
				"by weighting the previous window's count by how much of it is still covered, with two counters; its worst case " +
				"is below twice the limit. A token bucket bounds any interval by burst plus rate times its length.",
		},
		{
			ID: "retry-after", Lesson: "burst-vs-rate",
			Question: "What should a rate-limited response look like?",
			Answer: "Reject with HTTP 429 Too Many Requests and tell the client when to come back. Retry-After carries the wait in " +
				"whole seconds, rounded up so that retrying at that time succeeds if nothing else happens; leave it out when the " +
				"request can never succeed, such as a batch larger than the burst. Rate-limit headers (the IETF RateLimit " +
				"fields, or the common X-RateLimit-Limit, -Remaining and -Reset) let well-behaved clients slow down before " +
				"they are rejected. Compute all of them from the limiter's decision, not from a separate estimate, and keep " +
				"rejections cheap: a rejected request should change no state and cost almost nothing.",
		},
		{
			ID: "token-vs-leaky", Lesson: "queue-vs-meter",
			Question: "What is the difference between a token bucket and a leaky bucket?",
			Answer: "As meters they are the same algorithm seen from two sides: a token bucket holds credit that refills at the " +
				"rate, a leaky bucket holds usage that drains at the rate. With burst equal to capacity and rate equal to one " +
				"per leak interval they admit exactly the same requests. The difference is in use. A leaky bucket is often a " +
				"queue: admitted requests wait so that they leave at a steady pace, which protects a backend but adds latency. " +
				"nginx's limit_req does this by default; with nodelay it becomes a meter. A token bucket lets bursts through at " +
				"once and only polices the average rate.",
		},
		{
			ID: "monotonic", Lesson: "monotonic-clock",
			Question: "Which clock should a rate limiter use, and what goes wrong otherwise?",
			Answer: "A monotonic clock, which only moves forward at a steady pace. Wall-clock time is set by NTP, by operators and " +
				"by virtual machines being resumed, so elapsed times computed from it can be negative or huge. Negative elapsed " +
				"time either credits or debits tokens wrongly, or, if clamped, stalls refills until the wall clock catches up; " +
				"a forward jump grants a full bucket that was never earned. In Go, time.Now carries a monotonic reading and " +
				"time.Since uses it, but Unix timestamps and values read back from storage do not. Test with explicit instants " +
				"so that no test depends on real time.",
		},
		{
			ID: "design", Lesson: DesignLessonID,
			Question: "Design a rate limiter library: which types, and where do the locks go?",
			Answer: "One interface, Strategy, with AllowN(now, n) returning a decision (allowed, remaining, retry-after), and " +
				"one type per algorithm behind it, so callers never name an algorithm and a new one changes no caller. A keyed " +
				"limiter holds one strategy per key in a map and makes a key's strategy lazily, on its first request, from a " +
				"factory that receives the key: tiers (free or pro by API key) and composite keys (client + endpoint) are then " +
				"decisions of the factory alone. Lock per key, with the map sharded, so unrelated clients never wait on each " +
				"other; creation is check-then-act, so check again under the write lock before inserting. Evict idle keys " +
				"after a TTL, but only when their state is fresh, and pass time in explicitly so tests are exact.",
		},
	}
}
