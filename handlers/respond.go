package handlers

import (
	"bytes"
	"mime"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"

	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// respondError is the one place an error becomes a response: a problem
// details body for API callers, a friendly HTML page for browsers.
func respondError(c *gin.Context, err error) {
	if clientClosed(c, err) {
		writeClientClosed(c, err)
		return
	}
	if wantsHTML(c) {
		writeErrorPage(c, err)
		return
	}
	writeProblem(c, err)
}

// wantsHTML is true for browser routes: everything outside /api and the
// operational endpoints, when the client accepts HTML. htmx requests and
// requests that send JSON (a script's, such as the editor's batch of tag
// edits: no form posts JSON) get a problem body, which the page shows
// inline next to what failed.
func wantsHTML(c *gin.Context) bool {
	if c.GetHeader("HX-Request") == "true" {
		return false
	}
	if mt, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type")); mt == "application/json" {
		return false
	}
	path := c.Request.URL.Path
	if isAPIPath(path) || strings.HasPrefix(path, "/static/") {
		return false
	}
	accept := c.GetHeader("Accept")
	return accept == "" || strings.Contains(accept, "text/html") || strings.Contains(accept, "*/*")
}

// isAPIPath tells whether path is the API's or MCP's, whose answers are
// for programs: problem bodies, in English.
func isAPIPath(path string) bool {
	return strings.HasPrefix(path, "/api/") || path == "/api" || path == route.MCP.String()
}

func writeErrorPage(c *gin.Context, err error) {
	p := problemFor(c.Request.Context(), err)
	logServerFailure(c, err, p.Status)
	s := siteFrom(c)
	title := p.Title
	if t := problemTypeFor(p.Status).Title; strings.EqualFold(t, http.StatusText(p.Status)) {
		// The English title is just the status text, for which the page
		// picks a friendlier headline (templates.ErrorView.heading).
		title = t
	}
	view := templates.ErrorView{
		Status:    p.Status,
		Title:     title,
		Message:   p.Detail,
		RequestID: requestIDFrom(c),
		HomeURL:   "/",
	}
	// An empty Message: the page words one for the status (templates.ErrorView.message).
	c.Header("Cache-Control", "no-store")
	setRetryAfter(c, err)
	render(c, p.Status, templates.ErrorPage(s.page(c, i18n.Plain(p.Title)), view))
	c.Abort()
}

// render writes a templ component, buffered first so that a failing
// component never leaves half a page behind.
func render(c *gin.Context, status int, component templ.Component) {
	var buf bytes.Buffer
	if err := component.Render(c.Request.Context(), &buf); err != nil {
		loggerFrom(c).ErrorContext(c.Request.Context(), "render failed", "error", err)
		c.Data(http.StatusInternalServerError, "text/plain; charset=utf-8", []byte("Internal server error. Request id: "+requestIDFrom(c)))
		c.Abort()
		return
	}
	c.Data(status, "text/html; charset=utf-8", buf.Bytes())
}

// ctxSite is the Gin context key under which the router stores the site the
// handlers share, so the error renderer can reach the assets.
const ctxSite = "markuproom.site"

func siteFrom(c *gin.Context) *site {
	return c.MustGet(ctxSite).(*site)
}
