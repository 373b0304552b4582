// Command openapispec writes the OpenAPI document exactly as GET /api/openapi.json
// serves it (apispec.JSON, indented so that a linter's line numbers mean something),
// for tools that check the contract from outside: `make lint-openapi` runs
// Redocly CLI on it.
//
//	go run ./cmd/openapispec [-o file]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/markuproom/markuproom/handlers/apispec"
)

func main() {
	out := flag.String("o", "", "write to this file instead of standard output")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "openapispec:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	doc, err := apispec.JSON()
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, doc, "", "  "); err != nil {
		return fmt.Errorf("the served document is not JSON: %w", err)
	}
	b.WriteByte('\n')
	if out == "" {
		_, err = os.Stdout.Write(b.Bytes())
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}
