//go:build !wasm

package main

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

func TestAccepts(t *testing.T) {
	for _, c := range []struct {
		header   string
		br, gzip bool
	}{
		{"gzip, deflate, br, zstd", true, true}, // Chromium
		{"gzip, deflate", false, true},
		{"", false, false},
		{"identity", false, false},
		{"br;q=0, gzip", false, true},
		{"br; q=0.0 , gzip;q=0.5", false, true},
		{"BR;Q=1", true, false},
		{"br;q=0.001", true, false},
		{"br;q=abc, gzip", false, true}, // a malformed weight accepts nothing
		{"*", true, true},
		{"*;q=0", false, false},
		{"gzip;q=0, *", true, false}, // gzip refused by name, br by the wildcard
		{"brotli, gzipped", false, false},
	} {
		if got := accepts(c.header, "br"); got != c.br {
			t.Errorf("accepts(%q, br) = %v, want %v", c.header, got, c.br)
		}
		if got := accepts(c.header, "gzip"); got != c.gzip {
			t.Errorf("accepts(%q, gzip) = %v, want %v", c.header, got, c.gzip)
		}
	}
}

// TestPrecompressedFiles: a wasm goes out as the best copy the browser
// accepts and that exists, else to next as it is.
func TestPrecompressedFiles(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll("web", 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"web/app.wasm": "raw", "web/app.wasm.br": "brotli!", "web/app.wasm.gz": "gzip",
		"web/lab.wasm": "lab raw", "web/lab.wasm.gz": "lab gzip", // no .br
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
		{"/web/app.wasm", "identity", "", "next /web/app.wasm"},
		{"/web/lab.wasm", "gzip, deflate, br", "gzip", "lab gzip"},           // no brotli copy
		{"/web/learn.wasm", "gzip, deflate, br", "", "next /web/learn.wasm"}, // no copy at all
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
			if ct, cl := res.Header.Get("Content-Type"), res.Header.Get("Content-Length"); ct != "application/wasm" || cl != strconv.Itoa(len(c.body)) {
				t.Errorf("%s %s: Content-Type %q, Content-Length %q; want application/wasm, %d", c.path, c.encoding, ct, cl, len(c.body))
			}
		}
		if v := res.Header.Get("Vary"); v != "Accept-Encoding" {
			t.Errorf("%s: Vary %q, want Accept-Encoding", c.path, v)
		}
	}
}

// TestStartWasm: the page's head starts compiling the wasm that app/pages.go
// names for its path, and app.js instantiates that module.
func TestStartWasm(t *testing.T) {
	routes()
	h, err := newHandler("test")
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: status %d", path, rec.Code)
		}
		return rec.Body.String()
	}
	page := get("/")
	for _, want := range []string{
		"var ratelabWasm = (function () {",
		`let url = "/web/app.wasm";`,
		`if (p === "/lab") url = "/web/lab.wasm";`,
		`if (p === "/learn") url = "/web/learn.wasm";`,
		"WebAssembly.compileStreaming(resp)",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page's HTML lacks %s", want)
		}
	}
	if i, j := strings.Index(page, "var ratelabWasm"), strings.Index(page, "</head>"); i < 0 || j < i {
		t.Errorf("the start script is not in the head (at %d, </head> at %d)", i, j)
	}
	js := get("/app.js")
	if want := "{ instance: await WebAssembly.instantiate(await ratelabWasm, go.importObject) };"; strings.Count(js, want) != 1 {
		t.Errorf("app.js does not instantiate the started module once: want %s", want)
	}
	if strings.Contains(js, "fetchWithProgress(\"/web/app.wasm\"") {
		t.Error("app.js still fetches web/app.wasm itself")
	}
}
