package handlers

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
)

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
func (h *apiHandler) createWebhook(c *gin.Context) error {
	body, err := h.readJSONRequest(c)
	if err != nil {
		return err
	}
	return h.withIdempotencyReplay(c, body, webhookReplaySecrets(h.webhooks), func() error {
		in, err := models.ParseNewWebhook(body, h.cfg.Webhooks)
		if err != nil {
			return err
		}
		w, err := h.webhooks.CreateWebhook(c.Request.Context(), principalFrom(c).Organization.ID, h.cfg.Webhooks, in)
		if err != nil {
			return err
		}
		out := toWebhookJSON(w)
		out.Secret = w.Secret
		c.Header("Location", route.APIWebhook.Path(w.ID))
		c.Header("Cache-Control", "no-store")
		c.JSON(http.StatusCreated, out)
		return nil
	})
}

func (h *apiHandler) listWebhooks(c *gin.Context) error {
	hooks, err := h.webhooks.ListWebhooks(c.Request.Context(), principalFrom(c).Organization.ID)
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

func (h *apiHandler) deleteWebhook(c *gin.Context) error {
	if err := h.webhooks.DeleteWebhook(c.Request.Context(), principalFrom(c).Organization.ID, c.Param("id")); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

// webhookReplaySecrets keeps a registration's secret out of the stored
// response: a replay shows the endpoint's current secret, read from the
// endpoint itself, and once the endpoint is deleted a replay is a 410 that
// shows no secret.
func webhookReplaySecrets(store WebhookStore) replaySecrets {
	return replaySecrets{
		strip: func(status int, body []byte) []byte {
			if status != http.StatusCreated {
				return body
			}
			var m map[string]json.RawMessage
			if json.Unmarshal(body, &m) != nil {
				return []byte("{}")
			}
			delete(m, "secret")
			out, _ := json.Marshal(m)
			return out
		},
		fill: func(c *gin.Context, status int, body []byte) ([]byte, error) {
			if status != http.StatusCreated {
				return body, nil
			}
			var m map[string]json.RawMessage
			var id string
			if json.Unmarshal(body, &m) != nil || json.Unmarshal(m["id"], &id) != nil {
				return nil, errors.New("the stored response of this Idempotency-Key is not a webhook endpoint")
			}
			w, err := store.GetWebhook(c.Request.Context(), principalFrom(c).Organization.ID, id)
			if errors.Is(err, models.ErrNotFound) {
				return nil, errStatus(http.StatusGone, "error.webhook_deleted")
			}
			if err != nil {
				return nil, err
			}
			m["secret"], _ = json.Marshal(w.Secret)
			return json.Marshal(m)
		},
	}
}

// rotateWebhookSecret gives an endpoint a new signing secret, shown in this answer
// only; for WebhookRotationOverlap the old one keeps signing beside it. Under
// an Idempotency-Key a retry rotates nothing: it replays the first answer,
// the same new secret (rotationReplaySecrets). The request has no body: the
// endpoint's id is the fingerprint.
func (h *apiHandler) rotateWebhookSecret(c *gin.Context) error {
	id := c.Param("id")
	return h.withIdempotencyReplay(c, []byte("webhook "+id), rotationReplaySecrets(h.webhooks), func() error {
		w, err := h.webhooks.RotateWebhookSecret(c.Request.Context(), principalFrom(c).Organization.ID, id)
		if err != nil {
			return err
		}
		c.Header("Cache-Control", "no-store")
		c.JSON(http.StatusOK, gin.H{"id": w.ID, "secret": w.Secret, "previousSecretExpiresAt": w.PreviousSecretExpiresAt})
		return nil
	})
}

// rotationReplaySecrets keeps a rotation's new secret out of the stored
// response, as webhookReplaySecrets does for a registration: the stored body
// holds the secret's SHA-256 instead, and a replay fills in the endpoint's
// secret that has that digest — the current one, or the previous one while
// it still signs. Once the endpoint is deleted, or rotated again so that the
// secret no longer signs, a replay is a 410 that shows no secret.
func rotationReplaySecrets(store WebhookStore) replaySecrets {
	const digestKey = "secretSha256"
	digest := func(secret string) string {
		sum := sha256.Sum256([]byte(secret))
		return hex.EncodeToString(sum[:])
	}
	return replaySecrets{
		strip: func(status int, body []byte) []byte {
			if status != http.StatusOK {
				return body
			}
			var m map[string]json.RawMessage
			var secret string
			if json.Unmarshal(body, &m) != nil || json.Unmarshal(m["secret"], &secret) != nil {
				return []byte("{}")
			}
			delete(m, "secret")
			m[digestKey], _ = json.Marshal(digest(secret))
			out, _ := json.Marshal(m)
			return out
		},
		fill: func(c *gin.Context, status int, body []byte) ([]byte, error) {
			if status != http.StatusOK {
				return body, nil
			}
			var m map[string]json.RawMessage
			var id, want string
			if json.Unmarshal(body, &m) != nil || json.Unmarshal(m["id"], &id) != nil || json.Unmarshal(m[digestKey], &want) != nil {
				return nil, errors.New("the stored response of this Idempotency-Key is not a secret rotation")
			}
			gone := errStatus(http.StatusGone, "error.webhook_secret_gone")
			w, err := store.GetWebhook(c.Request.Context(), principalFrom(c).Organization.ID, id)
			if errors.Is(err, models.ErrNotFound) {
				return nil, gone
			}
			if err != nil {
				return nil, err
			}
			var secret string
			switch want {
			case digest(w.Secret):
				secret = w.Secret
			case digest(w.PreviousSecret):
				secret = w.PreviousSecret
			}
			if secret == "" {
				return nil, gone
			}
			delete(m, digestKey)
			m["secret"], _ = json.Marshal(secret)
			return json.Marshal(m)
		},
	}
}
