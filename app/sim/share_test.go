package sim

import (
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

func TestShareRoundTrip(t *testing.T) {
	s := mixedSetup(t)
	s.Lanes[2].Config.LeakInterval = 333333333 // 3 per second, truncated
	s.Lanes[0].Config.Rate = 10.0 / 3
	s.Lanes[0].Tiers["free"] = limiter.Config{Kind: limiter.KindSlidingWindowLog, Limit: 3, Window: 1500 * ms}
	s.Clients = append(s.Clients, Client{Name: "quiet", Pattern: Pattern{Kind: PatternNone}, Weight: 1, Tier: "free"},
		Client{Name: "steady_1", Pattern: Pattern{Kind: PatternSteady, Rate: 0.1}, Weight: 8})
	s.Seed, s.Speed, s.Trace, s.Worst = 18446744073709551615, 0.1, "nasa", 1234567*time.Microsecond
	s.Focus = "quiet"
	for _, setup := range []Setup{s, DefaultSetup(), {Lanes: []LaneSpec{}, Clients: []Client{}, Speed: 100, Worst: time.Hour}} {
		// Through a real URL, as the Copy link button does.
		u := "https://ratelab.example/lab?" + setup.Values().Encode()
		parsed, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeSetup(parsed.Query())
		if err != nil {
			t.Fatalf("DecodeSetup(%s): %v", u, err)
		}
		if !reflect.DeepEqual(got, setup) {
			t.Errorf("round trip of %s:\n got %+v\nwant %+v", u, got, setup)
		}
	}
	want := "client=alice%2C1%2C%2Cpoisson%2C8&lane=fixed_window%2C10%2C1s&lane=sliding_window_log%2C10%2C1s&lane=token_bucket%2C10%2C10&seed=1&speed=1&worst=1s"
	if got := DefaultSetup().Values().Encode(); got != want {
		t.Errorf("default link = %s\nwant %s", got, want)
	}
}

func TestShareFallbackPerPart(t *testing.T) {
	good := mixedSetup(t)
	def := DefaultSetup()
	tests := []struct {
		key, value string
		want       string
		fix        func(*Setup)
	}{
		{"seed", "12x", `link: seed: "12x" is not a whole number; want 0 to 18446744073709551615; using the default seed, 1`, func(s *Setup) { s.Seed = def.Seed }},
		{"speed", "1000", "link: speed: speed 1000× is out of range; want 0.1× to 100×; using the default speed, 1×", func(s *Setup) { s.Speed = def.Speed }},
		{"speed", "NaN", "link: speed: speed NaN× is out of range; want 0.1× to 100×; using the default speed, 1×", func(s *Setup) { s.Speed = def.Speed }},
		{"trace", "../../etc/passwd", `link: trace: "../../etc/passwd" is not a built-in trace; want one of [nasa]; replaying no trace`, func(s *Setup) { s.Trace = def.Trace }},
		{"trace", strings.Repeat("é", 5000), `link: trace: "` + strings.Repeat("é", 40) + `…" is not a built-in trace; want one of [nasa]; replaying no trace`, func(s *Setup) { s.Trace = def.Trace }},
		{"seed", strings.Repeat("7", 300000), `link: seed: "` + strings.Repeat("7", 40) + `…" is 300000 characters long; want 0 to 18446744073709551615, in at most 100 characters; using the default seed, 1`, func(s *Setup) { s.Seed = def.Seed }},
		{"worst", "-1s", "link: worst: window -1s is out of range; want 1ms to 24h0m0s; using the default worst-case window, 1s", func(s *Setup) { s.Worst = def.Worst }},
		{"worst", "1000000h", "link: worst: window 1000000h0m0s is out of range; want 1ms to 24h0m0s; using the default worst-case window, 1s", func(s *Setup) { s.Worst = def.Worst }},
		{"lane", "token_bucket,10,-1", "link: lane: lane 1: burst -1 is out of range; want 1 to 10000 tokens; using the default lanes (all of them)", func(s *Setup) { s.Lanes = def.Lanes }},
		{"lane", "rocket,1,1s", "link: lane: lane 1: kind \"rocket\" is unknown; want one of [token_bucket gcra leaky_bucket fixed_window sliding_window_log sliding_window_counter]; using the default lanes (all of them)", func(s *Setup) { s.Lanes = def.Lanes }},
		{"lane", "fixed_window,10,soon", `link: lane: lane 1: window "soon" is not a duration; want e.g. 1s; using the default lanes (all of them)`, func(s *Setup) { s.Lanes = def.Lanes }},
		{"client", "eve,1,,steady,1e9", "link: client: client 1 (eve): rate 1e+09/s is out of range; want > 0 and, times weight 1, <= 10000; using the default clients (all of them)", func(s *Setup) { s.Clients = def.Clients }},
		{"client", "eve,1,,steady", "link: client: client 1: pattern steady has 0 parameters; want 1; using the default clients (all of them)", func(s *Setup) { s.Clients = def.Clients }},
		{"client", "<script>,1,,none", `link: client: client 1: name "<script>" is not a word; want letters, digits, '-' or '_'; using the default clients (all of them)`, func(s *Setup) { s.Clients = def.Clients }},
		{"focus", "zed", `link: focus: "zed" is not a client of the link; want one of [alice bob mallory carol]; using the default focus (the first client)`, func(s *Setup) {}},
	}
	for _, tt := range tests {
		q := good.Values()
		q.Set(tt.key, tt.value)
		got, err := DecodeSetup(q)
		var pe *PartError
		if err == nil || err.Error() != tt.want || !errors.As(err, &pe) || pe.Part != tt.key {
			t.Errorf("%s=%s: error = %v\nwant %s", tt.key, tt.value, err, tt.want)
		}
		want := mixedSetup(t)
		tt.fix(&want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s=%s: setup = %+v\nwant %+v (only that part from the defaults)", tt.key, tt.value, got, want)
		}
	}
	// Two bad parts: both reported, the rest kept.
	q := good.Values()
	q.Set("seed", "-1")
	q.Add("lane", "gcra,1,1")
	q.Add("lane", "gcra,1,1")
	q.Add("lane", "gcra,1,1")
	got, err := DecodeSetup(q)
	want := "link: lane: 9 lanes; want at most 6; using the default lanes (all of them)\n" +
		`link: seed: "-1" is negative; want 0 to 18446744073709551615; using the default seed, 1`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant %s", err, want)
	}
	if !reflect.DeepEqual(got.Clients, good.Clients) || got.Speed != good.Speed || !reflect.DeepEqual(got.Lanes, def.Lanes) {
		t.Error("good parts were not kept")
	}
	// No query at all: the defaults, no error.
	if got, err := DecodeSetup(url.Values{}); err != nil || !reflect.DeepEqual(got, def) {
		t.Errorf("empty query = %+v, %v", got, err)
	}
}

