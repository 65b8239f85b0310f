package site

import (
	"sync"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// rootPrefix is the path the site is served under: "" from bin/server,
// "/ratelab" for a static build made with `make site PREFIX=/ratelab` (a
// GitHub project page). go-app passes it to the page as GOAPP_ROOT_PREFIX
// (the resource provider's Package) and strips it before routing; static
// files (/web/...) it prefixes itself, in src and href attributes and in
// ctx.ResolveStaticResource.
var rootPrefix = sync.OnceValue(func() string { return app.Getenv("GOAPP_ROOT_PREFIX") })

// Href is the address of path, a page's route with any query ("/",
// "/learn?mode=quiz"), on this site: under its root prefix.
func Href(path string) string { return rootPrefix() + path }

// BuildEnv is the name of the go-app environment variable that carries the
// build id the help overlay shows (see Build).
const BuildEnv = "RATELAB_BUILD"

// Build is the id of the build running in the page ("" when the handler set
// none): a new deploy shows a new one.
func Build() string { return app.Getenv(BuildEnv) }
