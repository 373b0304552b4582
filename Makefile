# Markup Room — developer commands. `make test` is what CI runs (through .ci/run).
SHELL := /bin/bash
GO    ?= go
PKGS  := ./...

.PHONY: run test test-stages test-deps test-quick test-browser test-engines engines-pass e2e-bin vet templ-check generate assets bench bench-go bench-profile load soak fmt lint-openapi apiclient-check

## run: start the server with embedded defaults (SQLite in ./data, demo data printed)
run:
	$(GO) run ./cmd/markuproom

CHROMIUM ?= /usr/lib/chromium/chromium

## test: every suite, on a fresh machine too. First what the suites need, when missing (test-deps:
## Debian's browsers and tools through .ci/install-deps, as .ci/run does, which stops with the command
## to run when it cannot install; node_modules through npm ci). Then gofmt, vet, staticcheck, templ and
## API client freshness, go test (SQLite; PostgreSQL too when TEST_DATABASE_URL is set), the front-end
## checks and node unit tests, the OpenAPI lint, and the browser tests (test-browser: Chromium, then
## web/e2e/engines*.test.mjs on Firefox and WebKit). It ends with a summary: each suite that ran and its
## time, and, without TEST_DATABASE_URL, the PostgreSQL passes that did not run.
test:
	@log=$$(mktemp -p "$(CURDIR)" .make-test-summary.XXXXXX); trap 'rm -f "$$log"' EXIT; start=$$SECONDS; \
	MARKUPROOM_TEST_LOG=$$log $(MAKE) --no-print-directory test-stages; rc=$$?; \
	printf '\n==> make test: the suites that ran\n'; cat "$$log"; [ -s "$$log" ] || echo "    (none)"; \
	if [ -z "$$TEST_DATABASE_URL" ]; then \
	  echo "==> not run: the PostgreSQL passes (go test, the browser tests on PostgreSQL): TEST_DATABASE_URL is unset;"; \
	  echo "    set it (TEST_DATABASE_URL=postgres://… make test) or run bash .ci/run to include them"; fi; \
	if [ $$rc -eq 0 ]; then echo "==> make test passed in $$((SECONDS - start)) s"; \
	else echo "==> make test FAILED (exit $$rc) after $$((SECONDS - start)) s"; fi; \
	exit $$rc

# test-stages: make test's steps in order (make test runs it and prints the summary)
test-stages: test-deps
	@$(call timed,gofmt vet staticcheck,$(MAKE) --no-print-directory vet)
	@$(call timed,templ and API client freshness,$(MAKE) --no-print-directory templ-check apiclient-check)
	@$(call timed,go test$(if $(TEST_DATABASE_URL), on SQLite and PostgreSQL, on SQLite),$(GO) test -count=1 -timeout 20m $(PKGS))
	@$(call timed,front-end checks and node unit tests,npm run --silent check && npm run --silent test:unit)
	@$(call timed,OpenAPI lint,$(MAKE) --no-print-directory lint-openapi)
	@$(MAKE) --no-print-directory test-browser

## test-deps: install what make test needs when missing: Debian packages through .ci/install-deps
## (node, pdfinfo, the three browsers with xvfb; psql with TEST_DATABASE_URL), exiting 1 with the
## command to run when this shell cannot install; node_modules through npm ci
test-deps:
	@CHROMIUM=$(CHROMIUM) FIREFOX=$(FIREFOX) WEBKIT_DRIVER=$(WEBKIT_DRIVER) .ci/install-deps node pdf browsers $(if $(TEST_DATABASE_URL),psql)
	@if [ ! -d node_modules/esbuild ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/puppeteer-core ] || [ ! -x node_modules/.bin/redocly ]; then \
	  echo "==> node_modules missing: PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund"; \
	  PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error || exit 1; \
	fi

## test-quick: the inner loop, under 2 minutes: the Go unit and handler tests on SQLite alone (go test
## -short, TEST_DATABASE_URL unset: the tests that build and start the server binary, the soak and other
## slow ones skip themselves), then the node unit tests when node_modules exists. No vet, staticcheck,
## OpenAPI lint, PostgreSQL or browser tests: run `make test` before you push. go test's cache stays on
## (a rerun of unchanged packages is instant); GOFLAGS=-count=1 make test-quick runs everything again.
test-quick:
	@$(call timed,go test -short on SQLite,env -u TEST_DATABASE_URL $(GO) test -short -timeout 5m $(PKGS))
	@if [ -d node_modules ]; then $(call timed,node unit tests,npm run --silent test:unit); \
	else echo "NOTE: node unit tests not run here: run 'npm ci' first"; fi

