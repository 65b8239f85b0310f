package explain

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// DesignLessonID is the design lesson's ID: the page adds the class
// diagram and the live demos to it.
const DesignLessonID = "the-design"

func lessonDesign() Lesson {
	return Lesson{
		ID: DesignLessonID, Title: "The design: one interface, a keyed limiter and its factory",
		Watch: "The class diagram: one Strategy interface and six strategies behind it; Keyed holds one Strategy per key, made on " +
			"the key's first request by a Factory; Config and New choose a strategy at run time. Then three demos on the real " +
			"limiter, all through one caller, Serve: switch the strategy and the same 14 requests of alice get other answers; a " +
			"factory gives a key that starts with pro: 50 per minute and any other key 5; a composite key, client + endpoint, " +
			"limits /search and /upload apart.",
		Shows: "The Strategy pattern: Serve calls keyed.AllowNAt and never names an algorithm, so going from a token bucket to a " +
			"sliding window log changes one constructor in the factory and not one line of the caller. Keyed creates a key's " +
			"strategy lazily, on its first request, so memory follows the keys in use; tiers and composite keys are decisions " +
			"of the factory, which receives the key. Each key has its own lock, so unrelated clients never wait on each other, " +
			"where one global lock would queue every request; creating a key is check-then-act, so Keyed checks again under " +
			"the shard's lock before it inserts, or two first requests would each get a full bucket; an idle key is evicted " +
			"after its TTL only when its state is fresh again, so eviction never forgives debt.",
		Interview: "Draw it: type Strategy interface { AllowN(now, n) … }, one struct per algorithm, a Keyed holding a " +
			"map[key]Strategy and a factory func(key) (Strategy, error). Then say where the locks are (one per key, the map " +
			"sharded), why creation checks again under the lock, and how idle keys go (a TTL plus a freshness check).",
		Until: 2 * time.Second,
		run:   runDesign,
		check: func(r Result) (bool, string) {
			ok := r.f("switch.distinct") >= 2 && r.f("tier.free") == FreeLimit && r.f("tier.pro") == ProLimit &&
				r.f("endpoint.search") == SearchLimit && r.f("endpoint.upload") == UploadLimit && r.f("endpoint.keys") == 2
			var per []string
			for _, k := range limiter.Kinds {
				per = append(per, fmt.Sprintf("%s %d", k.Name(), r.f("switch."+string(k))))
			}
			return ok, fmt.Sprintf("one caller, six strategies, the same %d requests: %s admitted (%d different answer sequences). "+
				"Tiers (token bucket): free:alice %d of 10, pro:bob %d of 60. Composite keys: alice /search %d of 8 and "+
				"alice /upload %d of 8, two keys limited apart.",
				len(SwitchRequests()), strings.Join(per, ", "), r.f("switch.distinct"), r.f("tier.free"), r.f("tier.pro"),
				r.f("endpoint.search"), r.f("endpoint.upload"))
		},
	}
}

// runDesign runs the design lesson's three demos: the strategy switch for
// every strategy (its table: one row per request, known at the request's
// instant, one column per strategy), then the tiers and the composite key
// with token buckets.
func runDesign(l Lesson) (Result, error) {
	r := Result{Lesson: l.ID, Columns: []string{"request", "at"}}
	at := SwitchRequests()
	for i, t := range at {
		r.Rows = append(r.Rows, []string{strconv.Itoa(i + 1), units.FormatDuration(t)})
	}
	r.RowAt = at // the lesson clock steps through the requests' instants
	var seqs []string
	for _, k := range limiter.Kinds {
		calls, err := SwitchRun(k, at)
		if err != nil {
			return Result{}, err
		}
		r.Columns = append(r.Columns, k.Name())
		n, seq := int64(0), ""
		for i, c := range calls {
			r.Rows[i] = append(r.Rows[i], ReplyText(c.Reply))
			if c.Reply.Status == 200 {
				n++
			}
			seq += strconv.Itoa(c.Reply.Status) + " "
		}
		r.add("switch."+string(k), n, "%s: %d of %d admitted", k.Name(), n, len(at))
		if !slices.Contains(seqs, seq) {
			seqs = append(seqs, seq)
		}
	}
	r.add("switch.distinct", int64(len(seqs)), "different answer sequences among the six strategies: %d", len(seqs))
	if err := runTiersAndEndpoints(&r, limiter.KindTokenBucket); err != nil {
		return Result{}, err
	}
	return r, nil
}

func runTiersAndEndpoints(r *Result, kind limiter.Kind) error {
	tiers, err := NewDemo(Tiers(TierConfigs(kind)))
	if err != nil {
		return err
	}
	tiers.Send(0, "free:alice", 10)
	tiers.Send(0, "pro:bob", 60)
	free, _ := tiers.Count("free:alice")
	pro, _ := tiers.Count("pro:bob")
	r.add("tier.free", int64(free), "free:alice, %s: %d of 10 admitted", BudgetText(FreeLimit, DemoWindow), free)
	r.add("tier.pro", int64(pro), "pro:bob, %s: %d of 60 admitted", BudgetText(ProLimit, DemoWindow), pro)
	ep, err := NewDemo(PerEndpoint(EndpointLimits(kind)))
	if err != nil {
		return err
	}
	ep.Send(0, EndpointKey("alice", "/search"), 8)
	ep.Send(0, EndpointKey("alice", "/upload"), 8)
	search, _ := ep.Count(EndpointKey("alice", "/search"))
	upload, _ := ep.Count(EndpointKey("alice", "/upload"))
	r.add("endpoint.search", int64(search), "alice /search, %s: %d of 8 admitted", BudgetText(SearchLimit, DemoWindow), search)
	r.add("endpoint.upload", int64(upload), "alice /upload, %s: %d of 8 admitted", BudgetText(UploadLimit, DemoWindow), upload)
	r.add("endpoint.keys", int64(ep.Keys()), "keys held by the composite-key Keyed: %d", ep.Keys())
	return nil
}
