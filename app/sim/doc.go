// Package sim is the simulation core of the comparison lab: everything the
// playground needs that is not drawing. It is plain Go (no go-app, no
// syscall/js), so it runs and is tested both natively and under
// GOOS=js GOARCH=wasm.
//
// A [Lab] sends one stream of requests to up to [MaxLanes] lanes. Each lane
// is one strategy from package limiter, behind its own limiter.Keyed (one
// limiter per client, created by a factory that receives the client, so a
// client can have its own tier). Every lane sees exactly the same requests at
// the same instants; the lab keeps per lane a bounded history of decisions,
// per-client and total counts, chart buckets (offered vs admitted, the state
// variable) and the worst case (the most units admitted in any window of
// length W).
//
// Requests come from a [Source]: seeded traffic generators per [Client]
// (steady, Poisson, on/off, ramp, window-edge attack), manual clicks and
// bursts, and an optional recorded [Trace] (CSV or Common / Combined Log
// Format). Time is simulated: a [Clock] advanced by the real durations the UI
// passes in (it never reads the time itself), with pause, step and speed.
// Same [Setup] + same seed ⇒ exactly the same decisions; [Lab.At] rebuilds
// the lab at a past instant by replaying from the start, never by running a
// limiter backwards.
//
// A [Setup] round-trips through URL query values ([Setup.Values],
// [DecodeSetup]); [Presets] carry real providers' limits with their sources.
//
// Nothing here is safe for concurrent use: a Lab belongs to one goroutine
// (the UI's).
package sim
