package explain

import (
	"reflect"
	"testing"
)

// TestLazyCreationRace: the race's state after every operation, without and
// with the re-check under the shard lock.
func TestLazyCreationRace(t *testing.T) {
	start := []RaceStep{
		{G: "A", Op: "check", Text: "A looks up alice: not found", Map: "empty", A: "nothing", B: "nothing"},
		{G: "B", Op: "check", Text: "B looks up alice: not found", Map: "empty", A: "nothing", B: "nothing"},
		{G: "A", Op: "create", Text: "A calls the factory: bucket #1, full (5 tokens)", Map: "empty", A: "nothing", B: "nothing"},
		{G: "B", Op: "create", Text: "B calls the factory: bucket #2, full (5 tokens)", Map: "empty", A: "nothing", B: "nothing"},
	}
	for _, c := range []struct {
		recheck  bool
		rest     []RaceStep
		admitted int
		outcome  string
	}{
		{false, []RaceStep{
			{G: "A", Op: "insert", Text: "A takes the shard lock and inserts bucket #1", Map: "alice → bucket #1", A: "bucket #1", B: "nothing"},
			{G: "B", Op: "insert", Text: "B takes the shard lock and inserts bucket #2 over bucket #1: the map has lost bucket #1, which A still uses",
				Map: "alice → bucket #2", A: "bucket #1", B: "bucket #2"},
			{G: "A", Op: "decide", Text: "A sends 5 requests on bucket #1: 5 admitted", Map: "alice → bucket #2", A: "bucket #1", B: "bucket #2", AdmittedA: 5},
			{G: "B", Op: "decide", Text: "B sends 5 requests on bucket #2: 5 admitted", Map: "alice → bucket #2", A: "bucket #1", B: "bucket #2", AdmittedA: 5, AdmittedB: 5},
		}, 10, "10 admitted for a burst of 5: double admission, two buckets for one key (bucket #1 lost from the map)"},
		{true, []RaceStep{
			{G: "A", Op: "insert", Text: "A takes the shard lock, checks again: not found; inserts bucket #1", Map: "alice → bucket #1", A: "bucket #1", B: "nothing"},
			{G: "B", Op: "insert", Text: "B takes the shard lock, checks again: found bucket #1; drops bucket #2 and uses bucket #1",
				Map: "alice → bucket #1", A: "bucket #1", B: "bucket #1"},
			{G: "A", Op: "decide", Text: "A sends 5 requests on bucket #1: 5 admitted", Map: "alice → bucket #1", A: "bucket #1", B: "bucket #1", AdmittedA: 5},
			{G: "B", Op: "decide", Text: "B sends 5 requests on bucket #1: 0 admitted", Map: "alice → bucket #1", A: "bucket #1", B: "bucket #1", AdmittedA: 5},
		}, 5, "5 admitted for a burst of 5: one bucket for the key"},
	} {
		r, err := LazyCreationRace(c.recheck)
		if err != nil {
			t.Fatal(err)
		}
		want := append(append([]RaceStep{}, start...), c.rest...)
		if len(r.Steps) != len(want) {
			t.Fatalf("re-check %v: %d steps, want %d", c.recheck, len(r.Steps), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(r.Steps[i], want[i]) {
				t.Errorf("re-check %v, step %d:\n got %+v\nwant %+v", c.recheck, i+1, r.Steps[i], want[i])
			}
		}
		if r.Admitted != c.admitted || r.Outcome() != c.outcome {
			t.Errorf("re-check %v: %d admitted, %q; want %d, %q", c.recheck, r.Admitted, r.Outcome(), c.admitted, c.outcome)
		}
	}
}