// ParseLink keeps a literal ";" in a value (a lane's tiers), where
// url.ParseQuery drops the whole part; parts are separated by "&" only.
func TestParseLink(t *testing.T) {
	q, err := ParseLink("lane=fixed_window,10,1s;pro=fixed_window,50,1s&lane=gcra,2,2&speed=2;seed=4&seed=%zz")
	if err == nil || err.Error() != `invalid URL escape "%zz"` {
		t.Errorf("error %v; want the bad escape named", err)
	}
	if got := q["lane"]; !reflect.DeepEqual(got, []string{"fixed_window,10,1s;pro=fixed_window,50,1s", "gcra,2,2"}) {
		t.Errorf("lanes %q", got)
	}
	if got := q.Get("speed"); got != "2;seed=4" {
		t.Errorf("speed %q; want 2;seed=4", got)
	}
	s, err := DecodeSetup(url.Values{"lane": q["lane"]})
	if err != nil {
		t.Fatal(err)
	}
	pro := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 50, Window: time.Second}
	if len(s.Lanes) != 2 || s.Lanes[0].Tiers["pro"] != pro {
		t.Errorf("lanes %+v; want 2, the first with tier pro = %v", s.Lanes, pro)
	}
}

// TestShareEveryBadLaneNamed: a link with several bad lanes (or clients)
// names each of them, in order, not just the first.
func TestShareEveryBadLaneNamed(t *testing.T) {
	q := mixedSetup(t).Values()
	q["lane"] = []string{"token_bucket,10,-1", "gcra,2,2", "rocket,1,1s", "fixed_window,10,1s;pro"}
	q["client"] = []string{"eve,1,,steady", "bob,1,,none", "carl,x,,none", "<x>,1,,none", "bob,1,,none"}
	_, err := DecodeSetup(q)
	want := "link: lane: lane 1: burst -1 is out of range; want 1 to 10000 tokens; " +
		`lane 3: kind "rocket" is unknown; want one of [token_bucket gcra leaky_bucket fixed_window sliding_window_log sliding_window_counter]; ` +
		`lane 4: tier "pro" has no '='; want name=kind,p1,p2; using the default lanes (all of them)` + "\n" +
		"link: client: client 1: pattern steady has 0 parameters; want 1; " +
		`client 3: weight "x" is not a number; client 4: name "<x>" is not a word; want letters, digits, '-' or '_'; ` +
		`client 5: name "bob" is used twice; want distinct names; using the default clients (all of them)`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant %s", err, want)
	}
}

