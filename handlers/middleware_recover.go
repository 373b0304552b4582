package handlers

import (
	"errors"
	"net/http"
	"runtime/debug"

	"github.com/gin-gonic/gin"
)

// recoverPanics turns a panic into a 500 response that reveals nothing
// internal; the stack goes to the log with the request id.
func recoverPanics() gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			rec := recover()
			if rec == nil {
				return
			}
			if err, ok := rec.(error); ok && errors.Is(err, http.ErrAbortHandler) {
				panic(rec)
			}
			loggerFrom(c).ErrorContext(c.Request.Context(), "panic", "panic", rec, "stack", string(debug.Stack()))
			if c.Writer.Written() {
				c.Abort()
				return
			}
			respondError(c, errStatus(http.StatusInternalServerError, ""))
		}()
		c.Next()
	}
}
