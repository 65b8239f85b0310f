//go:build !wasm

package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// serve serves the page from the working directory (web/app.wasm and its
// gzip -9 copy web/app.wasm.gz) the way the playground's server does: go-app's
// handler, with the wasm sent pre-compressed to browsers that accept gzip.
func serve() {
	addr := flag.String("addr", "127.0.0.1:8001", "address to listen on")
	flag.Parse()
	h := &app.Handler{
		Name:         "Hello",
		Title:        "Hello",
		Lang:         "en",
		LoadingLabel: "Loading…",
		Icon:         app.Icon{Default: "/web/icon.svg", SVG: "/web/icon.svg"},
		Version:      "hello",
	}
	srv := &http.Server{Addr: *addr, Handler: gzipWasm(h), ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.ListenAndServe())
}

func gzipWasm(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if (r.URL.Path != "/web/app.wasm" && r.URL.Path != "/app.wasm") || !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			next.ServeHTTP(w, r)
			return
		}
		f, err := os.Open("web/app.wasm.gz")
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
		w.Header().Set("Content-Type", "application/wasm")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Length", fmt.Sprint(fi.Size()))
		if r.Method == http.MethodHead {
			return
		}
		_, _ = io.Copy(w, f)
	})
}
