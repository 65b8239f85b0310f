package learn

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/explain"
	"github.com/ratelab/ratelab/app/ui/uitest"
	"github.com/ratelab/ratelab/limiter"
)

// preText is the text of the <pre> with the given id, unescaped.
func preText(t *testing.T, page, id string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<pre [^>]*\bid="` + id + `"[^>]*>(.*?)</pre>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("#%s missing", id)
	}
	return html.UnescapeString(m[1])
}

// attrOf is attribute attr of the element with the given id (go-app writes
// attributes in any order), and "" when there is none.
func attrOf(page, id, attr string) string {
	tag := regexp.MustCompile(`<[a-z]+ [^>]*\bid="` + regexp.QuoteMeta(id) + `"[^>]*>`).FindString(page)
	m := regexp.MustCompile(`\b` + attr + `="([^"]*)"`).FindStringSubmatch(tag)
	if m == nil {
		return ""
	}
	return m[1]
}

// TestDesignViewSwitch renders the design lesson for every strategy: the
// caller's code is byte for byte the same, the factory's is that strategy's
// OneLimitCode, and the count and replies are explain.SwitchRun's.
func TestDesignViewSwitch(t *testing.T) {
	counts := map[limiter.Kind]string{
		limiter.KindTokenBucket:          "token bucket: 12 of 14 admitted (200), 2 refused (429)",
		limiter.KindFixedWindow:          "fixed window: 10 of 14 admitted (200), 4 refused (429)",
		limiter.KindSlidingWindowLog:     "sliding window log: 8 of 14 admitted (200), 6 refused (429)",
		limiter.KindSlidingWindowCounter: "sliding window counter: 7 of 14 admitted (200), 7 refused (429)",
	}
	for _, k := range limiter.Kinds {
		v := &designView{}
		v.setKind(k)
		page := uitest.Mount(t, v)
		if got := preText(t, page, "design-caller"); got != explain.ServeCode {
			t.Errorf("%s: caller\n%s\nwant\n%s", k, got, explain.ServeCode)
		}
		if got, want := preText(t, page, "design-factory"), explain.OneLimitCode(explain.Budget(k, 5, explain.SwitchWindow)); got != want {
			t.Errorf("%s: factory %q; want %q", k, got, want)
		}
		if want, ok := counts[k]; ok {
			uitest.WantTexts(t, page, map[string]string{"design-switch-count": want})
		}
		calls, _ := explain.SwitchRun(k, explain.SwitchRequests())
		rows := regexp.MustCompile(`(?s)<tr>(.*?)</tr>`).FindAllStringSubmatch(page[strings.Index(page, `id="design-switch-table"`):], -1)
		for i, c := range calls {
			if !strings.Contains(rows[i+1][1], html.EscapeString(explain.ReplyText(c.Reply))) {
				t.Errorf("%s row %d: %s; want %s", k, i+1, rows[i+1][1], explain.ReplyText(c.Reply))
			}
		}
	}
}

// TestDesignViewDemos sends the tiers' and endpoints' requests as their
// buttons do and checks the counts drawn.
func TestDesignViewDemos(t *testing.T) {
	v := &designView{}
	v.setKind(limiter.KindFixedWindow)
	v.sendTier("free:alice")(nil, app.Event{})
	for range 6 {
		v.sendTier("pro:bob")(nil, app.Event{})
	}
	for range 8 {
		v.endpoints.Send(v.epAt, "alice /search", 1)
		v.endpoints.Send(v.epAt, "alice /upload", 1)
	}
	page := uitest.Mount(t, v)
	uitest.WantTexts(t, page, map[string]string{
		"design-tier-0-ok": "✓ 5", "design-tier-0-no": "✕ 5",
		"design-tier-1-ok": "✓ 50", "design-tier-1-no": "✕ 10",
		"design-ep-0-ok": "✓ 5", "design-ep-0-no": "✕ 3",
		"design-ep-1-ok": "✓ 2", "design-ep-1-no": "✕ 6",
		"design-ep-2-ok": "✓ 0", "design-ep-2-no": "✕ 0",
		"design-tiers-configs": "free = fixed window: 5 per minute\npro  = fixed window: 50 per minute",
	})
	// A minute later the fixed window is a new one: free:alice gets 5 more.
	for range 6 {
		v.onTierWait(nil, app.Event{})
	}
	v.sendTier("free:alice")(nil, app.Event{})
	page = uitest.Mount(t, &designView{kind: v.kind, tiers: v.tiers, endpoints: v.endpoints, tierAt: v.tierAt})
	uitest.WantTexts(t, page, map[string]string{"design-tier-0-ok": "✓ 10", "design-tier-0-no": "✕ 10", "design-tier-clock": "t = 60 s"})
}

// TestDiagramBoxes checks one box per design type, each linking to its
// shipped source file, with its members drawn.
func TestDiagramBoxes(t *testing.T) {
	page := uitest.Mount(t, &designView{})
	for _, d := range explain.DesignTypes() {
		if got := attrOf(page, "design-box-"+d.Name, "href"); got != "/web/src/"+d.File {
			t.Errorf("%s: link %q; want /web/src/%s", d.Name, got, d.File)
		}
		for _, mem := range append(append(append([]string{}, d.Fields...), d.Funcs...), d.Methods...) {
			if !strings.Contains(page, `data-member="`+html.EscapeString(mem)+`"`) {
				t.Errorf("%s: member %q not drawn", d.Name, mem)
			}
		}
	}
	for m, want := range map[string][]string{
		"NewSlidingWindowCounter(limit int, window time.Duration) (*SlidingWindowCounter, error)": {
			"NewSlidingWindowCounter(limit int,", "    window time.Duration)", "    (*SlidingWindowCounter, error)"},
		"AllowNAt(now Instant, key string, n int) (Decision, error)": {"AllowNAt(now Instant, key string, n int)", "    (Decision, error)"},
		"State(now Instant, key string) (State, bool)":               {"State(now Instant, key string) (State, bool)"},
	} {
		if got := wrapMember(m, wrapAt); !slices.Equal(got, want) {
			t.Errorf("wrap %q: %q; want %q", m, got, want)
		}
	}
}
