package handlers

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/web/i18n"
)

// adminForm bounds a console form post and checks its CSRF token.
func adminForm(c *gin.Context) error {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxFormBytes)
	return checkCSRF(c)
}

// orgParam reads the organization id of a console path (:id); a bad one is ErrNotFound.
func orgParam(c *gin.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, models.ErrNotFound
	}
	return id, nil
}

// firstProblem is a validation error's first message for a form, as
// words its view writes.
func firstProblem(ve *models.ValidationError) i18n.Words {
	if len(ve.Errors) > 0 {
		return messageWords(ve.Errors[0].Message)
	}
	return messageWords(ve.Message)
}