// The focus travels in the link only when it is not the first client, and
// stays on a client that is still there when the traffic or trace changes.
func TestLabFocusInSetup(t *testing.T) {
	s := mixedSetup(t) // alice, bob, mallory, carol
	s.Focus = "mallory"
	l, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Focus(); got != "mallory" {
		t.Errorf("focus from the setup = %q; want mallory", got)
	}
	if got := l.Setup().Values().Get("focus"); got != "mallory" {
		t.Errorf("link focus = %q; want mallory", got)
	}
	if err := l.SetFocus("alice"); err != nil {
		t.Fatal(err)
	}
	if v := l.Setup().Values(); v.Has("focus") {
		t.Errorf("link with the first client in focus has focus=%q; want no focus part", v.Get("focus"))
	}
	_ = l.SetFocus("bob")
	cs := l.Setup().Clients
	if err := l.SetTraffic(cs[1:], 7); err != nil { // alice leaves; bob stays
		t.Fatal(err)
	}
	if got := l.Focus(); got != "bob" {
		t.Errorf("focus after alice left = %q; want bob (still a client)", got)
	}
	if err := l.SetTraffic(cs[2:], 7); err != nil { // bob leaves too
		t.Fatal(err)
	}
	if got := l.Focus(); got != "mallory" {
		t.Errorf("focus after bob left = %q; want mallory, the first client", got)
	}
	tr := &Trace{Clients: []string{"host-a", "host-b"}}
	_ = l.SetFocus("carol")
	if err := l.SetTrace("", tr); err != nil {
		t.Fatal(err)
	}
	if got := l.Focus(); got != "carol" {
		t.Errorf("focus after a trace loaded = %q; want carol", got)
	}
}

// A tier's multiple (tier=pro,5) reaches every lane: one without the tier
// gets it, and one whose tier disagrees is told and gets the multiple.
func TestLinkTierReachesEveryLane(t *testing.T) {
	q, _ := ParseLink("lane=fixed_window,10,1s;pro=fixed_window,50,1s&lane=token_bucket,10,10&tier=pro,3&client=alice,1,pro,steady,30")
	s, err := DecodeSetup(q)
	want := "link: lane 1: tier pro is fixed window: 50 per 1s, not 3× the lane's fixed window: 10 per 1s; using fixed window: 30 per 1s, as tier=pro,3 says"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant %s", err, want)
	}
	w0 := limiter.Config{Kind: limiter.KindFixedWindow, Limit: 30, Window: time.Second}
	w1 := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 30, Burst: 30}
	if got := s.Lanes[0].Tiers["pro"]; got != w0 {
		t.Errorf("lane 1 tier pro = %v; want %v", got, w0)
	}
	if got := s.Lanes[1].Tiers["pro"]; got != w1 {
		t.Errorf("lane 2 tier pro = %v; want %v", got, w1)
	}
	// The default lanes, and only tier=: each gets pro at 5×.
	q, _ = ParseLink("tier=pro,5&client=alice,1,pro,steady,30")
	s, err = DecodeSetup(q)
	if err != nil {
		t.Fatal(err)
	}
	for i, ln := range s.Lanes {
		if want, _ := ScaleConfig(ln.Config, 5); ln.Tiers["pro"] != want {
			t.Errorf("default lane %d tier pro = %v; want %v", i+1, ln.Tiers["pro"], want)
		}
	}
}

