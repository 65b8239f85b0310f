package sim

import (
	"reflect"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

func TestSameBudget(t *testing.T) {
	want := map[limiter.Kind]limiter.Config{
		limiter.KindTokenBucket:          {Kind: limiter.KindTokenBucket, Rate: 2.5, Burst: 25},
		limiter.KindGCRA:                 {Kind: limiter.KindGCRA, Rate: 2.5, Burst: 25},
		limiter.KindLeakyBucket:          {Kind: limiter.KindLeakyBucket, Capacity: 25, LeakInterval: 400 * ms},
		limiter.KindFixedWindow:          {Kind: limiter.KindFixedWindow, Limit: 25, Window: 10 * time.Second},
		limiter.KindSlidingWindowLog:     {Kind: limiter.KindSlidingWindowLog, Limit: 25, Window: 10 * time.Second},
		limiter.KindSlidingWindowCounter: {Kind: limiter.KindSlidingWindowCounter, Limit: 25, Window: 10 * time.Second},
	}
	for k, w := range want {
		got, err := SameBudget(k, 25, 10*time.Second)
		if err != nil || got != w {
			t.Errorf("SameBudget(%s, 25, 10s) = %+v, %v; want %+v", k, got, err, w)
		}
	}
	if c, _ := SameBudget(limiter.KindLeakyBucket, 3, time.Second); c.LeakInterval != 333333333 {
		t.Errorf("leak interval for 3 per 1s = %d; want 333333333 (truncated)", c.LeakInterval)
	}
	if _, err := SameBudget(limiter.KindFixedWindow, 0, time.Second); err == nil || err.Error() != "same budget: limit 0 is below 1; want >= 1" {
		t.Errorf("SameBudget limit 0 error = %v", err)
	}
}

func TestLaneOperations(t *testing.T) {
	s := mixedSetup(t)
	s.Lanes = s.Lanes[:3] // token bucket (with tier), GCRA, leaky bucket
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lab.AdvanceTo(3 * time.Second)
	// The added lane (a fixed window of 10 per 1 s) gets the lab's tier pro
	// at its multiple, 5× (lane 1: token bucket 10/s, pro 50/s).
	fs := mixedSetup(t)
	pro := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 50, Window: time.Second}
	fs.Lanes[3].Tiers = map[string]limiter.Config{"pro": pro}
	full, _ := New(fs, nil, Options{})
	full.AdvanceTo(3 * time.Second)
	want := snap(full).Lanes

	// An added lane has seen exactly what the others have.
	if err := lab.AddLane(mixedSetup(t).Lanes[3]); err != nil {
		t.Fatal(err)
	}
	if got := lab.Setup().Lanes[3].Tiers; !reflect.DeepEqual(got, fs.Lanes[3].Tiers) {
		t.Errorf("added lane's tiers = %v; want %v", got, fs.Lanes[3].Tiers)
	}
	if got := snap(lab).Lanes[3]; !reflect.DeepEqual(got, want[3]) {
		t.Errorf("added lane = %+v; want %+v", got.Total, want[3].Total)
	}
	if err := lab.DuplicateLane(0); err != nil {
		t.Fatal(err)
	}
	if got := snap(lab).Lanes; !reflect.DeepEqual(got[0], got[1]) || len(got) != 5 {
		t.Error("duplicate lane differs from its original")
	}
	if err := lab.MoveLane(4, 0); err != nil { // fixed window first
		t.Fatal(err)
	}
	if err := lab.RemoveLane(1); err != nil { // one token bucket
		t.Fatal(err)
	}
	var kinds []limiter.Kind
	for _, ln := range lab.Lanes() {
		kinds = append(kinds, ln.Spec().Config.Kind)
	}
	if w := []limiter.Kind{limiter.KindFixedWindow, limiter.KindTokenBucket, limiter.KindGCRA, limiter.KindLeakyBucket}; !reflect.DeepEqual(kinds, w) {
		t.Errorf("kinds = %v; want %v", kinds, w)
	}
	if got := snap(lab).Lanes[0]; !reflect.DeepEqual(got, want[3]) {
		t.Error("moved lane changed")
	}
	lab.AddLane(s.Lanes[0])
	lab.AddLane(s.Lanes[0])
	if err := lab.AddLane(s.Lanes[0]); err == nil || err.Error() != "lanes: already 6 lanes; want at most 6" {
		t.Errorf("7th lane error = %v", err)
	}
	if err := lab.RemoveLane(6); err == nil || err.Error() != "lane 7 does not exist; want 1 to 6" {
		t.Errorf("RemoveLane(6) error = %v", err)
	}
	bad := LaneSpec{Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: -1}}
	if err := lab.SetLane(0, bad); err == nil || err.Error() != "lane 1: limiter: burst -1 is negative; want >= 0" {
		t.Errorf("SetLane bad error = %v", err)
	}
	// Same budget on every lane: 5 per 2 s.
	if err := lab.SetSameBudget(5, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if c := lab.Lanes()[3].Spec().Config; c.Capacity != 5 || c.LeakInterval != 400*ms {
		t.Errorf("leaky bucket after same budget = %v", c)
	}
	if lab.Now() != 3*time.Second {
		t.Errorf("now = %v after lane changes; want 3s", lab.Now())
	}
}
