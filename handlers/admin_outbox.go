package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
)

// adminOutbox lists outgoing messages, newest first: GET /admin/outbox?status=&before=.
func (h *Handler) adminOutbox(c *gin.Context) error {
	status := models.MessageStatus(c.Query("status"))
	ctx := c.Request.Context()
	rows, err := h.store.ListMessages(ctx, models.MessageFilter{Status: status, Before: c.Query("before"), Limit: models.AdminPageSize})
	if err != nil {
		return err
	}
	counts, err := h.store.CountMessages(ctx)
	if err != nil {
		return err
	}
	orgs, err := h.store.OrganizationNames(ctx)
	if err != nil {
		return err
	}
	names := map[int64]string{}
	for _, o := range orgs {
		names[o.ID] = o.Name
	}
	now := h.store.Now()
	v := templates.AdminOutboxView{CSRFToken: csrfToken(c), Status: string(status)}
	var total int64
	for _, s := range models.MessageStatuses() {
		total += counts[s]
	}
	v.Filters = append(v.Filters, templates.AdminFilterView{Label: "All", Count: total, URL: "/admin/outbox", Current: status == ""})
	for _, s := range models.MessageStatuses() {
		v.Filters = append(v.Filters, templates.AdminFilterView{Label: string(s), Count: counts[s], URL: "/admin/outbox?status=" + string(s), Current: status == s})
	}
	for i := range rows {
		v.Rows = append(v.Rows, messageRow(&rows[i], names[rows[i].OrganizationID], now))
	}
	if len(rows) == models.AdminPageSize {
		q := url.Values{"before": {rows[len(rows)-1].ID}}
		if status != "" {
			q.Set("status", string(status))
		}
		v.OlderURL = "/admin/outbox?" + q.Encode()
	}
	render(c, http.StatusOK, templates.AdminOutboxPage(h.adminPage(c, "Outgoing messages", "/admin/outbox"), v))
	return nil
}

// messageRow shapes one outgoing message for the console.
func messageRow(m *models.OutboxMessage, org string, now time.Time) templates.AdminMessageRowView {
	r := templates.AdminMessageRowView{
		ID: m.ID, Organization: org, KindLabel: "E-mail", Recipient: m.Recipient, Event: m.Event, Subject: m.Subject,
		Status: string(m.StatusAt(now)), Attempts: m.Attempts, LastError: m.LastError,
		Created: m.CreatedAt.UTC().Format("2 Jan, 15:04:05"), CreatedISO: m.CreatedAt.UTC().Format(time.RFC3339),
	}
	if m.Kind == models.MessageWebhook {
		r.KindLabel = "Webhook"
	}
	if m.TransactionID != nil {
		r.TransactionURL = "/admin/transactions/" + url.PathEscape(*m.TransactionID)
	}
	switch m.StatusAt(now) {
	case models.MessageSending:
		r.NextTry = "now"
	case models.MessagePending:
		if !m.NextAttemptAt.After(now) {
			r.NextTry = "due"
			break
		}
		r.NextTry = m.NextAttemptAt.UTC().Format("15:04:05")
		r.NextTryISO = m.NextAttemptAt.UTC().Format(time.RFC3339)
	case models.MessageDead, models.MessageHeld:
		r.RetryURL = "/admin/outbox/" + url.PathEscape(m.ID) + "/retry"
	}
	return r
}

// adminRetryMessage queues a dead or held message again: POST /admin/outbox/:id/retry.
func (h *Handler) adminRetryMessage(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	m, err := h.store.RetryMessage(c.Request.Context(), c.Param("id"))
	if errors.Is(err, models.ErrConflict) {
		return errStatus(http.StatusConflict, "Only a dead or held message can be retried; this one is "+string(m.Status)+".")
	}
	if err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, "/admin/outbox?status="+string(models.MessagePending))
	return nil
}

// adminCreateWebhook registers an endpoint for an organization:
// POST /admin/organizations/:id/webhooks; the page shows its secret once.
func (h *Handler) adminCreateWebhook(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	id, err := orgParam(c)
	if err != nil {
		return err
	}
	in := models.NewWebhook{URL: c.PostForm("url"), Events: c.PostFormArray("events"), Description: c.PostForm("description")}
	w, err := h.store.CreateWebhook(c.Request.Context(), id, h.cfg.Webhooks, in)
	var ve *models.ValidationError
	if errors.As(err, &ve) {
		return h.renderOrganization(c, http.StatusUnprocessableEntity, templates.AdminOrganizationView{WebhookError: firstProblem(ve)})
	}
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	return h.renderOrganization(c, http.StatusCreated, templates.AdminOrganizationView{NewWebhookSecret: w.Secret, NewWebhookURL: w.URL})
}

// adminDeleteWebhook removes an endpoint: POST /admin/organizations/:id/webhooks/:webhookId/delete.
func (h *Handler) adminDeleteWebhook(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	id, err := orgParam(c)
	if err != nil {
		return err
	}
	if err := h.store.DeleteWebhook(c.Request.Context(), id, c.Param("webhookId")); err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, "/admin/organizations/"+strconv.FormatInt(id, 10)+"#org-webhooks-title")
	return nil
}

// adminRotateWebhookSecret gives an endpoint a new signing secret:
// POST /admin/organizations/:id/webhooks/:webhookId/rotate-secret; the page
// shows it once, and the old one keeps signing beside it for a day.
func (h *Handler) adminRotateWebhookSecret(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	id, err := orgParam(c)
	if err != nil {
		return err
	}
	w, err := h.store.RotateWebhookSecret(c.Request.Context(), id, c.Param("webhookId"))
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	return h.renderOrganization(c, http.StatusOK, templates.AdminOrganizationView{NewWebhookSecret: w.Secret, NewWebhookURL: w.URL, NewWebhookRotated: true})
}
