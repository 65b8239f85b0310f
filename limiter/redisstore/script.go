package redisstore

import (
	_ "embed"
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"github.com/redis/go-redis/v9"
)

//go:embed lua/prelude.lua
var prelude string

//go:embed lua/bucket.lua
var bucketLua string

//go:embed lua/fixedwindow.lua
var fixedWindowLua string

//go:embed lua/slidingcounter.lua
var slidingCounterLua string

//go:embed lua/slidinglog.lua
var slidingLogLua string

// scripts holds each kind's script, the one a decision runs: EVALSHA of its
// Hash (Store.run), and EVAL of its source once when the server answers
// NOSCRIPT. One script per kind, so that each call defines only the Lua
// functions it uses.
var scripts = map[string]*redis.Script{
	"b":   redis.NewScript(prelude + bucketLua),
	"fw":  redis.NewScript(prelude + fixedWindowLua),
	"swc": redis.NewScript(prelude + slidingCounterLua),
	"swl": redis.NewScript(prelude + slidingLogLua),
}

// maxExact is 2^53: Lua numbers are doubles, exact for integers below it.
const maxExact = 1 << 53

// params is what the script needs of a Config, worked out once in New.
type params struct {
	kind   string        // b, fw, swc, swl
	script *redis.Script // the kind's script
	args   []string      // the kind's parameters, in decimal
	nums   []float64     // the same, as the script reads them
	sig    string        // the parameters in the key's name

	// Buckets: the in-memory arithmetic (limiter.BucketUnits) and scale,
	// the factor from the script's debt to the in-memory debt.
	bu    limiter.BucketUnits
	scale int64
	leak  time.Duration // leaky bucket: the leak interval

	limit  int64 // window strategies
	window int64 // window strategies, in µs
}

// newParams validates c for Redis and returns its script parameters.
func newParams(c limiter.Config) (params, error) {
	if _, err := limiter.New(c); err != nil {
		return params{}, err
	}
	switch c.Kind {
	case limiter.KindTokenBucket, limiter.KindGCRA, limiter.KindLeakyBucket:
		return bucketParams(c)
	}
	if c.Window%time.Microsecond != 0 {
		return params{}, errorf("window %v is not a whole number of microseconds; want a multiple of 1µs (Redis instants are microseconds)", c.Window)
	}
	if int64(c.Limit) >= maxExact {
		return params{}, errorf("limit %d is above 2^53 − 1; want at most %d (Redis scripts hold integers as doubles)", c.Limit, int64(maxExact-1))
	}
	p := params{limit: int64(c.Limit), window: int64(c.Window / time.Microsecond)}
	switch c.Kind {
	case limiter.KindFixedWindow:
		p.kind = "fw"
	case limiter.KindSlidingWindowCounter:
		p.kind = "swc"
	default:
		p.kind = "swl"
	}
	p.args = []string{strconv.FormatInt(p.limit, 10), strconv.FormatInt(p.window, 10)}
	p.nums = []float64{float64(p.limit), float64(p.window)}
	p.sig = p.kind + ":" + p.args[0] + ":" + p.args[1]
	return p, nil
}

// bucketParams reduces a bucket's exact arithmetic to the instants the store
// sees, whole microseconds: every debt is then a multiple of scale =
// gcd(Unit, 1000·PerNs), so the script keeps debt/scale, one token is
// Unit/scale and one microsecond pays back 1000·PerNs/scale, all below 2^53.
func bucketParams(c limiter.Config) (params, error) {
	bu, err := c.BucketUnits()
	if err != nil {
		return params{}, err
	}
	perUs := new(big.Int).Mul(big.NewInt(bu.PerNs), big.NewInt(1000))
	scale := new(big.Int).GCD(nil, nil, big.NewInt(bu.Unit), perUs)
	unit := new(big.Int).Quo(big.NewInt(bu.Unit), scale)
	perUs.Quo(perUs, scale)
	full := new(big.Int).Mul(unit, big.NewInt(bu.Burst))
	sum := new(big.Int).Add(full, perUs)
	if !bu.Inf && (sum.Cmp(big.NewInt(maxExact)) >= 0 || perUs.Int64() >= maxExact/1000) {
		return params{}, errorf("%s needs integers up to %s in Redis, above 2^53 (Redis scripts hold integers as doubles); want a smaller burst or capacity, or a rate that is a simpler fraction", c, sum)
	}
	p := params{kind: "b", bu: bu, scale: scale.Int64(), leak: c.LeakInterval}
	inf, infNum := "0", 0.0
	if bu.Inf {
		inf, infNum = "1", 1
	}
	p.args = []string{perUs.String(), unit.String(), strconv.FormatInt(bu.Burst, 10), inf}
	p.nums = []float64{toFloat(perUs), toFloat(unit), float64(bu.Burst), infNum}
	p.sig = fmt.Sprintf("%s:%s:%s:%s:%s", c.Kind, p.args[0], p.args[1], p.args[2], inf)
	return p, nil
}

// toFloat is x rounded to the nearest double, as Lua's tonumber reads it.
func toFloat(x *big.Int) float64 {
	f, _ := new(big.Float).SetInt(x).Float64()
	return f
}
