package learn

import (
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/site"
	"github.com/ratelab/ratelab/app/units"
	"github.com/ratelab/ratelab/limiter"
)

// designView is the design lesson's own part: the class diagram of package
// limiter, and three live demos that run the real limiter.Keyed through one
// caller, explain.Serve: the strategy switch, tiers from the factory, and a
// composite key of client + endpoint.
type designView struct {
	app.Compo

	kind      limiter.Kind
	tiers     *explain.Demo
	tierAt    limiter.Instant
	endpoints *explain.Demo
	epAt      limiter.Instant
	err       string
}

// demoWait is how far the tiers' and endpoints' "Wait" buttons move their
// demo's clock.
const demoWait = 10 * time.Second

// The tiers' and endpoints' keys, in the order their tables list them.
var (
	tierKeys     = []string{"free:alice", "pro:bob"}
	endpointKeys = [][2]string{{"alice", "/search"}, {"alice", "/upload"}, {"bob", "/upload"}}
)

func (v *designView) OnMount(ctx app.Context) {
	if v.kind == "" {
		v.setKind(limiter.KindTokenBucket)
	}
}

// setKind switches every demo to kind; the tiers and the endpoints start
// over, since their keys' strategies were made by the old factory.
func (v *designView) setKind(k limiter.Kind) {
	v.kind, v.err = k, ""
	var err error
	if v.tiers, err = explain.NewDemo(explain.Tiers(explain.TierConfigs(k))); err != nil {
		v.err = err.Error()
	}
	if v.endpoints, err = explain.NewDemo(explain.PerEndpoint(explain.EndpointLimits(k))); err != nil {
		v.err = err.Error()
	}
	v.tierAt, v.epAt = 0, 0
}

func (v *designView) Render() app.UI {
	if v.kind == "" {
		v.setKind(limiter.KindTokenBucket) // the server's pre-render has no OnMount
	}
	return app.Elem("div").ID("design").Class("design").Body(
		v.diagramSection(),
		v.switchSection(),
		v.tiersSection(),
		v.endpointsSection(),
		designNotes(),
	)
}

func (v *designView) diagramSection() app.UI {
	return app.Elem("section").ID("design-diagram-section").Class("design-part").Attr("aria-labelledby", "design-diagram-title").Body(
		app.Elem("h3").ID("design-diagram-title").Text("The class diagram: package limiter's own types"),
		app.Elem("p").Class("hint").Text("Every box is a type of package limiter, with its fields and the methods this lesson uses "+
			"(an interface's whole method set), as Go declares them; click a box to read its source file, exactly as this server ships it."),
		app.Elem("div").Class("design-diagram-wrap").Body(diagramSVG()),
		diagramList(),
		app.Elem("ul").Class("design-legend hint").Body(
			app.Elem("li").Text("◇── holds: a Keyed holds one Strategy per key (a map, sharded, with a lock per key)."),
			app.Elem("li").Text("- - ▷ implements: the six strategies satisfy Strategy; nothing else knows which one it has."),
			app.Elem("li").Text("──▶ calls: Keyed calls its Factory on a key's first request; a Factory may build its strategy with New(Config)."),
		),
	)
}

// kindButtons is the strategy switch: one pressed button per strategy.
func (v *designView) kindButtons() app.UI {
	return app.Elem("div").ID("design-kinds").Class("row design-kinds").Role("group").Attr("aria-label", "Strategy of the factory").Body(
		app.Range(limiter.Kinds).Slice(func(i int) app.UI {
			k := limiter.Kinds[i]
			cls := "seg"
			if k == v.kind {
				cls = "seg on"
			}
			return app.Elem("button").ID("design-kind-"+string(k)).Class(cls).Attr("aria-pressed", k == v.kind).
				Text(k.Name()).OnClick(func(app.Context, app.Event) { v.setKind(k) }, k)
		}),
	)
}