// A number beyond a float64 in a link is said to be so, not "not a number".
func TestLinkNumberTooLarge(t *testing.T) {
	for _, tc := range []struct{ query, want string }{
		{"lane=token_bucket,1e309,10", `link: lane: lane 1: rate "1e309" is too large or too small to read; using the default lanes (all of them)`},
		{"client=eve,1,,steady,1e309", `link: client: client 1: rate "1e309" is too large or too small to read; using the default clients (all of them)`},
		{"speed=1e309", `link: speed: "1e309" is too large or too small to read; want 0.1 to 100; using the default speed, 1×`},
		{"speed=fast", `link: speed: "fast" is not a number; want 0.1 to 100; using the default speed, 1×`},
	} {
		q, _ := ParseLink(tc.query)
		if _, err := DecodeSetup(q); err == nil || err.Error() != tc.want {
			t.Errorf("%s: error = %v\nwant %s", tc.query, err, tc.want)
		}
	}
}

// Client and tier names are at most MaxNameLen long: they are labels.
func TestNameLength(t *testing.T) {
	long := strings.Repeat("x", MaxNameLen+1)
	for _, tc := range []struct{ query, want string }{
		{"client=" + long + ",1,,poisson,8", "link: client: client 1: name is 33 characters long; want at most 32; using the default clients (all of them)"},
		{"client=alice,1," + long + ",poisson,8", "link: client: client 1: tier is 33 characters long; want at most 32; using the default clients (all of them)"},
		{"tier=" + long + ",2", "link: tier: tier name is 33 characters long; want at most 32; reading each tier's multiple from the lanes instead"},
	} {
		q, _ := ParseLink(tc.query)
		if _, err := DecodeSetup(q); err == nil || err.Error() != tc.want {
			t.Errorf("%s: error = %v\nwant %s", tc.query, err, tc.want)
		}
	}
	if _, err := DecodeSetup(url.Values{"client": {strings.Repeat("x", MaxNameLen) + ",1,,poisson,8"}}); err != nil {
		t.Errorf("a name of %d: %v", MaxNameLen, err)
	}
}

// A tier multiple a lane cannot hold is named, with what happens instead.
// (The lane was a sliding window log of 1,000,000 per 1 s at 100×: that lane
// is now out of its limit field's range, and refused as a whole; then a
// token bucket of burst 8176 at 0.3× of 0.07169/s, before the limiter held
// any burst at any rate from 1e-15/s.)
func TestLinkTierTooLargeForLane(t *testing.T) {
	q, _ := ParseLink("lane=token_bucket,0.00001,8176&lane=fixed_window,10,1s&tier=pro,1e-11")
	s, err := DecodeSetup(q)
	want := "link: lane 1: tier pro at 1e-11×: tier factor 1e-11: limiter: rate 1e-16 is below 1e-15 and would round to 0; want 0 or tokens per second in [1e-15, 1e12] or +Inf; that lane has no tier pro"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant %s", err, want)
	}
	if _, ok := s.Lanes[0].Tiers["pro"]; ok {
		t.Error("lane 1 has tier pro")
	}
	if got := s.Lanes[1].Tiers["pro"]; got.Limit != 1 { // 10 × 1e-11, at least 1
		t.Errorf("lane 2 tier pro = %v; want 1 per 1s", got)
	}
	q, _ = ParseLink("lane=sliding_window_log,1000000,1s&lane=fixed_window,10,1s&tier=pro,100")
	s, err = DecodeSetup(q)
	want = "link: lane: lane 1: limit 1000000 is out of range; want 1 to 10000 requests; using the default lanes (all of them)"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant %s", err, want)
	}
	if !reflect.DeepEqual(s.Lanes[0].Config, DefaultLanes()[0].Config) || s.Lanes[0].Tiers["pro"].Limit != 1000 {
		t.Errorf("lanes %+v; want the default ones, each with tier pro at 100×", s.Lanes)
	}
}

