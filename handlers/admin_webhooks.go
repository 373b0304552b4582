package handlers

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates/admin"
)

// adminCreateWebhook registers an endpoint for an organization:
// POST /admin/organizations/:id/webhooks; the page shows its secret once.
func (h *adminHandler) adminCreateWebhook(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	id, err := orgParam(c)
	if err != nil {
		return err
	}
	in := models.NewWebhook{URL: c.PostForm("url"), Events: c.PostFormArray("events"), Description: c.PostForm("description")}
	w, err := h.webhooks.CreateWebhook(c.Request.Context(), id, h.cfg.Webhooks, in)
	var ve *models.ValidationError
	if errors.As(err, &ve) {
		return h.renderOrganization(c, http.StatusUnprocessableEntity, admin.OrganizationView{WebhookError: firstProblem(ve)})
	}
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	return h.renderOrganization(c, http.StatusCreated, admin.OrganizationView{NewWebhookSecret: w.Secret, NewWebhookURL: w.URL})
}

// adminDeleteWebhook removes an endpoint: POST /admin/organizations/:id/webhooks/:webhookId/delete.
func (h *adminHandler) adminDeleteWebhook(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	id, err := orgParam(c)
	if err != nil {
		return err
	}
	if err := h.webhooks.DeleteWebhook(c.Request.Context(), id, c.Param("webhookId")); err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.AdminOrganization.Path(strconv.FormatInt(id, 10))+"#org-webhooks-title")
	return nil
}

// adminRotateWebhookSecret gives an endpoint a new signing secret:
// POST /admin/organizations/:id/webhooks/:webhookId/rotate-secret; the page
// shows it once, and the old one keeps signing beside it for a day.
func (h *adminHandler) adminRotateWebhookSecret(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	id, err := orgParam(c)
	if err != nil {
		return err
	}
	w, err := h.webhooks.RotateWebhookSecret(c.Request.Context(), id, c.Param("webhookId"))
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	return h.renderOrganization(c, http.StatusOK, admin.OrganizationView{NewWebhookSecret: w.Secret, NewWebhookURL: w.URL, NewWebhookRotated: true})
}
