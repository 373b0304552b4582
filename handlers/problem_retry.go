package handlers

import (
	"errors"
	"math"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// pdfBusyDetail is the detail of the 503 answered when no PDF slot came free.
const pdfBusyDetail = "The server is busy reading other PDF documents. Please try again in a few seconds."

// pdfBusyProblem is the status, detail and field errors of ErrPDFBusy.
func pdfBusyProblem() (int, string, []models.FieldError) {
	return 503, pdfBusyDetail, []models.FieldError{{Pointer: "", Code: "pdf_busy", Detail: pdfBusyDetail}}
}

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
