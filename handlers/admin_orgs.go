package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// adminOrganizations lists organizations: GET /admin/organizations.
func (h *adminHandler) adminOrganizations(c *gin.Context) error {
	return h.renderOrganizations(c, http.StatusOK, "", nil)
}

func (h *adminHandler) renderOrganizations(c *gin.Context, status int, name string, problem i18n.Words) error {
	rows, err := h.organizations.AdminListOrganizations(c.Request.Context())
	if err != nil {
		return err
	}
	v := admin.OrganizationsView{CreateURL: route.AdminOrganizations.Path(), CSRFToken: csrfToken(c), Name: name, Error: problem}
	for _, r := range rows {
		id := strconv.FormatInt(r.ID, 10)
		v.Rows = append(v.Rows, admin.OrganizationRowView{ID: id, Name: r.Name, URL: route.AdminOrganization.Path(id),
			ToggleURL: route.AdminOrganizationAPI.Path(id), APIEnabled: r.APIEnabled, Users: r.Users, Tokens: r.Tokens})
	}
	render(c, status, admin.OrganizationsPage(h.adminPage(c, i18n.Msg("admin.orgs.title"), route.AdminOrganizations.Path()), v))
	return nil
}

// adminCreateOrganization adds an organization: POST /admin/organizations with "name".
func (h *adminHandler) adminCreateOrganization(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	org, err := h.organizations.CreateOrganization(c.Request.Context(), c.PostForm("name"), true)
	var ve *models.ValidationError
	if errors.As(err, &ve) {
		return h.renderOrganizations(c, http.StatusUnprocessableEntity, c.PostForm("name"), firstProblem(ve))
	}
	if err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.AdminOrganization.Path(strconv.FormatInt(org.ID, 10)))
	return nil
}

// adminSetAPIAccess switches an organization's API permission:
// POST /admin/organizations/:id/api-access with enabled=true|false (the
// last value wins, so a form's hidden "false" gives way to a ticked box).
func (h *adminHandler) adminSetAPIAccess(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	id, err := orgParam(c)
	if err != nil {
		return err
	}
	values := c.PostFormArray("enabled")
	enabled := len(values) > 0 && values[len(values)-1] == "true"
	if err := h.organizations.SetOrganizationAPIEnabled(c.Request.Context(), id, enabled); err != nil {
		return err
	}
	if c.GetHeader("HX-Request") == "true" {
		c.Status(http.StatusNoContent)
		return nil
	}
	c.Redirect(http.StatusSeeOther, route.AdminOrganization.Path(strconv.FormatInt(id, 10)))
	return nil
}

// adminOrganization shows an organization's users and tokens: GET /admin/organizations/:id.
func (h *adminHandler) adminOrganization(c *gin.Context) error {
	return h.renderOrganization(c, http.StatusOK, admin.OrganizationView{EmbedSaved: c.Query("embed") == "saved"})
}

func (h *adminHandler) renderOrganization(c *gin.Context, status int, v admin.OrganizationView) error {
	id, err := orgParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request.Context()
	org, err := h.organizations.GetOrganization(ctx, id)
	if err != nil {
		return err
	}
	users, err := h.organizations.OrganizationUsers(ctx, id)
	if err != nil {
		return err
	}
	tokens, err := h.organizations.OrganizationTokens(ctx, id)
	if err != nil {
		return err
	}
	oid := strconv.FormatInt(id, 10)
	v.BackURL = route.AdminOrganizations.Path()
	v.ID, v.Name, v.APIEnabled, v.CSRFToken = oid, org.Name, org.APIEnabled, csrfToken(c)
	v.EmbedURL = route.AdminOrganizationEmbed.Path(oid) + "#org-embed-title" // the answer opens at the form
	if v.EmbedErrors == nil {
		v.EmbedOrigins = strings.Join(org.AllowedEmbedOrigins(), "\n")
	}
	v.ToggleURL, v.UsersURL, v.TokensURL = route.AdminOrganizationAPI.Path(oid), route.AdminUsers.Path(oid), route.AdminTokens.Path(oid)
	for _, u := range users {
		uid := strconv.FormatInt(u.ID, 10)
		row := admin.UserRowView{ID: uid, Name: u.FullName(), Email: u.Email, Role: i18n.Msg("admin.org.role.sender"), Status: i18n.Msg("admin.org.user.active")}
		if u.IsAdmin {
			row.Role = i18n.Msg("admin.org.role.admin")
		}
		switch {
		case u.DisabledAt != nil:
			row.Status = i18n.Msg("admin.org.user.disabled")
		case u.ID == adminFrom(c).ID:
			row.Status = i18n.Msg("admin.org.user.active_you")
		default:
			row.DisableURL = route.AdminUserDisable.Path(oid, uid)
		}
		v.Users = append(v.Users, row)
	}
	for _, t := range tokens {
		tid := strconv.FormatInt(t.ID, 10)
		row := admin.TokenRowView{ID: tid, Name: t.Name, Created: t.CreatedAt, LastUsed: t.LastUsedAt, Status: i18n.Msg("admin.org.token.live")}
		if t.RevokedAt != nil {
			row.Status = i18n.Msg("admin.org.token.revoked", "date", i18n.Day(t.RevokedAt.UTC()))
		} else {
			row.RevokeURL = route.AdminTokenRevoke.Path(oid, tid)
		}
		v.Tokens = append(v.Tokens, row)
	}
	hooks, err := h.webhooks.ListWebhooks(ctx, id)
	if err != nil {
		return err
	}
	v.WebhooksURL, v.WebhookEvents = route.AdminWebhooks.Path(oid), models.WebhookEvents()
	for _, w := range hooks {
		v.Webhooks = append(v.Webhooks, admin.WebhookRowView{
			ID: w.ID, URL: w.URL, Events: strings.Join(w.Events, ", "), Description: w.Description,
			Created: w.CreatedAt, DeleteURL: route.AdminWebhookDelete.Path(oid, w.ID),
			RotateURL: route.AdminWebhookRotate.Path(oid, w.ID),
		})
	}
	render(c, status, admin.OrganizationPage(h.adminPage(c, i18n.Plain(org.Name), route.AdminOrganizations.Path()), v))
	return nil
}

