package handlers_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/apispec"
	"github.com/markuproom/markuproom/models/modelstest"
)

// contract validates responses against the OpenAPI document.
type contract struct {
	doc    *openapi3.T
	router routers.Router
}

var (
	contractOnce sync.Once
	contractDoc  *contract
	contractErr  error
)

// loadContract parses and validates the OpenAPI document once per test binary.
func loadContract(t *testing.T) *contract {
	t.Helper()
	contractOnce.Do(func() {
		// Binary bodies are not validated beyond their content type.
		openapi3filter.RegisterBodyDecoder("application/pdf", openapi3filter.FileBodyDecoder)
		openapi3filter.RegisterBodyDecoder("application/vnd.adobe.xfdf", openapi3filter.FileBodyDecoder)
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(apispec.YAML())
		if err != nil {
			contractErr = err
			return
		}
		if err := doc.Validate(context.Background()); err != nil {
			contractErr = err
			return
		}
		r, err := legacy.NewRouter(doc)
		if err != nil {
			contractErr = err
			return
		}
		contractDoc = &contract{doc: doc, router: r}
	})
	if contractErr != nil {
		t.Fatalf("OpenAPI document: %v", contractErr)
	}
	return contractDoc
}

// check fails the test when the response of req is not what the document promises.
func (c *contract) check(t *testing.T, req *http.Request, rec *httptest.ResponseRecorder) {
	t.Helper()
	// The router matches on the full URL; requests built by httptest have host example.com.
	route, params, err := c.router.FindRoute(req)
	if err != nil && (rec.Code == http.StatusNotFound || rec.Code == http.StatusMethodNotAllowed) {
		return // an address the API does not serve; its 404/405 is checked by its own test
	}
	if err != nil {
		t.Fatalf("contract: %s %s is not in the OpenAPI document: %v", req.Method, req.URL.Path, err)
	}
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 rec.Code,
		Header:                 rec.Header(),
		Body:                   io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Fatalf("contract: %s %s → %d does not match the OpenAPI document: %v\nbody: %s",
			req.Method, req.URL.Path, rec.Code, err, truncate(rec.Body.String()))
	}
}

// TestOpenAPIDocumentCoversEveryRoute fails when a registered /api/v1 route
// is missing from the document, or the document names a route that does not exist.
func TestOpenAPIDocumentCoversEveryRoute(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, modelstest.Dialects()[0])
	s := newServer(t, env)
	engine := s.handler.(*gin.Engine)
	param := regexp.MustCompile(`:([A-Za-z]+)`)
	registered := map[string]bool{}
	for _, r := range engine.Routes() {
		if !strings.HasPrefix(r.Path, "/api/v1/") {
			continue
		}
		path := param.ReplaceAllString(r.Path, "{$1}")
		key := r.Method + " " + path
		registered[key] = true
		item := s.contract.doc.Paths.Value(path)
		if item == nil || item.GetOperation(r.Method) == nil {
			t.Errorf("route %s is not described in handlers/apispec/openapi.yaml", key)
		}
	}
	for path, item := range s.contract.doc.Paths.Map() {
		for method := range item.Operations() {
			if !registered[method+" "+path] {
				t.Errorf("the OpenAPI document describes %s %s, which the router does not serve", method, path)
			}
		}
	}
}

func TestOpenAPIDocumentIsServedAsJSON(t *testing.T) {
	t.Parallel()
	env := modelstest.New(t, modelstest.Dialects()[0])
	s := newServer(t, env)
	res := s.do(httptest.NewRequest(http.MethodGet, "/api/openapi.json", nil)).status(http.StatusOK)
	var doc map[string]any
	res.json(&doc)
	if doc["openapi"] != "3.1.0" || doc["paths"] == nil {
		t.Fatalf("served document: openapi=%v, paths present=%v", doc["openapi"], doc["paths"] != nil)
	}
}
