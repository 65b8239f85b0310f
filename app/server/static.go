package server

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/site"
)

// prefixPattern is a path prefix a static build accepts: "" (the host's
// root) or slash-separated segments of URL-safe characters, with no
// trailing slash, and no segment that starts with a dot ("/ratelab",
// "/courses/ratelab").
var prefixPattern = regexp.MustCompile(`^(/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*$`)

// buildPattern is a build id the help overlay shows and the worker's
// cache name carries ("v1.2.0", "4f2c1ab", "4f2c1ab-dirty").
var buildPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{0,64}$`)

// StaticHandler is go-app's handler for the site as static files under
// prefix, for app.GenerateStaticWebsite: every page, the wasm and web/'s
// files, go-app's scripts and manifest, and a service worker that keeps
// all of them (staticWorkerJS), the pages and the lab's built-in trace
// and the inspector's sources (shipped, names in web/src/) included, so
// that after one visit every page works offline. version names the build
// for the worker (a new one replaces the cached files), build is the id
// the help overlay shows.
func StaticHandler(prefix, version, build string, shipped []string) (*app.Handler, error) {
	if prefix == "/" {
		prefix = ""
	}
	if !prefixPattern.MatchString(prefix) {
		return nil, fmt.Errorf("prefix %q is not a path; want \"\" or /NAME[/NAME...], each NAME of letters, digits, '.', '_', '~', '-' and not starting with '.', without a trailing slash", prefix)
	}
	if !buildPattern.MatchString(build) {
		return nil, fmt.Errorf("build %q; want up to 64 letters, digits, '.', '_', '-'", build)
	}
	h := appHandler(version, webResources{prefix: prefix})
	h.ServiceWorkerTemplate = staticWorkerJS
	h.Env = app.Environment{site.BuildEnv: build}
	// Pages as the host serves them ("/ratelab/", not "/ratelab", which a
	// host redirects), and web/'s files that go-app does not list itself
	// (its resolver puts the prefix before /web/ paths).
	cacheable := []string{"/web/icon.svg", "/web/data/nasa-1995-08-01.csv"}
	for _, pg := range site.Pages {
		cacheable = append(cacheable, prefix+pg.Path)
	}
	for _, name := range shipped {
		cacheable = append(cacheable, "/web/src/"+name)
	}
	h.CacheableResources = cacheable
	// A static host sends no headers of its own: the policy travels in
	// the page (frame-ancestors aside, which a <meta> policy cannot set).
	h.RawHeaders = []string{`<meta http-equiv="Content-Security-Policy" content="` + metaPolicy() + `">`}
	return h, nil
}

// metaPolicy is contentSecurityPolicy without its frame-ancestors
// directive, which browsers ignore (with a console error) in a <meta>.
func metaPolicy() string {
	var kept []string
	for _, d := range strings.Split(contentSecurityPolicy(), "; ") {
		if !strings.HasPrefix(d, "frame-ancestors ") {
			kept = append(kept, d)
		}
	}
	return strings.Join(kept, "; ")
}

// staticWorkerJS is the static build's service worker (a go-app
// ServiceWorkerTemplate). Unlike the server's workerJS it caches the wasm
// at install, so that one visit is enough to work offline and an update's
// cache is complete before it replaces the old one. The first install
// takes the files from the browser's HTTP cache when it has them (the page
// has just downloaded its wasm: not twice); an update asks the host for
// each. Its cache names start with its scope, so that other sites on the
// same origin (GitHub project pages share one) keep theirs. Offline, a
// page's address with a query is that page, and an address it never
// cached gets a page that says so.
const staticWorkerJS = `const scope = new URL(self.registration.scope).pathname;
const cachePrefix = "ratelab " + scope + " ";
const cacheName = cachePrefix + "{{.Version}}";
// go-app names the root page without its trailing slash; the host serves it with one.
const resourcesToCache = [...new Set({{.ResourcesToCache}}.map((r) => (r + "/" === scope ? scope : r)))];

async function ownCaches() {
  return (await caches.keys()).filter((k) => k.startsWith(cachePrefix));
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const mode = (await ownCaches()).length === 0 ? "force-cache" : "no-cache";
      const cache = await caches.open(cacheName);
      await cache.addAll(resourcesToCache.map((r) => new Request(r, { cache: mode })));
      await self.skipWaiting();
    })()
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await Promise.all((await ownCaches()).filter((k) => k !== cacheName).map((k) => caches.delete(k)));
      await self.clients.claim();
    })()
  );
});

self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") {
    return;
  }
  event.respondWith(
    (async () => {
      const cached = await caches.match(event.request, { cacheName });
      if (cached) {
        return cached;
      }
      try {
        return await fetch(event.request);
      } catch (err) {
        if (event.request.mode !== "navigate") {
          throw err;
        }
        // Offline: a page's address with a query (the lab keeps its setup
        // there) is still that page, which the wasm draws from the query.
        const page = await caches.match(event.request, { cacheName, ignoreSearch: true });
        return page || notSaved(new URL(event.request.url).pathname);
      }
    })()
  );
});

function notSaved(path) {
  const esc = (s) => s.replace(/[&<>"]/g, (c) => "&#" + c.charCodeAt(0) + ";");
  const body = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline: page not saved</title>' +
    '<link rel="icon" href="' + esc(scope) + 'web/icon.svg"></head>' +
    '<body style="font-family: system-ui, sans-serif; max-width: 40em; margin: 3em auto; padding: 0 1em; line-height: 1.5">' +
    '<h1>You are offline</h1>' +
    '<p id="offline-message">This page (' + esc(path) + ') was not saved on this device, so it cannot open until you are back online.</p>' +
    '<p>The playground, the comparison lab and the lessons work offline: <a id="offline-home" href="' + esc(scope) + '">open the playground</a>.</p>' +
    "</body></html>";
  return new Response(body, { status: 503, statusText: "Offline", headers: { "Content-Type": "text/html; charset=utf-8" } });
}
`
