package handlers

import (
	"context"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/web/i18n"
)

// requireJSON refuses bodies that do not declare JSON: the Content-Type must
// be application/json, with no charset or charset=utf-8 (RFC 8259: JSON
// exchanged between systems is UTF-8).
func requireJSON(c *gin.Context) error {
	header := c.GetHeader("Content-Type")
	mediaType, params, err := mime.ParseMediaType(header)
	var m models.Message
	switch {
	case header == "":
		m = models.Msg("problem.http.no_content_type")
	case err != nil || mediaType != "application/json":
		m = models.Msg("problem.http.not_json", "type", models.Quoted(header))
	case params["charset"] != "" && !strings.EqualFold(params["charset"], "utf-8"):
		m = models.Msg("problem.http.charset", "charset", models.Quoted(params["charset"]))
	default:
		return nil
	}
	return &models.ValidationError{Kind: models.KindUnsupportedMedia, Message: models.Msg("problem.http.send_json"),
		Errors: []models.FieldError{{Pointer: "header:Content-Type", Code: "unsupported_media_type", Message: m}}}
}

func (h *apiHandler) createTransaction(c *gin.Context) error {
	body, err := h.readJSONRequest(c)
	if err != nil {
		return err
	}
	return h.withIdempotency(c, body, func() error {
		in, err := parseTransactionInput(body)
		if err != nil {
			return err
		}
		t, err := h.transactions.CreateTransaction(c.Request.Context(), principalFrom(c).Actor(), in)
		if err != nil {
			return err
		}
		c.Header("ETag", t.ETag())
		c.Header("Location", route.APITransaction.Path(t.ID))
		c.JSON(http.StatusCreated, toTransactionJSON(t))
		return nil
	})
}

func (h *apiHandler) replaceTransaction(c *gin.Context) error {
	body, err := h.readJSONRequest(c)
	if err != nil {
		return err
	}
	in, err := parseTransactionInput(body)
	if err != nil {
		return err
	}
	t, err := h.transactions.ReplaceTransaction(c.Request.Context(), principalFrom(c).Actor(), c.Param("id"), in, c.GetHeader("If-Match"))
	if err != nil {
		return err
	}
	out, err := h.replacedJSON(c.Request.Context(), t)
	if err != nil {
		return err
	}
	c.Header("ETag", t.ETag())
	c.JSON(http.StatusCreated, out)
	return nil
}

// replacedTransactionJSON is operation A's answer: the transaction as
// stored and the pre-send check's findings of it (docs/review.md), worded
// as the review route words them. Nothing is refused for them.
type replacedTransactionJSON struct {
	transactionJSON
	Review []findingJSON `json:"review"`
}

// replacedJSON is the answer of a replace (the API's and MCP's).
func (h *apiHandler) replacedJSON(ctx context.Context, t *models.Transaction) (replacedTransactionJSON, error) {
	r, err := h.transactions.ReviewReplaced(ctx, t)
	if err != nil {
		return replacedTransactionJSON{}, err
	}
	return replacedTransactionJSON{transactionJSON: toTransactionJSON(t), Review: toReviewJSON(i18n.From(ctx), r).Findings}, nil
}

func (h *apiHandler) getTransaction(c *gin.Context) error {
	t, err := h.transactions.GetTransaction(c.Request.Context(), principalFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	c.Header("ETag", t.ETag())
	c.JSON(http.StatusOK, toTransactionJSON(t))
	return nil
}

func (h *apiHandler) listTransactions(c *gin.Context) error {
	f := models.TransactionFilter{Status: c.Query("status"), ReferenceID: c.Query("referenceId"), Cursor: c.Query("cursor")}
	limit, err := queryLimit(c)
	if err != nil {
		return err
	}
	f.Limit = limit
	body, err := h.transactionList(c.Request.Context(), principalFrom(c).Organization.ID, f)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, body)
	return nil
}

// transactionListJSON is one page of the transaction list.
type transactionListJSON struct {
	Items      []transactionSummaryJSON `json:"items"`
	NextCursor string                   `json:"nextCursor,omitempty"`
}

// transactionList reads one page of the organization's transactions (the
// API's list and the MCP tool list_transactions).
func (h *apiHandler) transactionList(ctx context.Context, orgID int64, f models.TransactionFilter) (transactionListJSON, error) {
	page, err := h.transactions.ListTransactions(ctx, orgID, f)
	if err != nil {
		return transactionListJSON{}, err
	}
	items := make([]transactionSummaryJSON, len(page.Items))
	for i := range page.Items {
		items[i] = toTransactionSummaryJSON(&page.Items[i])
	}
	return transactionListJSON{Items: items, NextCursor: page.NextCursor}, nil
}

func (h *apiHandler) getTransactionXFDF(c *gin.Context) error {
	x, _, err := h.transactions.GetTransactionXFDF(c.Request.Context(), principalFrom(c).Organization.ID, c.Param("id"), c.Param("documentId"))
	if err != nil {
		return err
	}
	c.Header("Content-Disposition", `attachment; filename="`+sanitizeHeaderValue(c.Param("documentId"))+`.xfdf"`)
	c.Data(http.StatusOK, "application/vnd.adobe.xfdf", []byte(x))
	return nil
}

// queryLimit reads ?limit= (0 when absent, meaning the default page size).
func queryLimit(c *gin.Context) (int, error) {
	v, ok := c.GetQuery("limit")
	if !ok {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > models.MaxListLimit {
		return 0, models.Invalid("query:limit", "out_of_range", "problem.list.limit_from_1", "max", models.MaxListLimit)
	}
	return n, nil
}
