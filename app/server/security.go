package server

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"time"
)

// Server timeouts. A page's largest response is a wasm binary of about
// 2 MB compressed (9 MB for a browser that takes no compression), so
// WriteTimeout leaves a slow phone link minutes to receive it; IdleTimeout
// frees keep-alive connections a browser no longer uses.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 3 * time.Minute
	idleTimeout       = 60 * time.Second
)

// NewServer returns the playground's HTTP server for h on addr, with every
// timeout set: without them, idle or slow connections stay open for ever.
func NewServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
	}
}

// contentSecurityPolicy allows the page its own origin and nothing else:
// scripts from the server plus the inline scripts of the head (by their
// hashes), WebAssembly compilation ('wasm-unsafe-eval'), no plugins, no
// <base> rewriting, and no framing by another site. Styles allow inline
// style attributes: go-app sets an element's style with setAttribute, which
// the policy would otherwise block, and a style runs no code.
func contentSecurityPolicy(inlineScripts ...string) string {
	scripts := "'self' 'wasm-unsafe-eval'"
	for _, s := range inlineScripts {
		scripts += " " + scriptHash(s)
	}
	return strings.Join([]string{
		"default-src 'self'",
		"script-src " + scripts,
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: blob:",
		"connect-src 'self' blob:", // blob: URLs the page makes (the lab's CSV export)
		"worker-src 'self'",
		"manifest-src 'self'",
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

// scriptHash is the CSP source that allows the inline script s.
func scriptHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// securityHeaders sets, on every response, the content security policy csp
// and the headers that stop content sniffing and leaking the page's address
// (with its query, a lab setup) to other sites.
func securityHeaders(csp string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

// readOnly answers 405 Method Not Allowed to any method but GET and HEAD:
// the server only serves files and pages.
func readOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "405 method not allowed; want GET or HEAD", http.StatusMethodNotAllowed)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// cleanPaths answers 404 to a path that is not already clean: one with an
// empty, "." or ".." segment (after percent-decoding, so %2e%2e and %2F
// count), or a backslash or NUL. Nothing below may then resolve a path
// outside what it serves, whatever it does with the path.
func cleanPaths(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isCleanPath(r.URL.Path) {
			http.NotFound(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func isCleanPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\\\x00") {
		return false
	}
	// A trailing slash is allowed (a page's address with one is redirected).
	segs := strings.Split(strings.TrimSuffix(p[1:], "/"), "/")
	if len(segs) == 1 && segs[0] == "" {
		return true // "/"
	}
	for _, s := range segs {
		if s == "" || s == "." || s == ".." {
			return false
		}
	}
	return true
}
