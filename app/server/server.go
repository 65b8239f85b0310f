// Package server is the site's HTTP handler: go-app's handler, which
// pre-renders every page, with the heads that start each page's wasm, the
// pre-compressed wasm and trace, security headers and caching.
package server

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/site"
)

// New returns the playground's handler, serving only what the
// playground is: web/'s files (webFiles), the one wasm that runs every page,
// served brotli- or gzip-compressed to the browsers that accept it
// (precompressedFiles), the
// pages pre-rendered once as at http://origin/PATH (renderPages), and
// go-app's own scripts, worker and manifest. webDir is the folder web/.
// Every response carries the
// security headers; a method but GET or HEAD is 405, an unclean path 404.
func New(version, origin, webDir string) (http.Handler, error) {
	h := appHandler(version, webResources{})
	h.ServiceWorkerTemplate = workerJS
	// go-app caches "/" at install; the other pages too, so that every
	// page opens offline once the worker has kept the wasm.
	h.CacheableResources = otherPagePaths()
	h.Env = app.Environment{site.BuildEnv: version}
	rendered, err := renderPages(h, origin, trimPageSlash(h))
	if err != nil {
		return nil, err
	}
	files, err := newWebFiles(webDir, rendered)
	if err != nil {
		return nil, err
	}
	csp := contentSecurityPolicy()
	return securityHeaders(csp, readOnly(cleanPaths(precompressedFiles(files)))), nil
}

// appHandler is go-app's handler for the site as version, its files from
// res: what the server and the static build (StaticHandler) share.
func appHandler(version string, res app.ResourceProvider) *app.Handler {
	return &app.Handler{
		Name:            "Rate limiter playground",
		ShortName:       "Ratelab",
		Title:           site.Pages[0].Title, // each page sets its own (site.SetHead)
		Description:     site.Pages[0].About,
		Author:          "ratelab",
		Lang:            "en",
		LoadingLabel:    "Loading ratelab…", // every page shows it (app.js has one label)
		BackgroundColor: "#f6f7f9",
		ThemeColor:      "#1f6feb",
		Icon: app.Icon{
			Default:    "/web/icon-192.png",
			Large:      "/web/icon-512.png",
			SVG:        "/web/icon.svg",
			AppleTouch: "/web/icon-192.png",
		},
		Styles:    []string{"/web/app.css", "/web/learn.css", "/web/layout.css"},
		Version:   version,
		Resources: res,
	}
}

// otherPagePaths are the paths of the pages but the first ("/").
func otherPagePaths() []string {
	var paths []string
	for _, pg := range site.Pages[1:] {
		paths = append(paths, pg.Path)
	}
	return paths
}

