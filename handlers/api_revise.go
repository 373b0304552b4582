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

// revisedTemplateJSON is a template revision's answer: the template's new
// current version and what became of each tag of the revised document
// (each named by its index in the version's tags).
type revisedTemplateJSON struct {
	templateJSON
	Revision *revise.Report `json:"revision"`
}

// reviseTemplateDocument makes a new version of a template with its
// document at position replaced by a revised upload, the tags following
// their words: POST /api/v1/templates/{id}/documents/{position}/revise
// with {"documentId": "…"}, If-Match and Idempotency-Key. 200 with the
// template and the report.
func (h *apiHandler) reviseTemplateDocument(c *gin.Context) error {
	body, err := h.readJSONRequest(c)
	if err != nil {
		return err
	}
	position, _ := models.ParseIndex(c.Param("position")) // checked by checkInput
	return h.withIdempotency(c, revisionFingerprint(c, "position", body), func() error {
		newDocumentID, err := models.ParseRevisionInput(body)
		if err != nil {
			return err
		}
		t, report, err := h.templates.ReviseTemplateDocument(c.Request.Context(), principalFrom(c).TemplateActor(), c.Param("id"), position, newDocumentID, c.GetHeader("If-Match"))
		if err != nil {
			return err
		}
		c.Header("ETag", t.ETag())
		c.JSON(http.StatusOK, revisedTemplateJSON{templateJSON: toTemplateJSON(t), Revision: report})
		return nil
	})
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
	return h.withIdempotency(c, revisionFingerprint(c, "documentId", body), func() error {
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

// revisionFingerprint is what an Idempotency-Key of a revision is bound to:
// the owner's id, the document named by param, the If-Match and the body.
func revisionFingerprint(c *gin.Context, param string, body []byte) []byte {
	return append([]byte(c.Param("id")+"\n"+c.Param(param)+"\n"+c.GetHeader("If-Match")+"\n"), body...)
}
