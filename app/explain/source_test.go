package explain

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ratelab/ratelab/limiter"
)

// TestMarksFoundOnce checks every mark against limiter/ as it is now: its
// text on exactly one line of its file, its block closed.
func TestMarksFoundOnce(t *testing.T) {
	if err := CheckMarks("../../limiter"); err != nil {
		t.Fatal(err)
	}
}

// TestSourcesCoverKinds checks one Source per limiter.Kind, in order, each
// naming files that limiter/ ships.
func TestSourcesCoverKinds(t *testing.T) {
	ss := Sources()
	if len(ss) != len(limiter.Kinds) {
		t.Fatalf("%d sources; want %d", len(ss), len(limiter.Kinds))
	}
	shipped, err := ShippedFiles("../../limiter")
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range ss {
		if s.Kind != limiter.Kinds[i] {
			t.Errorf("source %d is %s; want %s", i, s.Kind, limiter.Kinds[i])
		}
		for _, f := range s.Files {
			found := false
			for _, n := range shipped {
				found = found || n == f.Name
			}
			if !found {
				t.Errorf("%s: file %s is not a shipped limiter file", s.Kind, f.Name)
			}
		}
	}
}

// TestHighlightsPerOutcome checks that every outcome of every strategy
// highlights at least one stretch, that the stretches are in range, and that
// the denial shows a retry-after line.
func TestHighlightsPerOutcome(t *testing.T) {
	read := func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join("../../limiter", name))
		return string(b), err
	}
	for _, s := range Sources() {
		for _, o := range []Outcome{Allowed, Denied, Never, Peek} {
			hs, err := s.Highlights(read, o)
			if err != nil {
				t.Fatalf("%s %s: %v", s.Kind, o, err)
			}
			if len(hs) == 0 {
				t.Errorf("%s %s: nothing highlighted", s.Kind, o)
			}
			retry := false
			for _, h := range hs {
				c, _ := read(h.File)
				if n := strings.Count(c, "\n") + 1; h.From < 1 || h.To < h.From || h.To > n {
					t.Errorf("%s %s: %+v out of range (1..%d)", s.Kind, o, h, n)
				}
				retry = retry || strings.HasPrefix(h.Label, "retry after")
			}
			if (o == Denied) != retry {
				t.Errorf("%s %s: retry-after highlighted = %v", s.Kind, o, retry)
			}
		}
	}
}

// TestMarkFind checks the block rule and the errors on fixed text.
func TestMarkFind(t *testing.T) {
	src := "a\n\tif x {\n\t\ty()\n\t}\nz := 1\nz := 1\n"
	from, to, err := Mark{Text: "if x {"}.Find(src)
	if err != nil || from != 2 || to != 4 {
		t.Errorf("block: %d-%d, %v; want 2-4", from, to, err)
	}
	if from, to, err := (Mark{Text: "a"}).Find(src); err != nil || from != 1 || to != 1 {
		t.Errorf("line: %d-%d, %v; want 1-1", from, to, err)
	}
	if _, _, err := (Mark{Text: "z := 1"}).Find(src); err == nil || !strings.Contains(err.Error(), "found on 2 lines") {
		t.Errorf("twice: %v", err)
	}
	if _, _, err := (Mark{Text: "nope"}).Find(src); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing: %v", err)
	}
}

// TestCheckShipped copies limiter/'s shipped files to a temporary folder
// (as the Makefile does into web/src/), checks it passes, then breaks one
// byte, adds a stray file and removes one, and checks each is reported.
func TestCheckShipped(t *testing.T) {
	dir := t.TempDir()
	names, err := ShippedFiles("../../limiter")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join("../../limiter", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := CheckShipped(dir); err != nil {
		t.Fatalf("exact copy: %v", err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "tokenbucket.go"))
	os.WriteFile(filepath.Join(dir, "tokenbucket.go"), append([]byte("// edited\n"), b...), 0o644)
	os.WriteFile(filepath.Join(dir, "stray.go"), []byte("package limiter\n"), 0o644)
	os.Remove(filepath.Join(dir, "gcra.go"))
	err = CheckShipped(dir)
	if err == nil {
		t.Fatal("altered copy passed")
	}
	for _, want := range []string{"tokenbucket.go: shipped copy differs", "first at line 1", "stray.go: shipped but not in", "gcra.go: not shipped"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
