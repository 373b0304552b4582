package handlers

import (
	"errors"
	"math"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// unavailableRetrySeconds is the Retry-After of a 503 while the database
// cannot be reached: long enough for a restart or a failover to begin.
const unavailableRetrySeconds = 5

// setRetryAfter sends Retry-After (whole seconds) for an error that says
// when a retry makes sense.
func setRetryAfter(c *gin.Context, err error) {
	var busy *models.PDFBusyError
	switch {
	case errors.As(err, &busy):
		c.Header("Retry-After", strconv.Itoa(max(1, int(math.Ceil(busy.RetryAfter.Seconds())))))
	case errors.Is(err, models.ErrUnavailable):
		c.Header("Retry-After", strconv.Itoa(unavailableRetrySeconds))
	}
}
