package handlers

import (
	"errors"
	"net/http"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// adminSessionName is the admin console's cookie, separate from room sessions.
const adminSessionName = "markuproom_admin"

// ctxAdmin holds the signed-in admin of a console request.
const ctxAdmin = "markuproom.admin"

// Keys of the admin session.
const (
	adminUserKey   = "uid"
	adminLoginKey  = "login" // unix seconds of the sign-in
	adminSeenKey   = "seen"  // unix seconds of the last request
	adminLockedKey = "denied"
)

// newAdminSessionStore makes the signed, encrypted cookie store of admin
// sessions, with its own keys (a room cookie can never pass for it).
func newAdminSessionStore(secret []byte, secure bool, maxAge time.Duration) sessions.Store {
	return newSessionStore(deriveKey(secret, "markuproom/admin"), secure, maxAge)
}

// loadAdmin finds the signed-in admin of a console request: nobody when the
// session is missing, idle past the timeout or older than the maximum age
// (the session is then cleared); the user again from the database each time,
// so a disabled admin or a revoked flag takes effect at once.
func (h *Handler) loadAdmin() gin.HandlerFunc {
	return func(c *gin.Context) {
		s := sessions.Default(c)
		uid, _ := s.Get(adminUserKey).(int64)
		if uid != 0 {
			now := h.store.Now().Unix()
			login, _ := s.Get(adminLoginKey).(int64)
			seen, _ := s.Get(adminSeenKey).(int64)
			if now-seen >= int64(h.cfg.AdminIdleTimeout.Seconds()) || now-login >= int64(h.cfg.AdminMaxAge.Seconds()) {
				endAdminSession(c)
			} else if u, err := h.store.ActiveAdmin(c.Request.Context(), uid); err == nil {
				c.Set(ctxAdmin, u)
				s.Set(adminSeenKey, now)
				_ = s.Save()
			} else if errors.Is(err, models.ErrForbidden) {
				c.Set(adminLockedKey, true)
			} else if errors.Is(err, models.ErrNotFound) {
				endAdminSession(c)
			} else {
				respondError(c, err)
				return
			}
		}
		c.Next()
	}
}

// requireAdmin lets only a signed-in admin through: pages send anybody else
// to the sign-in page, actions answer 401; a signed-in user who is no longer
// an admin (or was disabled) gets 403.
func requireAdmin(c *gin.Context) {
	if _, ok := c.Get(ctxAdmin); ok {
		c.Next()
		return
	}
	if c.GetBool(adminLockedKey) {
		respondError(c, errStatus(http.StatusForbidden, "This account may not use the admin console."))
		return
	}
	if c.Request.Method == http.MethodGet || c.Request.Method == http.MethodHead {
		c.Redirect(http.StatusSeeOther, "/admin/login")
		c.Abort()
		return
	}
	respondError(c, errStatus(http.StatusUnauthorized, "Sign in to the admin console first."))
}

// adminFrom is the signed-in admin (set by requireAdmin's chain).
func adminFrom(c *gin.Context) *models.User {
	u, _ := c.Get(ctxAdmin)
	admin, _ := u.(*models.User)
	return admin
}

// startAdminSession signs a user in: a fresh session (new CSRF token) that
// remembers when it started.
func (h *Handler) startAdminSession(c *gin.Context, u *models.User) error {
	s := sessions.Default(c)
	s.Clear()
	now := h.store.Now().Unix()
	s.Set(adminUserKey, u.ID)
	s.Set(adminLoginKey, now)
	s.Set(adminSeenKey, now)
	s.Set("csrf", newRequestID()+newRequestID())
	return s.Save()
}

// endAdminSession forgets the signed-in admin.
func endAdminSession(c *gin.Context) {
	s := sessions.Default(c)
	s.Clear()
	_ = s.Save()
}
