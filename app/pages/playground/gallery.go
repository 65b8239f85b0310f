package playground

import (
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/limiter"
)

// Gallery is the playground's drawing of each of its strategies with fixed
// inputs, paused: three requests at 0, one at 0.5 s and the clock at 1 s
// (burst 5, 1 token/s; 5 requests per 10 s).
func Gallery() []app.UI {
	var out []app.UI
	for _, k := range []limiter.Kind{limiter.KindTokenBucket, limiter.KindSlidingWindowLog} {
		s := sim.NewPlayground()
		s.SetRunning(false)
		s.SetKind(k)
		s.Send(3)
		s.Step(500 * time.Millisecond)
		s.Send(1)
		s.Step(500 * time.Millisecond)
		out = append(out, app.Elem("figure").Class("gallery-item").DataSet("strategy", string(k)).Body(
			app.Elem("figcaption").Text(k.Name()),
			&view{Sim: s},
		))
	}
	return out
}
