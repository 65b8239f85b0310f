package sim

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// pausedSim is a simulation with its clock stopped at 0.
func pausedSim() *Playground {
	s := NewPlayground()
	s.SetRunning(false)
	return s
}

func wantTotals(t *testing.T, s *Playground, allowed, denied int) {
	t.Helper()
	if a, d := s.Totals(); a != allowed || d != denied {
		t.Fatalf("totals = %d allowed, %d denied; want %d, %d", a, d, allowed, denied)
	}
}

// The token bucket scenario, on the simulation alone.
func TestSimTokenBucketPausedSends(t *testing.T) {
	s := pausedSim()
	if err := s.SetBurst(3); err != nil {
		t.Fatal(err)
	}
	if err := s.SetRate(0.5); err != nil {
		t.Fatal(err)
	}
	var last Sent
	for range 4 {
		last = s.Send(1)
	}
	wantTotals(t, s, 3, 1)
	if last.Allowed || last.RetryAfter != 2*time.Second || last.At != 0 {
		t.Fatalf("4th request = %+v; want denied at 0 with retry-after 2s", last)
	}
	if got := units.FormatTokens(s.State().Tokens); got != "0.00" {
		t.Fatalf("level = %s, want 0.00", got)
	}
	if s.Advance(time.Second) || s.Now() != 0 {
		t.Fatalf("paused clock moved to %v", s.Now())
	}
	s.Step(1999 * ms)
	if e := s.Send(1); e.Allowed || e.RetryAfter != ms {
		t.Fatalf("at 1.999 s: %+v; want denied, retry after 1ms", e)
	}
	if got := units.FormatTokens(s.State().Tokens); got != "0.99" {
		t.Fatalf("level at 1.999 s = %s, want 0.99 (rounded down)", got)
	}
	s.Step(ms)
	if got := units.FormatTokens(s.State().Tokens); got != "1.00" {
		t.Fatalf("level at 2 s = %s, want 1.00", got)
	}
	if e := s.Send(1); !e.Allowed || e.At != 2*time.Second {
		t.Fatalf("at 2 s: %+v; want allowed", e)
	}
	wantTotals(t, s, 4, 2)
}

func TestSimAdvanceClampsAndPauses(t *testing.T) {
	s := NewPlayground()
	for _, c := range []struct {
		dt   time.Duration
		want limiter.Instant
	}{
		{16 * ms, 16 * ms},
		{-5 * ms, 16 * ms},
		{5 * time.Second, 16*ms + MaxFrame}, // a throttled background tab
		{MaxFrame, 16*ms + 2*MaxFrame},
	} {
		s.Advance(c.dt)
		if s.Now() != c.want {
			t.Fatalf("Advance(%v): now = %v, want %v", c.dt, s.Now(), c.want)
		}
	}
	s.SetRunning(false)
	s.Advance(time.Second)
	s.Step(100 * ms)
	if want := 16*ms + 2*MaxFrame + 100*ms; s.Now() != want {
		t.Fatalf("now = %v, want %v", s.Now(), want)
	}
}

// Auto-fire sends each request at its own instant, however the clock moves.
func TestSimAutofireInstants(t *testing.T) {
	s := pausedSim()
	s.SetAutoRate(4)
	s.SetAutofire(true) // first request now
	s.Step(600 * ms)
	s.Step(400 * ms)
	var at []time.Duration
	for i := range s.Events() {
		at = append(at, s.Event(i).At)
	}
	want := []time.Duration{0, 250 * ms, 500 * ms, 750 * ms, 1000 * ms}
	if len(at) != len(want) {
		t.Fatalf("requests at %v, want %v", at, want)
	}
	for i := range want {
		if at[i] != want[i] {
			t.Fatalf("requests at %v, want %v", at, want)
		}
	}
	wantTotals(t, s, 5, 0) // burst 5, and one token back after 1 s
	s.SetAutofire(false)
	s.Step(time.Second)
	wantTotals(t, s, 5, 0)
}

func TestSimSlidingWindowLog(t *testing.T) {
	s := pausedSim()
	s.SetKind(limiter.KindSlidingWindowLog)
	if err := s.SetLimit(2); err != nil {
		t.Fatal(err)
	}
	if err := s.SetWindow(time.Second); err != nil {
		t.Fatal(err)
	}
	var last Sent
	for range 3 {
		last = s.Send(1)
	}
	wantTotals(t, s, 2, 1)
	if last.Allowed || last.RetryAfter != time.Second {
		t.Fatalf("3rd request = %+v; want denied, retry after 1s", last)
	}
	if st := s.State(); st.Count != 2 || len(st.Log) != 2 {
		t.Fatalf("state = %+v; want 2 entries", st)
	}
	s.Step(999 * ms)
	if st := s.State(); st.Count != 2 {
		t.Fatalf("at 0.999 s count = %d, want 2", st.Count)
	}
	s.Step(ms) // an entry counts while now − e < window
	if st := s.State(); st.Count != 0 {
		t.Fatalf("at 1 s count = %d, want 0", st.Count)
	}
	if e := s.Send(1); !e.Allowed || e.Remaining != 1 {
		t.Fatalf("after the window: %+v; want allowed, 1 left", e)
	}
	wantTotals(t, s, 3, 1)
}

