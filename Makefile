# Rate limiter playground: see README.md.
GO        ?= go
ADDR      ?= 127.0.0.1:8000
GOROOT    := $(shell $(GO) env GOROOT)
WASM_EXEC := $(GOROOT)/lib/wasm/go_js_wasm_exec
# Each property (fuzz) target runs this many random traces in `make test`.
FUZZ_RUNS ?= 2000
FUZZ_TARGETS = $(shell grep -ho '^func Fuzz[A-Za-z0-9_]*' limiter/*_test.go | sed 's/^func //')

# make site: the path the static site is served under ("" for a host's root,
# /ratelab for https://NAME.github.io/ratelab/), the folder it is written to,
# and the build id its help overlay shows.
PREFIX    ?=
SITE      ?= site
BUILD_ID  ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)

.PHONY: all build run site test deps vet lint unit wasm-test fuzz e2e e2e-static bench bench-ui clean

all: build

## build: compile the pages to one wasm, web/app.wasm (app/cmd/web; plus a brotli and a gzip copy),
## and the server to bin/server (app/cmd/server)
build:
	rm -rf web/src && mkdir -p web/src && cp $(filter-out %_test.go,$(wildcard limiter/*.go)) web/src/
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o web/app.wasm ./app/cmd/web
	gzip -9 -k -f web/app.wasm
	gzip -9 -k -f web/data/nasa-1995-08-01.csv
	$(GO) run ./app/cmd/precompress web/app.wasm web/data/nasa-1995-08-01.csv
	$(GO) build -trimpath -o bin/server ./app/cmd/server

## run: build, then serve the playground at http://$(ADDR)
run: build
	./bin/server -addr $(ADDR)

## site: the static site in $(SITE)/ (default site/) for any static file server, served
## under $(PREFIX) (app/cmd/site; see README "Host it yourself")
site: build
	$(GO) build -trimpath -o bin/site ./app/cmd/site
	./bin/site -out '$(SITE)' -prefix '$(PREFIX)' -build '$(BUILD_ID)'

## test: install what the tests need, then vet, lint, unit, wasm, property and browser tests
test: deps vet lint unit wasm-test fuzz e2e e2e-static

## deps: Debian's Chromium (browser tests), Node.js with npm (wasm tests, axe-core) and
## redis-server with redis-cli (limiter/redisstore's tests start their own servers), with
## apt-get, only when missing; Go modules; axe-core from the npm registry
deps:
	@command -v chromium >/dev/null 2>&1 && command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 && \
	  command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 || { \
	  echo "installing chromium, nodejs, npm and redis-server with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    $$(command -v chromium >/dev/null 2>&1 || echo chromium) \
	    $$(command -v node >/dev/null 2>&1 || echo nodejs) \
	    $$(command -v npm >/dev/null 2>&1 || echo npm) \
	    $$(command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 || echo redis-server) >/dev/null; }
	@command -v chromium >/dev/null 2>&1 || { echo "chromium is missing and could not be installed"; exit 1; }
	@command -v node >/dev/null 2>&1 || { echo "node is missing and could not be installed"; exit 1; }
	@command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 || { echo "redis-server or redis-cli is missing and could not be installed"; exit 1; }
	$(GO) mod download
	cd limiter/redisstore && $(GO) mod download
	cd limiter/benchmarks && $(GO) mod download
	@test -f testout/npm/node_modules/axe-core/axe.min.js || npm install --no-save --no-audit --no-fund --prefix testout/npm axe-core@4

vet:
	$(GO) vet ./...
	cd limiter/redisstore && $(GO) vet ./...
	cd limiter/benchmarks && $(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...
	$(GO) vet -tags e2e ./app/e2e
	$(GO) vet -tags 'e2e benchui' ./app/e2e

## lint: no function of app/ (tests aside) over cyclomatic complexity 15 (gocyclo, pinned)
lint:
	$(GO) run github.com/fzipp/gocyclo/cmd/gocyclo@v0.6.0 -over 15 -ignore '_test.go$$' app

## unit: every Go test natively, with the race detector (browser tests run in `e2e`), and
## limiter/redisstore's module, whose tests start their own redis-server processes
unit:
	$(GO) test -race -count=1 -timeout 10m ./...
	cd limiter/redisstore && $(GO) test -race -count=1 -timeout 10m ./...

## wasm-test: the limiter and simulation tests compiled to js/wasm and run under Node
wasm-test:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -timeout 5m -exec="$(WASM_EXEC)" ./limiter/... ./app/units/... ./app/sim/... ./app/explain/...

## fuzz: each property test of limiter/ on FUZZ_RUNS random traces
fuzz:
	@for t in $(FUZZ_TARGETS); do \
	  echo "fuzz $$t ($(FUZZ_RUNS) traces)"; \
	  $(GO) test ./limiter -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZ_RUNS)x || exit 1; \
	done

## e2e: the playground end to end in headless Chromium (builds first), the static
## site's tests (TestStatic...) aside
e2e: build
	$(GO) test -count=1 -timeout 30m -tags e2e -skip '^TestStatic' -v ./app/e2e/

## e2e-static: the static site (testout/site, built under /ratelab) served by a plain
## static file server, online, offline and across a new deploy (TestStatic...)
e2e-static:
	$(MAKE) site PREFIX=/ratelab SITE=testout/site
	$(GO) test -count=1 -timeout 30m -tags e2e -run '^TestStatic' -v ./app/e2e/

clean:
	rm -rf bin site web/*.wasm web/*.wasm.gz web/*.wasm.br web/data/nasa-1995-08-01.csv.gz web/data/nasa-1995-08-01.csv.br web/src testout

## bench: the limiter against its peers (limiter/benchmarks, -count 6), printed as one table of
## ratios (ours / peer) with the machine it ran on; raw output in testout/bench.txt. The Redis
## benchmarks (limiter/redisstore against go-redis/redis_rate and ulule/limiter's Redis store,
## every strategy, LocalDeny's Redis calls per request under a 10x flood) share one loopback
## redis-server that the benchmark binary starts and stops
BENCHTIME ?= 1s
bench:
	@mkdir -p testout
	@echo "machine: $$($(GO) version); $$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: *//'); $$(nproc) cores"
	cd limiter/benchmarks && $(GO) test -run '^$$' -bench . -benchmem -count 6 -benchtime $(BENCHTIME) -timeout 30m . > ../../testout/bench.txt || { cat ../../testout/bench.txt; exit 1; }
	@grep -m1 '^cpu:' testout/bench.txt || true
	cd limiter/benchmarks && $(GO) run ./cmd/benchtable < ../../testout/bench.txt

## bench-ui: the page against a go-app v9.8.0 hello-world built by the benchmark (issue 6
## "Page") in headless Chromium: wasm bytes over the wire, navigation to first request, the
## lab's frames (6 lanes, 10 clients, 200 requests/s, 20 s), memory over BENCH_UI_MINUTES
## (default 10) at 10x. Prints each figure with its bound and fails when one is missed.
## Timed, so not part of `make test`. Quick run: make bench-ui BENCH_UI_MINUTES=2
BENCH_UI_MINUTES ?= 10
BENCH_UI_LOADS   ?= 5
bench-ui: deps build
	@echo "machine: $$($(GO) version); $$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: *//'); $$(nproc) cores"
	BENCH_UI_MINUTES=$(BENCH_UI_MINUTES) BENCH_UI_LOADS=$(BENCH_UI_LOADS) $(GO) test -count=1 \
	  -timeout $$(awk 'BEGIN { print int($(BENCH_UI_MINUTES)) + 30 }')m \
	  -tags 'e2e benchui' -run '^(TestPageBench|TestPageMoves)$$' -v ./app/e2e/
