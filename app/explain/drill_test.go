package explain

import (
	"strings"
	"testing"
)

// TestCardsLinkLessons checks every card links to an existing lesson, IDs
// are distinct, every lesson has a card, and each answer is 80 to 150 words.
func TestCardsLinkLessons(t *testing.T) {
	ids, linked := map[string]bool{}, map[string]bool{}
	for _, c := range Cards() {
		if _, ok := LessonByID(c.Lesson); !ok {
			t.Errorf("card %s links to lesson %q, which does not exist", c.ID, c.Lesson)
		}
		if ids[c.ID] || c.Question == "" {
			t.Errorf("card %s: duplicate ID or no question", c.ID)
		}
		ids[c.ID], linked[c.Lesson] = true, true
		if n := len(strings.Fields(c.Answer)); n < 80 || n > 150 {
			t.Errorf("card %s: answer of %d words; want 80 to 150", c.ID, n)
		}
	}
	for _, l := range Lessons() {
		if !linked[l.ID] {
			t.Errorf("lesson %s has no card", l.ID)
		}
	}
	if len(Cards()) != 9 {
		t.Errorf("%d cards; want 9", len(Cards()))
	}
}
