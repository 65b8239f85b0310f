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
		want verdictText
	}{
		{"none yet", limiter.KindTokenBucket, sim.Sent{}, false, verdictText{"send-decision idle", "", "no request yet", ""}},
		{"token bucket, allowed", limiter.KindTokenBucket, sim.Sent{Seq: 3, Allowed: true, Remaining: 2}, true, verdictText{"send-decision ok", "#3", "✓ allowed", "2 tokens left"}},
		{"token bucket, last token", limiter.KindTokenBucket, sim.Sent{Seq: 1, Allowed: true, Remaining: 1}, true, verdictText{"send-decision ok", "#1", "✓ allowed", "1 token left"}},
		{"window, allowed", limiter.KindSlidingWindowLog, sim.Sent{Seq: 7, Allowed: true, Remaining: 0}, true, verdictText{"send-decision ok", "#7", "✓ allowed", "0 left in the window"}},
		{"denied", limiter.KindTokenBucket, sim.Sent{Seq: 4, RetryAfter: 2 * time.Second}, true, verdictText{"send-decision no", "#4", "✕ denied", "retry after 2.00 s"}},
		{"denied for ever", limiter.KindTokenBucket, sim.Sent{Seq: 5, RetryAfter: limiter.Never}, true, verdictText{"send-decision no", "#5", "✕ denied", "retry after never"}},
	} {
		if got := verdictOf(c.k, c.e, c.ok); got != c.want {
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
	s.Send(4)
	html := uitest.Mount(t, &sendVerdict{Sim: s})
	want := "<p class=\"send-decision no\" id=\"send-decision\">\n<span class=\"seq mono\">#4</span>\n<span class=\"verdict\">✕ denied</span>\n<span class=\"detail\">retry after 2.00 s</span>\n</p>"
	if html != want {
		t.Errorf("rendered\n%s\nwant\n%s", html, want)
	}
}
