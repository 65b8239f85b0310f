package main

import (
	"flag"
	"log"
	"os"

	"github.com/ratelab/ratelab/app/pages"
	"github.com/ratelab/ratelab/app/server"
)

// Command server serves the site: the site.Pages pre-rendered, their wasm and
// web/. It runs the playground's HTTP server until it fails.
func main() {
	addr := flag.String("addr", "127.0.0.1:8000", "address to listen on")
	root := flag.String("root", "", "folder that holds web/ (default: the working directory, else the folder above the server binary)")
	flag.Parse()

	pages.Routes()
	dir, err := server.FindRoot(*root)
	if err != nil {
		log.Fatal(err)
	}
	// The server reads web/ (and its compressed copies) relative to the working directory.
	if err := os.Chdir(dir); err != nil {
		log.Fatal(err)
	}
	// The stylesheets too: the service worker serves them cache-first.
	version, err := server.Version("web/app.css", "web/learn.css", "web/layout.css", "web/app.wasm")
	if err != nil {
		log.Fatalf("%v (run `make build` first)", err)
	}
	h, err := server.New(version, *addr, "web")
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("rate limiter playground: http://%s (web/ in %s, version %s)", *addr, dir, version)
	log.Fatal(server.NewServer(*addr, h).ListenAndServe())
}