## test-browser: drive the real pages in headless Chromium (playwright-core; engines*.test.mjs through
## puppeteer-core), each file once: on the embedded SQLite, or, when TEST_DATABASE_URL is set, the files
## of E2E_PG_FILES on PostgreSQL (a fresh database per server) and the others on SQLite; then
## web/e2e/engines*.test.mjs on Firefox and WebKit, on PostgreSQL when TEST_DATABASE_URL is set, else on
## SQLite. So in CI the engines files run on both databases and the others on PostgreSQL, where go test
## covers the storage of both. The server binary is linked once (e2e-bin) for every file and engine.
## A missing browser fails it (make test-deps installs them).
test-browser: e2e-bin
	@for b in "$(CHROMIUM)" "$(FIREFOX)" "$(WEBKIT_DRIVER)"; do [ -x "$$b" ] || { echo "test-browser: $$b missing: run make test-deps (or .ci/install-deps browsers)"; exit 1; }; done; \
	command -v xvfb-run >/dev/null || { echo "test-browser: xvfb-run missing: run make test-deps (or .ci/install-deps browsers)"; exit 1; }
	@if [ -z "$$TEST_DATABASE_URL" ]; then \
	  $(call timed,browser tests on Chromium and SQLite,E2E_SERVER_BIN=$(E2E_BIN) CHROMIUM_PATH=$(CHROMIUM) npm run --silent test:browser); \
	else \
	  $(call timed,browser tests on Chromium and SQLite,E2E_SERVER_BIN=$(E2E_BIN) CHROMIUM_PATH=$(CHROMIUM) node --test --test-concurrency=1 $(E2E_SQLITE_FILES)) && \
	  $(call timed,browser tests on Chromium and PostgreSQL,E2E_SERVER_BIN=$(E2E_BIN) CHROMIUM_PATH=$(CHROMIUM) E2E_POSTGRES_URL="$$TEST_DATABASE_URL" node --test --test-concurrency=1 $(E2E_PG_FILES)); \
	fi
	@for e in firefox webkit; do $(MAKE) --no-print-directory engines-pass ENGINE=$$e $(if $(TEST_DATABASE_URL),E2E_POSTGRES_URL="$$TEST_DATABASE_URL") || exit 1; done

