package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestQvalue(t *testing.T) {
	for _, c := range []struct {
		header   string
		br, gzip float64
	}{
		{"gzip, deflate, br, zstd", 1, 1}, // Chromium
		{"gzip, deflate", 0, 1},
		{"", 0, 0},
		{"identity", 0, 0},
		{"br;q=0, gzip", 0, 1},
		{"br; q=0.0 , gzip;q=0.5", 0, 0.5},
		{"BR;Q=1", 1, 0},
		{"gzip;q=1.0, br;q=0.5", 0.5, 1},
		{"br;q=0.001", 0.001, 0},
		{"br;q=abc, gzip", 0, 1}, // a malformed weight accepts nothing
		{"br;q=2, gzip;q=-1", 0, 0},
		{"*", 1, 1},
		{"*;q=0", 0, 0},
		{"gzip;q=0, *;q=0.3", 0.3, 0}, // gzip refused by name, br by the wildcard's weight
		{"brotli, gzipped", 0, 0},
		{"gzip;q=NaN, br;q=Inf", 0, 0}, // not qvalues
		{"gzip;q=1e-1, br;q=0.5000", 0, 0},
		{"gzip;q=1.001, br;q=1.", 1, 0},
		{"x-gzip", 0, 1}, // RFC 9110: x-gzip is gzip
		{"X-GZIP;q=0.25", 0, 0.25},
	} {
		if got := qvalue(c.header, "br"); got != c.br {
			t.Errorf("qvalue(%q, br) = %v, want %v", c.header, got, c.br)
		}
		if got := qvalue(c.header, "gzip"); got != c.gzip {
			t.Errorf("qvalue(%q, gzip) = %v, want %v", c.header, got, c.gzip)
		}
	}
}

// TestPrecompressedFiles: a wasm goes out as the best copy the browser
// accepts and that exists, else to next as it is.
func TestPrecompressedFiles(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll("web/data", 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"web/app.wasm": "raw", "web/app.wasm.br": "brotli!", "web/app.wasm.gz": "gzip",
		"web/data/nasa-1995-08-01.csv": "csv raw", "web/data/nasa-1995-08-01.csv.gz": "csv gzip", // no .br
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "next "+r.URL.Path) })
	h := precompressedFiles(next)
	for _, c := range []struct {
		path, accept, encoding, body string
	}{
		{"/web/app.wasm", "gzip, deflate, br, zstd", "br", "brotli!"},
		{"/app.wasm", "gzip, deflate, br", "br", "brotli!"}, // go-app's alias
		{"/web/app.wasm", "gzip, deflate", "gzip", "gzip"},
		{"/web/app.wasm", "br;q=0, gzip", "gzip", "gzip"},
		{"/web/app.wasm", "gzip;q=1.0, br;q=0.5", "gzip", "gzip"},  // the browser's preference
		{"/web/app.wasm", "br;q=0.5, gzip;q=0.5", "br", "brotli!"}, // a tie: brotli
		{"/web/app.wasm", "identity", "", "next /web/app.wasm"},
		{"/web/data/nasa-1995-08-01.csv", "gzip, deflate, br", "gzip", "csv gzip"}, // no brotli copy
		{"/web/learn.wasm", "gzip, deflate, br", "", "next /web/learn.wasm"},       // not a precompressed file
		{"/web/app.css", "gzip, deflate, br", "", "next /web/app.css"},
	} {
		req := httptest.NewRequest(http.MethodGet, c.path, nil)
		req.Header.Set("Accept-Encoding", c.accept)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		res := rec.Result()
		body, _ := io.ReadAll(res.Body)
		if enc := res.Header.Get("Content-Encoding"); enc != c.encoding || string(body) != c.body {
			t.Errorf("%s with Accept-Encoding %q: %q %q, want %q %q", c.path, c.accept, enc, body, c.encoding, c.body)
		}
		if c.encoding != "" {
			want := precompressed[c.path][1]
			if ct, cl := res.Header.Get("Content-Type"), res.Header.Get("Content-Length"); ct != want || cl != strconv.Itoa(len(c.body)) {
				t.Errorf("%s %s: Content-Type %q, Content-Length %q; want %s, %d", c.path, c.encoding, ct, cl, want, len(c.body))
			}
		}
		if v := res.Header.Get("Vary"); v != "Accept-Encoding" {
			t.Errorf("%s: Vary %q, want Accept-Encoding", c.path, v)
		}
	}

	// Revalidation: each copy has its own ETag; a match is 304 with no body.
	get := func(accept, ifNoneMatch string) *http.Response {
		req := httptest.NewRequest(http.MethodGet, "/web/app.wasm", nil)
		req.Header.Set("Accept-Encoding", accept)
		if ifNoneMatch != "" {
			req.Header.Set("If-None-Match", ifNoneMatch)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Result()
	}
	br, gz := get("br, gzip", "").Header.Get("ETag"), get("gzip", "").Header.Get("ETag")
	if br == "" || gz == "" || br == gz {
		t.Fatalf("ETags: brotli %q, gzip %q; want two different ones", br, gz)
	}
	for _, c := range []struct {
		accept, ifNoneMatch string
		status              int
		body                string
	}{
		{"br, gzip", br, http.StatusNotModified, ""},
		{"br, gzip", `"other", W/` + br, http.StatusNotModified, ""},
		{"br, gzip", "*", http.StatusNotModified, ""},
		{"gzip", br, http.StatusOK, "gzip"}, // the brotli copy's tag does not match the gzip copy
		{"br, gzip", `"stale"`, http.StatusOK, "brotli!"},
	} {
		res := get(c.accept, c.ifNoneMatch)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != c.status || string(body) != c.body {
			t.Errorf("Accept-Encoding %q, If-None-Match %q: %d %q, want %d %q", c.accept, c.ifNoneMatch, res.StatusCode, body, c.status, c.body)
		}
	}
}

