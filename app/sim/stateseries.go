package sim

// StatePoint is the state variable a chart draws (StateValue) at an
// instant.
type StatePoint struct {
	At    Instant
	Value float64
}

// StateSeries appends to dst client's state variable from from to to: at
// every step from from, and twice at each of client's requests in between,
// before and after its decision, so that a chart draws each change where it
// happened. The chart buckets sample the state once per bucket (100 ms),
// which a zoomed chart would draw as slopes across window boundaries and
// before the requests that caused them; this replays client's decisions in
// the lane's history through a fresh limiter of the lane's configuration,
// which decides exactly as the lane did (a Keyed limiter evicts only fresh
// state). ok is false, and dst is returned as it was, when the history no
// longer holds the lane's first decisions (its ring wrapped) or step is
// not positive.
func (ln *Lane) StateSeries(dst []StatePoint, client string, from, to, step Instant) ([]StatePoint, bool) {
	if ln.size == len(ln.hist) || step <= 0 {
		return dst, false
	}
	s, err := ln.factory(client)
	if err != nil {
		return dst, false
	}
	n := len(dst)
	next := from
	grid := func(until Instant, inclusive bool) {
		for next <= to && (next < until || inclusive && next == until) {
			dst = append(dst, StatePoint{next, StateValue(s.State(next))})
			next += step
		}
	}
	for i := 0; i < ln.size; i++ {
		r := ln.hist[(ln.head+i)%len(ln.hist)]
		if r.Client != client {
			continue
		}
		if r.At > to {
			break
		}
		grid(r.At, false)
		if r.At >= from {
			dst = append(dst, StatePoint{r.At, StateValue(s.State(r.At))})
		}
		if _, err := s.AllowN(r.At, r.N); err != nil {
			return dst[:n], false
		}
		if r.At >= from {
			dst = append(dst, StatePoint{r.At, StateValue(s.State(r.At))})
		}
	}
	grid(to, true)
	return dst, true
}