// adminCreateUser adds a user to an organization: POST /admin/organizations/:id/users.
func (h *adminHandler) adminCreateUser(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	id, err := orgParam(c)
	if err != nil {
		return err
	}
	_, err = h.organizations.CreateUser(c.Request.Context(), models.NewUser{OrganizationID: id, Email: c.PostForm("email"),
		FirstName: c.PostForm("firstName"), LastName: c.PostForm("lastName"), Admin: c.PostForm("admin") == "true", Password: c.PostForm("password")})
	var ve *models.ValidationError
	if errors.As(err, &ve) {
		return h.renderOrganization(c, http.StatusUnprocessableEntity, admin.OrganizationView{UserError: firstProblem(ve)})
	}
	if err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.AdminOrganization.Path(strconv.FormatInt(id, 10)))
	return nil
}

// adminDisableUser disables a user: POST /admin/organizations/:id/users/:userId/disable.
func (h *adminHandler) adminDisableUser(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	id, err := orgParam(c)
	if err != nil {
		return err
	}
	uid, err := strconv.ParseInt(c.Param("userId"), 10, 64)
	if err != nil {
		return models.ErrNotFound
	}
	if uid == adminFrom(c).ID {
		return errStatus(http.StatusUnprocessableEntity, "admin.org.users.disable_self")
	}
	if err := h.organizations.DisableUser(c.Request.Context(), id, uid); err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.AdminOrganization.Path(strconv.FormatInt(id, 10)))
	return nil
}

// adminCreateToken issues an API token and shows it this once: POST /admin/organizations/:id/tokens.
func (h *adminHandler) adminCreateToken(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	id, err := orgParam(c)
	if err != nil {
		return err
	}
	tok, plaintext, err := h.organizations.CreateAPIToken(c.Request.Context(), id, c.PostForm("name"))
	var ve *models.ValidationError
	if errors.As(err, &ve) {
		return h.renderOrganization(c, http.StatusUnprocessableEntity, admin.OrganizationView{TokenError: firstProblem(ve)})
	}
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	return h.renderOrganization(c, http.StatusCreated, admin.OrganizationView{NewToken: plaintext, NewTokenName: tok.Name})
}

// adminRevokeToken revokes a token: POST /admin/organizations/:id/tokens/:tokenId/revoke.
func (h *adminHandler) adminRevokeToken(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	id, err := orgParam(c)
	if err != nil {
		return err
	}
	tid, err := strconv.ParseInt(c.Param("tokenId"), 10, 64)
	if err != nil {
		return models.ErrNotFound
	}
	if err := h.organizations.RevokeOrganizationToken(c.Request.Context(), id, tid); err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.AdminOrganization.Path(strconv.FormatInt(id, 10)))
	return nil
}

// adminSetEmbedOrigins replaces the origins allowed to frame the
// organization's rooms: POST /admin/organizations/:id/embed-origins with
// "origins", one a line (commas and spaces separate too). A refused list
// shows the page again with its text and one message per bad origin (422).
func (h *adminHandler) adminSetEmbedOrigins(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	id, err := orgParam(c)
	if err != nil {
		return err
	}
	text := c.PostForm("origins")
	_, err = h.organizations.SetOrganizationEmbedOrigins(c.Request.Context(), id, models.SplitEmbedOrigins(text))
	var ve *models.ValidationError
	if errors.As(err, &ve) {
		v := admin.OrganizationView{EmbedOrigins: text}
		for _, fe := range ve.Errors {
			v.EmbedErrors = append(v.EmbedErrors, messageWords(fe.Message))
		}
		return h.renderOrganization(c, http.StatusUnprocessableEntity, v)
	}
	if err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.AdminOrganization.Path(strconv.FormatInt(id, 10))+"?embed=saved#org-embed-title")
	return nil
}
