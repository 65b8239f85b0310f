//go:build wasm

package main

// serve is never called in the browser.
func serve() {}
