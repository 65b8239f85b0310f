package limiter_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
	"pgregory.net/rapid"
)

// policyConfigs are small limits of every kind, so that traces hit their
// boundaries often.
var policyConfigs = []limiter.Config{
	{Kind: limiter.KindTokenBucket, Rate: 2, Burst: 3},
	{Kind: limiter.KindTokenBucket, Rate: 1.0 / 3, Burst: 1},
	{Kind: limiter.KindGCRA, Rate: 5, Burst: 2},
	{Kind: limiter.KindLeakyBucket, Capacity: 3, LeakInterval: 700 * time.Millisecond},
	{Kind: limiter.KindFixedWindow, Limit: 4, Window: 2 * time.Second},
	{Kind: limiter.KindSlidingWindowLog, Limit: 3, Window: 1500 * time.Millisecond},
	{Kind: limiter.KindSlidingWindowCounter, Limit: 5, Window: time.Second},
	{Kind: limiter.KindTokenBucket, Rate: 0, Burst: 2},
}

// replay returns fresh strategies of limits fed the admitted requests.
func replay(t *rapid.T, limits []limiter.Limit, admitted []req) []limiter.Strategy {
	s := make([]limiter.Strategy, len(limits))
	for i, l := range limits {
		s[i], _ = limiter.New(l.Config)
		for _, r := range admitted {
			if d, _ := s[i].AllowN(r.t, r.n); !d.Allowed {
				t.Fatalf("limit %s denied %v on replay", l.Name, r)
			}
		}
	}
	return s
}

