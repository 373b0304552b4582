package handlers

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// openAPIDocument serves the API description.
func (h *publicHandler) openAPIDocument(c *gin.Context) {
	c.Header("Cache-Control", "no-cache")
	c.Data(http.StatusOK, "application/json", h.openAPI)
}
