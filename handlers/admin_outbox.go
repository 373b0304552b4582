package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// adminOutbox lists outgoing messages, newest first: GET /admin/outbox?status=&before=.
func (h *adminHandler) adminOutbox(c *gin.Context) error {
	status := models.MessageStatus(c.Query("status"))
	ctx := c.Request.Context()
	rows, err := h.outbox.ListMessages(ctx, models.MessageFilter{Status: status, Before: c.Query("before"), Limit: models.AdminPageSize})
	if err != nil {
		return err
	}
	counts, err := h.outbox.CountMessages(ctx)
	if err != nil {
		return err
	}
	orgs, err := h.transactions.OrganizationNames(ctx)
	if err != nil {
		return err
	}
	names := map[int64]string{}
	for _, o := range orgs {
		names[o.ID] = o.Name
	}
	now := h.clock.Now()
	v := admin.OutboxView{CSRFToken: csrfToken(c), Status: string(status)}
	var total int64
	for _, s := range models.MessageStatuses() {
		total += counts[s]
	}
	v.Filters = append(v.Filters, admin.FilterView{Count: total, URL: route.AdminOutbox.Path(), Current: status == ""})
	for _, s := range models.MessageStatuses() {
		v.Filters = append(v.Filters, admin.FilterView{Status: string(s), Count: counts[s], URL: route.AdminOutbox.Path() + "?status=" + string(s), Current: status == s})
	}
	for i := range rows {
		v.Rows = append(v.Rows, messageRow(&rows[i], names[rows[i].OrganizationID], now))
	}
	if len(rows) == models.AdminPageSize {
		q := url.Values{"before": {rows[len(rows)-1].ID}}
		if status != "" {
			q.Set("status", string(status))
		}
		v.OlderURL = route.AdminOutbox.Path() + "?" + q.Encode()
	}
	render(c, http.StatusOK, admin.OutboxPage(h.adminPage(c, i18n.Msg("admin.outbox.title"), route.AdminOutbox.Path()), v))
	return nil
}

// messageRow shapes one outgoing message for the console.
func messageRow(m *models.OutboxMessage, org string, now time.Time) admin.MessageRowView {
	r := admin.MessageRowView{
		ID: m.ID, Organization: org, Kind: m.Kind, Recipient: m.Recipient, Event: m.Event, Subject: m.Subject, Language: m.Language,
		Status: string(m.StatusAt(now)), Attempts: m.Attempts, LastError: m.LastError, Created: m.CreatedAt,
	}
	if m.TransactionID != nil {
		r.TransactionURL = route.AdminTransaction.Path(*m.TransactionID)
	}
	switch m.StatusAt(now) {
	case models.MessageSending:
		r.NextTry = admin.NextTryNow
	case models.MessagePending:
		if !m.NextAttemptAt.After(now) {
			r.NextTry = admin.NextTryDue
			break
		}
		r.NextTry, r.NextAt = admin.NextTryAt, m.NextAttemptAt
	case models.MessageDead, models.MessageHeld:
		r.RetryURL = route.AdminOutboxRetry.Path(m.ID)
	}
	return r
}

// adminRetryMessage queues a dead or held message again: POST /admin/outbox/:id/retry.
func (h *adminHandler) adminRetryMessage(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	m, err := h.outbox.RetryMessage(c.Request.Context(), c.Param("id"))
	if errors.Is(err, models.ErrConflict) {
		return errStatus(http.StatusConflict, "admin.outbox.retry_conflict", "status", string(m.Status))
	}
	if err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.AdminOutbox.Path()+"?status="+string(models.MessagePending))
	return nil
}
