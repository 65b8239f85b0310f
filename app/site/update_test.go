package site

import "testing"

// TestReplaced: a build is replaced when the origin has caches and none is
// named after its version.
func TestReplaced(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  bool
	}{
		{nil, false},
		{[]string{"ratelab /ratelab/ v1-a"}, false},
		{[]string{"ratelab /ratelab/ v2-b"}, true},
		{[]string{"ratelab /ratelab/ v1-a", "ratelab /ratelab/ v2-b"}, false},
		{[]string{"app-v1-a"}, false},
		{[]string{"app-v2-b"}, true},
	} {
		if got := replaced(c.names, "v1-a"); got != c.want {
			t.Errorf("replaced(%q, v1-a) = %v, want %v", c.names, got, c.want)
		}
	}
}
