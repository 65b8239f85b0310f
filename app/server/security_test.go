package server

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ratelab/ratelab/app/pages"
)

// testHandler is the server's handler over a temporary repository: a web/
// folder with a few files, and beside it what must never be served (a .git
// folder, go.mod, a secret).
func testHandler(t *testing.T) http.Handler {
	t.Helper()
	pages.Routes()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"web/app.css":            "body{}",
		"web/learn.css":          "main{}",
		"web/data/README.md":     "# data",
		"web/src/tokenbucket.go": "package limiter",
		".git/config":            "[core] secret",
		"go.mod":                 "module secret",
		"secret.txt":             "secret",
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A link out of web/ must not lead out of it either.
	if err := os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(dir, "web", "link.txt")); err != nil {
		t.Fatal(err)
	}
	h, err := New("test", "127.0.0.1:8000", filepath.Join(dir, "web"))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// rawRequest is a request whose target is sent as written, as `curl
// --path-as-is` or a hand-written request line does.
func rawRequest(t *testing.T, method, target string) *http.Request {
	t.Helper()
	req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n\r\n")))
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	return req
}

// TestServerServesOnlyWeb: every spelling of a path out of web/, and any
// folder or unreadable name in it, is 404 with nothing of the file.
func TestServerServesOnlyWeb(t *testing.T) {
	h := testHandler(t)
	for _, c := range []struct {
		target string
		status int
		body   string
	}{
		{"/web/../.git/config", 404, ""},
		{"/web/%2e%2e/.git/config", 404, ""},
		{"/web/%2E%2E/.git/config", 404, ""},
		{"/web/..%2F.git%2Fconfig", 404, ""},
		{"/web/..%2f.git%2fconfig", 404, ""},
		{"/web/src/../../go.mod", 404, ""},
		{"/web/%252e%252e/.git/config", 404, ""}, // double encoding: a name with "%2e%2e" in it
		{"/web/%252e%252e%252fgo.mod", 404, ""},
		{"/web/..%5c.git%5cconfig", 404, ""},
		{"/web/./app.css", 404, ""},
		{"/web//app.css", 404, ""},
		{"/web/app.css%00", 404, ""},
		{"/.git/config", 404, ""},
		{"/go.mod", 404, ""},
		{"/secret.txt", 404, ""},
		{"/lab/../.git/config", 404, ""},
		{"/web/link.txt", 404, ""}, // a link out of web/
		{"/web/" + strings.Repeat("a", 256), 404, ""},
		{"/web/" + strings.Repeat("a", 5000), 404, ""},
		{"/web/", 404, ""},
		{"/web", 404, ""},
		{"/web/data/", 404, ""},
		{"/web/data", 404, ""},
		{"/web/src/", 404, ""},
		{"/robots.txt", 404, ""},
		{"/web/app.css", 200, "body{}"},
		{"/web/data/README.md", 200, "# data"},
		{"/web/src/tokenbucket.go", 200, "package limiter"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, rawRequest(t, "GET", c.target))
		body := rec.Body.String()
		if rec.Code != c.status || (c.status == 200 && body != c.body) || strings.Contains(body, "secret") {
			t.Errorf("GET %s: %d %.60q, want %d %q", c.target, rec.Code, body, c.status, c.body)
		}
	}
}

// TestServerDoesNotFetchFromHost: go-app answers /robots.txt by fetching
// it over HTTP from the request's Host; the server must not.
func TestServerDoesNotFetchFromHost(t *testing.T) {
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "poisoned")
	}))
	defer other.Close()
	h := testHandler(t)
	for _, path := range []string{"/robots.txt", "/sitemap.xml", "/ads.txt"} {
		req := rawRequest(t, "GET", path)
		req.Host = strings.TrimPrefix(other.URL, "http://")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 404 || strings.Contains(rec.Body.String(), "poisoned") {
			t.Errorf("GET %s with Host %s: %d %q, want 404", path, req.Host, rec.Code, rec.Body.String())
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the server made %d requests to the request's Host, want 0", n)
	}
}

// TestServerEchoesNothing: the pre-rendered page is the same whatever the
// query and Host, so a hostile request line cannot put markup in it.
func TestServerEchoesNothing(t *testing.T) {
	h := testHandler(t)
	get := func(req *http.Request) string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Fatalf("GET %s: %d", req.URL, rec.Code)
		}
		return rec.Body.String()
	}
	plain := get(rawRequest(t, "GET", "/lab"))
	hostile := get(rawRequest(t, "GET", `/lab?x="><script>alert(document.domain)</script>`))
	if hostile != plain {
		t.Error(`/lab?x="><script>… differs from /lab`)
	}
	req := rawRequest(t, "GET", "/lab")
	req.Host = `evil"><script>alert(1)</script>`
	if get(req) != plain {
		t.Error("/lab with a hostile Host differs from /lab")
	}
	if strings.Contains(hostile, "alert(") {
		t.Error("the page echoes the request")
	}
	if n := strings.Count(plain, "<script"); n != 2 {
		t.Errorf("/lab has %d scripts, want 2 (wasm_exec.js, app.js)", n)
	}
	if want := `content="http://127.0.0.1:8000/lab"`; strings.Count(plain, want) != 1 { // og:url
		t.Errorf("/lab lacks %s", want)
	}
}

