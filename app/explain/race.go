package explain

import (
	"fmt"

	"github.com/ratelab/ratelab/limiter"
)

// RaceStep is one operation of the lazy-creation race: goroutine G ("A" or
// "B") does Op ("check", "create", "insert" or "decide"), said in Text, and
// the state after it: the map's entry for the key, the bucket each
// goroutine uses, and the requests each has had admitted.
type RaceStep struct {
	G, Op, Text          string
	Map                  string
	A, B                 string
	AdmittedA, AdmittedB int
}

// Race is the check-then-act race of lazy creation, scripted one operation
// at a time so that the page can step it: two goroutines A and B take the
// first requests of one key at once. Both look the key up and find
// nothing; both call the factory (with no lock held, as limiter.Keyed
// does); each then inserts its bucket under the shard lock. Without the
// re-check under the lock, B's insert replaces A's bucket, which A keeps
// using: the map has lost a limiter and the key gets two bursts. With it
// (limiter.Keyed.create), B finds A's bucket, drops its own and shares
// A's. Each goroutine then sends Burst requests; the decisions are the
// limiter package's own.
type Race struct {
	Recheck  bool
	Key      string
	Burst    int
	Steps    []RaceStep
	Admitted int // by both goroutines, of 2 × Burst
	// Buckets is how many buckets decided the key's requests.
	Buckets int
}

// LazyCreationRace runs the race on token buckets of burst 5, refill rate
// 1/s, all requests at instant 0.
func LazyCreationRace(recheck bool) (Race, error) {
	const burst = 5
	cfg := limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: burst}
	race := Race{Recheck: recheck, Key: "alice", Burst: burst}
	mapName, aUses, bUses := "empty", "nothing", "nothing"
	var aAdm, bAdm int
	add := func(g, op, text string) {
		race.Steps = append(race.Steps, RaceStep{G: g, Op: op, Text: text, Map: mapName, A: aUses, B: bUses, AdmittedA: aAdm, AdmittedB: bAdm})
	}
	add("A", "check", "A looks up alice: not found")
	add("B", "check", "B looks up alice: not found")
	b1, err := limiter.New(cfg)
	if err != nil {
		return Race{}, err
	}
	b2, _ := limiter.New(cfg)
	add("A", "create", "A calls the factory: bucket #1, full (5 tokens)")
	add("B", "create", "B calls the factory: bucket #2, full (5 tokens)")
	mapName, aUses = "alice → bucket #1", "bucket #1"
	if recheck {
		add("A", "insert", "A takes the shard lock, checks again: not found; inserts bucket #1")
		bUses = "bucket #1"
		add("B", "insert", "B takes the shard lock, checks again: found bucket #1; drops bucket #2 and uses bucket #1")
	} else {
		add("A", "insert", "A takes the shard lock and inserts bucket #1")
		mapName, bUses = "alice → bucket #2", "bucket #2"
		add("B", "insert", "B takes the shard lock and inserts bucket #2 over bucket #1: the map has lost bucket #1, which A still uses")
	}
	bBucket := b2
	if recheck {
		bBucket = b1
	}
	decide := func(s limiter.Strategy) (int, error) {
		n := 0
		for range burst {
			d, err := s.AllowN(0, 1)
			if err != nil {
				return 0, err
			}
			if d.Allowed {
				n++
			}
		}
		return n, nil
	}
	if aAdm, err = decide(b1); err != nil {
		return Race{}, err
	}
	add("A", "decide", fmt.Sprintf("A sends %d requests on bucket #1: %d admitted", burst, aAdm))
	if bAdm, err = decide(bBucket); err != nil {
		return Race{}, err
	}
	add("B", "decide", fmt.Sprintf("B sends %d requests on %s: %d admitted", burst, bUses, bAdm))
	race.Admitted = aAdm + bAdm
	race.Buckets = 1
	if !recheck {
		race.Buckets = 2
	}
	return race, nil
}

// Outcome says what the race ended with: "10 admitted for a burst of 5:
// double admission, two buckets for one key (bucket #1 lost from the
// map)", or "5 admitted for a burst of 5: one bucket for the key".
func (r Race) Outcome() string {
	s := fmt.Sprintf("%d admitted for a burst of %d: ", r.Admitted, r.Burst)
	if r.Buckets > 1 {
		return s + "double admission, two buckets for one key (bucket #1 lost from the map)"
	}
	return s + "one bucket for the key"
}