func (v *designView) switchSection() app.UI {
	cfg := explain.Budget(v.kind, explain.SwitchLimit, explain.SwitchWindow)
	calls, err := explain.SwitchRun(v.kind, explain.SwitchRequests())
	if err != nil {
		return app.Elem("p").ID("design-switch").Class("param-error").Role("alert").Text("⚠ " + err.Error())
	}
	admitted := 0
	for _, c := range calls {
		if c.Reply.Status == 200 {
			admitted++
		}
	}
	return app.Elem("section").ID("design-switch").Class("design-part").Attr("aria-labelledby", "design-switch-title").Body(
		app.Elem("h3").ID("design-switch-title").Text("One caller, six strategies"),
		app.Elem("p").Text("Choose a strategy: the factory gets another constructor, the caller stays exactly the same, and "+
			"alice's "+strconv.Itoa(len(calls))+" requests get the answers the limiter gives, at the same budget of "+
			explain.BudgetText(explain.SwitchLimit, explain.SwitchWindow)+"."),
		v.kindButtons(),
		app.Elem("p").ID("design-switch-count").Class("design-count").Text(v.kind.Name()+": "+strconv.Itoa(admitted)+" of "+
			strconv.Itoa(len(calls))+" admitted (200), "+strconv.Itoa(len(calls)-admitted)+" refused (429)"),
		app.Elem("div").Class("design-beside").Body(
			app.Elem("div").Class("design-codes").Body(
				codeBlock("design-caller", "The caller (the same text for every strategy)", explain.ServeCode),
				codeBlock("design-factory", "The factory ("+explain.DemoConfigText(cfg)+")", explain.OneLimitCode(cfg)),
			),
			v.switchTable(calls),
		),
	)
}

// switchTable is alice's requests and Serve's replies.
func (v *designView) switchTable(calls []explain.DemoCall) app.UI {
	return app.Elem("div").Class("table-wrap design-demo").TabIndex(0).Attr("aria-label", "alice's requests and the caller's replies, scrollable").Body(
		app.Elem("table").ID("design-switch-table").Class("result-table design-table").Body(
			app.Elem("thead").Body(app.Elem("tr").Body(
				app.Elem("th").Attr("scope", "col").Attr("aria-label", "request").Text("#"),
				app.Elem("th").Attr("scope", "col").Text("at"),
				app.Elem("th").Attr("scope", "col").Text("Serve replies"),
			)),
			app.Elem("tbody").Body(app.Range(calls).Slice(func(i int) app.UI {
				c := calls[i]
				return app.Elem("tr").Body(
					app.Elem("td").Text(strconv.Itoa(i+1)),
					app.Elem("td").Text(durText(c.At)),
					replyCell(c.Reply),
				)
			})),
		),
	)
}

func (v *designView) tiersSection() app.UI {
	free, pro := explain.TierConfigs(v.kind)
	return app.Elem("section").ID("design-tiers").Class("design-part").Attr("aria-labelledby", "design-tiers-title").Body(
		app.Elem("h3").ID("design-tiers-title").Text("Tiers: the factory reads the key"),
		app.Elem("p").Text("The key carries the tier: a key that starts with pro: gets "+explain.BudgetText(explain.ProLimit, explain.DemoWindow)+
			", any other key "+explain.BudgetText(explain.FreeLimit, explain.DemoWindow)+". Serve is unchanged; the strategy is the one chosen above."),
		app.Elem("div").Class("design-beside").Body(
			app.Elem("div").Class("design-codes").Body(codeBlock("design-tiers-code", "The factory", explain.TiersCode)),
			app.Elem("div").Class("design-demo").Body(
				app.Elem("p").ID("design-tiers-configs").Class("mono small").Text("free = "+explain.DemoConfigText(free)+"\npro  = "+explain.DemoConfigText(pro)),
				app.Elem("div").Class("row").Body(
					app.Elem("button").ID("design-tier-free").Class("btn").Text("free:alice sends 10").OnClick(v.sendTier("free:alice"), "free:alice"),
					app.Elem("button").ID("design-tier-pro").Class("btn").Text("pro:bob sends 10").OnClick(v.sendTier("pro:bob"), "pro:bob"),
					app.Elem("button").ID("design-tier-wait").Class("btn").Text("Wait "+durText(demoWait)).OnClick(v.onTierWait),
				),
				app.Elem("p").ID("design-tier-clock").Class("hint mono").Text("t = "+durText(v.tierAt)),
				demoTable("design-tier", v.tiers, tierKeys),
			),
		),
	)
}