// A link's lane, tier and client are held to the ranges of the page's own
// fields (LaneRanges, PatternRanges, WeightRange): a sliding window log of
// 16,777,216 per 24 h, far above its limit field's 10,000, froze the tab
// (each 100 ms chart bucket copied the whole log). Each part out of range
// is named with the range and falls back as a whole; the rest is kept.
func TestLinkHeldToFieldRanges(t *testing.T) {
	const lanes, clients = "; using the default lanes (all of them)", "; using the default clients (all of them)"
	for _, tc := range []struct{ query, want string }{
		{"lane=sliding_window_log,16777216,24h&client=a,1,,steady,10000&speed=10", "link: lane: lane 1: limit 16777216 is out of range; want 1 to 10000 requests" + lanes},
		{"lane=token_bucket,0.000001,10", "link: lane: lane 1: rate 0.000001 is out of range; want 0.00001 to 10000000 tokens/s" + lanes},
		{"lane=token_bucket,20000000,10", "link: lane: lane 1: rate 20000000 is out of range; want 0.00001 to 10000000 tokens/s" + lanes},
		{"lane=token_bucket,0,10", "link: lane: lane 1: rate 0 is out of range; want 0.00001 to 10000000 tokens/s" + lanes},
		{"lane=token_bucket,Inf,10", "link: lane: lane 1: rate +Inf is out of range; want 0.00001 to 10000000 tokens/s" + lanes},
		{"lane=token_bucket,10,0", "link: lane: lane 1: burst 0 is out of range; want 1 to 10000 tokens" + lanes},
		{"lane=gcra,10,10001", "link: lane: lane 1: burst 10001 is out of range; want 1 to 10000 tokens" + lanes},
		{"lane=leaky_bucket,10001,1s", "link: lane: lane 1: capacity 10001 is out of range; want 1 to 10000 requests" + lanes},
		{"lane=leaky_bucket,10,99ns", "link: lane: lane 1: leak interval 99ns is out of range; want 100ns to 24h0m0s" + lanes},
		{"lane=leaky_bucket,10,25h", "link: lane: lane 1: leak interval 25h0m0s is out of range; want 100ns to 24h0m0s" + lanes},
		{"lane=fixed_window,10001,1s", "link: lane: lane 1: limit 10001 is out of range; want 1 to 10000 requests" + lanes},
		{"lane=fixed_window,10,999us", "link: lane: lane 1: window 999µs is out of range; want 1ms to 24h0m0s" + lanes},
		{"lane=sliding_window_counter,10,24h0m0.001s", "link: lane: lane 1: window 24h0m0.001s is out of range; want 1ms to 24h0m0s" + lanes},
		{"lane=gcra,1,1&lane=sliding_window_log,10,48h", "link: lane: lane 2: window 48h0m0s is out of range; want 1ms to 24h0m0s" + lanes},
		// A lane's tier: up to MaxTierFactor times a lane's most.
		{"lane=fixed_window,10,1s;pro=sliding_window_log,16777216,24h", "link: lane: lane 1: tier pro: limit 16777216 is out of range; want 1 to 1000000 requests" + lanes},
		{"lane=fixed_window,10,1s;pro=fixed_window,50,25h", "link: lane: lane 1: tier pro: window 25h0m0s is out of range; want 1ms to 24h0m0s" + lanes},
		{"lane=token_bucket,10,10;pro=token_bucket,10,1000001", "link: lane: lane 1: tier pro: burst 1000001 is out of range; want 1 to 1000000 tokens" + lanes},
		// A client: its weight and every parameter of its pattern.
		{"client=a,1e-300,,steady,1", "link: client: client 1 (a): weight 1e-300 is out of range; want 0.001 to 10000 ×" + clients},
		{"client=a,0,,none", "link: client: client 1 (a): weight 0 is out of range; want 0.001 to 10000 ×" + clients},
		{"client=a,20000,,none", "link: client: client 1 (a): weight 20000 is out of range; want > 0 and <= 10000" + clients},
		{"client=a,1,,poisson,0.0001", "link: client: client 1 (a): rate 0.0001 is out of range; want 0.001 to 10000 req/s" + clients},
		{"client=a,1,,onoff,5,25h,1s", "link: client: client 1 (a): on 25h0m0s is out of range; want 1ms to 24h0m0s" + clients},
		{"client=a,1,,onoff,5,1s,25h", "link: client: client 1 (a): off 25h0m0s is out of range; want 0s to 24h0m0s" + clients},
		{"client=a,0.1,,steady,20000", "link: client: client 1 (a): rate 20000 is out of range; want 0.001 to 10000 req/s" + clients},
		{"client=a,0.1,,ramp,0,20000,1s", "link: client: client 1 (a): to 20000 is out of range; want 0 to 10000 req/s" + clients},
		{"client=a,1,,ramp,0,5,25h", "link: client: client 1 (a): over 25h0m0s is out of range; want 1ms to 24h0m0s" + clients},
		{"client=a,0.5,,edge,20000,1s,10ms", "link: client: client 1 (a): burst 20000 is out of range; want 1 to 10000 req" + clients},
		{"client=a,1,,edge,10,25h,10ms", "link: client: client 1 (a): window 25h0m0s is out of range; want 1ms to 24h0m0s" + clients},
		{"client=a,1,,edge,10,1s,500ns", "link: client: client 1 (a): gap 500ns is out of range; want 1µs to 24h0m0s" + clients},
		{"client=a,1,,steady,1&client=b,1e-300,,none&client=c,1,,poisson,0.0001", "link: client: client 2 (b): weight 1e-300 is out of range; want 0.001 to 10000 ×; " +
			"client 3 (c): rate 0.0001 is out of range; want 0.001 to 10000 req/s" + clients},
	} {
		q, err := ParseLink(tc.query)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeSetup(q)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error = %v\nwant %s", tc.query, err, tc.want)
			continue
		}
		def := DefaultSetup()
		if q.Has("lane") && !reflect.DeepEqual(got.Lanes, def.Lanes) || q.Has("client") && !reflect.DeepEqual(got.Clients, def.Clients) {
			if !strings.HasPrefix(tc.query, "lane=sliding_window_log,16777216,24h&") { // its client is good
				t.Errorf("%s: setup %+v; want the default lanes or clients", tc.query, got)
			}
		}
	}
	// The freezing link keeps its good parts.
	q, _ := ParseLink("lane=sliding_window_log,16777216,24h&client=a,1,,steady,10000&speed=10")
	s, _ := DecodeSetup(q)
	if want := []Client{{Name: "a", Weight: 1, Pattern: Pattern{Kind: PatternSteady, Rate: 10000}}}; !reflect.DeepEqual(s.Clients, want) || s.Speed != 10 || !reflect.DeepEqual(s.Lanes, DefaultLanes()) {
		t.Errorf("lanes %+v, clients %+v, speed %v; want the default lanes, %+v at 10×", s.Lanes, s.Clients, s.Speed, want)
	}
	// Each range's ends are taken, and "default" as a client's tier is no
	// tier, as its field reads it.
	for _, query := range []string{
		"lane=token_bucket,0.00001,1&lane=gcra,10000000,10000&lane=leaky_bucket,10000,100ns&lane=leaky_bucket,1,24h&lane=fixed_window,1,1ms&lane=sliding_window_log,10000,24h",
		"lane=fixed_window,10000,1s;pro=fixed_window,1000000,1s&lane=leaky_bucket,10000,100ns;pro=leaky_bucket,1000000,1ns&lane=token_bucket,10000000,10000;pro=token_bucket,1000000000,1000000",
		"client=a,0.001,,poisson,0.001&client=b,10000,,steady,1&client=c,1,,onoff,10000,1ms,0s&client=d,1,,onoff,1,24h,24h" +
			"&client=e,1,,ramp,0,10000,1ms&client=f,1,,ramp,10000,0,24h&client=g,1,,edge,10000,24h,1us&client=h,1,default,edge,1,1ms,999us",
	} {
		q, _ := ParseLink(query)
		s, err := DecodeSetup(q)
		if err != nil {
			t.Errorf("%s: %v", query, err)
		}
		if len(s.Clients) == 8 && s.Clients[7].Tier != "" {
			t.Errorf("client h's tier %q; want none (default)", s.Clients[7].Tier)
		}
	}
}

