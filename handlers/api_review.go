package handlers

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/review"
	"github.com/markuproom/markuproom/web/i18n"
)

// reviewJSON is the pre-send check (docs/review.md) as the API and MCP
// return it and the room reads it.
type reviewJSON struct {
	TransactionID string `json:"transactionId"`
	// Blocked says a finding stops the e-signature session.
	Blocked  bool          `json:"blocked"`
	Findings []findingJSON `json:"findings"`
}

// findingJSON is one finding with its words in the request's language.
type findingJSON struct {
	review.Finding
	Detail string `json:"detail"`
}

// toReviewJSON words each finding of r with l.
func toReviewJSON(l *i18n.Localizer, r *models.TransactionReview) reviewJSON {
	out := reviewJSON{TransactionID: r.Transaction.ID, Blocked: r.Blocked(), Findings: make([]findingJSON, len(r.Findings))}
	for i, f := range r.Findings {
		out.Findings[i] = findingJSON{Finding: f, Detail: findingWords(l, r.Transaction, f)}
	}
	return out
}

// reviewTransaction is GET /api/v1/transactions/:id/review: the pre-send
// check of one of the caller's transactions (another organization's is
// 404, as on the other transaction routes).
func (h *apiHandler) reviewTransaction(c *gin.Context) error {
	org := principalFrom(c).Organization.ID
	r, err := h.transactions.ReviewTransaction(c.Request.Context(), org, c.Param("id"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, toReviewJSON(i18n.From(c.Request.Context()), r))
	return nil
}
