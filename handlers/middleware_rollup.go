package handlers

import (
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// RequestRecorder counts API requests per hour and organization for the
// console's overview (models.RollupRecorder, which flushes them to the
// database).
type RequestRecorder interface {
	ObserveRequest(orgID int64, status int, d time.Duration)
}

// recordAPIRequests counts each API request with its status and latency
// under the organization its token names (0 when refused before one was
// known); without a recorder it does nothing.
func recordAPIRequests(rec RequestRecorder) gin.HandlerFunc {
	return func(c *gin.Context) {
		if rec == nil {
			c.Next()
			return
		}
		start := time.Now()
		c.Next()
		var org int64
		if p, ok := c.Get(ctxPrincipal); ok {
			if p, ok := p.(*models.Principal); ok && p != nil && p.Organization != nil {
				org = p.Organization.ID
			}
		}
		rec.ObserveRequest(org, c.Writer.Status(), time.Since(start))
	}
}
