package playground

import "testing"

func TestLinkNote(t *testing.T) {
	const tail = " was ignored and the page opened with its defaults. The comparison lab's links carry a whole setup:"
	for _, c := range []struct{ query, want string }{
		{"", ""},
		{"rate=abc", `The playground reads nothing from its link, so "rate"` + tail},
		{"rate=2&burst=5&rate=3", `The playground reads nothing from its link, so "burst", "rate"` + tail},
		{"%zz", `The playground reads nothing from its link, so its query` + tail},
		{"&", ""}, // an empty query: nothing was ignored
	} {
		if got := linkNote(c.query); got != c.want {
			t.Errorf("linkNote(%q) = %q; want %q", c.query, got, c.want)
		}
	}
}
