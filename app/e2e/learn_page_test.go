//go:build e2e

package e2e

import (
	"time"

	"github.com/ratelab/ratelab/app/explain"
)

// learnPage is the lessons page (/learn: lessons, quiz, drill cards) in a
// tab, with the actions its tests repeat.
type learnPage struct{ *page }

// openLearn loads link, a /learn address, as a new document and waits for
// the page.
func (p *page) openLearn(link string) *learnPage {
	return &learnPage{p.freshAt(link, "Learn rate limiting")}
}

// openLesson opens the lesson id from the list of lessons.
func (l *learnPage) openLesson(id string) {
	l.t.Helper()
	l.click("#lesson-link-" + id)
	l.waitAttrOf("#lesson", "data-lesson", id)
}

// runLesson plays the open lesson and waits for its check to pass.
func (l *learnPage) runLesson() {
	l.t.Helper()
	l.click("#lesson-run")
	l.waitLessonChecked()
}

// waitLessonChecked waits for a played lesson's check to pass: the lesson
// plays for 2.5 s of real time, longer when frames are late.
func (l *learnPage) waitLessonChecked() {
	l.t.Helper()
	l.pollFor(20*time.Second, "#lesson-check[data-ok]", "true", func() string {
		return l.eval(`(() => { const el = document.querySelector("#lesson-check"); return el ? String(el.getAttribute("data-ok")) : "<missing>"; })()`)
	})
}

// inspect clicks the lesson's request mark id ("0-14": lane 1's 15th) and
// waits for the inspector.
func (l *learnPage) inspect(mark string) {
	l.t.Helper()
	l.click("#mark-" + mark)
	l.waitCount("#inspector", 1)
}

// showSource opens the inspector's Go source.
func (l *learnPage) showSource() {
	l.t.Helper()
	l.click("#insp-source-toggle")
	l.waitAttrOf("#insp-source-toggle", "aria-expanded", "true")
}

// openCards shows the drill cards.
func (l *learnPage) openCards() {
	l.t.Helper()
	l.click("#tab-cards")
	l.waitCount(".drill", len(explain.Cards()))
}

// decide answers the quiz's question: allowed or denied.
func (l *learnPage) decide(allowed bool) {
	l.t.Helper()
	if allowed {
		l.click("#quiz-allowed")
	} else {
		l.click("#quiz-denied")
	}
}
