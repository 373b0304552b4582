package handlers

import (
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
)

// checkInput is the one place where what a request carries in its path, its
// query string and its form is checked before any handler reads it (wrap
// calls it, after the route group's authentication): a path parameter that
// cannot be an id of its kind is 404, a query or form value that is not text
// (invalid UTF-8, NUL) or a cursor the service did not issue is 400, a form
// over its size limit is 413. No database query ever sees such bytes.
func checkInput(c *gin.Context) error {
	pattern := route.Route(c.FullPath())
	for _, p := range c.Params {
		if !validPathParam(pattern, p.Key, p.Value) {
			return errStatus(http.StatusNotFound, "error.nothing_here")
		}
	}
	if err := checkQuery(c.Request.URL.RawQuery, pattern); err != nil {
		return err
	}
	if pattern.IsAPI() {
		return nil // the API reads JSON and multipart bodies, checked where they are read
	}
	return checkForm(c)
}

// validPathParam tells whether value can name something for the route's
// parameter key.
func validPathParam(pattern route.Route, key, value string) bool {
	switch key {
	case "id":
		if strings.HasPrefix(string(pattern), string(route.AdminOrganization)) {
			_, ok := models.ParseRowID(value)
			return ok
		}
		return models.ValidServiceID(value)
	case "document", "webhookId":
		return models.ValidServiceID(value)
	case "userId", "tokenId":
		_, ok := models.ParseRowID(value)
		return ok
	case "position", "page":
		_, ok := models.ParseIndex(value)
		return ok
	case "version":
		n, ok := models.ParseIndex(value)
		return ok && n >= 1
	default: // participantId, tagId, documentId, token: chosen by callers or checked by their parser
		return models.ValidCallerID(value)
	}
}

// pageParams are the query parameters that page a list, by route: each must
// be exactly what the service put in its "next" and "previous" links.
func pageParams(pattern route.Route) map[string]func(string) bool {
	serviceID := models.ValidServiceID
	rowID := func(s string) bool { _, ok := models.ParseRowID(s); return ok }
	cursor := func(s string) bool { _, ok := models.ParseCursor(s); return ok }
	switch pattern {
	case route.APITransactions, route.APIRooms, route.APITemplates:
		return map[string]func(string) bool{"cursor": cursor}
	case route.AdminTransactions:
		return map[string]func(string) bool{"after": serviceID, "before": serviceID}
	case route.AdminRooms:
		return map[string]func(string) bool{"after": serviceID}
	case route.AdminOutbox:
		return map[string]func(string) bool{"before": serviceID}
	case route.AdminActivity:
		return map[string]func(string) bool{"before": rowID}
	case route.AdminAudit, route.AdminAuditCSV:
		return map[string]func(string) bool{"cursor": func(s string) bool { _, ok := parseAuditCursor(s); return ok }}
	case route.APITransactionAudit, route.APIAuditEvents:
		return map[string]func(string) bool{"cursor": func(s string) bool { _, ok := models.ParseAuditCursor(s); return ok }}
	}
	return nil
}

// checkQuery refuses a query string that does not parse, a name or value
// that is not text, and a paging parameter the service did not issue.
func checkQuery(raw string, pattern route.Route) error {
	if raw == "" {
		return nil
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return models.Invalid("query", "invalid_query", "problem.http.query")
	}
	paging := pageParams(pattern)
	for key, values := range q {
		if !isText(key) {
			return models.Invalid("query", "invalid_encoding", "problem.http.query_name")
		}
		for _, v := range values {
			if !isText(v) {
				return models.Invalid("query:"+key, "invalid_encoding", "problem.http.query_value", "name", key)
			}
			if valid, ok := paging[key]; ok && v != "" && !valid(v) {
				return models.Invalid("query:"+key, "invalid_cursor", "problem.http.cursor", "name", key)
			}
		}
	}
	return nil
}

// checkForm reads a URL-encoded form within maxFormBytes (413 beyond it,
// before the CSRF check could fail on a body it cannot read) and refuses
// names and values that are not text.
func checkForm(c *gin.Context) error {
	switch c.Request.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
	default:
		return nil
	}
	mediaType, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if mediaType != "application/x-www-form-urlencoded" {
		return nil
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxFormBytes)
	if err := c.Request.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return models.Refusal(models.KindTooLarge, "#", "too_large", models.Msg("problem.http.form_too_large"))
		}
		return models.Invalid("#", "invalid_form", "problem.http.form")
	}
	for key, values := range c.Request.PostForm {
		if !isText(key) {
			return models.Invalid("#", "invalid_encoding", "problem.http.form_name")
		}
		for _, v := range values {
			if !isText(v) {
				return models.Invalid("#/"+key, "invalid_encoding", "problem.http.form_value", "name", key)
			}
		}
	}
	return nil
}

// isText tells whether s is valid UTF-8 without NUL, which PostgreSQL text cannot hold.
func isText(s string) bool { return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 }