// sendTier is the handler of key's button: 10 requests at the demo's instant.
func (v *designView) sendTier(key string) app.EventHandler {
	return func(app.Context, app.Event) { v.tiers.Send(v.tierAt, key, 10) }
}

func (v *designView) onTierWait(ctx app.Context, e app.Event) { v.tierAt += demoWait }

func (v *designView) endpointsSection() app.UI {
	lim := explain.EndpointLimits(v.kind)
	keys := make([]string, len(endpointKeys))
	buttons := make([]app.UI, 0, len(endpointKeys)+1)
	for i, ck := range endpointKeys {
		keys[i] = explain.EndpointKey(ck[0], ck[1])
		key := keys[i]
		buttons = append(buttons, app.Elem("button").ID("design-ep-"+strconv.Itoa(i)).Class("btn").
			Text(ck[0]+" → "+ck[1]).OnClick(func(app.Context, app.Event) { v.endpoints.Send(v.epAt, key, 1) }, key))
	}
	buttons = append(buttons, app.Elem("button").ID("design-ep-wait").Class("btn").Text("Wait "+durText(demoWait)).OnClick(v.onEndpointWait))
	return app.Elem("section").ID("design-endpoints").Class("design-part").Attr("aria-labelledby", "design-endpoints-title").Body(
		app.Elem("h3").ID("design-endpoints-title").Text("A composite key: client + endpoint"),
		app.Elem("p").Text("One key per client and endpoint, so alice spending her "+explain.BudgetText(explain.SearchLimit, explain.DemoWindow)+
			" on /search leaves her "+explain.BudgetText(explain.UploadLimit, explain.DemoWindow)+" on /upload untouched, and bob's /upload is his own."),
		app.Elem("div").Class("design-beside").Body(
			app.Elem("div").Class("design-codes").Body(codeBlock("design-endpoints-code", "The key and the factory", explain.PerEndpointCode)),
			app.Elem("div").Class("design-demo").Body(
				app.Elem("p").ID("design-endpoints-configs").Class("mono small").Text("/search = "+explain.DemoConfigText(lim["/search"])+
					"\n/upload = "+explain.DemoConfigText(lim["/upload"])),
				app.Elem("div").Class("row").Body(buttons...),
				app.Elem("p").ID("design-ep-clock").Class("hint mono").Text("t = "+durText(v.epAt)),
				demoTable("design-ep", v.endpoints, keys),
			),
		),
	)
}

func (v *designView) onEndpointWait(ctx app.Context, e app.Event) { v.epAt += demoWait }

// demoTable is a demo's counts per key: admitted, refused, the last reply.
func demoTable(id string, d *explain.Demo, keys []string) app.UI {
	return app.Elem("table").ID(id+"-table").Class("result-table design-table").Body(
		app.Elem("thead").Body(app.Elem("tr").Body(
			app.Elem("th").Attr("scope", "col").Text("key"),
			app.Elem("th").Attr("scope", "col").Text("200"),
			app.Elem("th").Attr("scope", "col").Text("429"),
			app.Elem("th").Attr("scope", "col").Text("last reply"),
		)),
		app.Elem("tbody").Body(app.Range(keys).Slice(func(i int) app.UI {
			ok, no := 0, 0
			last := app.UI(app.Elem("td").Text("none yet"))
			if d != nil {
				ok, no = d.Count(keys[i])
				for j := len(d.Calls) - 1; j >= 0; j-- {
					if d.Calls[j].Key == keys[i] {
						last = replyCell(d.Calls[j].Reply)
						break
					}
				}
			}
			row := id + "-" + strconv.Itoa(i)
			return app.Elem("tr").ID(row).Body(
				app.Elem("th").Attr("scope", "row").Class("mono").Text(keys[i]),
				app.Elem("td").ID(row+"-ok").Class("ok").Text("✓ "+strconv.Itoa(ok)),
				app.Elem("td").ID(row+"-no").Class("no").Text("✕ "+strconv.Itoa(no)),
				last,
			)
		})),
	)
}

