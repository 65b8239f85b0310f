// Command site writes the site as static files (`make site`): every page
// pre-rendered by go-app's GenerateStaticWebsite, go-app's scripts, worker
// and manifest, and web/ (the wasm with its brotli and gzip copies, the
// styles, icons, the NASA trace and the inspector's sources). Any static
// file server serves the folder, under the path prefix it was built for:
//
//	go run ./app/cmd/site -out site -prefix /ratelab -build v1
//
// It reads web/ from the working directory (the repository's root, after
// `make build`).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
	"github.com/ratelab/ratelab/app/pages"
	"github.com/ratelab/ratelab/app/server"
)

func main() {
	out := flag.String("out", "site", "folder to write the site to (replaced; it must be empty or an earlier build)")
	prefix := flag.String("prefix", "", `path the site is served under: "" for a host's root, /ratelab for https://NAME.github.io/ratelab/`)
	build := flag.String("build", "", "build id the help overlay shows, e.g. a git commit")
	flag.Parse()

	pages.Routes()
	shipped, err := shippedSources("web/src")
	if err != nil {
		log.Fatalf("%v (run `make build` first)", err)
	}
	version, err := server.Version("web/app.css", "web/learn.css", "web/layout.css", "web/app.wasm")
	if err != nil {
		log.Fatalf("%v (run `make build` first)", err)
	}
	if *build != "" {
		version += "-" + *build
	}
	h, err := server.StaticHandler(*prefix, version, *build, shipped)
	if err != nil {
		log.Fatal(err)
	}
	if err := clean(*out); err != nil {
		log.Fatal(err)
	}
	if err := app.GenerateStaticWebsite(*out, h); err != nil {
		log.Fatal(err)
	}
	if err := copyWeb("web", filepath.Join(*out, "web")); err != nil {
		log.Fatal(err)
	}
	// GitHub Pages runs Jekyll on a folder unless it has this file.
	if err := os.WriteFile(filepath.Join(*out, ".nojekyll"), nil, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("site: %s for http://HOST%s/ (version %s)\n", *out, *prefix, version)
}

// shippedSources are the names of the Go files in dir (web/src/), which
// the inspector fetches.
func shippedSources(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".go") {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s has no .go files", dir)
	}
	return names, nil
}

// clean removes dir when it is an earlier build (it has app-worker.js) and
// refuses any other folder that is not empty, so that a mistyped -out
// deletes nothing else.
func clean(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(entries) == 0 {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "app-worker.js")); err != nil {
		return fmt.Errorf("-out %s is not empty and holds no earlier build (no app-worker.js); not replacing it", dir)
	}
	return os.RemoveAll(dir)
}

// copyWeb copies the regular files below src to dst, leaving out the
// README's screenshots, which no page shows.
func copyWeb(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return nil
		case strings.HasPrefix(path.Base(rel), "screenshot"):
			return nil
		}
		return copyFile(p, target)
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
