package server

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// webResources tells go-app where the static files are without being an
// http.Handler, so that go-app serves no file itself: webFiles does, from
// web/ only. (go-app's LocalDir serves the whole working directory, and
// fetches /robots.txt and the like over HTTP from the request's Host.)
// prefix is the path the site is served under: "" for the server, "/ratelab"
// for a static build on a GitHub project page; go-app puts it before its
// own files and web/'s, and strips it from a page's address before routing.
type webResources struct{ prefix string }

func (r webResources) Package() string { return r.prefix }
func (r webResources) Static() string  { return r.prefix }
func (r webResources) AppWASM() string { return r.prefix + "/web/app.wasm" }

// webAliases are the addresses outside /web/ that stand for a file in web/:
// go-app's name for the playground's binary, and the files crawlers ask
// for at the root (404 while web/ has none).
var webAliases = map[string]string{
	"/app.wasm":    "app.wasm",
	"/goapp.wasm":  "app.wasm",
	"/robots.txt":  "robots.txt",
	"/sitemap.xml": "sitemap.xml",
	"/ads.txt":     "ads.txt",
}

// webFiles serves the regular files below one folder (web/) at /web/NAME,
// and its aliases (webAliases); any other /web address, a folder, or a
// name that cannot be opened (missing, too long, a link out of the folder)
// is 404. Each file has its own strong ETag, a hash of its content.
type webFiles struct {
	root *os.Root
	next http.Handler
	mu   sync.Mutex
	tags map[string]fileTag
}

// tagBytes is how much of a SHA-256 an ETag keeps (96 bits).
const tagBytes = 12

// contentHash is the ETag value (without quotes) of content b.
func contentHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:tagBytes])
}

// fileTag is a file's ETag, valid while its size and time stay the same.
type fileTag struct {
	size int64
	mod  time.Time
	etag string
}

// newWebFiles serves dir at /web/ and passes every other address to next.
func newWebFiles(dir string, next http.Handler) (*webFiles, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &webFiles{root: root, next: next, tags: map[string]fileTag{}}, nil
}

func (wf *webFiles) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	name, alias := webAliases[p]
	switch {
	case alias:
	case strings.HasPrefix(p, "/web/"):
		name = strings.TrimPrefix(p, "/web/")
	case p == "/web":
		http.NotFound(w, r)
		return
	default:
		wf.next.ServeHTTP(w, r)
		return
	}
	f, err := wf.root.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	etag, err := wf.etag(name, f, fi)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, fi.Name(), fi.ModTime(), f)
}

// etag returns the ETag of the open file name, hashing its content once per
// size and modification time.
func (wf *webFiles) etag(name string, f *os.File, fi fs.FileInfo) (string, error) {
	wf.mu.Lock()
	t, ok := wf.tags[name]
	wf.mu.Unlock()
	if ok && t.size == fi.Size() && t.mod.Equal(fi.ModTime()) {
		return t.etag, nil
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return "", err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	etag := `"` + hex.EncodeToString(sum.Sum(nil)[:tagBytes]) + `"`
	wf.mu.Lock()
	wf.tags[name] = fileTag{size: fi.Size(), mod: fi.ModTime(), etag: etag}
	wf.mu.Unlock()
	return etag, nil
}