// TestServerHeaders: every response carries the security headers; the
// policy allows no inline script (the pages have none).
func TestServerHeaders(t *testing.T) {
	h := testHandler(t)
	wantCSP := "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
		"style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self' blob:; worker-src 'self'; " +
		"manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
	for _, path := range []string{"/", "/lab", "/learn", "/web/app.css", "/app.js", "/app-worker.js", "/manifest.webmanifest", "/nope", "/web/../go.mod"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, rawRequest(t, "GET", path))
		for k, want := range map[string]string{
			"Content-Security-Policy":    wantCSP,
			"X-Content-Type-Options":     "nosniff",
			"Referrer-Policy":            "no-referrer",
			"Cross-Origin-Opener-Policy": "same-origin",
		} {
			if got := rec.Header().Get(k); got != want {
				t.Errorf("GET %s: %s %q, want %q", path, k, got, want)
			}
		}
	}
}

// TestServerMethods: only GET and HEAD; HEAD has the headers and no body.
func TestServerMethods(t *testing.T) {
	h := testHandler(t)
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND"} {
		for _, path := range []string{"/", "/lab", "/web/app.css", "/app.js"} {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, rawRequest(t, m, path))
			if rec.Code != 405 || rec.Header().Get("Allow") != "GET, HEAD" || !strings.Contains(rec.Body.String(), "want GET or HEAD") {
				t.Errorf("%s %s: %d, Allow %q, body %q; want 405, GET, HEAD", m, path, rec.Code, rec.Header().Get("Allow"), rec.Body.String())
			}
		}
	}
	for _, path := range []string{"/", "/lab", "/web/app.css"} {
		get, head := httptest.NewRecorder(), httptest.NewRecorder()
		h.ServeHTTP(get, rawRequest(t, "GET", path))
		h.ServeHTTP(head, rawRequest(t, "HEAD", path))
		if head.Code != 200 || head.Body.Len() != 0 || head.Header().Get("Content-Length") != get.Header().Get("Content-Length") {
			t.Errorf("HEAD %s: %d, %d body bytes, Content-Length %q; want 200, 0, %q", path, head.Code, head.Body.Len(), head.Header().Get("Content-Length"), get.Header().Get("Content-Length"))
		}
	}
}

// TestServerETags: each file and each page has its own tag, and a match
// is 304.
func TestServerETags(t *testing.T) {
	h := testHandler(t)
	tags := map[string]string{}
	for _, path := range []string{"/", "/lab", "/learn", "/web/app.css", "/web/learn.css", "/web/data/README.md"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, rawRequest(t, "GET", path))
		tag := rec.Header().Get("ETag")
		if tag == "" {
			t.Fatalf("GET %s: no ETag", path)
		}
		for other, o := range tags {
			if o == tag {
				t.Errorf("%s and %s share the ETag %s", path, other, tag)
			}
		}
		tags[path] = tag
		req := rawRequest(t, "GET", path)
		req.Header.Set("If-None-Match", tag)
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
			t.Errorf("GET %s with If-None-Match %s: %d, %d bytes; want 304, none", path, tag, rec.Code, rec.Body.Len())
		}
	}
	if want := `"` + contentHash([]byte("body{}")) + `"`; tags["/web/app.css"] != want {
		t.Errorf("app.css ETag %s, want the hash of its content %s", tags["/web/app.css"], want)
	}
}

// TestServerPagesRenderedOnce: a page's HTML is rendered when the handler
// is made; requests serve the same bytes.
func TestServerPagesRenderedOnce(t *testing.T) {
	h := testHandler(t)
	var first string
	for i := 0; i < 3; i++ {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, rawRequest(t, "GET", "/learn"))
		if i == 0 {
			first = rec.Body.String()
		} else if rec.Body.String() != first {
			t.Fatal("/learn differs between requests")
		}
		if ct := rec.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("/learn Content-Type %q", ct)
		}
	}
}

// TestServerTimeouts: the server sets every timeout, and closes idle
// keep-alive connections after IdleTimeout (shortened here).
func TestServerTimeouts(t *testing.T) {
	srv := NewServer("127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	if srv.ReadHeaderTimeout != 10*time.Second || srv.ReadTimeout != 30*time.Second || srv.WriteTimeout != 3*time.Minute || srv.IdleTimeout != time.Minute {
		t.Errorf("timeouts: read header %v, read %v, write %v, idle %v; want 10s, 30s, 3m, 1m", srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout)
	}
	const idle = 300 * time.Millisecond
	srv.IdleTimeout = idle
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	defer srv.Close()

	const conns = 50
	closed := make(chan error, conns)
	start := time.Now()
	for i := 0; i < conns; i++ {
		c, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		go func(c net.Conn) {
			br := bufio.NewReader(c)
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				closed <- err
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			// The connection now idles; the server must close it. The
			// deadline only keeps a broken server from hanging the test.
			c.SetReadDeadline(time.Now().Add(20 * time.Second))
			_, err = br.ReadByte()
			closed <- err
		}(c)
	}
	for i := 0; i < conns; i++ {
		if err := <-closed; !errors.Is(err, io.EOF) {
			t.Fatalf("connection %d: %v, want EOF (closed by the server)", i, err)
		}
	}
	if el := time.Since(start); el < idle {
		t.Errorf("connections closed after %v, before the idle timeout %v", el, idle)
	}
}