// Moving a slider changes the limiter in place at the current instant: what
// it remembers is kept.
func TestSimReconfigureInPlace(t *testing.T) {
	s := pausedSim() // burst 5, 1 token/s
	s.Send(5)
	s.Step(2 * time.Second)
	if err := s.SetRate(0.5); err != nil { // 2 tokens earned at the old rate
		t.Fatal(err)
	}
	if got := s.State().Tokens; got != 2 {
		t.Fatalf("tokens after SetRate = %v, want 2", got)
	}
	s.Step(2 * time.Second)
	if got := s.State().Tokens; got != 3 {
		t.Fatalf("tokens 2 s later at 0.5/s = %v, want 3", got)
	}
	if err := s.SetBurst(2); err != nil {
		t.Fatal(err)
	}
	if got := s.State().Tokens; got != 2 {
		t.Fatalf("tokens after SetBurst(2) = %v, want 2 (clamped)", got)
	}
	wantTotals(t, s, 5, 0)

	s.SetKind(limiter.KindSlidingWindowLog) // limit 5, window 5 s
	s.Send(3)
	s.Step(time.Second)
	if err := s.SetWindow(2 * time.Second); err != nil {
		t.Fatal(err)
	}
	if st := s.State(); st.Count != 3 {
		t.Fatalf("count after SetWindow = %d, want 3 (entries kept)", st.Count)
	}
	s.Step(time.Second)
	if st := s.State(); st.Count != 0 {
		t.Fatalf("count 2 s after the entries with a 2 s window = %d, want 0", st.Count)
	}
}

func TestSimRejectsBadParameters(t *testing.T) {
	s := pausedSim()
	err := s.SetRate(math.NaN())
	if err == nil || !strings.Contains(err.Error(), "rate NaN") {
		t.Fatalf("SetRate(NaN) = %v; want the limiter's error naming the rate", err)
	}
	if s.Rate() != 1 || s.State().Rate != 1 {
		t.Fatalf("rate after a rejected SetRate = %v / %v, want 1", s.Rate(), s.State().Rate)
	}
	if err := s.SetBurst(-1); err == nil || s.Burst() != 5 {
		t.Fatalf("SetBurst(-1) = %v, burst %d; want an error, burst 5", err, s.Burst())
	}
	s.SetKind(limiter.KindSlidingWindowLog)
	if err := s.SetWindow(0); err == nil || s.Window() != 5*time.Second {
		t.Fatalf("SetWindow(0) = %v, window %v; want an error, 5s", err, s.Window())
	}
}

func TestSimResetAndSwitch(t *testing.T) {
	s := pausedSim()
	s.Step(3 * time.Second)
	s.Send(7)
	wantTotals(t, s, 5, 2)
	s.SetKind(limiter.KindSlidingWindowLog)
	wantTotals(t, s, 0, 0)
	if s.Now() != 3*time.Second || s.Events() != 0 {
		t.Fatalf("after switching: now %v, %d events; want 3s, 0", s.Now(), s.Events())
	}
	s.Send(1)
	s.SetKind(limiter.KindTokenBucket)
	if got := s.State().Tokens; got != 5 {
		t.Fatalf("switching back: tokens = %v, want a fresh bucket of 5", got)
	}
	s.Send(2)
	s.Reset()
	wantTotals(t, s, 0, 0)
	if s.Now() != 0 || s.Running() || s.State().Tokens != 5 {
		t.Fatalf("after reset: now %v, running %v, tokens %v; want 0, paused, 5", s.Now(), s.Running(), s.State().Tokens)
	}
}

func TestSimHistoryKeepsTheLatest(t *testing.T) {
	s := pausedSim()
	s.Send(HistoryLen + 10)
	if s.Events() != HistoryLen {
		t.Fatalf("Events() = %d, want %d", s.Events(), HistoryLen)
	}
	if first, last := s.Event(0).Seq, s.Event(HistoryLen-1).Seq; first != 11 || last != HistoryLen+10 {
		t.Fatalf("history holds #%d..#%d, want #11..#%d", first, last, HistoryLen+10)
	}
	wantTotals(t, s, 5, HistoryLen+5)
}

// A Burst ×N is one batch (default bucket: burst 5, 1 token/s); an
// auto-fired request is a batch of its own; Reset forgets the batch.
func TestSimLastBatch(t *testing.T) {
	s := pausedSim()
	if b := s.LastBatch(); b != (Batch{}) {
		t.Fatalf("before any request: %+v, want the zero Batch", b)
	}
	s.Send(1)
	if b, want := s.LastBatch(), (Batch{First: 1, Allowed: 1}); b != want {
		t.Fatalf("after Send(1): %+v, want %+v", b, want)
	}
	s.Send(6)
	if b, want := s.LastBatch(), (Batch{First: 2, Allowed: 4, Denied: 2}); b != want {
		t.Fatalf("after Send(6): %+v, want %+v", b, want)
	}
	s.SetAutoRate(1)
	s.SetAutofire(true) // the first auto-fired request now, request #8
	s.Step(time.Second) // #9 at 1 s, with the token back
	if b, want := s.LastBatch(), (Batch{First: 9, Allowed: 1}); b != want {
		t.Fatalf("after auto-fire: %+v, want %+v", b, want)
	}
	s.Reset()
	if b := s.LastBatch(); b != (Batch{}) {
		t.Fatalf("after Reset: %+v, want the zero Batch", b)
	}
}
