// Package apispec holds the OpenAPI 3.1 description of the Markup Room API
// (openapi.yaml, the source of truth edited by hand) and renders it as JSON.
package apispec

import (
	_ "embed"

	"github.com/goccy/go-yaml"
)

//go:embed openapi.yaml
var source []byte

// YAML returns the OpenAPI document as written.
func YAML() []byte { return append([]byte(nil), source...) }

// JSON returns the OpenAPI document converted to JSON.
func JSON() ([]byte, error) { return yaml.YAMLToJSON(source) }
