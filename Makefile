# Markup Room — developer commands. `make test` is what CI runs (through .ci/run).
SHELL := /bin/bash
GO    ?= go
PKGS  := ./...

.PHONY: run test test-quick test-browser test-engines vet templ-check generate assets bench bench-go load soak fmt lint-openapi apiclient-check

## run: start the server with embedded defaults (SQLite in ./data, demo data printed)
run:
	$(GO) run ./cmd/markuproom

CHROMIUM ?= /usr/lib/chromium/chromium

## test: gofmt, vet, staticcheck, templ freshness, every Go test (SQLite always; PostgreSQL too when TEST_DATABASE_URL is set),
## then the browser tests when Chromium and node_modules are present (CI installs both)
test: vet templ-check apiclient-check
	@$(call timed,go test,$(GO) test -count=1 -timeout 20m $(PKGS))
	@if [ -d node_modules/esbuild ]; then npm run --silent check && npm run --silent test:unit; \
	elif [ -n "$$CI" ]; then echo "CI: node_modules missing; .ci/run should have run npm ci"; exit 1; \
	else echo "NOTE: front-end checks not run here: run 'npm ci' first"; fi
	@if [ -x node_modules/.bin/redocly ]; then $(MAKE) --no-print-directory lint-openapi; \
	elif [ -n "$$CI" ]; then echo "CI: node_modules/.bin/redocly missing; .ci/run should have run npm ci"; exit 1; \
	else echo "NOTE: OpenAPI lint not run here: run 'npm ci' first"; fi
	@if [ -x "$(CHROMIUM)" ] && [ -d node_modules/playwright-core ]; then $(MAKE) --no-print-directory test-browser; \
	elif [ -n "$$CI" ]; then echo "CI: Chromium or node_modules missing; .ci/run should have installed them"; exit 1; \
	else echo "NOTE: browser tests not run here: install Debian's chromium and run 'npm ci' (bash .ci/run does both)"; fi

## test-quick: the inner loop, under 2 minutes: the Go unit and handler tests on SQLite alone (go test
## -short, TEST_DATABASE_URL unset: the tests that build and start the server binary, the soak and other
## slow ones skip themselves), then the node unit tests when node_modules exists. No vet, staticcheck,
## OpenAPI lint, PostgreSQL or browser tests: run `make test` before you push. go test's cache stays on
## (a rerun of unchanged packages is instant); GOFLAGS=-count=1 make test-quick runs everything again.
test-quick:
	@$(call timed,go test -short on SQLite,env -u TEST_DATABASE_URL $(GO) test -short -timeout 5m $(PKGS))
	@if [ -d node_modules ]; then $(call timed,node unit tests,npm run --silent test:unit); \
	else echo "NOTE: node unit tests not run here: run 'npm ci' first"; fi

## test-browser: drive the real pages in headless Chromium (playwright-core; engines.test.mjs through
## puppeteer-core), on the embedded SQLite, then on PostgreSQL too when TEST_DATABASE_URL is set (a
## fresh database per server), where web/e2e/engines*.test.mjs also run on Firefox and WebKit
test-browser:
	@$(call timed,browser tests on Chromium and SQLite,CHROMIUM_PATH=$(CHROMIUM) npm run --silent test:browser)
	@if [ -n "$$TEST_DATABASE_URL" ]; then \
	  $(call timed,browser tests on Chromium and PostgreSQL,CHROMIUM_PATH=$(CHROMIUM) E2E_POSTGRES_URL="$$TEST_DATABASE_URL" npm run --silent test:browser) || exit 1; \
	  if [ -x "$(FIREFOX)" ] && [ -x "$(WEBKIT_DRIVER)" ] && command -v xvfb-run >/dev/null; then \
	    for e in firefox webkit; do $(MAKE) --no-print-directory test-engines ENGINE=$$e E2E_POSTGRES_URL="$$TEST_DATABASE_URL" || exit 1; done; \
	  elif [ -n "$$CI" ]; then echo "CI: firefox-esr, webkit2gtk-driver or xvfb missing; .ci/run should have installed them"; exit 1; \
	  else echo "NOTE: Firefox and WebKit not run: apt-get install firefox-esr webkit2gtk-driver xvfb xauth"; fi; \
	fi

