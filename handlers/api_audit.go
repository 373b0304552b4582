package handlers

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// Page sizes of the API's audit lists.
const (
	defaultAuditLimit = 100
	maxAuditLimit     = models.MaxAuditPage
)

// auditEventJSON is one audit event as the API returns it.
type auditEventJSON struct {
	ID            string          `json:"id"`
	At            time.Time       `json:"at"`
	Actor         auditActorJSON  `json:"actor"`
	Action        string          `json:"action"`
	Target        auditTargetJSON `json:"target"`
	TransactionID *string         `json:"transactionId"`
	Summary       string          `json:"summary"`
	Address       string          `json:"address"`
	// Sealed is false, and present, only while the event is not sealed yet
	// (docs/decisions.md, "Audit sealing"); a sealed event's bytes are as
	// before.
	Sealed *bool `json:"sealed,omitempty"`
}

type auditActorJSON struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
	Name string `json:"name"`
	Via  string `json:"via"`
}

type auditTargetJSON struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// toAuditEventJSON shapes one event for the API.
func toAuditEventJSON(e *models.AuditEvent) auditEventJSON {
	out := auditEventJSON{
		ID: strconv.FormatInt(e.ID, 10), At: e.At.UTC(),
		Actor:  auditActorJSON{Kind: e.ActorKind, ID: e.ActorID, Name: e.ActorName, Via: e.Via},
		Action: e.Action, Target: auditTargetJSON{Type: e.TargetType, ID: e.TargetID},
		Summary: e.Summary, Address: e.ClientAddr,
	}
	if e.TransactionID != "" {
		out.TransactionID = &e.TransactionID
	}
	if !e.Sealed() {
		out.Sealed = new(bool)
	}
	return out
}

// listTransactionAuditEvents is GET /api/v1/transactions/:id/audit-events:
// the transaction's trail, oldest first (another organization's
// transaction is 404, as on the other transaction routes).
func (h *apiHandler) listTransactionAuditEvents(c *gin.Context) error {
	org := principalFrom(c).Organization.ID
	if _, err := h.transactions.GetTransaction(c.Request.Context(), org, c.Param("id")); err != nil {
		return err
	}
	return h.writeAuditPage(c, models.AuditFilter{OrganizationID: &org, TransactionID: c.Param("id")})
}

// listAuditEvents is GET /api/v1/audit-events?since=&cursor=&limit=: the
// caller's organization's trail, oldest first, for a puller (a SIEM) that
// follows nextCursor.
func (h *apiHandler) listAuditEvents(c *gin.Context) error {
	org := principalFrom(c).Organization.ID
	f := models.AuditFilter{OrganizationID: &org}
	if s, ok := c.GetQuery("since"); ok {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return models.Invalid("query:since", "invalid_time", "problem.list.since")
		}
		f.From = t
	}
	return h.writeAuditPage(c, f)
}

// writeAuditPage answers one page of the events f selects, oldest first,
// after ?cursor= (checked by checkInput), ?limit= events (1…1000, 100 by
// default); nextCursor is null on the last page.
func (h *apiHandler) writeAuditPage(c *gin.Context, f models.AuditFilter) error {
	limit := defaultAuditLimit
	if v, ok := c.GetQuery("limit"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxAuditLimit {
			return models.Invalid("query:limit", "out_of_range", "problem.list.limit_from_1", "max", maxAuditLimit)
		}
		limit = n
	}
	var cursor int64
	if v := c.Query("cursor"); v != "" {
		id, ok := models.ParseAuditCursor(v)
		if !ok {
			return models.Invalid("query:cursor", "invalid_cursor", "problem.http.cursor", "name", "cursor")
		}
		cursor = id
	}
	page, err := h.audit.ListAuditEvents(c.Request.Context(), f, models.AuditOldestFirst, cursor, limit)
	if err != nil {
		return err
	}
	events := make([]auditEventJSON, len(page.Events))
	for i := range page.Events {
		events[i] = toAuditEventJSON(&page.Events[i])
	}
	var next *string
	if page.Next != 0 {
		s := models.EncodeAuditCursor(page.Next)
		next = &s
	}
	c.JSON(http.StatusOK, gin.H{"events": events, "nextCursor": next})
	return nil
}
