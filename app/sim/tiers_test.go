package sim

import (
	"fmt"
	"maps"
	"math"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

func TestTiersPerClient(t *testing.T) {
	s := mixedSetup(t)
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.AdvanceTo(time.Second); err != nil {
		t.Fatal(err)
	}
	if got := lab.Lanes()[0].State(lab.Now(), "bob").Limit; got != 50 {
		t.Errorf("bob's (pro) limit in lane 1 = %d; want 50", got)
	}
	if got := lab.Lanes()[0].State(lab.Now(), "alice").Limit; got != 10 {
		t.Errorf("alice's limit in lane 1 = %d; want 10", got)
	}
	if got := lab.Lanes()[1].State(lab.Now(), "bob").Limit; got != 10 {
		t.Errorf("bob's limit in lane 2 (no tiers) = %d; want 10", got)
	}
}

func TestScaleConfigAndSetTier(t *testing.T) {
	cases := []struct {
		in   limiter.Config
		k    float64
		want limiter.Config
	}{
		{limiter.Config{Kind: limiter.KindTokenBucket, Rate: 2, Burst: 10}, 5, limiter.Config{Kind: limiter.KindTokenBucket, Rate: 10, Burst: 50}},
		{limiter.Config{Kind: limiter.KindGCRA, Rate: 2, Burst: 3}, 0.5, limiter.Config{Kind: limiter.KindGCRA, Rate: 1, Burst: 2}},
		{limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 40, LeakInterval: 500 * ms}, 2, limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 80, LeakInterval: 250 * ms}},
		{limiter.Config{Kind: limiter.KindFixedWindow, Limit: 10, Window: time.Second}, 0.01, limiter.Config{Kind: limiter.KindFixedWindow, Limit: 1, Window: time.Second}},
		{limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 10, Window: time.Minute}, 3, limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 30, Window: time.Minute}},
	}
	for _, c := range cases {
		got, err := ScaleConfig(c.in, c.k)
		if err != nil || got != c.want {
			t.Errorf("ScaleConfig(%v, %g) = %+v, %v; want %+v", c.in, c.k, got, err, c.want)
		}
	}
	for _, k := range []float64{0, -1, 101, math.NaN()} {
		_, err := ScaleConfig(cases[0].in, k)
		want := fmt.Sprintf("tier factor %g is out of range; want more than 0 and at most 100", k)
		if err == nil || err.Error() != want {
			t.Errorf("ScaleConfig(…, %g) error = %v; want %q", k, err, want)
		}
	}

	s := DefaultSetup()
	s.Lanes = []LaneSpec{{Config: limiter.Config{Kind: limiter.KindFixedWindow, Limit: 2, Window: time.Second}}, {Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 2, Burst: 2}}}
	s.Clients = []Client{{Name: "free", Weight: 1}, {Name: "paid", Weight: 1, Tier: "pro"}}
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lab.Clock().Pause()
	fire := func() (free, paid Counts) {
		for range 10 {
			if err := lab.Fire("free", 1); err != nil {
				t.Fatal(err)
			}
			if err := lab.Fire("paid", 1); err != nil {
				t.Fatal(err)
			}
		}
		return lab.Lanes()[0].Client("free"), lab.Lanes()[0].Client("paid")
	}
	if free, paid := fire(); free.Allowed != 2 || paid.Allowed != 2 {
		t.Fatalf("before tiers: free %+v paid %+v; want 2 allowed each", free, paid)
	}
	if err := lab.SetTier("pro", 3); err != nil {
		t.Fatal(err)
	}
	if got := lab.TierNames(); len(got) != 1 || got[0] != "pro" {
		t.Errorf("TierNames() = %v; want [pro]", got)
	}
	// The replay gives "paid" 3× the budget for the 10 requests already sent.
	if free, paid := lab.Lanes()[0].Client("free"), lab.Lanes()[0].Client("paid"); free.Allowed != 2 || paid.Allowed != 6 {
		t.Errorf("after SetTier(pro, 3): free %+v paid %+v; want 2 and 6 allowed", free, paid)
	}
	if got := lab.Lanes()[1].State(lab.Now(), "paid").Limit; got != 6 {
		t.Errorf("token bucket lane: paid's burst = %d; want 6", got)
	}
	if err := lab.SetTier("pro", 0); err != nil {
		t.Fatal(err)
	}
	if got := lab.TierNames(); len(got) != 0 {
		t.Errorf("TierNames() after removing = %v; want none", got)
	}
	if err := lab.SetTier("bad name", 2); err == nil || err.Error() != `tier name "bad name" is not a word; want letters, digits, '-' or '_'` {
		t.Errorf("SetTier(bad name) error = %v", err)
	}
}