// propPolicyIsSequentialWithRollback: a Policy decides every request as
// running its limits one after another on copies of their states would,
// keeping the copies only when all admit (rollback otherwise): the same
// verdict, each denying limit's exact Decision, each other limit's state
// unchanged on a denial, and the states of fresh limits fed only the
// admitted requests after every request.
func propPolicyIsSequentialWithRollback(t *rapid.T) {
	var limits []limiter.Limit
	for i, c := range rapid.SliceOfNDistinct(rapid.IntRange(0, len(policyConfigs)-1), 1, 3, rapid.ID[int]).Draw(t, "limits") {
		limits = append(limits, limiter.Limit{Name: fmt.Sprintf("l%d", i), Config: policyConfigs[c]})
	}
	p, err := limiter.NewPolicy(limits, limiter.PolicyOptions{SweepEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	var admitted []req
	now := limiter.Instant(0)
	for range rapid.IntRange(1, 30).Draw(t, "steps") {
		now += time.Duration(rapid.IntRange(-2, 8).Draw(t, "delta")) * 100 * time.Millisecond
		r := req{now, rapid.IntRange(0, 6).Draw(t, "n")}
		res, err := p.AllowNAt(r.t, "k", r.n)
		if err != nil {
			t.Fatal(err)
		}
		// The model: limits in order on copies; a denial discards them all.
		copies := replay(t, limits, admitted)
		all := true
		want := make([]limiter.Decision, len(limits))
		for i, s := range copies {
			if want[i], _ = s.AllowN(r.t, r.n); !want[i].Allowed {
				all = false
			}
		}
		if res.Allowed != all || len(res.Limits) != len(limits) {
			t.Fatalf("%v: policy allowed=%v, sequential allowed=%v", r, res.Allowed, all)
		}
		for i, o := range res.Limits {
			if !all && want[i].Allowed {
				// Not spent: the limit reports its state as before.
				want[i], _ = replay(t, limits, admitted)[i].AllowN(r.t, 0)
			}
			if o.Name != limits[i].Name || o.Config != limits[i].Config || o.Decision != want[i] {
				t.Fatalf("%v: limit %s got %+v, want %+v", r, limits[i].Name, o.Decision, want[i])
			}
		}
		if all && r.n > 0 {
			admitted = append(admitted, r)
		}
		got, _ := p.State(r.t, "k")
		for i, s := range replay(t, limits, admitted) {
			if st := s.State(r.t); !reflect.DeepEqual(got[i], st) {
				t.Fatalf("%v: limit %s state %+v, want %+v (fresh limit fed the admitted requests)", r, limits[i].Name, got[i], st)
			}
		}
		if res.Allowed && res.RetryAfter() != 0 || !res.Allowed && r.n > 0 && res.RetryAfter() == 0 {
			t.Fatalf("%v: RetryAfter %v for allowed=%v", r, res.RetryAfter(), res.Allowed)
		}
	}
}

func TestPolicyProperty(t *testing.T) { rapid.Check(t, propPolicyIsSequentialWithRollback) }

func FuzzPolicyIsSequentialWithRollback(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(propPolicyIsSequentialWithRollback))
}

// Ten per second and twenty per minute: the per-second limit is the first
// to deny, the per-minute one the longest wait.
func TestPolicyResult(t *testing.T) {
	p, err := limiter.NewPolicy([]limiter.Limit{
		{Name: "second", Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 10, Burst: 10}},
		{Name: "minute", Config: limiter.Config{Kind: limiter.KindFixedWindow, Limit: 20, Window: time.Minute}},
	}, limiter.PolicyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type step struct {
		at                time.Duration
		n                 int
		allowed           bool
		remaining         int
		retry             time.Duration
		second, minuteRem int
	}
	for i, s := range []step{
		{0, 10, true, 0, 0, 0, 10},
		{0, 1, false, 0, 100 * time.Millisecond, 0, 10}, // the bucket denies, the window spends nothing
		{time.Second, 10, true, 0, 0, 0, 0},
		{2 * time.Second, 1, false, 0, 58 * time.Second, 10, 0}, // the window denies
		{2 * time.Second, 11, false, 0, limiter.Never, 10, 0},   // both deny; the bucket never will
		{time.Minute, 5, true, 5, 0, 5, 15},
	} {
		res, err := p.AllowNAt(s.at, "alice", s.n)
		if err != nil {
			t.Fatal(err)
		}
		if res.Allowed != s.allowed || res.Remaining() != s.remaining || res.RetryAfter() != s.retry ||
			res.Limits[0].Remaining != s.second || res.Limits[1].Remaining != s.minuteRem {
			t.Errorf("step %d: allowed=%v remaining=%d retry=%v second=%d minute=%d, want %+v", i, res.Allowed, res.Remaining(),
				res.RetryAfter(), res.Limits[0].Remaining, res.Limits[1].Remaining, s)
		}
	}
	if n := p.Sweep(10 * time.Minute); n != 1 || p.Len() != 0 {
		t.Errorf("Sweep evicted %d, Len %d; want 1, 0", n, p.Len())
	}
}

func TestPolicyErrors(t *testing.T) {
	tb := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 1}
	for _, tc := range []struct {
		limits []limiter.Limit
		opts   limiter.PolicyOptions
		want   string
	}{
		{nil, limiter.PolicyOptions{}, "limiter: policy has no limits; want at least one"},
		{[]limiter.Limit{{Name: "", Config: tb}}, limiter.PolicyOptions{}, `limiter: limit name is empty; want printable ASCII without '"' or '\'`},
		{[]limiter.Limit{{Name: `a"b`, Config: tb}}, limiter.PolicyOptions{}, `limiter: limit name "a\"b" holds '"'; want printable ASCII without '"' or '\'`},
		{[]limiter.Limit{{Name: "a", Config: tb}, {Name: "a", Config: tb}}, limiter.PolicyOptions{}, `limiter: limit name "a" is repeated; want each name once`},
		{[]limiter.Limit{{Name: "a", Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: -1}}}, limiter.PolicyOptions{}, `limiter: limit "a": burst -1 is negative; want >= 0`},
		{[]limiter.Limit{{Name: "a", Config: tb}}, limiter.PolicyOptions{IdleTTL: -1}, "limiter: idle TTL -1ns is negative; want >= 0"},
	} {
		_, err := limiter.NewPolicy(tc.limits, tc.opts)
		if err == nil || err.Error() != tc.want || !errors.Is(err, limiter.ErrInvalid) {
			t.Errorf("NewPolicy(%v): %v, want %q", tc.limits, err, tc.want)
		}
	}
}