FIREFOX       ?= /usr/bin/firefox-esr
WEBKIT_DRIVER ?= /usr/bin/WebKitWebDriver
ENGINE        ?= chromium

## test-engines: web/e2e/engines*.test.mjs (the files every engine runs) on one engine (make test-engines ENGINE=chromium|firefox|webkit;
## WebKit under xvfb-run), on SQLite, or on PostgreSQL with E2E_POSTGRES_URL set (see docs/testing.md)
test-engines:
	@$(call timed,engines test on $(ENGINE)$(if $(E2E_POSTGRES_URL), and PostgreSQL, and SQLite),\
	  ENGINE=$(ENGINE) $(if $(E2E_POSTGRES_URL),E2E_POSTGRES_URL="$(E2E_POSTGRES_URL)") CHROMIUM_PATH=$(CHROMIUM) FIREFOX_PATH=$(FIREFOX) WEBKIT_DRIVER_PATH=$(WEBKIT_DRIVER) \
	  $(if $(filter webkit,$(ENGINE)),xvfb-run -a -s "-screen 0 1280x1024x24") \
	  node --test --test-concurrency=1 web/e2e/engines*.test.mjs)

# timed: $(call timed,NAME,COMMAND) runs COMMAND and prints "==> stage NAME took N s" (.ci/run's timings)
timed = (start=$$SECONDS; $(2); rc=$$?; echo "==> stage $(1) took $$((SECONDS - start)) s"; exit $$rc)