func TestSetTierNames(t *testing.T) {
	lab, err := New(DefaultSetup(), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"":        "tier name is empty; want a word of letters, digits, '-' or '_'",
		"default": `tier name "default" reads as no tier (a client's own lane budget); want another word`,
		"a b":     `tier name "a b" is not a word; want letters, digits, '-' or '_'`,
	} {
		if err := lab.SetTier(name, 2); err == nil || err.Error() != want {
			t.Errorf("SetTier(%q): %v, want %q", name, err, want)
		}
	}
	if err := lab.SetTier("pro", 2); err != nil || !reflect.DeepEqual(lab.TierNames(), []string{"pro"}) {
		t.Errorf("SetTier(pro): %v, tiers %v", err, lab.TierNames())
	}
}

// A tier is a multiple of each lane's budget, and stays one: a lane added
// later gets it, and a lane whose strategy or budget changes gets it again
// at the same multiple (the tier of a lane switched from token bucket to
// leaky bucket is a leaky bucket). The multiple is SetTier's, or, for a
// tier that came with the setup (a link), the one its first lane shows.
func TestTiersFollowLanes(t *testing.T) {
	tb := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 10, Burst: 10}
	fw := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 10, Window: time.Second}
	s := Setup{Lanes: []LaneSpec{{Config: fw}, {Config: tb}},
		Clients: []Client{{Name: "free", Weight: 1}, {Name: "paid", Weight: 1, Tier: "pro"}}, Worst: time.Second, Speed: 1}
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.SetTier("pro", 5); err != nil {
		t.Fatal(err)
	}
	tiers := func(i int) string {
		var b []string
		for _, name := range slices.Sorted(maps.Keys(lab.Setup().Lanes[i].Tiers)) {
			b = append(b, name+"="+lab.Setup().Lanes[i].Tiers[name].String())
		}
		return strings.Join(b, " ")
	}
	check := func(what string, i int, want string) {
		t.Helper()
		if got := tiers(i); got != want {
			t.Errorf("%s: lane %d tiers %q, want %q", what, i+1, got, want)
		}
	}
	check("SetTier", 0, "pro=fixed window: 50 per 1s")
	if err := lab.AddLane(LaneSpec{Config: limiter.Config{Kind: limiter.KindGCRA, Rate: 2, Burst: 4}}); err != nil {
		t.Fatal(err)
	}
	check("AddLane", 2, "pro=GCRA: 10/s, burst 20")
	leaky := limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 10, LeakInterval: 100 * time.Millisecond}
	if err := lab.SetLane(1, LaneSpec{Config: leaky, Tiers: lab.Setup().Lanes[1].Tiers}); err != nil {
		t.Fatal(err)
	}
	check("SetLane to a leaky bucket", 1, "pro=leaky bucket: capacity 50, leaks 1 per 20ms")
	if err := lab.SetLane(0, LaneSpec{Config: limiter.Config{Kind: limiter.KindFixedWindow, Limit: 100, Window: time.Second}, Tiers: lab.Setup().Lanes[0].Tiers}); err != nil {
		t.Fatal(err)
	}
	check("SetLane limit 100", 0, "pro=fixed window: 500 per 1s")
	if err := lab.SetSameBudget(200, time.Second); err != nil {
		t.Fatal(err)
	}
	check("SetSameBudget", 0, "pro=fixed window: 1000 per 1s")
	check("SetSameBudget", 2, "pro=GCRA: 1000/s, burst 1000")
	// paid, in tier pro, now gets 1000 per 1 s in the fixed window lane.
	for range 10 {
		if err := lab.Fire("paid", 100); err != nil {
			t.Fatal(err)
		}
	}
	if got := lab.Lanes()[0].Client("paid"); got.Allowed != 1000 || got.Denied != 0 {
		t.Errorf("paid in lane 1 = %+v; want 1000 allowed, 0 denied", got)
	}

	// A tier that came with the setup: its multiple is read from lane 1.
	s.Lanes[0].Tiers = map[string]limiter.Config{"pro": {Kind: limiter.KindFixedWindow, Limit: 30, Window: time.Second}}
	lab2, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab2.AddLane(LaneSpec{Config: tb}); err != nil {
		t.Fatal(err)
	}
	if got := lab2.Setup().Lanes[2].Tiers["pro"].String(); got != "token bucket: 30/s, burst 30" {
		t.Errorf("tier from a link, added lane: %q, want token bucket: 30/s, burst 30", got)
	}
}

