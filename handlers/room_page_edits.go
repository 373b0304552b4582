package handlers

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// deleteRoomPage removes a page of a room document:
// POST /rooms/:id/documents/:position/pages/:page/delete.
func (h *Handler) deleteRoomPage(c *gin.Context) error {
	return h.roomPageEdit(c, func(roomID string, pos, page int) error {
		return h.store.DeleteRoomPage(c.Request.Context(), roomID, pos, page)
	})
}

// moveRoomPage moves a page of a room document to the position in the form
// field "to": POST /rooms/:id/documents/:position/pages/:page/move.
func (h *Handler) moveRoomPage(c *gin.Context) error {
	return h.roomPageEdit(c, func(roomID string, pos, page int) error {
		to, ok := models.ParseIndex(c.PostForm("to"))
		if !ok {
			return models.Invalid("#/to", "invalid_type", "to must be the page's new position (1, 2, …).")
		}
		return h.store.MoveRoomPage(c.Request.Context(), roomID, pos, page, to)
	})
}

// roomPageEdit checks the session, CSRF token and path of a page edit, runs
// it, and answers like every room change.
func (h *Handler) roomPageEdit(c *gin.Context, edit func(roomID string, pos, page int) error) error {
	id, err := h.roomPost(c)
	if err != nil {
		return err
	}
	pos, err1 := strconv.Atoi(c.Param("position"))
	page, err2 := strconv.Atoi(c.Param("page"))
	if err1 != nil || err2 != nil {
		return models.ErrNotFound
	}
	if err := edit(id, pos, page); err != nil {
		return err
	}
	return h.afterRoomChange(c, id)
}

// afterRoomChange answers a room change: an htmx request gets the room page
// as it is now (the editor swaps in the parts it shows), a plain form post
// the redirect back to the room (303).
func (h *Handler) afterRoomChange(c *gin.Context, roomID string) error {
	c.Header("Vary", "HX-Request")
	if c.GetHeader("HX-Request") != "true" {
		c.Redirect(http.StatusSeeOther, "/rooms/"+roomID)
		return nil
	}
	ws, err := h.store.RoomWorkspace(c.Request.Context(), roomID)
	if err != nil {
		return err
	}
	h.renderRoom(c, http.StatusOK, ws, nil)
	return nil
}
