package playground

import (
	"github.com/ratelab/ratelab/app/units"
)

// The parameters of the playground.
var (
	ParamBurst    = units.Param{ID: "capacity", Name: "burst", Unit: "tokens", Min: 1, Max: 100, Step: 1, Integer: true, One: "1 token"}
	ParamRate     = units.Param{ID: "rate", Name: "refill rate", Unit: "tokens/s", Min: 0, Max: 50, Step: 0.1, Gap: 0.001, One: "1 token/s"}
	ParamLimit    = units.Param{ID: "limit", Name: "limit", Unit: "requests", Min: 1, Max: 100, Step: 1, Integer: true, One: "1 request"}
	ParamWindow   = units.Param{ID: "window", Name: "window", Unit: "s", Min: 0.1, Max: 60, Step: 0.1, Grain: 0.001, InSeconds: true}
	ParamAutoRate = units.Param{ID: "autofire-rate", Name: "auto-fire rate", Unit: "requests/s", Min: 0.1, Max: 200, Step: 0.1, Log: true}
	ParamBurstN   = units.Param{ID: "burst-n", Name: "N", Unit: "requests", Min: 1, Max: 100, Step: 1, Integer: true}
)
