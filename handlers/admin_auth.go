package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/templates/admin"
)

// AdminStore is what the admin console asks of the domain layer.
type AdminStore interface {
	AdminSignIn(ctx context.Context, email, password, clientAddr string) (*models.User, error)
	ActiveAdmin(ctx context.Context, userID int64) (*models.User, error)
	StartAdminSession(ctx context.Context, userID int64, clientAddr string) (string, error)
	AdminSessionUser(ctx context.Context, id string, limits models.AdminSessionLimits) (*models.User, error)
	EndAdminSession(ctx context.Context, id string) error
	SignOutAdmin(ctx context.Context, id string) error
	SignOutEverywhere(ctx context.Context, userID int64) (int64, error)
	AdminListTransactions(ctx context.Context, f models.AdminTransactionFilter) (*models.AdminTransactionPage, error)
	OrganizationNames(ctx context.Context) ([]models.Organization, error)
	AdminGetTransaction(ctx context.Context, id string) (*models.AdminTransaction, error)
	AdminListRooms(ctx context.Context, after string) ([]models.AdminRoomRow, bool, error)
	ExpireRoom(ctx context.Context, id string) error
	ListActivity(ctx context.Context, limit int, before int64) ([]models.Activity, error)
	AdminListOrganizations(ctx context.Context) ([]models.AdminOrganizationRow, error)
	CreateOrganization(ctx context.Context, name string, apiEnabled bool) (*models.Organization, error)
	GetOrganization(ctx context.Context, id int64) (*models.Organization, error)
	SetOrganizationAPIEnabled(ctx context.Context, id int64, enabled bool) error
	OrganizationUsers(ctx context.Context, orgID int64) ([]models.User, error)
	OrganizationTokens(ctx context.Context, orgID int64) ([]models.APIToken, error)
	CreateUser(ctx context.Context, in models.NewUser) (*models.User, error)
	DisableUser(ctx context.Context, orgID, userID int64) error
	CreateAPIToken(ctx context.Context, orgID int64, name string) (*models.APIToken, string, error)
	RevokeOrganizationToken(ctx context.Context, orgID, tokenID int64) error
	ListMessages(ctx context.Context, f models.MessageFilter) ([]models.OutboxMessage, error)
	CountMessages(ctx context.Context) (map[models.MessageStatus]int64, error)
	RetryMessage(ctx context.Context, id string) (*models.OutboxMessage, error)
}

// badSignIn is the one message of every refused sign-in.
const badSignIn = "The e-mail or the password is not right, or this account may not use the admin console."

// adminLoginPage shows the sign-in form (an admin already signed in goes on).
func (h *Handler) adminLoginPage(c *gin.Context) error {
	if adminFrom(c) != nil {
		c.Redirect(http.StatusSeeOther, "/admin/transactions")
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
func (h *Handler) adminLogin(c *gin.Context) error {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxFormBytes)
	if err := checkCSRF(c); err != nil {
		return err
	}
	email, password := c.PostForm("email"), c.PostForm("password")
	if len(email) > 320 || len(password) > models.MaxPasswordLength {
		h.renderAdminLogin(c, http.StatusUnauthorized, admin.LoginView{Error: badSignIn})
		return nil
	}
	u, err := h.store.AdminSignIn(c.Request.Context(), email, password, c.ClientIP())
	var locked *models.LockedOutError
	switch {
	case errors.As(err, &locked):
		c.Header("Retry-After", strconv.Itoa(int(locked.RetryAfter.Seconds())+1))
		h.renderAdminLogin(c, http.StatusTooManyRequests, admin.LoginView{Email: email, Locked: true,
			Error: "Too many failed sign-ins. Sign-in is paused for this account or this network for up to 15 minutes; try again later."})
		return nil
	case errors.Is(err, models.ErrBadCredentials):
		h.renderAdminLogin(c, http.StatusUnauthorized, admin.LoginView{Email: email, Error: badSignIn})
		return nil
	case err != nil:
		return err
	}
	if err := h.startAdminSession(c, u); err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, "/admin/transactions")
	return nil
}

// adminLogout signs the admin out: POST /admin/logout.
func (h *Handler) adminLogout(c *gin.Context) error {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxFormBytes)
	if err := checkCSRF(c); err != nil {
		return err
	}
	if err := h.endAdminSession(c); err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, "/admin/login")
	return nil
}

// adminRevokeAllSessions signs the admin out everywhere: POST
// /admin/sessions/revoke-all ends every session record of the signed-in
// admin (this one too, on every instance, as they live in the database),
// recorded in the activity log with how many there were.
func (h *Handler) adminRevokeAllSessions(c *gin.Context) error {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxFormBytes)
	if err := checkCSRF(c); err != nil {
		return err
	}
	if _, err := h.store.SignOutEverywhere(c.Request.Context(), adminFrom(c).ID); err != nil {
		return err
	}
	clearAdminCookie(c)
	c.Redirect(http.StatusSeeOther, "/admin/login")
	return nil
}

func (h *Handler) renderAdminLogin(c *gin.Context, status int, v admin.LoginView) {
	c.Header("Cache-Control", "no-store")
	p := h.page(c, "Sign in")
	p.CSRFToken = csrfToken(c)
	render(c, status, admin.LoginPage(p, v))
}

// adminPage is the view model every console page shares: navigation, the
// CSRF token, "Sign out".
func (h *Handler) adminPage(c *gin.Context, title, current string) templates.Page {
	c.Header("Cache-Control", "no-store")
	p := h.page(c, title)
	p.CSRFToken = csrfToken(c)
	p.SignOutURL = "/admin/logout"
	p.SignOutEverywhereURL = "/admin/sessions/revoke-all"
	for _, l := range []struct{ label, href string }{
		{"Transactions", "/admin/transactions"}, {"Markup Rooms", "/admin/rooms"},
		{"Organizations", "/admin/organizations"}, {"Outgoing messages", "/admin/outbox"}, {"Activity", "/admin/activity"},
	} {
		p.Nav = append(p.Nav, templates.NavLink{Label: l.label, Href: l.href, Current: l.href == current})
	}
	return p
}
