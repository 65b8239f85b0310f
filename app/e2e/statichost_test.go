//go:build e2e

package e2e

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// staticPrefix is the path the static site's tests serve it under, as
// GitHub Pages serves a project page (https://NAME.github.io/ratelab/).
const staticPrefix = "/ratelab"

// staticSiteDir is the site `make e2e-static` builds (make site
// PREFIX=/ratelab SITE=testout/site).
var staticSiteDir = filepath.Join(repoRoot, "testout", "site")

// staticHost serves a folder the way GitHub Pages does and nothing more:
// under a prefix, PATH if it is a file, else PATH.html, else
// PATH/index.html (a folder's address without its slash is redirected to
// it); no rewriting to one page, no compression, no headers of its own but
// what http.ServeContent sets (type, length, Last-Modified, ranges). The
// folder can be swapped, as a new deploy does.
type staticHost struct {
	prefix string
	mu     sync.Mutex
	dir    string
}

func (h *staticHost) setDir(dir string) {
	h.mu.Lock()
	h.dir = dir
	h.mu.Unlock()
}

// ServeHTTP answers a request whose prefix http.StripPrefix removed.
func (h *staticHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	dir := h.dir
	h.mu.Unlock()
	p := r.URL.Path
	if p == "" {
		http.Redirect(w, r, h.prefix+"/", http.StatusMovedPermanently)
		return
	}
	if !strings.HasPrefix(p, "/") || strings.Contains(p, "\x00") {
		http.NotFound(w, r)
		return
	}
	name := path.Clean(p)
	tries := []string{name, name + ".html", name + "/index.html"}
	if strings.HasSuffix(p, "/") {
		tries = []string{path.Join(name, "index.html")}
	}
	for _, try := range tries {
		if serveFile(w, r, filepath.Join(dir, filepath.FromSlash(try))) {
			return
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name))); err == nil && fi.IsDir() && !strings.HasSuffix(p, "/") {
		http.Redirect(w, r, h.prefix+p+"/", http.StatusMovedPermanently)
		return
	}
	http.NotFound(w, r)
}

// serveFile serves the regular file name and reports whether there was one.
func serveFile(w http.ResponseWriter, r *http.Request, name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	http.ServeContent(w, r, fi.Name(), fi.ModTime(), f)
	return true
}

// startStaticHost serves dir under staticPrefix on a free loopback port
// until the test ends; base is the site's address ("http://ADDR/ratelab"),
// stop ends the server and every connection (the site goes offline).
func startStaticHost(t *testing.T, dir string) (base string, host *staticHost, stop func()) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "app-worker.js")); err != nil {
		t.Fatalf("%s holds no static site: run `make e2e-static` (make site PREFIX=%s SITE=testout/site)", dir, staticPrefix)
	}
	host = &staticHost{prefix: staticPrefix, dir: dir}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.StripPrefix(staticPrefix, host)}
	go srv.Serve(l)
	var once sync.Once
	stop = func() { once.Do(func() { srv.Close() }) }
	t.Cleanup(stop)
	return "http://" + l.Addr().String() + staticPrefix, host, stop
}

// buildStaticSite writes a site for staticPrefix with build id build into
// a new folder, with bin/site (built by `make site`) from the repository's
// root, and returns the folder.
func buildStaticSite(t *testing.T, build string) string {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join(repoRoot, "bin", "site"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "site-"+build)
	cmd := exec.Command(bin, "-out", out, "-prefix", staticPrefix, "-build", build)
	cmd.Dir = repoRoot
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s (run `make e2e-static`, which builds bin/site)", cmd, err, b)
	}
	return out
}
