package handlers

import (
	"context"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// TransactionStore is what the transaction endpoints need.
type TransactionStore interface {
	CreateTransaction(ctx context.Context, actor models.Actor, in *models.TransactionInput) (*models.Transaction, error)
	ReplaceTransaction(ctx context.Context, actor models.Actor, id string, in *models.TransactionInput, ifMatch string) (*models.Transaction, error)
	GetTransaction(ctx context.Context, orgID int64, id string) (*models.Transaction, error)
	ListTransactions(ctx context.Context, orgID int64, f models.TransactionFilter) (*models.TransactionPage, error)
	GetTransactionXFDF(ctx context.Context, orgID int64, txID, documentID string) (string, *models.TransactionDocument, error)
}

// readJSONBody reads a JSON request body within the size limit.
func (h *Handler) readJSONBody(c *gin.Context) ([]byte, error) {
	limitJSONBody(c, h.cfg.MaxJSONBytes)
	return io.ReadAll(c.Request.Body)
}

// requireJSON refuses bodies that do not declare JSON: the Content-Type must
// be application/json, with no charset or charset=utf-8 (RFC 8259: JSON
// exchanged between systems is UTF-8).
func requireJSON(c *gin.Context) error {
	header := c.GetHeader("Content-Type")
	mediaType, params, err := mime.ParseMediaType(header)
	detail := ""
	switch {
	case header == "":
		detail = "The request has no Content-Type; send it as application/json."
	case err != nil || mediaType != "application/json":
		detail = "Content type " + strconv.Quote(header) + " is not accepted; send application/json."
	case params["charset"] != "" && !strings.EqualFold(params["charset"], "utf-8"):
		detail = "Charset " + strconv.Quote(params["charset"]) + " is not accepted; JSON is sent as UTF-8."
	default:
		return nil
	}
	return &models.ValidationError{Kind: models.KindUnsupportedMedia, Detail: "Send the body as application/json (UTF-8).",
		Errors: []models.FieldError{{Pointer: "header:Content-Type", Code: "unsupported_media_type", Detail: detail}}}
}

// readJSONRequest checks the content type and reads the body within its limit.
func (h *Handler) readJSONRequest(c *gin.Context) ([]byte, error) {
	if err := requireJSON(c); err != nil {
		return nil, err
	}
	return h.readJSONBody(c)
}

func (h *Handler) createTransaction(c *gin.Context) error {
	body, err := h.readJSONRequest(c)
	if err != nil {
		return err
	}
	return h.withIdempotency(c, body, func() error {
		in, err := models.ParseTransactionInput(body)
		if err != nil {
			return err
		}
		t, err := h.store.CreateTransaction(c.Request.Context(), principalFrom(c).Actor(), in)
		if err != nil {
			return err
		}
		c.Header("ETag", t.ETag())
		c.Header("Location", "/api/v1/transactions/"+t.ID)
		c.JSON(http.StatusCreated, toTransactionJSON(t))
		return nil
	})
}

func (h *Handler) replaceTransaction(c *gin.Context) error {
	body, err := h.readJSONRequest(c)
	if err != nil {
		return err
	}
	in, err := models.ParseTransactionInput(body)
	if err != nil {
		return err
	}
	t, err := h.store.ReplaceTransaction(c.Request.Context(), principalFrom(c).Actor(), c.Param("id"), in, c.GetHeader("If-Match"))
	if err != nil {
		return err
	}
	c.Header("ETag", t.ETag())
	c.JSON(http.StatusCreated, toTransactionJSON(t))
	return nil
}

func (h *Handler) getTransaction(c *gin.Context) error {
	t, err := h.store.GetTransaction(c.Request.Context(), principalFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	c.Header("ETag", t.ETag())
	c.JSON(http.StatusOK, toTransactionJSON(t))
	return nil
}

func (h *Handler) listTransactions(c *gin.Context) error {
	f := models.TransactionFilter{Status: c.Query("status"), ReferenceID: c.Query("referenceId"), Cursor: c.Query("cursor")}
	limit, err := queryLimit(c)
	if err != nil {
		return err
	}
	f.Limit = limit
	page, err := h.store.ListTransactions(c.Request.Context(), principalFrom(c).Organization.ID, f)
	if err != nil {
		return err
	}
	items := make([]transactionSummaryJSON, len(page.Items))
	for i := range page.Items {
		items[i] = toTransactionSummaryJSON(&page.Items[i])
	}
	body := gin.H{"items": items}
	if page.NextCursor != "" {
		body["nextCursor"] = page.NextCursor
	}
	c.JSON(http.StatusOK, body)
	return nil
}

func (h *Handler) getTransactionXFDF(c *gin.Context) error {
	x, _, err := h.store.GetTransactionXFDF(c.Request.Context(), principalFrom(c).Organization.ID, c.Param("id"), c.Param("documentId"))
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
		return 0, models.Invalid("query:limit", "out_of_range", "limit must be a whole number from 1 to "+strconv.Itoa(models.MaxListLimit)+".")
	}
	return n, nil
}