// TestOneWasm: every page runs the one wasm that go-app's own app.js
// fetches (web/app.wasm); no page carries a script of its own, and the
// service worker caches every page at install.
func TestOneWasm(t *testing.T) {
	h := testHandler(t)
	get := func(path string) string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: status %d", path, rec.Code)
		}
		return rec.Body.String()
	}
	for _, path := range []string{"/", "/lab", "/learn"} {
		page := get(path)
		if n := strings.Count(page, "<script"); n != 2 {
			t.Errorf("%s has %d scripts, want 2 (wasm_exec.js, app.js)", path, n)
		}
		if !strings.Contains(page, `>Loading ratelab…</p>`) {
			t.Errorf("%s: the loading label is not \"Loading ratelab…\"", path)
		}
	}
	js := get("/app.js")
	if want := `fetchWithProgress("/web/app.wasm", showProgress)`; strings.Count(js, want) != 1 {
		t.Errorf("app.js does not fetch the one wasm once: want %s", want)
	}
	if worker := get("/app-worker.js"); !strings.Contains(worker, `const resourcesToCache = ["/","/app.css","/app.js","/lab","/learn",`) {
		t.Errorf("the service worker does not cache every page at install: %.300s", worker)
	}
}

func TestPrerenderBooleans(t *testing.T) {
	h := testHandler(t)
	for _, path := range []string{"/", "/lab", "/learn", "/lab?lane=gcra,5,5&lane=fixed_window,10,1s&speed=2"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		body := rec.Body.String()
		for _, bad := range []string{`disabled="false"`, `selected="false"`} {
			if n := strings.Count(body, bad); n > 0 {
				t.Errorf("%s: %d × %s", path, n, bad)
			}
		}
		if !strings.HasPrefix(path, "/lab") {
			continue
		}
		selects := strings.Split(body, "<select")[1:]
		if len(selects) < 4 {
			t.Fatalf("%s: %d selects", path, len(selects))
		}
		for i, s := range selects {
			s = s[:strings.Index(s, "</select>")]
			if n := strings.Count(s, " selected"); n != 1 {
				t.Errorf("%s: select %d has %d selected options, want 1", path, i, n)
			}
		}
	}
}
