package handlers

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
)

// Shared room-route helpers: the room's response headers, finding the room
// this browser opened, and starting a state-changing room request.

// maxFormBytes bounds a room form post (a participant is a few hundred bytes).
const maxFormBytes = 64 << 10

// roomHeaders keep room pages out of caches and referrers.
func roomHeaders(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	c.Header("Referrer-Policy", "no-referrer")
}

// boundRoomID returns the addressed room's id if this browser opened its link.
func (h *roomHandler) boundRoomID(c *gin.Context) (string, error) {
	roomHeaders(c)
	id := c.Param("id")
	bound, expired := roomBound(c, id, h.clock.Now())
	if expired {
		return "", models.ErrRoomExpired
	}
	if !bound {
		return "", errStatus(http.StatusForbidden, "error.room_not_opened")
	}
	// Every room request (pages and htmx fragments alike) passes here, so
	// all of them speak the room's language (docs/i18n.md).
	useRoomLocale(c, boundRoomLocale(c, id))
	return id, nil
}

// roomFor loads the room this request addresses, if this browser opened its link.
func (h *roomHandler) roomFor(c *gin.Context) (*models.RoomWorkspace, error) {
	id, err := h.boundRoomID(c)
	if err != nil {
		return nil, err
	}
	ws, err := h.rooms.RoomWorkspace(c.Request.Context(), id)
	if err != nil {
		return nil, err
	}
	if ws.Room.Status(h.clock.Now()) == models.RoomExpired {
		return nil, models.ErrRoomExpired
	}
	return ws, nil
}

// roomPost starts a state-changing room request: this browser opened the
// room, the body is bounded and the CSRF token is this room's.
func (h *roomHandler) roomPost(c *gin.Context) (string, error) {
	return h.roomPostWithin(c, maxFormBytes)
}

// roomPostWithin is roomPost with a body limit of its own (a route that
// takes more than a form, such as a batch of tag edits).
func (h *roomHandler) roomPostWithin(c *gin.Context, limit int64) (string, error) {
	id, err := h.boundRoomID(c)
	if err != nil {
		return "", err
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
	if err := checkRoomCSRF(c, id); err != nil {
		return "", err
	}
	withRoomActor(c, id)
	return id, nil
}

// withRoomActor names this browser session as the actor of the request's
// changes to room id: the history by the session's short id and address,
// the audit trail by the room (the store names its sender, as the history
// does).
func withRoomActor(c *gin.Context, id string) {
	short := models.ShortSessionID(rateSessionID(sessions.Default(c)))
	ctx := models.WithRoomVisitor(c.Request.Context(), models.RoomVisitor{Session: short, ClientAddr: c.ClientIP(),
		Client: roomClientID(c)})
	c.Request = c.Request.WithContext(models.WithAuditActor(ctx, models.AuditActor{
		Kind: models.AuditActorRoom, ID: id, Name: "Markup Room · session " + short, Via: "room", Address: c.ClientIP(),
	}))
}

// roomDocumentPost is roomPost for a route about one document of the room
// (/rooms/:id/documents/:position/…): the room id and the position, which
// must be a number (else 404).
func (h *roomHandler) roomDocumentPost(c *gin.Context) (string, int, error) {
	id, err := h.roomPost(c)
	if err != nil {
		return "", 0, err
	}
	pos, err := strconv.Atoi(c.Param("position"))
	if err != nil {
		return "", 0, models.ErrNotFound
	}
	return id, pos, nil
}

// roomChange runs one room edit posted by a form: CSRF check, change (which
// checks the room's state and flags itself), then back to the room (303), or
// the room again with the form's errors.
func (h *roomHandler) roomChange(c *gin.Context, change func(roomID string) (*templates.ParticipantFormView, error)) error {
	id, err := h.roomPost(c)
	if err != nil {
		return err
	}
	form, err := change(id)
	var ve *models.ValidationError
	if errors.As(err, &ve) && form != nil {
		form.Errors = fieldErrors(c.Request.Context(), ve)
		ws, err := h.rooms.RoomWorkspace(c.Request.Context(), id)
		if err != nil {
			return err
		}
		// The current state with the refused form open again.
		h.renderRoom(c, http.StatusUnprocessableEntity, ws, form)
		return nil
	}
	if err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.Room.Path(id))
	return nil
}

// roomFormAddress answers a GET of an address a room form posts to (a page
// reloaded after a refused form without JavaScript): back to the room (303),
// not 405.
func (h *roomHandler) roomFormAddress(c *gin.Context) error {
	id, err := h.boundRoomID(c)
	if err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.Room.Path(id))
	return nil
}

// roomClientHeader carries the id the editor's page makes for itself (a
// random one per page load): the room's events name it, so a page skips
// its own changes and not another tab's of the same session.
const roomClientHeader = "X-Room-Client"

// roomClientID is the request's page id, "" when absent or not 1 to 32
// letters, digits and dashes.
func roomClientID(c *gin.Context) string {
	v := c.GetHeader(roomClientHeader)
	if len(v) == 0 || len(v) > 32 {
		return ""
	}
	for i := 0; i < len(v); i++ {
		b := v[i]
		if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-') {
			return ""
		}
	}
	return v
}
