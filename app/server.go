//go:build !wasm

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// serve runs the playground's HTTP server until it fails.
func serve() {
	addr := flag.String("addr", "127.0.0.1:8000", "address to listen on")
	root := flag.String("root", "", "folder that holds web/ (default: the working directory, else the folder above the server binary)")
	flag.Parse()

	dir, err := findRoot(*root)
	if err != nil {
		log.Fatal(err)
	}
	// go-app's LocalDir serves web/ relative to the working directory.
	if err := os.Chdir(dir); err != nil {
		log.Fatal(err)
	}
	files := make([]string, len(pages))
	for i, pg := range pages {
		files[i] = strings.TrimPrefix(pg.wasm, "/")
	}
	version, err := wasmVersion(files...)
	if err != nil {
		log.Fatalf("%v (run `make build` first)", err)
	}
	h, err := newHandler(version)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("rate limiter playground: http://%s (web/ in %s, version %s)", *addr, dir, version)
	srv := &http.Server{Addr: *addr, Handler: h, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.ListenAndServe())
}

// newHandler returns the playground's handler: go-app's page handler, with
// each page's wasm (see pages) served gzip-compressed when the browser
// accepts it, and app.js fetching the wasm of the page it is on.
func newHandler(version string) (http.Handler, error) {
	h := &app.Handler{
		Name:            "Rate limiter playground",
		ShortName:       "Ratelab",
		Title:           "Rate limiter playground: token bucket and sliding window log",
		Description:     "Drive a real token bucket and sliding window log in the browser and watch them decide.",
		Author:          "ratelab",
		Lang:            "en",
		LoadingLabel:    "Loading the playground…",
		BackgroundColor: "#f6f7f9",
		ThemeColor:      "#1f6feb",
		Icon: app.Icon{
			Default:    "/web/icon-192.png",
			Large:      "/web/icon-512.png",
			SVG:        "/web/icon.svg",
			AppleTouch: "/web/icon-192.png",
		},
		Styles:                []string{"/web/app.css", "/web/learn.css"},
		Version:               version,
		ServiceWorkerTemplate: workerJS,
	}
	appJS, err := pageWasmJS(h)
	if err != nil {
		return nil, err
	}
	return gzipWasm(trimPageSlash(appJS)), nil
}

// pageWasmJS returns go-app's app.js made to fetch the wasm of the page it
// runs on (see pages) instead of web/app.wasm for every page.
func pageWasmJS(h *app.Handler) (http.Handler, error) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app.js", nil))
	js := rec.Body.String()
	const fetch = `fetchWithProgress("/web/app.wasm",`
	if rec.Code != http.StatusOK || strings.Count(js, fetch) != 1 {
		return nil, fmt.Errorf("go-app's app.js (status %d) does not fetch the wasm as %s once: is go-app still v9.8.0?", rec.Code, fetch)
	}
	var pick strings.Builder
	// The path is compared decoded, as go-app routes it (/l%61b is /lab).
	pick.WriteString("\n// ratelab: every page has its own wasm (app/pages.go).\nfunction ratelabPageWasm() {\n  let p = location.pathname;\n  try { p = decodeURIComponent(p); } catch (e) {}\n")
	for _, pg := range pages[1:] {
		fmt.Fprintf(&pick, "  if (p === %q) return %q;\n", pg.path, pg.wasm)
	}
	fmt.Fprintf(&pick, "  return %q;\n}\n", pages[0].wasm)
	js = strings.Replace(js, fetch, `fetchWithProgress(ratelabPageWasm(),`, 1) + pick.String()
	etag := `"` + rec.Header().Get("ETag") + `-pages"`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/app.js" && r.URL.Path != "/goapp.js" {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "application/javascript")
		w.Header().Set("Content-Length", strconv.Itoa(len(js)))
		if r.Method != http.MethodHead {
			_, _ = io.WriteString(w, js)
		}
	}), nil
}