# E2E_PG_FILES: the Chromium suite's files that run on PostgreSQL when TEST_DATABASE_URL is set (see
# test-browser): not engines*.test.mjs (Firefox and WebKit run them on PostgreSQL, Chromium on SQLite)
# but engines-live.test.mjs (two server processes on one database: PostgreSQL on every engine),
# nor i18n.test.mjs, a11y.test.mjs and glance.test.mjs (the words, axe and screenshots of pages whose
# storage the other files cover); E2E_SQLITE_FILES: the rest
E2E_PG_FILES = $(filter-out web/e2e/engines%.test.mjs web/e2e/i18n.test.mjs web/e2e/a11y.test.mjs web/e2e/glance.test.mjs,$(wildcard web/e2e/*.test.mjs)) \
  web/e2e/engines-live.test.mjs
E2E_SQLITE_FILES = $(filter-out $(E2E_PG_FILES),$(wildcard web/e2e/*.test.mjs))

# E2E_BIN: the server binary the browser tests start (web/e2e/lib/server.mjs reads E2E_SERVER_BIN; without
# it, a test file builds this same path, which go build leaves alone when up to date). e2e-bin builds it,
# after checking the embedded bundles are built.
E2E_BIN := $(CURDIR)/.e2e/markuproom
e2e-bin:
	@mkdir -p $(dir $(E2E_BIN))
	@$(call timed,server binary for the browser tests,node web/scripts/build.mjs --check >/dev/null && $(GO) build -o $(E2E_BIN) ./cmd/markuproom)

FIREFOX       ?= /usr/bin/firefox-esr
WEBKIT_DRIVER ?= /usr/bin/WebKitWebDriver
ENGINE        ?= chromium

## test-engines: web/e2e/engines*.test.mjs (the files every engine runs) on one engine (make test-engines ENGINE=chromium|firefox|webkit;
## WebKit under xvfb-run), on SQLite, or on PostgreSQL with E2E_POSTGRES_URL set (see docs/testing.md)
test-engines: e2e-bin
	@$(MAKE) --no-print-directory engines-pass

# engines-pass: test-engines' run, with the binary e2e-bin linked
engines-pass:
	@$(call timed,engines test on $(ENGINE)$(if $(E2E_POSTGRES_URL), and PostgreSQL, and SQLite),\
	  ENGINE=$(ENGINE) $(if $(E2E_POSTGRES_URL),E2E_POSTGRES_URL="$(E2E_POSTGRES_URL)") E2E_SERVER_BIN=$(E2E_BIN) CHROMIUM_PATH=$(CHROMIUM) FIREFOX_PATH=$(FIREFOX) WEBKIT_DRIVER_PATH=$(WEBKIT_DRIVER) \
	  $(if $(filter webkit,$(ENGINE)),xvfb-run -a -s "-screen 0 1280x1024x24") \
	  node --test --test-concurrency=1 web/e2e/engines*.test.mjs)

# timed: $(call timed,NAME,COMMAND) runs COMMAND and prints "==> stage NAME took N s" (.ci/run's timings);
# under make test (MARKUPROOM_TEST_LOG set) it also adds a line to make test's summary
timed = (start=$$SECONDS; $(2); rc=$$?; took=$$((SECONDS - start)); echo "==> stage $(1) took $$took s"; \
  if [ -n "$$MARKUPROOM_TEST_LOG" ]; then printf '    %-6s %5d s  %s\n' "$$([ $$rc -eq 0 ] && echo ok || echo FAILED)" "$$took" "$(1)" >> "$$MARKUPROOM_TEST_LOG"; fi; \
  exit $$rc)

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
## TEST_DATABASE_URL, else a local markuproom_bench database it creates); it fails loudly (exit 4) when
## operation A runs at under 0.45 × raw pgx writing the same rows. See docs/benchmarks.md.
bench:
	@$(MAKE) --no-print-directory bench-go
	@$(MAKE) --no-print-directory load

## bench-go: go test benchmarks of models (ReplaceTransaction, ParseTransactionInput, templates: from a
## transaction, a room from a template, a template applied in a room, an upload matched against 1,000 in the database), of template
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

PROFILE_DIR ?= profiles

## bench-profile: CPU and allocation profiles of cmd/loadbench's scenario A (PUT of 2 documents × 25 tags,
## PostgreSQL as for load) into PROFILE_DIR (default ./profiles, ignored by git): one 20 s slice per server,
## then the top 15 functions of the product's slice by flat and cumulative CPU time and by allocations.
## See docs/benchmarks.md, "Profiles".
bench-profile:
	rm -rf $(PROFILE_DIR)
	$(GO) run ./cmd/loadbench -only-a -rounds 1 -d 20s -min-raw-ratio 0 -cpuprofile $(PROFILE_DIR) -allocprofile $(PROFILE_DIR) $(LOADBENCH_ARGS)
	@echo; echo "== CPU, by flat time (product slice)"; $(GO) tool pprof -top -nodecount 15 $(PROFILE_DIR)/A-product-1.pprof 2>/dev/null
	@echo; echo "== CPU, by cumulative time"; $(GO) tool pprof -top -cum -nodecount 15 $(PROFILE_DIR)/A-product-1.pprof 2>/dev/null
	@echo; echo "== allocations (objects) during the product slice, by flat"; $(GO) tool pprof -top -nodecount 15 -sample_index alloc_objects \
		-diff_base $(PROFILE_DIR)/A-product-1.allocs-base.pprof $(PROFILE_DIR)/A-product-1.allocs.pprof 2>/dev/null
	@echo; echo "== allocations (bytes) during the product slice, by flat"; $(GO) tool pprof -top -nodecount 15 -sample_index alloc_space \
		-diff_base $(PROFILE_DIR)/A-product-1.allocs-base.pprof $(PROFILE_DIR)/A-product-1.allocs.pprof 2>/dev/null

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