// trimPageSlash redirects a page's address with a trailing slash (/lab/) to
// the page (/lab): go-app routes exact paths only.
func trimPageSlash(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := strings.TrimSuffix(r.URL.Path, "/"); p != r.URL.Path && p != "" {
			for _, pg := range site.Pages {
				if pg.Path == p {
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
// out of the install-time cache: the page is already downloading it, and
// the install would download it a second time. The wasm is cached when the
// page loads it. Offline, a page's address with a query falls back to the
// page cached at install.
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
      }).catch((err) => {
        // Offline: a page's address with a query (the lab keeps its setup
        // there) is still that page, which the wasm then draws from the query.
        if (event.request.mode !== "navigate") {
          throw err;
        }
        return caches.match(event.request, { ignoreSearch: true }).then((page) => page || Promise.reject(err));
      });
    })
  );
});
`

// precompressed maps the paths that `make build` writes compressed copies of
// (FILE.br with brotli, FILE.gz with gzip -9) to FILE and its content type.
var precompressed = map[string][2]string{
	"/web/app.wasm":                 {"web/app.wasm", "application/wasm"},
	"/app.wasm":                     {"web/app.wasm", "application/wasm"}, // go-app's alias
	"/web/data/nasa-1995-08-01.csv": {"web/data/nasa-1995-08-01.csv", "text/csv; charset=utf-8"},
}

// encodings are the compressed copies the server looks for, in its order of
// preference: FILE.br (brotli), then FILE.gz (gzip -9).
var encodings = []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// precompressedFiles serves the wasm and the built-in trace from their
// compressed copies (see precompressed): the copy whose encoding the
// browser's Accept-Encoding weighs highest (ties: brotli first), with a
// strong ETag per copy, so that a browser revalidating it gets 304 Not
// Modified. Everything else, and those files when no copy fits, goes to next.
func precompressedFiles(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		pc, ok := precompressed[r.URL.Path]
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		var f *os.File
		var fi os.FileInfo
		var enc string
		best := 0.0
		for _, e := range encodings {
			q := qvalue(r.Header.Get("Accept-Encoding"), e.name)
			if q <= best {
				continue
			}
			c, err := os.Open(pc[0] + e.ext)
			if err != nil {
				continue
			}
			ci, err := c.Stat()
			if err != nil {
				c.Close()
				continue
			}
			if f != nil {
				f.Close()
			}
			f, fi, enc, best = c, ci, e.name, q
		}
		if f == nil {
			next.ServeHTTP(w, r)
			return
		}
		defer f.Close()
		etag := fmt.Sprintf(`"%x-%x-%s"`, fi.ModTime().UnixNano(), fi.Size(), enc)
		w.Header().Set("ETag", etag)
		w.Header().Set("Cache-Control", "no-cache")
		if noneMatch(r.Header.Get("If-None-Match"), etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", pc[1])
		w.Header().Set("Content-Encoding", enc)
		// ServeContent would answer Range requests with ranges of the
		// compressed bytes; serve the whole file.
		w.Header().Set("Content-Length", strconv.FormatInt(fi.Size(), 10))
		if r.Method != http.MethodHead {
			_, _ = io.Copy(w, f)
		}
	})
}

// qvalue is the weight (0 to 1) that the Accept-Encoding header value gives
// the content coding enc (RFC 9110, section 12.5.3): enc's own q-value
// (1 when it has none), else that of "*", else 0 (not acceptable). "x-gzip"
// is gzip (RFC 9110, section 8.4.1.3). A weight that is not a qvalue as
// RFC 9110 section 12.4.2 writes it ("0.5", "1.000"; not "NaN", "1e-1",
// "2") counts as 0.
func qvalue(header, enc string) float64 {
	star := 0.0
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.TrimSpace(name)
		if strings.EqualFold(name, "x-gzip") {
			name = "gzip"
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(p, "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				q = parseQ(strings.TrimSpace(v))
			}
		}
		switch {
		case strings.EqualFold(name, enc):
			return q
		case name == "*":
			star = q
		}
	}
	return star
}

// parseQ reads a qvalue: "0" or "1", or either followed by "." and up to
// three digits (at most "1.000"); anything else is 0.
func parseQ(v string) float64 {
	intPart, frac, dot := strings.Cut(v, ".")
	if (intPart != "0" && intPart != "1") || (dot && len(frac) > 3) {
		return 0
	}
	for _, c := range frac {
		if c < '0' || c > '9' || intPart == "1" && c != '0' {
			return 0
		}
	}
	q, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0
	}
	return q
}

// noneMatch reports whether an If-None-Match header value matches etag
// (weak comparison, as RFC 9110 section 13.1.2 asks), so 304 applies.
func noneMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// FindRoot returns the folder that holds web/app.wasm: dir when given, else
// the working directory, else the folder above the server binary (bin/..).
func FindRoot(dir string) (string, error) {
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

// Version is the service worker's version: a hash of the wasm binaries
// and stylesheets, so that a rebuilt one is picked up by browsers that
// cached the previous.
func Version(paths ...string) (string, error) {
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