// trimPageSlash redirects a page's address with a trailing slash (/lab/) to
// the page (/lab): go-app routes exact paths only.
func trimPageSlash(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := strings.TrimSuffix(r.URL.Path, "/"); p != r.URL.Path && p != "" {
			for _, pg := range pages {
				if pg.path == p {
					u := *r.URL
					u.Path, u.RawPath = p, ""
					http.Redirect(w, r, u.RequestURI(), http.StatusMovedPermanently)
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// workerJS is go-app's service worker (DefaultAppWorkerJS) without push
// notifications, which the playground does not use, and with the wasm left
// out of the install-time cache: a page would otherwise download every
// page's binary. A wasm is cached when its page first loads it.
const workerJS = `const cacheName = "app-" + "{{.Version}}";
const resourcesToCache = {{.ResourcesToCache}}.filter((r) => !r.endsWith(".wasm"));

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(cacheName)
      .then((cache) => cache.addAll(resourcesToCache))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keyList) =>
      Promise.all(keyList.map((key) => (key !== cacheName ? caches.delete(key) : undefined)))
    )
  );
});

self.addEventListener("fetch", (event) => {
  event.respondWith(
    caches.match(event.request).then((cached) => {
      if (cached) {
        return cached;
      }
      return fetch(event.request).then((response) => {
        const url = new URL(event.request.url);
        if (response.ok && event.request.method === "GET" && url.origin === location.origin && url.pathname.endsWith(".wasm")) {
          const copy = response.clone();
          event.waitUntil(caches.open(cacheName).then((cache) => cache.put(event.request, copy)));
        }
        return response;
      });
    })
  );
});
`

// precompressed maps the paths served from a gzip copy made by `make
// build` to that copy and its content type.
var precompressed = func() map[string][2]string {
	m := map[string][2]string{
		"/app.wasm":                     {"web/app.wasm.gz", "application/wasm"}, // go-app's alias
		"/web/data/nasa-1995-08-01.csv": {"web/data/nasa-1995-08-01.csv.gz", "text/csv; charset=utf-8"},
	}
	for _, pg := range pages {
		m[pg.wasm] = [2]string{strings.TrimPrefix(pg.wasm, "/") + ".gz", "application/wasm"}
	}
	return m
}()

// gzipWasm serves the pre-compressed wasm (made by `make build` with gzip -9)
// and built-in trace with Content-Encoding: gzip to browsers that accept it;
// everything else, and those files for other clients, goes to next.
func gzipWasm(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		pc, ok := precompressed[r.URL.Path]
		if !ok || !acceptsGzip(r) {
			next.ServeHTTP(w, r)
			return
		}
		gzPath, ctype := pc[0], pc[1]
		f, err := os.Open(gzPath)
		if err != nil {
			next.ServeHTTP(w, r)
			return
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Cache-Control", "no-cache")
		// ServeContent would answer Range requests with ranges of the
		// compressed bytes; serve the whole file.
		w.Header().Set("Content-Length", fmt.Sprint(fi.Size()))
		if r.Method == http.MethodHead {
			return
		}
		_, _ = io.Copy(w, f)
	})
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(enc), "gzip") && strings.ReplaceAll(strings.TrimSpace(q), " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// findRoot returns the folder that holds web/app.wasm: dir when given, else
// the working directory, else the folder above the server binary (bin/..).
func findRoot(dir string) (string, error) {
	var tried []string
	try := func(d string) bool {
		if d == "" {
			return false
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return false
		}
		tried = append(tried, abs)
		fi, err := os.Stat(filepath.Join(abs, "web"))
		return err == nil && fi.IsDir()
	}
	if dir != "" {
		if try(dir) {
			return filepath.Abs(dir)
		}
		return "", fmt.Errorf("-root %s: no web/ folder there", dir)
	}
	if wd, err := os.Getwd(); err == nil && try(wd) {
		return wd, nil
	}
	if exe, err := os.Executable(); err == nil {
		if d := filepath.Dir(filepath.Dir(exe)); try(d) {
			return d, nil
		}
	}
	return "", fmt.Errorf("no web/ folder found in %v; start the server from the repository root or pass -root", tried)
}

// wasmVersion is the service worker's version: a hash of the wasm binaries,
// so that a rebuilt one is picked up by browsers that cached the previous.
func wasmVersion(paths ...string) (string, error) {
	sum := sha256.New()
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return "", err
		}
		_, err = io.Copy(sum, f)
		f.Close()
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(sum.Sum(nil))[:16], nil
}
