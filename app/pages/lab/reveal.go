package lab

import (
	"strconv"

	"github.com/ratelab/ratelab/app/ui/browser"
)

// revealDrawn brings the lane m.reveal into view once it is drawn: a lane
// a preset or "+ Add a lane…" added stands last, a screen or more under the
// first (the fourth lane at 1280×800 starts some 1,900 px down), and the
// reader asked to see it. The page scrolls only when the lane's top is
// outside the window's first 60 %, as a lesson's card does on a phone.
func (m *labModel) revealDrawn() {
	if m.reveal < 0 {
		return
	}
	id := "lane-" + strconv.Itoa(m.reveal)
	top, _, ok := browser.Box(id)
	if !ok {
		return // not drawn yet: the next frame looks again
	}
	m.reveal = -1
	if top < 0 || top > 0.6*browser.InnerHeight() {
		browser.ScrollToTop(id)
	}
}
