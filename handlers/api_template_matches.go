package handlers

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// templateMatchJSON is a template whose document an upload resembles
// (TemplateMatch in the OpenAPI document).
type templateMatchJSON struct {
	TemplateID string  `json:"templateId"`
	Name       string  `json:"name"`
	Version    int     `json:"version"`
	Document   int     `json:"document"`
	Score      float64 `json:"score"`
}

// templateMatchesJSON is the JSON form of matches, never nil.
func templateMatchesJSON(ms []models.TemplateMatch) []templateMatchJSON {
	out := make([]templateMatchJSON, len(ms))
	for i, m := range ms {
		out[i] = templateMatchJSON{TemplateID: m.TemplateID, Name: m.Name, Version: m.Version, Document: m.Document, Score: m.Score}
	}
	return out
}

// getTemplateMatches lists the organization's templates whose document an
// uploaded document resembles, best first (docs/decisions.md, "Template
// matching").
func (h *apiHandler) getTemplateMatches(c *gin.Context) error {
	ms, err := h.documents.DocumentTemplateMatches(c.Request.Context(), principalFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, gin.H{"items": templateMatchesJSON(ms)})
	return nil
}