// A tier written inside a lane is held to tier='s rules: its name (not
// empty, not "default", a word of at most MaxNameLen), and, when tier= does
// not give its multiple, that multiple (at most MaxTierFactor): the lab
// reads it from the lane, and the page's link then gave it as tier=pro,10000,
// which the page refused, and adding a lane failed.
func TestLinkLaneTierRules(t *testing.T) {
	const lanes = "; using the default lanes (all of them)"
	long := strings.Repeat("p", 60)
	for _, tc := range []struct{ query, want string }{
		{"lane=fixed_window,10,1s;pro=fixed_window,100000,1s", "link: lane: lane 1: tier pro is fixed window: 100000 per 1s, 10000× the lane's fixed window: 10 per 1s; want at most 100×" + lanes},
		{"lane=token_bucket,10,10;pro=token_bucket,1001,10", "link: lane: lane 1: tier pro is token bucket: 1001/s, burst 10, 100.1× the lane's token bucket: 10/s, burst 10; want at most 100×" + lanes},
		{"lane=fixed_window,10,1s;default=fixed_window,50,1s", `link: lane: lane 1: tier name "default" reads as no tier (a client's own lane budget); want another word` + lanes},
		{"lane=fixed_window,10,1s;" + long + "=fixed_window,50,1s", "link: lane: lane 1: tier name is 60 characters long; want at most 32" + lanes},
		{"lane=fixed_window,10,1s;=fixed_window,50,1s", "link: lane: lane 1: tier name is empty; want a word of letters, digits, '-' or '_'" + lanes},
		{"lane=fixed_window,10,1s;p%20ro=fixed_window,50,1s", `link: lane: lane 1: tier name "p ro" is not a word; want letters, digits, '-' or '_'` + lanes},
		// With tier=pro,5, the lane's tier is set at 5× (and the lane is told).
		{"lane=fixed_window,10,1s;pro=fixed_window,100000,1s&tier=pro,5", "link: lane 1: tier pro is fixed window: 100000 per 1s, not 5× the lane's fixed window: 10 per 1s; using fixed window: 50 per 1s, as tier=pro,5 says"},
		// A bad tier= is no multiple: the lane's own is checked.
		{"lane=fixed_window,10,1s;pro=fixed_window,100000,1s&tier=pro,500", "link: lane: lane 1: tier pro is fixed window: 100000 per 1s, 10000× the lane's fixed window: 10 per 1s; want at most 100×" + lanes + "\n" +
			`link: tier: tier pro: multiple "500" is not a number above 0 and at most 100; reading each tier's multiple from the lanes instead`},
	} {
		q, err := ParseLink(tc.query)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeSetup(q); err == nil || err.Error() != tc.want {
			t.Errorf("%s: error = %v\nwant %s", tc.query, err, tc.want)
		}
	}
	// A lane's tier at 100× is taken; the page's own link of it opens as it
	// is, and a lane added later gets the tier.
	q, _ := ParseLink("lane=fixed_window,10,1s;pro=fixed_window,1000,1s")
	s, err := DecodeSetup(q)
	if err != nil {
		t.Fatal(err)
	}
	lab, err := New(s, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := lab.Setup().Values()
	if got := v["tier"]; !reflect.DeepEqual(got, []string{"pro,100"}) {
		t.Errorf("the page's link gives tier %v; want [pro,100]", got)
	}
	if _, err := DecodeSetup(v); err != nil {
		t.Errorf("the page's own link %s: %v", v.Encode(), err)
	}
	if err := lab.AddLane(LaneSpec{Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 10, Burst: 10}}); err != nil {
		t.Errorf("adding a lane: %v", err)
	}
}
