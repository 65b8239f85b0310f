//go:build !js

package explain

import (
	"bufio"
	"fmt"
	"go/format"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/sim"
	"github.com/ratelab/ratelab/limiter"
)

// goSetups are the programs "Copy as Go" must write correctly: every
// strategy, every preset, tiers, and the rates and durations that need care.
func goSetups() map[string]GoSetup {
	s := map[string]GoSetup{
		"tb":       {From: "lane 1 of the comparison lab", Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 10, Burst: 5}},
		"tbinf":    {Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: math.Inf(1), Burst: 0}},
		"gcra":     {Config: limiter.Config{Kind: limiter.KindGCRA, Rate: 1.0 / 3, Burst: 2}},
		"leaky":    {Config: limiter.Config{Kind: limiter.KindLeakyBucket, Capacity: 12, LeakInterval: 83333333 * time.Nanosecond}},
		"fixed":    {Config: limiter.Config{Kind: limiter.KindFixedWindow, Limit: 5000, Window: time.Hour}},
		"log":      {Config: limiter.Config{Kind: limiter.KindSlidingWindowLog, Limit: 10, Window: 1500 * time.Millisecond}},
		"counter":  {Config: limiter.Config{Kind: limiter.KindSlidingWindowCounter, Limit: 100, Window: time.Minute}},
		"tiered":   {Config: limiter.Config{Kind: limiter.KindTokenBucket, Rate: 1, Burst: 2}, Tiers: map[string]limiter.Config{"pro": {Kind: limiter.KindTokenBucket, Rate: 5, Burst: 10}, "team-2": {Kind: limiter.KindSlidingWindowLog, Limit: 3, Window: time.Second}}, TierOf: map[string]string{"bob": "pro", "carol": "team-2", "dave": "gone"}},
		"tiernone": {Config: limiter.Config{Kind: limiter.KindFixedWindow, Limit: 1, Window: time.Second}, Tiers: map[string]limiter.Config{"pro": {Kind: limiter.KindFixedWindow, Limit: 5, Window: time.Second}}},
	}
	for _, p := range sim.Presets() {
		s["preset-"+p.ID] = GoSetup{From: "the preset " + p.Name, Config: p.Config}
	}
	return s
}

// TestGoProgramFormatted: each program is exactly as gofmt writes it.
func TestGoProgramFormatted(t *testing.T) {
	for name, s := range goSetups() {
		src := GoProgram(s)
		got, err := format.Source([]byte(src))
		if err != nil {
			t.Errorf("%s: %v\n%s", name, err, src)
			continue
		}
		if string(got) != src {
			t.Errorf("%s: not gofmt-clean; gofmt writes\n%s", name, got)
		}
	}
}

// TestGoProgramBuilds writes every program into a module that uses this
// repository, and builds and vets them all.
func TestGoProgramBuilds(t *testing.T) {
	dir := goModule(t)
	for name, s := range goSetups() {
		writeFile(t, filepath.Join(dir, "cmd", name, "main.go"), GoProgram(s))
	}
	goCmd(t, dir, "build", "./...")
	goCmd(t, dir, "vet", "./...")
}

// TestGoProgramRuns runs a tiered program and checks its answers: the
// default tier's burst of 2, then a 429 with Retry-After and the RateLimit
// fields; the pro tier's own limit. The program runs on the real clock, so
// its rates are slow enough (one token per 100 s) that no token comes back
// while the test sends, however slow the machine.
func TestGoProgramRuns(t *testing.T) {
	dir := goModule(t)
	s := goSetups()["tiered"]
	s.Config.Rate = 0.01
	s.Tiers = map[string]limiter.Config{"pro": {Kind: limiter.KindTokenBucket, Rate: 0.01, Burst: 10}}
	writeFile(t, filepath.Join(dir, "main.go"), GoProgram(s))
	bin := filepath.Join(dir, "hello")
	goCmd(t, dir, "build", "-o", bin, ".")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "-addr", addr)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	// The program logs once it is about to listen; wait for that line.
	if line, err := bufio.NewReader(stderr).ReadString('\n'); err != nil || !strings.Contains(line, "serving http://"+addr) {
		t.Fatalf("program said %q, %v", line, err)
	}
	get := func(apiKey string) *http.Response {
		for range 50 { // the listener may open just after the log line
			req, _ := http.NewRequest("GET", "http://"+addr+"/", nil)
			req.Header.Set("X-API-Key", apiKey)
			res, err := http.DefaultClient.Do(req)
			if err == nil {
				return res
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatal("the program does not answer")
		return nil
	}
	for i, want := range []int{200, 200, 429} {
		res := get("alice")
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != want {
			t.Fatalf("alice request %d: %d %s, want %d", i+1, res.StatusCode, body, want)
		}
		if want == 200 && string(body) != "hello\n" {
			t.Errorf("alice request %d: body %q", i+1, body)
		}
		if want == 429 {
			if ra := res.Header.Get("Retry-After"); ra != "100" {
				t.Errorf("429 Retry-After %q, want 100", ra)
			}
			if p, want := res.Header.Get("RateLimit-Policy"), `"default";q=2;ratelab-rate="0.01"`; p != want {
				t.Errorf("429 RateLimit-Policy %q, want %q", p, want)
			}
			if r, want := res.Header.Get("RateLimit"), `"default";r=0;t=100`; r != want {
				t.Errorf("429 RateLimit %q, want %q", r, want)
			}
		}
	}
	for i := range 10 {
		if res := get("bob"); res.StatusCode != 200 {
			t.Fatalf("bob (pro, burst 10) request %d: %d", i+1, res.StatusCode)
		}
	}
	if res := get("bob"); res.StatusCode != 429 {
		t.Errorf("bob request 11: %d, want 429", res.StatusCode)
	}
}

// goModule is a new module that requires this repository by a replace.
func goModule(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), fmt.Sprintf("module hello\n\ngo 1.26.0\n\nrequire github.com/ratelab/ratelab v0.0.0\n\nreplace github.com/ratelab/ratelab => %s\n", root))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "go.sum"), string(sum))
	return dir
}

func goCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "CGO_ENABLED=0", "GOOS=", "GOARCH=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
