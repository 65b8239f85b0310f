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
		{"none yet", limiter.KindTokenBucket, sim.Sent{}, false, sim.Batch{}, verdictText{Class: "send-decision idle", Verdict: "no request yet"}},
		{"token bucket, allowed", limiter.KindTokenBucket, sim.Sent{Seq: 3, Allowed: true, Remaining: 2}, true, sim.Batch{First: 3, Allowed: 1}, verdictText{Class: "send-decision ok", Seq: "#3", Verdict: "✓ allowed", Detail: "2 tokens left"}},
		{"token bucket, last token", limiter.KindTokenBucket, sim.Sent{Seq: 1, Allowed: true, Remaining: 1}, true, sim.Batch{First: 1, Allowed: 1}, verdictText{Class: "send-decision ok", Seq: "#1", Verdict: "✓ allowed", Detail: "1 token left"}},
		{"window, allowed", limiter.KindSlidingWindowLog, sim.Sent{Seq: 7, Allowed: true, Remaining: 0}, true, sim.Batch{First: 7, Allowed: 1}, verdictText{Class: "send-decision ok", Seq: "#7", Verdict: "✓ allowed", Detail: "0 left in the window"}},
		{"denied", limiter.KindTokenBucket, sim.Sent{Seq: 4, RetryAfter: 2 * time.Second}, true, sim.Batch{First: 4, Denied: 1}, verdictText{Class: "send-decision no", Seq: "#4", Verdict: "✕ denied", Detail: "retry after 2.00 s"}},
		{"burst, mixed", limiter.KindTokenBucket, sim.Sent{Seq: 7, RetryAfter: time.Second}, true, sim.Batch{First: 2, Allowed: 4, Denied: 2}, verdictText{Class: "send-decision mixed", Seq: "#2–#7", Verdict: "✓ 4 allowed,", Denied: "✕ 2 denied", Detail: "retry after 1.00 s"}},
		{"burst, all allowed", limiter.KindSlidingWindowLog, sim.Sent{Seq: 3, Allowed: true, Remaining: 7}, true, sim.Batch{First: 1, Allowed: 3}, verdictText{Class: "send-decision ok", Seq: "#1–#3", Verdict: "✓ 3 allowed", Detail: "7 left in the window"}},
		{"burst, all denied", limiter.KindTokenBucket, sim.Sent{Seq: 9, RetryAfter: limiter.Never}, true, sim.Batch{First: 8, Denied: 2}, verdictText{Class: "send-decision no", Seq: "#8–#9", Verdict: "✕ 2 denied", Detail: "retry after never"}},
		{"denied for ever", limiter.KindTokenBucket, sim.Sent{Seq: 5, RetryAfter: limiter.Never}, true, sim.Batch{First: 5, Denied: 1}, verdictText{Class: "send-decision no", Seq: "#5", Verdict: "✕ denied", Detail: "retry after never"}},
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
