package playground

import (
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui/uitest"
	"github.com/ratelab/ratelab/limiter"
)

func TestVerdictOf(t *testing.T) {
	for _, c := range []struct {
		name string
		k    limiter.Kind
		e    sim.Sent
		ok   bool
		b    sim.Batch
		want verdictText
	}{
		{"none yet", limiter.KindTokenBucket, sim.Sent{}, false, sim.Batch{}, verdictText{"send-decision idle", "", "no request yet", ""}},
		{"token bucket, allowed", limiter.KindTokenBucket, sim.Sent{Seq: 3, Allowed: true, Remaining: 2}, true, sim.Batch{First: 3, Allowed: 1}, verdictText{"send-decision ok", "#3", "✓ allowed", "2 tokens left"}},
		{"token bucket, last token", limiter.KindTokenBucket, sim.Sent{Seq: 1, Allowed: true, Remaining: 1}, true, sim.Batch{First: 1, Allowed: 1}, verdictText{"send-decision ok", "#1", "✓ allowed", "1 token left"}},
		{"window, allowed", limiter.KindSlidingWindowLog, sim.Sent{Seq: 7, Allowed: true, Remaining: 0}, true, sim.Batch{First: 7, Allowed: 1}, verdictText{"send-decision ok", "#7", "✓ allowed", "0 left in the window"}},
		{"denied", limiter.KindTokenBucket, sim.Sent{Seq: 4, RetryAfter: 2 * time.Second}, true, sim.Batch{First: 4, Denied: 1}, verdictText{"send-decision no", "#4", "✕ denied", "retry after 2.00 s"}},
		{"burst, mixed", limiter.KindTokenBucket, sim.Sent{Seq: 7, RetryAfter: time.Second}, true, sim.Batch{First: 2, Allowed: 4, Denied: 2}, verdictText{"send-decision no", "#2–#7", "✓ 4 allowed, ✕ 2 denied", "retry after 1.00 s"}},
		{"burst, all allowed", limiter.KindSlidingWindowLog, sim.Sent{Seq: 3, Allowed: true, Remaining: 7}, true, sim.Batch{First: 1, Allowed: 3}, verdictText{"send-decision ok", "#1–#3", "✓ 3 allowed", "7 left in the window"}},
		{"burst, all denied", limiter.KindTokenBucket, sim.Sent{Seq: 9, RetryAfter: limiter.Never}, true, sim.Batch{First: 8, Denied: 2}, verdictText{"send-decision no", "#8–#9", "✕ 2 denied", "retry after never"}},
		{"denied for ever", limiter.KindTokenBucket, sim.Sent{Seq: 5, RetryAfter: limiter.Never}, true, sim.Batch{First: 5, Denied: 1}, verdictText{"send-decision no", "#5", "✕ denied", "retry after never"}},
	} {
		if got := verdictOf(c.k, c.e, c.ok, c.b); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// The verdict under Send after the token bucket's four sends (burst 3,
// refill 0.5/s, paused): the fourth is denied, retry after 2 s.
func TestSendVerdictAfterFourSends(t *testing.T) {
	s := pausedSim()
	s.SetBurst(3)
	s.SetRate(0.5)
	for range 4 { // four clicks on Send, not one Burst ×4
		s.Send(1)
	}
	html := uitest.Mount(t, &sendVerdict{Sim: s})
	want := "<p class=\"send-decision no\" id=\"send-decision\">\n<span class=\"seq mono\">#4</span>\n<span class=\"verdict\">✕ denied</span>\n<span class=\"detail\">retry after 2.00 s</span>\n</p>"
	if html != want {
		t.Errorf("rendered\n%s\nwant\n%s", html, want)
	}
}
