package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// WebhookStore is what the webhook endpoints (API and console) need.
type WebhookStore interface {
	CreateWebhook(ctx context.Context, orgID int64, policy models.WebhookPolicy, in models.NewWebhook) (*models.WebhookEndpoint, error)
	ListWebhooks(ctx context.Context, orgID int64) ([]models.WebhookEndpoint, error)
	DeleteWebhook(ctx context.Context, orgID int64, id string) error
}

// webhookJSON is an endpoint as the API shows it; Secret only in the answer to its creation.
type webhookJSON struct {
	ID          string    `json:"id"`
	URL         string    `json:"url"`
	Events      []string  `json:"events"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"createdAt"`
	Secret      string    `json:"secret,omitempty"`
}

func toWebhookJSON(w *models.WebhookEndpoint) webhookJSON {
	return webhookJSON{ID: w.ID, URL: w.URL, Events: w.Events, Description: w.Description, CreatedAt: w.CreatedAt}
}

// createWebhook registers an endpoint; the answer is the only time its secret is shown.
func (h *Handler) createWebhook(c *gin.Context) error {
	body, err := h.readJSONRequest(c)
	if err != nil {
		return err
	}
	return h.withIdempotency(c, body, func() error {
		in, err := models.ParseNewWebhook(body, h.cfg.Webhooks)
		if err != nil {
			return err
		}
		w, err := h.store.CreateWebhook(c.Request.Context(), principalFrom(c).Organization.ID, h.cfg.Webhooks, in)
		if err != nil {
			return err
		}
		out := toWebhookJSON(w)
		out.Secret = w.Secret
		c.Header("Location", "/api/v1/webhooks/"+w.ID)
		c.Header("Cache-Control", "no-store")
		c.JSON(http.StatusCreated, out)
		return nil
	})
}

func (h *Handler) listWebhooks(c *gin.Context) error {
	hooks, err := h.store.ListWebhooks(c.Request.Context(), principalFrom(c).Organization.ID)
	if err != nil {
		return err
	}
	items := make([]webhookJSON, len(hooks))
	for i := range hooks {
		items[i] = toWebhookJSON(&hooks[i])
	}
	c.JSON(http.StatusOK, gin.H{"items": items})
	return nil
}

func (h *Handler) deleteWebhook(c *gin.Context) error {
	if err := h.store.DeleteWebhook(c.Request.Context(), principalFrom(c).Organization.ID, c.Param("id")); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}
