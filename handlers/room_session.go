package handlers

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-contrib/sessions/cookie"
	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// roomSessionName is the cookie that binds a browser to the rooms it opened.
const roomSessionName = "markuproom_room"

// maxRoomsPerSession bounds the cookie: the oldest bindings give way.
const maxRoomsPerSession = 8

// csrfField is the form field and csrfHeader the header that carry the CSRF token.
const (
	csrfField  = "csrf"
	csrfHeader = "X-CSRF-Token"
)

// newSessionStore makes the signed and encrypted cookie store of browser sessions.
func newSessionStore(secret []byte, secure bool, maxAge time.Duration) sessions.Store {
	store := cookie.NewStore(deriveKey(secret, "markuproom/session/hash"), deriveKey(secret, "markuproom/session/block"))
	store.Options(sessions.Options{
		Path:     "/",
		MaxAge:   int(maxAge.Seconds()),
		HttpOnly: true,
		Secure:   secure,
		SameSite: http.SameSiteLaxMode,
	})
	return store
}

// deriveKey makes a 32-byte key for one purpose from the session secret.
func deriveKey(secret []byte, purpose string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}

// roomBindings are the rooms a browser opened, kept in its session as
// "id|unixExpiry" or "id|unixExpiry|locale" entries separated by commas,
// oldest first. The room's own language rides along (it never changes), so
// no room request reads it again.
type roomBindings []roomBinding

type roomBinding struct {
	id     string
	exp    int64
	locale string
}

func loadBindings(s sessions.Session) roomBindings {
	raw, _ := s.Get("rooms").(string)
	var out roomBindings
	for _, entry := range strings.Split(raw, ",") {
		id, rest, ok := strings.Cut(entry, "|")
		exp, locale, _ := strings.Cut(rest, "|")
		n, err := strconv.ParseInt(exp, 10, 64)
		if ok && id != "" && err == nil {
			out = append(out, roomBinding{id: id, exp: n, locale: locale})
		}
	}
	return out
}

func (b roomBindings) String() string {
	parts := make([]string, len(b))
	for i, e := range b {
		parts[i] = e.id + "|" + strconv.FormatInt(e.exp, 10)
		if e.locale != "" {
			parts[i] += "|" + e.locale
		}
	}
	return strings.Join(parts, ",")
}

// bindRoom records in the browser session that this browser opened room r.
func bindRoom(c *gin.Context, r *models.Room, now time.Time) error {
	s := sessions.Default(c)
	kept := roomBindings{}
	for _, b := range loadBindings(s) {
		if b.id != r.ID && b.exp > now.Unix() {
			kept = append(kept, b)
		}
	}
	if len(kept) >= maxRoomsPerSession {
		kept = kept[len(kept)-maxRoomsPerSession+1:]
	}
	b := roomBinding{id: r.ID, exp: r.ExpiresAt.Unix()}
	if r.Locale != nil {
		b.locale = *r.Locale
	}
	kept = append(kept, b)
	s.Set("rooms", kept.String())
	ensureCSRFToken(s)
	ensureRateSessionID(s)
	return s.Save()
}

// roomBound tells whether this browser's session was bound to the room by
// its link (bound), and whether that binding ran out with the room (expired).
func roomBound(c *gin.Context, roomID string, now time.Time) (bound, expired bool) {
	for _, b := range loadBindings(sessions.Default(c)) {
		if b.id == roomID {
			if now.Unix() < b.exp {
				return true, false
			}
			expired = true
		}
	}
	return false, expired
}

// boundRoomLocale is the own language of a room this browser opened ("" for
// none), as its binding recorded it.
func boundRoomLocale(c *gin.Context, roomID string) string {
	for _, b := range loadBindings(sessions.Default(c)) {
		if b.id == roomID {
			return b.locale
		}
	}
	return ""
}

// ensureCSRFToken returns the session's CSRF secret, creating one if
// needed. The admin console's forms carry it as is; room pages carry a
// token derived from it per room (roomCSRFToken).
func ensureCSRFToken(s sessions.Session) string {
	if t, ok := s.Get("csrf").(string); ok && t != "" {
		return t
	}
	t := newRequestID() + newRequestID()
	s.Set("csrf", t)
	return t
}

// csrfToken returns the token console pages embed in their forms.
func csrfToken(c *gin.Context) string {
	t, _ := sessions.Default(c).Get("csrf").(string)
	return t
}

// roomCSRFToken is the CSRF token of one room bound to this browser session:
// an HMAC of the room id under the session's secret, which never leaves the
// encrypted cookie. A token learned for one room (say from a session cookie
// an attacker planted, then used to open a room of their own) is useless for
// any other room the session opens later, and every room open in the
// browser keeps its own token valid.
func roomCSRFToken(c *gin.Context, roomID string) string {
	secret := csrfToken(c)
	if secret == "" || roomID == "" {
		return ""
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("markuproom/room-csrf\x00" + roomID))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// csrfFromRequest is the token a state-changing request carries: the
// X-CSRF-Token header, else the form field.
func csrfFromRequest(c *gin.Context) string {
	if got := c.GetHeader(csrfHeader); got != "" {
		return got
	}
	return c.PostForm(csrfField)
}

// checkCSRF refuses a state-changing console request without the session's token.
func checkCSRF(c *gin.Context) error {
	return verifyCSRF(csrfToken(c), csrfFromRequest(c))
}

// checkRoomCSRF refuses a state-changing request on a room without that
// room's token.
func checkRoomCSRF(c *gin.Context, roomID string) error {
	return verifyCSRF(roomCSRFToken(c, roomID), csrfFromRequest(c))
}

// verifyCSRF refuses a token got that is not want.
func verifyCSRF(want, got string) error {
	if want == "" || subtle.ConstantTimeCompare([]byte(want), []byte(got)) != 1 {
		return errStatus(http.StatusForbidden, "error.form_expired")
	}
	return nil
}