// A link's tier ×0.25: the fixed window's 10 × 0.25 was rounded to 3, the
// token bucket's rate keeps 2.5/s; the multiple is read from the rate, so a
// lane added later gets 2.5/s, not 3/s. And a tier outlives its lanes: with
// every lane removed, a new lane gets it again.
func TestTierMultipleFromLink(t *testing.T) {
	fw := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 10, Window: time.Second}
	tb := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 10, Burst: 10}
	s := Setup{Lanes: []LaneSpec{
		{Config: fw, Tiers: map[string]limiter.Config{"lite": {Kind: limiter.KindFixedWindow, Limit: 3, Window: time.Second}}},
		{Config: tb, Tiers: map[string]limiter.Config{"lite": {Kind: limiter.KindTokenBucket, Rate: 2.5, Burst: 3}}},
	}, Clients: []Client{{Name: "a", Weight: 1}}, Worst: time.Second, Speed: 1}
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.AddLane(LaneSpec{Config: limiter.Config{Kind: limiter.KindGCRA, Rate: 10, Burst: 10}}); err != nil {
		t.Fatal(err)
	}
	if got := lab.Setup().Lanes[2].Tiers["lite"].String(); got != "GCRA: 2.5/s, burst 3" {
		t.Errorf("added lane's tier lite: %q, want GCRA: 2.5/s, burst 3", got)
	}
	for range 3 {
		if err := lab.RemoveLane(0); err != nil {
			t.Fatal(err)
		}
	}
	if got := lab.TierNames(); !slices.Equal(got, []string{"lite"}) {
		t.Errorf("tiers with no lane: %v, want [lite]", got)
	}
	if err := lab.AddLane(LaneSpec{Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 4, Burst: 8}}); err != nil {
		t.Fatal(err)
	}
	if got := lab.Setup().Lanes[0].Tiers["lite"].String(); got != "token bucket: 1/s, burst 2" {
		t.Errorf("lane added to an empty lab: tier lite %q, want token bucket: 1/s, burst 2", got)
	}
}

// The link carries each tier's multiple (tier=name,multiple), so a lab with
// no lane left keeps its tiers through a link, and a multiple of 0.25 no
// longer comes back as a fixed window's rounded 3 of 10.
func TestTierMultiplesInLink(t *testing.T) {
	fw := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 10, Window: time.Second}
	s := Setup{Lanes: []LaneSpec{{Config: fw}}, Clients: []Client{{Name: "a", Weight: 1, Pattern: Pattern{Kind: PatternNone}}}, Worst: time.Second, Speed: 1}
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.SetTier("lite", 0.25); err != nil {
		t.Fatal(err)
	}
	v := lab.Setup().Values()
	if got := v["tier"]; !slices.Equal(got, []string{"lite,0.25"}) {
		t.Errorf("tier values %v, want [lite,0.25]", got)
	}
	if got := v.Get("lane"); got != "fixed_window,10,1s;lite=fixed_window,3,1s" {
		t.Errorf("lane value %q", got)
	}
	back, err := DecodeSetup(v)
	if err != nil {
		t.Fatal(err)
	}
	lab2, err := New(back, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab2.AddLane(LaneSpec{Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 10, Burst: 10}}); err != nil {
		t.Fatal(err)
	}
	if got := lab2.Setup().Lanes[1].Tiers["lite"].String(); got != "token bucket: 2.5/s, burst 3" {
		t.Errorf("from the link, an added lane's tier: %q, want token bucket: 2.5/s, burst 3", got)
	}
	// No lane left: the link still names the tier.
	lab2.RemoveLane(1)
	lab2.RemoveLane(0)
	v = lab2.Setup().Values()
	if got := v["tier"]; !slices.Equal(got, []string{"lite,0.25"}) || v.Get("lane") != "" {
		t.Errorf("no lanes: tier %v, lane %q; want [lite,0.25] and an empty lane", got, v.Get("lane"))
	}
	back, _ = DecodeSetup(v)
	lab3, _ := New(back, nil, Options{})
	lab3.AddLane(LaneSpec{Config: fw})
	if got := lab3.Setup().Lanes[0].Tiers["lite"].String(); got != "fixed window: 3 per 1s" {
		t.Errorf("from a link with no lanes: %q", got)
	}
	for _, c := range []struct{ v, want string }{
		{"lite", `"lite" is not name,multiple; want e.g. pro,5`},
		{"lite,0", `tier lite: multiple "0" is not a number above 0 and at most 100`},
		{"lite,x", `tier lite: multiple "x" is not a number above 0 and at most 100`},
		{"default,2", `tier name "default" reads as no tier (a client's own lane budget); want another word`},
		{"a b,2", `tier name "a b" is not a word; want letters, digits, '-' or '_'`},
	} {
		_, err := DecodeSetup(url.Values{"tier": {c.v}})
		if want := "link: tier: " + c.want + "; reading each tier's multiple from the lanes instead"; err == nil || err.Error() != want {
			t.Errorf("tier=%s: error %v, want %s", c.v, err, c.want)
		}
	}
	if _, err := DecodeSetup(url.Values{"tier": {"p,2", "p,3"}}); err == nil || err.Error() != "link: tier: tier p is given twice; want one multiple per tier; reading each tier's multiple from the lanes instead" {
		t.Errorf("tier twice: %v", err)
	}
}
