package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"

	"github.com/ratelab/ratelab/app/site"
)

// renderedPages serves each page's HTML as go-app pre-renders it, rendered
// once when the server starts rather than per request: the HTML depends on
// the page alone (the wasm reads the query), and rendering /lab costs
// milliseconds of CPU. Rendering from a fixed request also keeps anything
// a client sends (a query, a Host header) out of the HTML.
type renderedPages struct {
	html map[string]renderedPage
	next http.Handler
}

type renderedPage struct {
	body []byte
	etag string
}

// renderPages renders every page of site.Pages and the gallery with h, as requested at
// http://origin/PATH, and serves them; other addresses go to next.
func renderPages(h http.Handler, origin string, next http.Handler) (*renderedPages, error) {
	rp := &renderedPages{html: map[string]renderedPage{}, next: next}
	paths := []string{site.GalleryPath}
	for _, pg := range site.Pages {
		paths = append(paths, pg.Path)
	}
	for _, path := range paths {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Host = origin
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			return nil, fmt.Errorf("rendering %s: status %d", path, rec.Code)
		}
		body := rec.Body.Bytes()
		rp.html[path] = renderedPage{body: body, etag: `"` + contentHash(body) + `"`}
	}
	return rp, nil
}

func (rp *renderedPages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	pg, ok := rp.html[r.URL.Path]
	if !ok {
		rp.next.ServeHTTP(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", pg.etag)
	if noneMatch(r.Header.Get("If-None-Match"), pg.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(pg.body)))
	if r.Method != http.MethodHead {
		_, _ = w.Write(pg.body)
	}
}
