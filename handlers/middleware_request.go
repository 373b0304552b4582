package handlers

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/logsafe"
)

// Keys under which middleware stores per-request values in the Gin context.
const (
	ctxRequestID = "markuproom.requestID"
	ctxLogger    = "markuproom.logger"
	ctxPrincipal = "markuproom.principal"
)

// requestIDHeader carries the request id in and out.
const requestIDHeader = "X-Request-Id"

// requestContext gives every request an id (a well-formed incoming
// X-Request-Id is kept, so ids follow a request across proxies), echoes it
// in the response, and attaches a logger that carries it.
func requestContext(base *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		id := c.GetHeader(requestIDHeader)
		if !validRequestID(id) {
			id = newRequestID()
		}
		c.Set(ctxRequestID, id)
		c.Set(ctxLogger, base.With("request_id", id))
		c.Header(requestIDHeader, id)
		c.Next()
	}
}

func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

func newRequestID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func requestIDFrom(c *gin.Context) string { return c.GetString(ctxRequestID) }

func loggerFrom(c *gin.Context) *slog.Logger {
	if l, ok := c.Get(ctxLogger); ok {
		return l.(*slog.Logger)
	}
	return slog.New(slog.DiscardHandler)
}

// accessLog writes one structured line per request; the path and query go
// through redactURL, so no room link or token reaches the log.
func accessLog() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		loggerFrom(c).Log(c.Request.Context(), statusLogLevel(c.Writer.Status()), "request",
			"method", c.Request.Method,
			"route", route,
			"path", logsafe.URL(c.Request.URL.Path, c.Request.URL.RawQuery),
			"status", c.Writer.Status(),
			"bytes", c.Writer.Size(),
			"duration_ms", float64(time.Since(start).Microseconds())/1000,
			"remote", c.ClientIP(),
		)
	}
}