// replyCell is one of Serve's replies, told by symbol as well as colour.
func replyCell(r explain.Reply) app.UI {
	if r.Status == 200 {
		return app.Elem("td").Class("ok").Text("✓ " + explain.ReplyText(r))
	}
	return app.Elem("td").Class("no").Text("✕ " + explain.ReplyText(r))
}

func codeBlock(id, caption, code string) app.UI {
	return app.Elem("figure").Class("design-code").Body(
		app.Elem("figcaption").Class("hint").Text(caption),
		app.Elem("pre").ID(id).Class("code small").TabIndex(0).Text(code),
	)
}

// durText is an instant as the design demos write it: "1.5 s", "0 s".
func durText(d time.Duration) string { return units.FormatSecs(d) + " s" }

// designNotes says what the diagram and the demos mean, with links to the
// lessons that go deeper.
func designNotes() app.UI {
	note := func(id, title string, body ...app.UI) app.UI {
		return app.Elem("section").ID("design-note-" + id).Class("design-note").Body(
			append([]app.UI{app.Elem("h4").Text(title)}, body...)...)
	}
	link := func(id, lesson, text string) app.UI {
		return app.Elem("a").ID("design-link-"+id).Attr("href", site.Href("/learn?lesson="+lesson)).Text(text)
	}
	return app.Elem("div").ID("design-notes").Class("design-notes").Body(
		note("strategy", "The Strategy pattern",
			app.Elem("p").Text("Strategy is one interface: AllowN decides, State and Fresh describe, Kind names. Each algorithm is a type that "+
				"satisfies it, and every caller holds the interface, so a new algorithm, or another one for a client, changes a "+
				"constructor and no caller. Config and New(Config) choose one at run time, from a file or a form.")),
		note("keyed", "A keyed limiter with a lazy factory",
			app.Elem("p").Text("Keyed maps a key (client, API token, client + endpoint) to its own Strategy. It holds none in advance: on a key's "+
				"first request it calls the Factory with the key and keeps what it returns, so memory follows the keys in use, and "+
				"tiers and composite keys are the factory's business alone.")),
		note("locks", "A lock per key, not one global lock",
			app.Elem("p").Body(
				app.Text("A decision needs only its own key's state, so each key has its own lock and the map is split into shards with their "+
					"own read-write locks: requests of unrelated clients never wait on each other. One lock around the whole map "+
					"would queue every request behind every other, whatever the cores. "),
				link("locks", "lock-design", "The lock-design lesson draws both, on the cores of a measured machine →"),
			)),
		note("race", "The check-then-act race in lazy creation",
			app.Elem("p").Body(
				app.Text("\"Look the key up; if it is missing, create it and insert it\" is two steps. Two first requests for one key can both "+
					"find it missing and both create a bucket, and the client gets twice the burst. Keyed runs the factory with no "+
					"lock held, then checks again under the shard's write lock and keeps the entry inserted first, so both "+
					"requests share one strategy. "),
				link("race", "lock-design", "The same lesson steps through the race →"),
			)),
		note("ttl", "TTL eviction that never forgives debt",
			app.Elem("p").Body(
				app.Text("Idle keys are swept after IdleTTL, but only a key whose state equals a fresh strategy's (a full bucket, empty "+
					"windows): a client in debt that waits out the TTL finds its debt still there. "),
				link("ttl", "per-client-eviction", "The eviction lesson compares it with a naive TTL cache →"),
			)),
	)
}
