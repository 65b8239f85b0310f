package learn

import "testing"

// TestParseAddress: what each /learn address shows, and what it says was
// wrong with it.
func TestParseAddress(t *testing.T) {
	fresh := func() uint64 { return 99 }
	for _, c := range []struct {
		query, mode, lesson string
		seed                uint64
		rewrite             bool
		notice              string
	}{
		{"", modeLessons, "", 0, false, ""},
		{"mode=cards", modeCards, "", 0, false, ""},
		{"lesson=nosuch", modeLessons, "", 0, false, `There is no lesson "nosuch"; here is the list.`},
		{"mode=cards&lesson=nosuch", modeCards, "", 0, false, `There is no lesson "nosuch"; showing the cards.`},
		{"mode=zzz", modeLessons, "", 0, false, `There is no section "zzz"; showing the lessons.`},
		{"mode=quiz&seed=42", modeQuiz, "", 42, false, ""},
		{"seed=7", modeQuiz, "", 7, false, ""},
		{"mode=quiz", modeQuiz, "", 99, true, ""},
		{"mode=quiz&seed=abc", modeQuiz, "", 1, true, `The seed "abc" is not a whole number; want 0 to 18446744073709551615; using the default seed 1, so everyone who opens this link gets the same questions.`},
		{"mode=quiz&seed=%ZZ", modeQuiz, "", 1, true, `Part of this link could not be read (invalid URL escape "%ZZ"); that part was ignored. Using the default seed 1, so everyone who opens this link gets the same questions.`},
	} {
		a := parseAddress(c.query, fresh)
		if a.mode != c.mode || a.lesson != c.lesson || a.seed != c.seed || a.rewrite != c.rewrite || a.notice != c.notice {
			t.Errorf("parseAddress(%q) = mode %q, lesson %q, seed %d, rewrite %v, notice %q; want %q, %q, %d, %v, %q",
				c.query, a.mode, a.lesson, a.seed, a.rewrite, a.notice, c.mode, c.lesson, c.seed, c.rewrite, c.notice)
		}
	}
}
