package handlers

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"
)

// An embedded room (one created with embed.origin) is framed by its
// caller's page on another site, where browsers withhold or partition the
// room's session cookie. Its page therefore carries the session itself:
// the value of the signed, encrypted session cookie, sent back as the
// X-Room-Session header (htmx, web/src/editor/server.mjs) or, for the
// addresses the browser loads itself (the room page, its PDFs, the
// completion form), as the room_session query parameter. See
// docs/decisions.md, "Embedded rooms".

// roomSessionHeader and roomSessionQuery carry an embedded room's session.
const (
	roomSessionHeader = "X-Room-Session"
	roomSessionQuery  = "room_session"
	// maxRoomSessionBytes bounds a carried session (a cookie is at most 4 KiB).
	maxRoomSessionBytes = 4096
	// carriedSessionKey is the gin context key of the carried session.
	carriedSessionKey = "markuproom.roomSession"
)

// carryRoomSession puts a session carried by the X-Room-Session header (or
// the room_session query parameter, addressCarriesSession) in place of the request's room session
// cookie, before the session middleware reads it: the carried one is what
// the page was rendered with. It is decoded and checked (signature, age)
// exactly as the cookie is.
func carryRoomSession() gin.HandlerFunc {
	return func(c *gin.Context) {
		v := c.GetHeader(roomSessionHeader)
		if v == "" && addressCarriesSession(c.Request) {
			v = c.Query(roomSessionQuery)
		}
		if v != "" && len(v) <= maxRoomSessionBytes && cookieValueOK(v) {
			r := c.Request
			kept := r.Cookies()
			r.Header.Del("Cookie")
			for _, ck := range kept {
				if ck.Name != roomSessionName {
					r.AddCookie(ck)
				}
			}
			r.AddCookie(&http.Cookie{Name: roomSessionName, Value: v})
			c.Set(carriedSessionKey, v)
		}
		c.Next()
	}
}

// addressCarriesSession tells whether a request may carry an embedded
// room's session in its address: only one the browser makes itself — a GET
// (the room page, its PDFs, its event stream) or the completion form, which
// navigates. Every other change is sent by the page's scripts, with the
// X-Room-Session header, so a session in the address of a change is ignored.
func addressCarriesSession(r *http.Request) bool {
	return r.Method == http.MethodGet || r.Method == http.MethodHead || strings.HasSuffix(r.URL.Path, "/complete")
}

// cookieValueOK tells whether v can be a cookie's value as the session
// store writes it (base64 with its separators).
func cookieValueOK(v string) bool {
	for i := 0; i < len(v); i++ {
		b := v[i]
		if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || strings.IndexByte("-_=.|+/", b) >= 0) {
			return false
		}
	}
	return true
}

// carriedSession is the session this request carried in the header or the
// query ("" when it came in a cookie, or not at all).
func carriedSession(c *gin.Context) string {
	return c.GetString(carriedSessionKey)
}

// takeSavedSession is the room session this response saves, else the one
// the request carried. The Set-Cookie goes: the session travels with the
// page, and a framed page's cookie would only be refused (or kept apart
// from the page's other requests) by the browser.
func takeSavedSession(c *gin.Context) string {
	h := c.Writer.Header()
	value := carriedSession(c)
	var kept []string
	for _, line := range h.Values("Set-Cookie") {
		if ck, err := http.ParseSetCookie(line); err == nil && ck.Name == roomSessionName {
			value = ck.Value
			continue
		}
		kept = append(kept, line)
	}
	h.Del("Set-Cookie")
	for _, line := range kept {
		h.Add("Set-Cookie", line)
	}
	return value
}

// withSession adds the session to an address the browser loads itself, so
// that an embedded room's page, PDFs and forms reach the server with it.
func withSession(path, session string, extra ...string) string {
	q := url.Values{}
	if session != "" {
		q.Set(roomSessionQuery, session)
	}
	for i := 0; i+1 < len(extra); i += 2 {
		q.Set(extra[i], extra[i+1])
	}
	if len(q) == 0 {
		return path
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + q.Encode()
}

// embedHeaders lets origin (and only it) frame this response: the
// Content-Security-Policy's frame-ancestors names it instead of 'none', and
// X-Frame-Options (which can only deny or allow the same origin) goes.
// Rooms without an embed origin keep the default headers.
func embedHeaders(c *gin.Context, origin string) {
	if origin == "" {
		return
	}
	h := c.Writer.Header()
	h.Del("X-Frame-Options")
	h.Set("Content-Security-Policy", strings.Replace(contentSecurityPolicy, "frame-ancestors 'none'", "frame-ancestors "+origin, 1))
}
