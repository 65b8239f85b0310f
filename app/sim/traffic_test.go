package sim

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

func instants(es []Event) []Instant {
	var ts []Instant
	for _, e := range es {
		ts = append(ts, e.At)
	}
	return ts
}

func TestGeneratorInstants(t *testing.T) {
	tests := []struct {
		name  string
		c     Client
		until Instant
		want  []Instant
	}{
		{"steady 4/s", Client{Name: "a", Pattern: Pattern{Kind: PatternSteady, Rate: 4}}, time.Second,
			[]Instant{0, 250 * ms, 500 * ms, 750 * ms, 1000 * ms}},
		{"steady 2/s weight 2", Client{Name: "a", Pattern: Pattern{Kind: PatternSteady, Rate: 2}, Weight: 2}, time.Second,
			[]Instant{0, 250 * ms, 500 * ms, 750 * ms, 1000 * ms}},
		{"steady 3/s is not rounded up", Client{Name: "a", Pattern: Pattern{Kind: PatternSteady, Rate: 3}}, time.Second,
			[]Instant{0, 333333333, 666666667, time.Second}},
		{"poisson 5/s seed 1", Client{Name: "p", Pattern: Pattern{Kind: PatternPoisson, Rate: 5}}, time.Second,
			[]Instant{24121154, 44499580, 490284603, 525100847, 622263075, 821291436}},
		{"on/off 10/s, 250ms on, 750ms off", Client{Name: "o", Pattern: Pattern{Kind: PatternOnOff, Rate: 10, On: 250 * ms, Off: 750 * ms}}, 2300 * ms,
			[]Instant{0, 100 * ms, 200 * ms, 1000 * ms, 1100 * ms, 1200 * ms, 2000 * ms, 2100 * ms, 2200 * ms}},
		{"ramp 0→10/s over 1s", Client{Name: "r", Pattern: Pattern{Kind: PatternRamp, Rate: 0, To: 10, Ramp: time.Second}}, 1200 * ms,
			// N(t) = 5t² until 1 s: event i at √(i/5) s; then 10/s.
			[]Instant{0, 447213595, 632455532, 774596669, 894427191, 1000 * ms, 1100 * ms, 1200 * ms}},
		{"ramp 10→0/s over 1s stops", Client{Name: "r", Pattern: Pattern{Kind: PatternRamp, Rate: 10, To: 0, Ramp: time.Second}}, 10 * time.Second,
			[]Instant{0, 105572809, 225403331, 367544468, 552786405, 1000 * ms}},
		{"edge attack k=2 W=1s gap 10ms", Client{Name: "e", Pattern: Pattern{Kind: PatternEdge, Size: 2, Window: time.Second, Gap: 10 * ms}}, 3500 * ms,
			[]Instant{990 * ms, 990 * ms, 1000 * ms, 1000 * ms, 2990 * ms, 2990 * ms, 3000 * ms, 3000 * ms}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGenerator(tt.c, 1)
			if err != nil {
				t.Fatal(err)
			}
			got := instants(g.Next(tt.until, nil))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("instants = %v\nwant       %v", got, tt.want)
			}
			// Pulling frame by frame gives the same events.
			g2, _ := NewGenerator(tt.c, 1)
			var frames []Event
			for at := Instant(0); at <= tt.until; at += 16 * ms {
				frames = g2.Next(at, frames)
			}
			frames = g2.Next(tt.until, frames)
			if got := instants(frames); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("frame by frame = %v\nwant             %v", got, tt.want)
			}
		})
	}
}

func TestPoissonDependsOnSeedAndName(t *testing.T) {
	gen := func(name string, seed uint64) []Instant {
		g, err := NewGenerator(Client{Name: name, Pattern: Pattern{Kind: PatternPoisson, Rate: 50}}, seed)
		if err != nil {
			t.Fatal(err)
		}
		return instants(g.Next(10*time.Second, nil))
	}
	a := gen("a", 7)
	if !reflect.DeepEqual(a, gen("a", 7)) {
		t.Error("same seed and name gave different instants")
	}
	if reflect.DeepEqual(a, gen("a", 8)) || reflect.DeepEqual(a, gen("b", 7)) {
		t.Error("different seed or name gave the same instants")
	}
	if n := len(a); n < 400 || n > 600 {
		t.Errorf("Poisson 50/s over 10 s sent %d requests; want about 500", n)
	}
}

func TestGeneratorErrors(t *testing.T) {
	tests := []struct {
		c    Client
		want string
	}{
		{Client{Name: "a", Pattern: Pattern{Kind: PatternSteady}}, "client a: rate 0/s is out of range; want > 0 and, times weight 1, <= 10000"},
		{Client{Name: "a", Pattern: Pattern{Kind: PatternSteady, Rate: 2000}, Weight: 8}, "client a: rate 2000/s is out of range; want > 0 and, times weight 8, <= 10000"},
		{Client{Name: "a", Pattern: Pattern{Kind: PatternSteady, Rate: 1}, Weight: -1}, "client a: weight -1 is out of range; want > 0 and <= 10000"},
		{Client{Name: "a", Pattern: Pattern{Kind: PatternEdge, Size: 5, Window: time.Second, Gap: time.Second}}, "client a: gap 1s is out of range; want > 0 and < window 1s"},
		{Client{Name: "a", Pattern: Pattern{Kind: PatternOnOff, Rate: 1}}, "client a: on 0s is below 1ms; want >= 1ms"},
		{Client{Name: "a", Pattern: Pattern{Kind: "zigzag"}}, `client a: pattern "zigzag" is unknown; want one of [none steady poisson onoff ramp edge]`},
		{Client{Pattern: Pattern{Kind: PatternSteady, Rate: 1}}, "client name is empty; want a name"},
	}
	for _, tt := range tests {
		_, err := NewGenerator(tt.c, 1)
		if err == nil || err.Error() != tt.want {
			t.Errorf("NewGenerator(%+v) error = %v\nwant %q", tt.c, err, tt.want)
		}
	}
}

