package lab

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui/uitest"
)

// TestLabRunToEnd: "Run to end" on a trace of 30,000 requests from 30,000
// clients (one a millisecond) on the three default lanes decides 6,666
// requests (20,000 decisions, in parts of 666) at the click and as many
// each frame while the frame's real time lasts, saying how far it has got,
// and ends in the fifth frame exactly where RunTrace does. On a clock that
// moves 15 ms a part, a frame stops after 3 parts (45 ms). Pause, a
// request or a scrub stops it where it got to.
func TestLabRunToEnd(t *testing.T) {
	var b strings.Builder
	b.WriteString("t_ms,client\n")
	for i := range 30000 {
		b.WriteString(strconv.Itoa(i) + ",c" + strconv.Itoa(i) + "\n")
	}
	tr, err := sim.ParseTrace("big.csv", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	setUp := func() (*labModel, *labLanes, app.Context) {
		m := newLabModel()
		still := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		m.now = func() time.Time { return still }
		if err := m.lab.SetTrace("", tr); err != nil {
			t.Fatal(err)
		}
		m.quietClients()
		lanes := &labLanes{M: m}
		d := app.NewClientTester(lanes)
		t.Cleanup(d.Close)
		return m, lanes, d.Context()
	}
	m, lanes, ctx := setUp()
	now := time.Now()
	m.startRunToEnd()
	if m.toEnd == nil || m.lab.Processed() != 6666 || m.lab.Now() != 6665*time.Millisecond || !m.lab.Clock().Paused() {
		t.Fatalf("after the click: under way %v, %d decided, now %v, paused %v; want true, 6666, 6.665s, true", m.toEnd != nil, m.lab.Processed(), m.lab.Now(), m.lab.Clock().Paused())
	}
	uitest.WantTexts(t, uitest.Mount(t, &labLanes{M: m}), map[string]string{
		"lab-clock":       "t = 6.665 s",
		"lab-clock-state": "running",
		"run-progress":    "running to the end… 22 % (to t = 29.999 s); Pause stops here",
		"lab-pause":       "Pause",
	})
	m.startRunToEnd() // a second click while under way changes nothing
	if m.lab.Processed() != 6666 {
		t.Errorf("a second click: %d decided; want 6666", m.lab.Processed())
	}
	frames := 0
	for m.toEnd != nil && frames < 100 {
		if !lanes.frame(ctx, now, 33*time.Millisecond) {
			t.Error("a frame of \"Run to end\" asks for no redraw")
		}
		frames++
		if m.toEnd != nil && m.lab.Processed() != 6666*(frames+1) {
			t.Errorf("frame %d: %d decided; want %d", frames, m.lab.Processed(), 6666*(frames+1))
		}
	}
	if frames != 4 {
		t.Errorf("done after %d frames; want 4", frames)
	}
	ref, err := sim.New(m.lab.Setup(), tr, labOptions)
	if err != nil {
		t.Fatal(err)
	}
	if err := ref.RunTrace(); err != nil {
		t.Fatal(err)
	}
	if m.lab.Now() != ref.Now() || m.lab.Processed() != 30000 {
		t.Errorf("end: now %v, %d decided; want %v, 30000", m.lab.Now(), m.lab.Processed(), ref.Now())
	}
	for i, ln := range m.lab.Lanes() {
		r := ref.Lanes()[i]
		if ln.Total() != r.Total() || !reflect.DeepEqual(ln.History(nil), r.History(nil)) || !reflect.DeepEqual(ln.Buckets(nil), r.Buckets(nil)) || ln.Worst() != r.Worst() {
			t.Errorf("lane %d differs from RunTrace's: totals %+v, want %+v", i+1, ln.Total(), r.Total())
		}
	}
	html := uitest.Mount(t, &labLanes{M: m})
	uitest.WantTexts(t, html, map[string]string{"lab-clock": "t = 29.999 s", "lab-clock-state": "paused", "lab-pause": "Resume"})
	if strings.Contains(html, `id="run-progress"`) {
		t.Error("the progress stays after the end")
	}
	lanes.Render() // the redraw the last frame asked for
	if lanes.frame(ctx, now, 33*time.Millisecond) {
		t.Error("after the end, a paused frame asks for a redraw")
	}

	// Real time bounds a frame: at 15 ms a part, 3 parts of 666 requests.
	m, _, _ = setUp()
	var clock time.Time
	m.now = func() time.Time { clock = clock.Add(15 * time.Millisecond); return clock }
	m.startRunToEnd()
	m.runStep()
	if m.lab.Processed() != 2*3*666 || m.runProgress() != 13 {
		t.Errorf("two frames of 45 ms: %d decided, %d %%; want %d, 13 %%", m.lab.Processed(), m.runProgress(), 2*3*666)
	}

	// Stopped by Pause (the button's handler), a request, or a scrub: the
	// clock stays where the run got to, paused.
	for _, stop := range []struct {
		name      string
		do        func(m *labModel)
		processed int
	}{
		{"Pause", func(m *labModel) { m.stopRun() }, 6666},
		{"a request", func(m *labModel) { m.fire(1) }, 6667},
		{"a scrub", func(m *labModel) { m.scrubTo(time.Second) }, 6666},
	} {
		m, lanes, ctx := setUp()
		m.startRunToEnd()
		stop.do(m)
		lanes.frame(ctx, now, 33*time.Millisecond)
		if m.toEnd != nil || m.lab.Processed() != stop.processed || m.lab.Now() != 6665*time.Millisecond || !m.lab.Clock().Paused() {
			t.Errorf("stopped by %s: under way %v, %d decided, now %v, paused %v; want false, %d, 6.665s, true", stop.name, m.toEnd != nil, m.lab.Processed(), m.lab.Now(), m.lab.Clock().Paused(), stop.processed)
		}
	}
}
