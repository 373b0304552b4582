package handlers

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/revise"
)

// revisedTransactionJSON is a revision's answer: the transaction as it now
// is and what became of each tag of the revised document (docs/revise.md).
type revisedTransactionJSON struct {
	transactionJSON
	Revision revise.Report `json:"revision"`
}

// reviseDocument replaces a transaction's document by its revised upload:
// POST /api/v1/transactions/{id}/documents/{documentId}/revise with
// {"documentId": "<the upload's id>"}, If-Match and Idempotency-Key as the
// other writes take them. 200 with the transaction and the revision's report.
func (h *apiHandler) reviseDocument(c *gin.Context) error {
	body, err := h.readJSONRequest(c)
	if err != nil {
		return err
	}
	fingerprint := append([]byte(c.Param("id")+"\n"+c.Param("documentId")+"\n"+c.GetHeader("If-Match")+"\n"), body...)
	return h.withIdempotency(c, fingerprint, func() error {
		newDocumentID, err := models.ParseRevisionInput(body)
		if err != nil {
			return err
		}
		r, err := h.transactions.ReviseDocument(c.Request.Context(), principalFrom(c).Actor(), c.Param("id"), c.Param("documentId"), newDocumentID, c.GetHeader("If-Match"))
		if err != nil {
			return err
		}
		c.Header("ETag", r.Transaction.ETag())
		c.JSON(http.StatusOK, revisedTransactionJSON{transactionJSON: toTransactionJSON(r.Transaction), Revision: r.Report})
		return nil
	})
}
