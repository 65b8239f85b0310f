package lab

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/app/ui"
)

// The lab's link carries, besides the setup (sim.Setup.Values) and the
// clock (sim.ClockLink), the client a click sends as, the burst size, the
// lanes' zoom, and presets to open with. A part the lab does not read is
// named in the banner with the parts it does, and the rest of the link is
// kept: a mistyped key ("lanes=") would otherwise be silently dropped.

// labLinkKeys are the query keys of a lab link, in the order the banner
// names them.
var labLinkKeys = []string{"lane", "client", "tier", "focus", "seed", "speed", "trace", "worst", "as", "burst", "paused", "t", "zoom", "preset"}

// trafficPresets are the Traffic card's presets a link may name (preset=edge),
// by their buttons' names.
var trafficPresets = []string{"edge", "noisy"}

// unknownParts names each key of q the lab does not read, in sorted order.
func unknownParts(q url.Values) []string {
	var bad []string
	for k := range q {
		if !slices.Contains(labLinkKeys, k) {
			bad = append(bad, k)
		}
	}
	slices.Sort(bad)
	msgs := make([]string, len(bad))
	for i, k := range bad {
		msgs[i] = fmt.Sprintf("link: %s is not a part of a lab link; the lab reads %s; ignored", strconv.Quote(sim.Clip(k)), strings.Join(labLinkKeys, ", "))
	}
	return msgs
}

// presetNames is every name preset= takes: the real limits' presets (each
// adds a lane), then the traffic presets.
func presetNames() []string {
	var names []string
	for _, p := range sim.Presets() {
		names = append(names, p.ID)
	}
	return append(names, trafficPresets...)
}

// openPresets applies the link's presets in order: a real limit's preset
// adds its lane after the link's lanes, "+ Add a lane…"'s "Preset: …"; a
// traffic preset sets the clients, as its button does. The last lane a
// preset added is brought into view. A name that is not
// a preset, or a lane beyond sim.MaxLanes, is said in the banner.
func (m *labModel) openPresets(names []string) {
	for _, name := range names {
		if p, ok := sim.PresetByID(name); ok {
			if err := m.lab.AddLane(sim.LaneSpec{Config: p.Config}); err != nil {
				m.linkErrs = append(m.linkErrs, fmt.Sprintf("link: preset: %s: %v; not added", name, err))
			} else {
				m.reveal = len(m.lab.Lanes()) - 1
			}
			continue
		}
		switch name {
		case "edge":
			m.setClients("clients", m.edgeAttack())
		case "noisy":
			m.setClients("clients", m.noisyNeighbour())
		default:
			m.linkErrs = append(m.linkErrs, fmt.Sprintf("link: preset: %s is not a preset; want one of %s; ignored",
				strconv.Quote(sim.Clip(name)), strings.Join(presetNames(), ", ")))
		}
	}
}

// openZoom reads the link's zoom into the lanes' time window, or says why
// it keeps the default (the whole run, following the clock).
func (m *labModel) openZoom(q url.Values) {
	m.zoom.win = nil
	if !q.Has("zoom") {
		return
	}
	from, to, err := sim.ParseZoomLink(q.Get("zoom"))
	if err != nil {
		m.linkErrs = append(m.linkErrs, err.Error())
		return
	}
	m.zoom.win = &ui.TimeWindow{From: from, To: to}
}

// zoomLink is the zoom part of the lab's link: the lanes' window when
// zoomed, nothing when they follow the clock.
func (m *labModel) zoomLink() string {
	if m.zoom.win == nil {
		return ""
	}
	return sim.FormatZoomLink(m.zoom.win.From, m.zoom.win.To)
}
