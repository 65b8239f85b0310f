//go:build wasm

package main

// serve is never called in the browser; the server is in server.go.
func serve() {}
