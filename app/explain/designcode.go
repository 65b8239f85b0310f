package explain

import (
	"fmt"
	"strings"

	"github.com/ratelab/ratelab/limiter"
)

// Serve is the caller: it knows a Keyed and a key, never the strategy.
func Serve(keyed *limiter.Keyed, now limiter.Instant, key string) Reply {
	d, err := keyed.AllowNAt(now, key, 1)
	if err != nil {
		return Reply{Status: 500, Err: err.Error()}
	}
	if !d.Allowed {
		return Reply{Status: 429, RetryAfter: d.RetryAfter}
	}
	return Reply{Status: 200, Remaining: d.Remaining}
}

// Tiers is the tiers demo's factory: a key "pro:…" gets pro, any other free.
func Tiers(free, pro limiter.Config) limiter.Factory {
	return func(key string) (limiter.Strategy, error) {
		if strings.HasPrefix(key, "pro:") {
			return limiter.New(pro)
		}
		return limiter.New(free)
	}
}

// EndpointKey is the composite key of a client and an endpoint.
func EndpointKey(client, endpoint string) string { return client + " " + endpoint }

// PerEndpoint is the composite-key demo's factory: the key is EndpointKey,
// and each endpoint has its own limit.
func PerEndpoint(limits map[string]limiter.Config) limiter.Factory {
	return func(key string) (limiter.Strategy, error) {
		_, endpoint, _ := strings.Cut(key, " ")
		cfg, ok := limits[endpoint]
		if !ok {
			return nil, fmt.Errorf("endpoint %q has no limit", endpoint)
		}
		return limiter.New(cfg)
	}
}