func TestSourceMergesInOrderWithTies(t *testing.T) {
	clients := []Client{
		{Name: "a", Pattern: Pattern{Kind: PatternSteady, Rate: 2}},
		{Name: "b", Pattern: Pattern{Kind: PatternSteady, Rate: 4}},
		{Name: "idle", Pattern: Pattern{Kind: PatternNone}},
	}
	trace := &Trace{Events: []Event{{At: 500 * ms, Client: "t", N: 3}}}
	manual := []Event{{At: 0, Client: "m", N: 1}, {At: 500 * ms, Client: "m", N: 1}}
	s, err := NewSource(clients, 1, trace, manual)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Next(time.Second, nil)
	want := []Event{
		{0, "a", 1}, {0, "b", 1}, {0, "m", 1},
		{250 * ms, "b", 1},
		{500 * ms, "a", 1}, {500 * ms, "b", 1}, {500 * ms, "t", 3}, {500 * ms, "m", 1},
		{750 * ms, "b", 1},
		{1000 * ms, "a", 1}, {1000 * ms, "b", 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events =\n%v\nwant\n%v", got, want)
	}
}

// TestSourceNextN: NextN takes at most n events, at or before until, in
// the order Next gives them, and may stop within an instant: the rest of it
// comes next. Bursts of 10,000 at one instant from 16 clients are not all
// taken to read the first 5.
func TestSourceNextN(t *testing.T) {
	clients := []Client{
		{Name: "a", Pattern: Pattern{Kind: PatternSteady, Rate: 2}},
		{Name: "b", Pattern: Pattern{Kind: PatternSteady, Rate: 4}},
	}
	manual := []Event{{At: 0, Client: "m", N: 1}, {At: 500 * ms, Client: "m", N: 1}}
	s, _ := NewSource(clients, 1, nil, manual)
	got := s.NextN(time.Second, 2, nil)
	if want := []Event{{0, "a", 1}, {0, "b", 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("first 2 = %v, want %v", got, want)
	}
	got = s.NextN(500*ms, 10, got)
	if want := []Event{{0, "a", 1}, {0, "b", 1}, {0, "m", 1}, {250 * ms, "b", 1}, {500 * ms, "a", 1}, {500 * ms, "b", 1}, {500 * ms, "m", 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("then up to 500 ms = %v, want %v", got, want)
	}
	if got := s.NextN(time.Second, 0, nil); got != nil {
		t.Errorf("n = 0: %v, want none", got)
	}
	ref, _ := NewSource(clients, 1, nil, manual)
	all := ref.Next(time.Second, nil)
	s, _ = NewSource(clients, 1, nil, manual)
	var parts []Event
	for k := 1; len(parts) < len(all); k++ {
		parts = s.NextN(time.Second, k, parts)
	}
	if !reflect.DeepEqual(parts, all) {
		t.Errorf("NextN in parts = %v, want Next's %v", parts, all)
	}

	var burst []Client
	for i := range MaxClients {
		burst = append(burst, Client{Name: fmt.Sprintf("c%d", i+1), Pattern: Pattern{Kind: PatternEdge, Size: MaxRate, Window: time.Second, Gap: ms}})
	}
	s, err := NewSource(burst, 1, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got = s.NextN(time.Hour, 5, nil)
	if want := []Event{{999 * ms, "c1", 1}, {999 * ms, "c1", 1}, {999 * ms, "c1", 1}, {999 * ms, "c1", 1}, {999 * ms, "c1", 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("first 5 of the bursts = %v, want %v", got, want)
	}
}

func TestNoisyNeighbour(t *testing.T) {
	cs := NoisyNeighbour(3, 2)
	s, err := NewSource(cs, 42, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range s.Next(100*time.Second, nil) {
		count[e.Client]++
	}
	if cs[0].Weight != 8 || cs[1].Weight != 1 || cs[2].Weight != 1 {
		t.Errorf("weights = %v, %v, %v; want 8, 1, 1", cs[0].Weight, cs[1].Weight, cs[2].Weight)
	}
	// 16/s against 2/s over 100 s: about 1600 against about 200 each.
	if count["c1"] < 1400 || count["c1"] > 1800 || count["c2"] < 140 || count["c2"] > 260 {
		t.Errorf("counts = %v; want c1 about 1600, the others about 200", count)
	}
}

// A link with nanosecond on/off phases once froze the page (the generator
// stepped through every 2 ns period); such phases are now refused.
func TestOnOffNanosecondPhasesRefused(t *testing.T) {
	c := Client{Name: "alice", Weight: 1, Pattern: Pattern{Kind: PatternOnOff, Rate: 5, On: 1, Off: 1}}
	if _, err := NewGenerator(c, 1); err == nil || err.Error() != "client alice: on 1ns is below 1ms; want >= 1ms" {
		t.Errorf("on 1ns: err = %v", err)
	}
	_, err := DecodeSetup(url.Values{"client": {"alice,1,,onoff,5,1ns,1ns"}})
	if err == nil || !strings.Contains(err.Error(), "on 1ns is below 1ms; want >= 1ms") {
		t.Errorf("link with on=1ns: err = %v", err)
	}
}
