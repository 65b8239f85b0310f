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
// copies web/app.wasm.br, brotli, and web/app.wasm.gz, gzip -9) the way the
// playground's server does: go-app's handler, with the wasm sent
// pre-compressed, brotli first, to browsers that accept it.
func serve() {
	addr := flag.String("addr", "127.0.0.1:8001", "address to listen on")
	useBrotli := flag.Bool("brotli", true, "send web/app.wasm.br to browsers that accept brotli (false: gzip at best)")
	flag.Parse()
	h := &app.Handler{
		Name:         "Hello",
		Title:        "Hello",
		Lang:         "en",
		LoadingLabel: "Loading…",
		Icon:         app.Icon{Default: "/web/icon.svg", SVG: "/web/icon.svg"},
		Version:      "hello",
	}
	srv := &http.Server{Addr: *addr, Handler: precompressedWasm(h, *useBrotli), ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.ListenAndServe())
}

func precompressedWasm(next http.Handler, useBrotli bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if r.URL.Path != "/web/app.wasm" && r.URL.Path != "/app.wasm" {
			next.ServeHTTP(w, r)
			return
		}
		for _, enc := range []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
			if !accepts(r.Header.Get("Accept-Encoding"), enc.name) || enc.name == "br" && !useBrotli {
				continue
			}
			f, err := os.Open("web/app.wasm" + enc.ext)
			if err != nil {
				continue
			}
			defer f.Close()
			fi, err := f.Stat()
			if err != nil {
				continue
			}
			w.Header().Set("Content-Type", "application/wasm")
			w.Header().Set("Content-Encoding", enc.name)
			w.Header().Set("Cache-Control", "no-cache")
			w.Header().Set("Content-Length", fmt.Sprint(fi.Size()))
			if r.Method != http.MethodHead {
				_, _ = io.Copy(w, f)
			}
			return
		}
		next.ServeHTTP(w, r)
	})
}

// accepts reports whether Accept-Encoding lists enc without q=0 (what
// Chromium sends needs no more).
func accepts(header, enc string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		if strings.EqualFold(strings.TrimSpace(name), enc) {
			return strings.ReplaceAll(params, " ", "") != "q=0"
		}
	}
	return false
}