vet:
	@unformatted=$$(gofmt -l $$(git ls-files --cached --others --exclude-standard '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) tool staticcheck $(PKGS)

## templ-check: fail when `go tool templ generate` would change the committed *_templ.go files
templ-check:
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	cp -r templates "$$tmp/before"; \
	$(GO) tool templ generate -path templates >/dev/null; \
	if ! diff -r "$$tmp/before" templates >/dev/null; then \
	  echo "templ generate changed files under templates/: run 'make generate' and commit the result"; \
	  diff -r "$$tmp/before" templates | head -40; exit 1; \
	fi

## lint-openapi: Redocly CLI (pinned in package.json) lints the OpenAPI document as GET /api/openapi.json
## serves it, and its YAML source, with the recommended rules (redocly.yaml: only info-license off);
## any error or warning fails. Offline: telemetry and the update check are off, it opens no socket.
lint-openapi:
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(GO) run ./cmd/openapispec -o "$$tmp/served-openapi.json" || exit 1; \
	out=$$(REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true REDOCLY_SUPPRESS_NOTIFICATIONS=true \
	  node_modules/.bin/redocly lint --config redocly.yaml --format stylish \
	  handlers/apispec/openapi.yaml "$$tmp/served-openapi.json" 2>&1); rc=$$?; \
	printf '%s\n' "$$out" | grep -v '^ *[╔║╚]' | sed '/./,$$!d'; \
	if [ $$rc -ne 0 ]; then exit $$rc; fi; \
	if printf '%s\n' "$$out" | grep -Eq '[0-9]+ warnings?\b'; then \
	  echo "lint-openapi: warnings fail too (only info-license is off, in redocly.yaml)"; exit 1; fi

## apiclient-check: fail when `go generate ./handlers/apispec/apiclient` (oapi-codegen, pinned as a Go
## tool) would change the committed generated client
apiclient-check:
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	cp handlers/apispec/apiclient/client.gen.go "$$tmp/"; \
	$(GO) generate ./handlers/apispec/apiclient; \
	if ! diff -u "$$tmp/client.gen.go" handlers/apispec/apiclient/client.gen.go >"$$tmp/diff"; then \
	  echo "oapi-codegen changed handlers/apispec/apiclient/client.gen.go: run 'go generate ./handlers/apispec/apiclient' and commit the result"; \
	  head -40 "$$tmp/diff"; exit 1; \
	fi

## generate: regenerate templ components (the //go:generate line in templates/doc.go) and the
## generated API client (handlers/apispec/apiclient/doc.go)
generate:
	$(GO) generate ./templates ./handlers/apispec/apiclient

## assets: refresh vendored front-end files and the editor bundle from npm (needs Node; results are committed)
assets:
	npm ci
	npm run vendor
	npm run build

fmt:
	gofmt -w $$(git ls-files '*.go')

BENCHTIME      ?= 1s
LOADBENCH_ARGS ?=

## bench: the store's Go benchmarks (SQLite; PostgreSQL too when TEST_DATABASE_URL is set), then
## cmd/loadbench, the loopback load comparison with baselines (PostgreSQL: BENCH_DATABASE_URL, else
## TEST_DATABASE_URL, else a local markuproom_bench database it creates). See docs/benchmarks.md.
bench:
	@$(MAKE) --no-print-directory bench-go
	@$(MAKE) --no-print-directory load

## bench-go: go test benchmarks of models (ReplaceTransaction, ParseTransactionInput, ApplyRoomTemplate), of template
## matching (a query against 1,000 templates, a page fingerprinted) and of the outbox (messages per
## second delivered to an in-process SMTP server and a loopback webhook receiver)
bench-go:
	$(GO) test -run '^$$' -bench . -benchtime $(BENCHTIME) -count 1 -timeout 15m ./models/
	$(GO) test -run '^$$' -bench . -benchtime $(BENCHTIME) -count 1 ./models/templatematch/
	$(GO) test -run '^$$' -bench Outbox -benchtime 1000x -count 1 -timeout 15m ./handlers/delivery/

## load: cmd/loadbench alone (flags through LOADBENCH_ARGS, e.g. LOADBENCH_ARGS='-c 16 -d 30s')
## (its server runs with rate limits off, as MARKUPROOM_RATE_LIMITS=off: the load measures the service)
load:
	$(GO) run ./cmd/loadbench $(LOADBENCH_ARGS)

SOAK_DURATION ?= 2m
SOAK_RATE     ?= 20
SOAK_ARGS     ?=

## soak: the real server binary on loopback under a mixed open-loop load (uploads, PUTs, reads, rooms,
## room tag edits, admin pages, webhooks and e-mails to loopback receivers) at SOAK_RATE req/s for
## SOAK_DURATION (default 2m; it stops by itself), then the correctness checks (every acknowledged
## write stored once, every queued message delivered once): figures per operation, peak RSS, row
## counts, "N passed, M failed". PostgreSQL as for load; e.g. SOAK_DURATION=10m make soak
soak:
	$(GO) run ./cmd/loadbench soak -duration $(SOAK_DURATION) -rate $(SOAK_RATE) $(SOAK_ARGS)

.PHONY: fuzz vulncheck deps-check
FUZZTIME ?= 30s

## fuzz: every Fuzz* target of every package (found by `go test -list '^Fuzz' ./...`), each for
## FUZZTIME (default 30s) in turn; prints one line per target with its executions, stops by itself and
## fails on a crasher, which go test writes to the package's testdata/fuzz/<FuzzName>/ (commit it: it
## becomes a regression seed). Not part of `make test`, whose go test replays the committed seeds.
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) .ci/fuzz.sh

## deps-check: offline dependency hygiene (CI runs it): go.sum matches the module cache, and every
## front-end package is pinned to one exact version with a consistent lockfile
deps-check:
	$(GO) mod verify
	node web/scripts/check-pins.mjs

## vulncheck: known vulnerabilities, for an operator with internet access (not CI: vuln.go.dev and
## npm audit are unreachable there): govulncheck, pinned as a Go tool in go.mod, and npm audit of the
## packages the server ships (dependencies, not devDependencies)
vulncheck:
	$(GO) tool govulncheck ./...
	npm audit --omit=dev
