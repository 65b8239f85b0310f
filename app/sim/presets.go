package sim

import (
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// Preset is a real provider's limit, as one lane's strategy.
type Preset struct {
	// ID is the preset's stable name (for links and tests).
	ID string
	// Name is the preset's title in the UI.
	Name string
	// Config is the lane's strategy.
	Config limiter.Config
	// Shaping reports that admitted requests wait in a queue (Record.Delay)
	// rather than pass at once: nginx limit_req without nodelay.
	Shaping bool
	// Source is the public page the numbers come from.
	Source string
	// Note says where the preset simplifies the real service.
	Note string
}

// Presets returns the built-in presets, in the order the UI lists them.
func Presets() []Preset {
	return []Preset{
		{
			ID:     "github",
			Name:   "GitHub REST API: 5,000 requests per hour",
			Config: limiter.Config{Kind: limiter.KindFixedWindow, Limit: 5000, Window: time.Hour},
			Source: "https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api",
			Note: "Authenticated users get 5,000 requests per hour, counted in a fixed window that resets " +
				"at the time in x-ratelimit-reset. GitHub starts the hour at a client's first request; here " +
				"windows are aligned to whole hours of the simulation. Secondary rate limits (concurrency, " +
				"points per minute) are not modelled.",
		},
		{
			ID:     "shopify",
			Name:   "Shopify REST Admin API: bucket of 40, leaking 2/s",
			Config: limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 40, LeakInterval: 500 * time.Millisecond},
			Source: "https://shopify.dev/docs/api/usage/rate-limits",
			Note: "Standard plans: a leaky bucket of 40 requests per app and store, leaking 2 requests per " +
				"second (Shopify Plus: 400 and 20/s). Requests over the bucket get 429 at once (a meter, " +
				"no queue). The GraphQL Admin API limits by calculated query cost instead, not modelled.",
		},
		{
			ID:     "stripe",
			Name:   "Stripe: token bucket, 100 operations per second",
			Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 100, Burst: 100},
			Source: "https://stripe.com/blog/rate-limiters",
			Note: "Stripe's blog post \"Scaling your API with rate limiters\" describes token-bucket request " +
				"rate limiters; its documentation (https://docs.stripe.com/rate-limits) allows 100 " +
				"operations per second in live mode (25 in sandbox). The burst is not published: 100 is " +
				"an assumption. Stripe's concurrency and fleet-load limiters are not modelled.",
		},
		{
			ID:     "nginx-nodelay",
			Name:   "nginx limit_req rate=10r/s burst=20 nodelay",
			Config: limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 21, LeakInterval: 100 * time.Millisecond},
			Source: "https://nginx.org/en/docs/http/ngx_http_limit_req_module.html",
			Note: "limit_req is a leaky bucket; with nodelay it is a meter: up to burst requests above the " +
				"rate pass at once and the rest get 503. nginx admits a request while its excess stays " +
				"within burst, counting the request itself, so capacity = burst + 1. nginx keeps the " +
				"excess in milliseconds; here it is exact.",
		},
		{
			ID:      "nginx-delay",
			Name:    "nginx limit_req rate=10r/s burst=20 (queue)",
			Config:  limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 21, LeakInterval: 100 * time.Millisecond},
			Shaping: true,
			Source:  "https://nginx.org/en/docs/http/ngx_http_limit_req_module.html",
			Note: "Without nodelay, limit_req is a leaky bucket used as a queue: requests above the rate " +
				"wait (Delay = (level − 1) × 100 ms) so that they leave at 10 per second; more than " +
				"burst waiting get 503. Same decisions as nodelay, different latency.",
		},
		{
			ID:     "cloudflare",
			Name:   "Cloudflare-style sliding window counter: 50 per minute",
			Config: limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 50, Window: time.Minute},
			Source: "https://blog.cloudflare.com/counting-things-a-lot-of-different-things/",
			Note: "From the blog post \"How we built rate limiting capable of scaling to millions of " +
				"domains\": the previous minute's count is weighted by the part of it still in the window, " +
				"with its example of 50 requests per minute. Cloudflare counts every matching request, " +
				"blocked ones too, across a PoP's servers; here only admitted requests count, in one place.",
		},
	}
}

// PresetByID returns the preset with the given ID, and false if none.
func PresetByID(id string) (Preset, bool) {
	for _, p := range Presets() {
		if p.ID == id {
			return p, true
		}
	}
	return Preset{}, false
}
