# Markup Room — developer commands. `make test` is what CI runs (through .ci/run).
SHELL := /bin/bash
GO    ?= go
PKGS  := ./...

.PHONY: run test vet templ-check generate assets bench bench-go load fmt

## run: start the server with embedded defaults (SQLite in ./data, demo data printed)
run:
	$(GO) run ./cmd/markuproom

## test: vet, templ freshness, then every Go test (SQLite always; PostgreSQL too when TEST_DATABASE_URL is set)
test: vet templ-check
	$(GO) test -count=1 -timeout 20m $(PKGS)

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(PKGS)

## templ-check: fail when `go tool templ generate` would change the committed *_templ.go files
templ-check:
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	cp -r templates "$$tmp/before"; \
	$(GO) tool templ generate -path templates >/dev/null; \
	if ! diff -r "$$tmp/before" templates >/dev/null; then \
	  echo "templ generate changed files under templates/: run 'make generate' and commit the result"; \
	  diff -r "$$tmp/before" templates | head -40; exit 1; \
	fi

## generate: regenerate templ components
generate:
	$(GO) tool templ generate -path templates

## assets: refresh vendored front-end files from npm (needs Node; results are committed)
assets:
	npm ci
	npm run vendor

fmt:
	gofmt -w $$(git ls-files '*.go')
