package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
)

// adminSessionName is the admin console's cookie, separate from room sessions.
const adminSessionName = "markuproom_admin"

// ctxAdmin holds the signed-in admin of a console request.
const ctxAdmin = "markuproom.admin"

// Keys of the admin session cookie: it names a server-side session record
// (models.AdminSession) and carries the console's CSRF token.
const (
	adminSessionKey = "sid"
	adminLockedKey  = "denied"
)

// newAdminSessionStore makes the signed, encrypted cookie store of admin
// sessions, with its own keys (a room cookie can never pass for it).
func newAdminSessionStore(secret []byte, secure bool, maxAge time.Duration) sessions.Store {
	return newSessionStore(deriveKey(secret, "markuproom/admin"), secure, maxAge)
}

// loadAdmin finds the signed-in admin of a console request from the session
// record its cookie names, checked in the database on every request: nobody
// when there is none, or it ended (sign-out, "Sign out everywhere", a
// disabled user, on any instance), or it was idle past the timeout or is
// older than the maximum age (the cookie is then cleared); the user is read
// again each time, so a revoked admin flag takes effect at once.
func (h *adminHandler) loadAdmin() gin.HandlerFunc {
	return func(c *gin.Context) {
		s := sessions.Default(c)
		if sid, _ := s.Get(adminSessionKey).(string); sid != "" {
			limits := models.AdminSessionLimits{Idle: h.cfg.AdminIdleTimeout, MaxAge: h.cfg.AdminMaxAge}
			u, err := h.auth.AdminSessionUser(c.Request.Context(), sid, limits)
			switch {
			case err == nil:
				c.Set(ctxAdmin, u)
			case errors.Is(err, models.ErrForbidden):
				c.Set(adminLockedKey, true)
			case errors.Is(err, models.ErrNotFound):
				clearAdminCookie(c)
			default:
				respondError(c, err)
				return
			}
		}
		c.Next()
	}
}

// requireAdmin lets only a signed-in admin through: pages send anybody else
// to the sign-in page, actions answer 401; a signed-in user who is no longer
// an admin gets 403.
func requireAdmin(c *gin.Context) {
	if _, ok := c.Get(ctxAdmin); ok {
		// The store records the admin's changes in the activity log, each in
		// the change's own database transaction.
		u := adminFrom(c)
		ctx := models.WithAdminActor(c.Request.Context(),
			models.AdminActor{UserID: u.ID, OrganizationID: u.OrganizationID, Email: u.Email, ClientAddr: c.ClientIP()})
		c.Request = c.Request.WithContext(models.WithAuditActor(ctx, models.AuditActor{
			Kind: models.AuditActorAdmin, ID: strconv.FormatInt(u.ID, 10), Name: u.Email, Via: "console", Address: c.ClientIP(),
		}))
		c.Next()
		return
	}
	if c.GetBool(adminLockedKey) {
		respondError(c, errStatus(http.StatusForbidden, "admin.login.forbidden"))
		return
	}
	if c.Request.Method == http.MethodGet || c.Request.Method == http.MethodHead {
		rememberAdminPage(c)
		c.Redirect(http.StatusSeeOther, route.AdminLogin.Path())
		c.Abort()
		return
	}
	respondError(c, errStatus(http.StatusUnauthorized, "admin.login.required"))
}

// adminFrom is the signed-in admin (set by requireAdmin's chain).
func adminFrom(c *gin.Context) *models.User {
	u, _ := c.Get(ctxAdmin)
	admin, _ := u.(*models.User)
	return admin
}

// startAdminSession signs a user in: a new session record, named by a fresh
// cookie (new CSRF token); a session this browser still had ends.
func (h *adminHandler) startAdminSession(c *gin.Context, u *models.User) error {
	s := sessions.Default(c)
	if old, _ := s.Get(adminSessionKey).(string); old != "" {
		if err := h.auth.EndAdminSession(c.Request.Context(), old); err != nil {
			return err
		}
	}
	sid, err := h.auth.StartAdminSession(c.Request.Context(), u.ID, c.ClientIP())
	if err != nil {
		return err
	}
	s.Clear()
	s.Set(adminSessionKey, sid)
	s.Set("csrf", newRequestID()+newRequestID())
	return s.Save()
}

// endAdminSession signs this browser out: its session record ends (so every
// copy of the cookie stops working, recorded in the activity log) and the
// cookie is cleared.
func (h *adminHandler) endAdminSession(c *gin.Context) error {
	sid, _ := sessions.Default(c).Get(adminSessionKey).(string)
	if err := h.auth.SignOutAdmin(c.Request.Context(), sid); err != nil {
		return err
	}
	clearAdminCookie(c)
	return nil
}

// clearAdminCookie forgets the session in this browser.
func clearAdminCookie(c *gin.Context) {
	s := sessions.Default(c)
	s.Clear()
	_ = s.Save()
}

// adminNextKey is the session key of the console page a signed-out browser
// asked for: signing in goes there (adminLanding).
const adminNextKey = "admin_next"

// maxAdminNext bounds the remembered address (a longer one is not kept).
const maxAdminNext = 2048

// rememberAdminPage keeps the console page just asked for in the browser's
// session, so that signing in lands on it and not on the transactions.
// The address stays out of the sign-in page's URL (an open redirect needs
// none, and a link to the sign-in page stays one address).
func rememberAdminPage(c *gin.Context) {
	next := c.Request.URL.RequestURI()
	if !isAdminPage(next) {
		return
	}
	s := sessions.Default(c)
	s.Set(adminNextKey, next)
	_ = s.Save() // without it the sign-in lands on the transactions, as before
}

// adminLanding is where a signed-in admin goes: the page remembered by
// rememberAdminPage (taken out of the session, which the caller saves),
// else the transactions.
func adminLanding(c *gin.Context) string {
	s := sessions.Default(c)
	next, _ := s.Get(adminNextKey).(string)
	if next == "" {
		return route.AdminTransactions.Path()
	}
	s.Delete(adminNextKey)
	if !isAdminPage(next) {
		return route.AdminTransactions.Path()
	}
	return next
}

// isAdminPage tells whether next is a console page of this site to land
// on: a path under /admin (not the sign-in page), no scheme, host,
// backslash or dot segment, at most maxAdminNext bytes.
func isAdminPage(next string) bool {
	if len(next) > maxAdminNext || strings.ContainsAny(next, "\\\r\n") || strings.HasPrefix(next, "//") {
		return false
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return false
	}
	if clean := path.Clean(u.Path); clean != strings.TrimSuffix(u.Path, "/") && clean != u.Path {
		return false // dot segments ("/admin/../x") would land outside the console
	}
	admin := route.Admin.Path()
	return (u.Path == admin || strings.HasPrefix(u.Path, admin+"/")) && u.Path != route.AdminLogin.Path()
}
