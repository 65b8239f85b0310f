package learn

import (
	"testing"
	"time"
)

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

// TestParseLessonStart: where a lesson link opens the lesson's clock
// (paused=1&t=…), and what it says of a bad part, keeping the rest.
func TestParseLessonStart(t *testing.T) {
	fresh := func() uint64 { return 99 }
	ms := time.Millisecond
	for _, c := range []struct {
		query  string
		lesson string
		start  lessonStart
		notice string
	}{
		{"lesson=burst-vs-rate", "burst-vs-rate", lessonStart{}, ""},
		{"lesson=burst-vs-rate&paused=1&t=1.5", "burst-vs-rate", lessonStart{set: true, at: 1500 * ms}, ""},
		{"lesson=burst-vs-rate&t=700ms", "burst-vs-rate", lessonStart{set: true, at: 700 * ms}, ""},
		{"lesson=burst-vs-rate&paused=0&t=2", "burst-vs-rate", lessonStart{set: true, play: true, at: 2 * time.Second}, ""},
		{"lesson=burst-vs-rate&paused=1", "burst-vs-rate", lessonStart{set: true}, ""},
		{"lesson=lock-design&paused=1&t=0.0000024", "lock-design", lessonStart{set: true, at: 2400 * time.Nanosecond}, ""},
		{"lesson=lock-design&paused=1&t=2.4us", "lock-design", lessonStart{set: true, at: 2400 * time.Nanosecond}, ""},
		{"lesson=burst-vs-rate&paused=1&t=abc", "burst-vs-rate", lessonStart{set: true, at: beforeStart},
			`The instant t="abc" is not a time; want seconds (1.5) or a duration (700ms); opening at the start.`},
		{"lesson=burst-vs-rate&paused=1&t=-1", "burst-vs-rate", lessonStart{set: true, at: beforeStart},
			`The instant t="-1" is before the start; opening at the start.`},
		{"lesson=burst-vs-rate&paused=1&t=9", "burst-vs-rate", lessonStart{set: true, at: 5 * time.Second},
			`The instant t="9" is after the lesson's end (5 s); opening at its end.`},
		{"lesson=burst-vs-rate&paused=1&t=NaN", "burst-vs-rate", lessonStart{set: true, at: beforeStart},
			`The instant t="NaN" is not a time; want seconds (1.5) or a duration (700ms); opening at the start.`},
		{"lesson=burst-vs-rate&paused=yes&t=1", "burst-vs-rate", lessonStart{set: true, at: time.Second},
			`paused="yes" is not 0 or 1; opening paused.`},
		{"lesson=nosuch&paused=1&t=1", "", lessonStart{},
			`There is no lesson "nosuch"; here is the list. paused and t set a lesson's clock; no lesson is open, so they were ignored.`},
	} {
		a := parseAddress(c.query, fresh)
		if a.lesson != c.lesson || a.start != c.start || a.notice != c.notice {
			t.Errorf("parseAddress(%q) = lesson %q, start %+v, notice %q; want %q, %+v, %q", c.query, a.lesson, a.start, a.notice, c.lesson, c.start, c.notice)
		}
	}
}

// TestLessonQuery: the link to a lesson paused at an instant reads back as
// that instant.
func TestLessonQuery(t *testing.T) {
	for _, c := range []struct {
		id    string
		at    time.Duration
		query string
	}{
		{"burst-vs-rate", 1500 * time.Millisecond, "lesson=burst-vs-rate&paused=1&t=1.5"},
		{"lock-design", 2400 * time.Nanosecond, "lesson=lock-design&paused=1&t=0.0000024"},
		{"queue-vs-meter", 0, "lesson=queue-vs-meter&paused=1&t=0"},
	} {
		q := lessonQuery(c.id, c.at)
		a := parseAddress(q, func() uint64 { return 1 })
		if q != c.query || a.start != (lessonStart{set: true, at: c.at}) || a.notice != "" {
			t.Errorf("lessonQuery(%q, %v) = %q, read back %+v %q; want %q", c.id, c.at, q, a.start, a.notice, c.query)
		}
	}
}
