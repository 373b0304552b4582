package handlers

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// problemDoc documents a problem type, so that the "type" URI of every
// problem body leads somewhere useful.
func (h *publicHandler) problemDoc(c *gin.Context) {
	for _, t := range problemTypes() {
		if t.Slug == c.Param("slug") {
			c.JSON(http.StatusOK, gin.H{
				"type":        "/problems/" + t.Slug,
				"title":       t.Title,
				"status":      t.Status,
				"description": "Responses with this type use status " + http.StatusText(t.Status) + ". The errors array lists each failing field with a JSON pointer into the request body and a stable code.",
			})
			return
		}
	}
	respondError(c, errStatus(http.StatusNotFound, "error.no_problem_type"))
}
