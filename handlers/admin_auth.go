package handlers

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/passwordhash"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// badSignIn is the id of the one message of every refused sign-in.
const badSignIn = "admin.login.bad"

// adminLoginPage shows the sign-in form (an admin already signed in goes on).
func (h *adminHandler) adminLoginPage(c *gin.Context) error {
	if adminFrom(c) != nil {
		landing := adminLanding(c)
		if err := sessions.Default(c).Save(); err != nil {
			return err
		}
		c.Redirect(http.StatusSeeOther, landing)
		return nil
	}
	s := sessions.Default(c)
	ensureCSRFToken(s)
	if err := s.Save(); err != nil {
		return err
	}
	h.renderAdminLogin(c, http.StatusOK, admin.LoginView{})
	return nil
}

// adminLogin signs an admin in: POST /admin/login with email and password.
func (h *adminHandler) adminLogin(c *gin.Context) error {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxFormBytes)
	if err := checkCSRF(c); err != nil {
		return err
	}
	email, password := c.PostForm("email"), c.PostForm("password")
	if len(email) > 320 || len(password) > passwordhash.MaxPasswordLength {
		h.renderAdminLogin(c, http.StatusUnauthorized, admin.LoginView{Error: i18n.Msg(badSignIn)})
		return nil
	}
	u, err := h.auth.AdminSignIn(c.Request.Context(), email, password, c.ClientIP())
	var locked *models.LockedOutError
	switch {
	case errors.As(err, &locked):
		c.Header("Retry-After", strconv.Itoa(int(locked.RetryAfter.Seconds())+1))
		h.renderAdminLogin(c, http.StatusTooManyRequests, admin.LoginView{Email: email, Locked: true,
			Error: i18n.Msg("admin.login.locked")})
		return nil
	case errors.Is(err, models.ErrBadCredentials):
		h.renderAdminLogin(c, http.StatusUnauthorized, admin.LoginView{Email: email, Error: i18n.Msg(badSignIn)})
		return nil
	case err != nil:
		return err
	}
	landing := adminLanding(c) // read before the new session clears the old one
	if err := h.startAdminSession(c, u); err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, landing)
	return nil
}

// adminLogout signs the admin out: POST /admin/logout.
func (h *adminHandler) adminLogout(c *gin.Context) error {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxFormBytes)
	if err := checkCSRF(c); err != nil {
		return err
	}
	if err := h.endAdminSession(c); err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.AdminLogin.Path())
	return nil
}

// adminRevokeAllSessions signs the admin out everywhere: POST
// /admin/sessions/revoke-all ends every session record of the signed-in
// admin (this one too, on every instance, as they live in the database),
// recorded in the activity log with how many there were.
func (h *adminHandler) adminRevokeAllSessions(c *gin.Context) error {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxFormBytes)
	if err := checkCSRF(c); err != nil {
		return err
	}
	if _, err := h.auth.SignOutEverywhere(c.Request.Context(), adminFrom(c).ID); err != nil {
		return err
	}
	clearAdminCookie(c)
	c.Redirect(http.StatusSeeOther, route.AdminLogin.Path())
	return nil
}

func (h *adminHandler) renderAdminLogin(c *gin.Context, status int, v admin.LoginView) {
	v.Action = route.AdminLogin.Path()
	c.Header("Cache-Control", "no-store")
	p := h.page(c, i18n.Msg("admin.login.page_title"))
	p.CSRFToken = csrfToken(c)
	render(c, status, admin.LoginPage(p, v))
}

// adminPage is the view model every console page shares: navigation, the
// CSRF token, "Sign out".
func (h *adminHandler) adminPage(c *gin.Context, title i18n.Words, current string) templates.Page {
	c.Header("Cache-Control", "no-store")
	p := h.page(c, title)
	p.CSRFToken = csrfToken(c)
	p.SignOutURL = route.AdminLogout.Path()
	p.SignOutEverywhereURL = route.AdminRevokeSessions.Path()
	for _, l := range []struct{ id, href string }{
		{"admin.nav.overview", route.Admin.Path()}, {"admin.nav.transactions", route.AdminTransactions.Path()}, {"admin.nav.templates", route.AdminTemplates.Path()},
		{"admin.nav.rooms", route.AdminRooms.Path()}, {"admin.nav.organizations", route.AdminOrganizations.Path()}, {"admin.nav.outbox", route.AdminOutbox.Path()},
		{"admin.nav.activity", route.AdminActivity.Path()}, {"admin.nav.audit", route.AdminAudit.Path()},
	} {
		p.Nav = append(p.Nav, templates.NavLink{Label: i18n.Msg(l.id), Href: l.href, Current: l.href == current})
	}
	return p
}
