package limiter_test

import (
	"context"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// wrapped hides a strategy's Config method, as a strategy from outside the
// package would not have one: ConfigOf reads its State instead.
type wrapped struct{ limiter.Strategy }

func TestConfigOf(t *testing.T) {
	for _, c := range []limiter.Config{
		{Kind: limiter.KindTokenBucket, Rate: 2.5, Burst: 7},
		{Kind: limiter.KindGCRA, Rate: 1.0 / 3, Burst: 2},
		{Kind: limiter.KindLeakyBucket, Capacity: 4, LeakInterval: 250 * time.Millisecond},
		{Kind: limiter.KindFixedWindow, Limit: 100, Window: time.Minute},
		{Kind: limiter.KindSlidingWindowLog, Limit: 3, Window: time.Second},
		{Kind: limiter.KindSlidingWindowCounter, Limit: 50000, Window: 24 * time.Hour},
	} {
		s, err := limiter.New(c)
		if err != nil {
			t.Fatal(err)
		}
		if got := limiter.ConfigOf(s, 0); got != c {
			t.Errorf("ConfigOf(%v) = %+v", c, got)
		}
		if got := limiter.ConfigOf(wrapped{s}, 0); got != c {
			t.Errorf("ConfigOf(%v) from State = %+v", c, got)
		}
	}
}

func TestKeyedTake(t *testing.T) {
	clock := &limiter.ManualClock{}
	c := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 1, Window: time.Second}
	k, _ := limiter.NewKeyed(func(string) (limiter.Strategy, error) { return limiter.New(c) }, limiter.KeyedOptions{Clock: clock})
	clock.Set(250 * time.Millisecond)
	first, err1 := k.Take(context.Background(), "alice", 1)
	second, err2 := k.Take(context.Background(), "alice", 1)
	want := []limiter.Result{
		{Allowed: true, Limits: []limiter.Outcome{{Name: "default", Config: c, Decision: limiter.Decision{Allowed: true, Limit: 1, ResetAfter: 750 * time.Millisecond}}}},
		{Allowed: false, Limits: []limiter.Outcome{{Name: "default", Config: c, Decision: limiter.Decision{Limit: 1, RetryAfter: 750 * time.Millisecond, ResetAfter: 750 * time.Millisecond}}}},
	}
	for i, got := range []limiter.Result{first, second} {
		if err1 != nil || err2 != nil || got.Allowed != want[i].Allowed || len(got.Limits) != 1 || got.Limits[0] != want[i].Limits[0] {
			t.Errorf("Take %d: %+v (%v, %v), want %+v", i+1, got, err1, err2, want[i])
		}
	}
	if _, err := k.Take(context.Background(), "alice", -1); err == nil || err.Error() != "limiter: n -1 is negative; want >= 0" {
		t.Errorf("Take(-1): %v", err)
	}
}
