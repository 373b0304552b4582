package handlers

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/templates"
)

// respondError is the one place an error becomes a response: a problem
// details body for API callers, a friendly HTML page for browsers.
func respondError(c *gin.Context, err error) {
	if wantsHTML(c) {
		writeErrorPage(c, err)
		return
	}
	writeProblem(c, err)
}

// wantsHTML is true for browser routes: everything outside /api and the
// operational endpoints, when the client accepts HTML. htmx requests get a
// problem body, which the page shows inline next to what failed.
func wantsHTML(c *gin.Context) bool {
	if c.GetHeader("HX-Request") == "true" {
		return false
	}
	path := c.Request.URL.Path
	if strings.HasPrefix(path, "/api/") || path == "/api" || strings.HasPrefix(path, "/static/") {
		return false
	}
	accept := c.GetHeader("Accept")
	return accept == "" || strings.Contains(accept, "text/html") || strings.Contains(accept, "*/*")
}

func writeErrorPage(c *gin.Context, err error) {
	p := problemFromError(err)
	logServerFailure(c, err, p.Status)
	h := handlerFrom(c)
	view := templates.ErrorView{
		Status:    p.Status,
		Title:     p.Title,
		Message:   p.Detail,
		RequestID: requestIDFrom(c),
		HomeURL:   "/",
	}
	if view.Message == "" {
		view.Message = "Something went wrong on our side. Please try again in a moment."
	}
	c.Header("Cache-Control", "no-store")
	setRetryAfter(c, err)
	render(c, p.Status, templates.ErrorPage(h.page(c, p.Title), view))
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

// ctxHandler is the Gin context key under which the router stores its Handler,
// so the error renderer can reach the assets.
const ctxHandler = "markuproom.handler"

func handlerFrom(c *gin.Context) *Handler {
	return c.MustGet(ctxHandler).(*Handler)
}

// page builds the view model every full page shares.
func (h *Handler) page(c *gin.Context, title string) templates.Page {
	return templates.Page{Title: title, Assets: h.assets}
}
