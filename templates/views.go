package templates

import (
	"context"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// HomeView is what the landing page at / shows.
type HomeView struct {
	// BaseURL is the public origin used in the curl examples, e.g.
	// https://markup.example.com; empty shows "$BASE".
	BaseURL string
	// APIDocURL is where the OpenAPI document is served, e.g. /api/openapi.json.
	APIDocURL string
	// AdminURL links to the admin console; empty hides the link.
	AdminURL string
	// UploadPath, RoomsPath and TransactionPath are the API paths the curl
	// examples call (TransactionPath with "{id}" for the transaction).
	UploadPath, RoomsPath, TransactionPath string
}

// apiBase is the prefix every API path shares ("/api/v1").
func (v HomeView) apiBase() string {
	return path.Dir(path.Dir(v.UploadPath))
}

// base is the origin the quick-start examples call.
func (v HomeView) base() string {
	if b := strings.TrimRight(strings.TrimSpace(v.BaseURL), "/"); b != "" {
		return b
	}
	return "$BASE"
}

// uploadExample is the curl command that uploads a PDF.
func (v HomeView) uploadExample() string {
	return `curl -H "Authorization: Bearer $TOKEN" \
  -F file=@contract.pdf \
  ` + v.base() + v.UploadPath
}

// markupRoomExample is the curl command that creates a Markup Room.
func (v HomeView) markupRoomExample() string {
	return `curl -H "Authorization: Bearer $TOKEN" \
  -H "Content-Type: application/json" \
  -d '{
    "senderId": "<sender id>",
    "documents": ["<location from the upload>"],
    "participants": [
      {"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com"}
    ]
  }' \
  ` + v.base() + v.RoomsPath
}

// transactionExample is the curl command that replaces a transaction.
func (v HomeView) transactionExample() string {
	return `curl -X PUT -H "Authorization: Bearer $TOKEN" \
  -H "Content-Type: application/json" \
  -d @transaction.json \
  ` + v.base() + v.TransactionPath
}

// ErrorView is what the error page shows; it never carries internal detail
// such as a stack trace or an SQL error.
type ErrorView struct {
	// Status is the HTTP status code, e.g. 404.
	Status int
	// Title is the headline; empty, or just the status text ("Not Found"),
	// picks a friendlier one for Status.
	Title string
	// Message explains what happened and what to do; empty picks one for Status.
	Message string
	// RequestID is shown small so support can find the request in the logs.
	RequestID string
	// HomeURL is where the "home" button leads; empty means "/".
	HomeURL string
}

// heading is the error page's <h1>.
func (v ErrorView) heading(ctx context.Context) string {
	if t := strings.TrimSpace(v.Title); t != "" && !strings.EqualFold(t, http.StatusText(v.Status)) {
		return t
	}
	switch {
	case v.Status == http.StatusNotFound:
		return t(ctx, "error.page.heading.not_found")
	case v.Status == http.StatusGone:
		return t(ctx, "error.page.heading.gone")
	case v.Status == http.StatusUnauthorized:
		return t(ctx, "error.page.heading.unauthorized")
	case v.Status == http.StatusForbidden:
		return t(ctx, "error.page.heading.forbidden")
	case v.Status == http.StatusTooManyRequests:
		return t(ctx, "error.page.heading.too_many_requests")
	case v.Status >= 500:
		return t(ctx, "error.page.heading.server")
	default:
		return t(ctx, "error.page.heading.other")
	}
}

// message is the error page's explanation.
func (v ErrorView) message(ctx context.Context) string {
	if m := strings.TrimSpace(v.Message); m != "" {
		return m
	}
	switch {
	case v.Status == http.StatusNotFound:
		return t(ctx, "error.page.message.not_found")
	case v.Status == http.StatusGone:
		return t(ctx, "error.page.message.gone")
	case v.Status == http.StatusTooManyRequests:
		return t(ctx, "error.page.message.too_many_requests")
	case v.Status >= 500:
		return t(ctx, "error.page.something_wrong")
	default:
		return t(ctx, "error.page.message.other")
	}
}

// statusText is the status code as shown, or "" when unknown.
func (v ErrorView) statusText() string {
	if v.Status < 100 || v.Status > 999 {
		return ""
	}
	return strconv.Itoa(v.Status)
}

// homeURL is where the "home" button leads.
func (v ErrorView) homeURL() string {
	if v.HomeURL == "" {
		return "/"
	}
	return v.HomeURL
}
