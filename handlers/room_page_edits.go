package handlers

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// pageEditEvent is the htmx event (HX-Trigger) a page edit's answer fires:
// the editor's undo history records the edit from it.
const pageEditEvent = "markuproom:page-edit"

// deleteRoomPage removes a page of a room document:
// POST /rooms/:id/documents/:position/pages/:page/delete. The optional form
// field "current" (a redo) is the document id the client believes current.
func (h *Handler) deleteRoomPage(c *gin.Context) error {
	return h.roomPageEdit(c, func(roomID string, pos, page int) (*models.PageEdit, error) {
		return h.store.DeleteRoomPage(c.Request.Context(), roomID, pos, page, c.PostForm("current"))
	})
}

// moveRoomPage moves a page of a room document to the position in the form
// field "to": POST /rooms/:id/documents/:position/pages/:page/move
// ("current" as for deleteRoomPage).
func (h *Handler) moveRoomPage(c *gin.Context) error {
	return h.roomPageEdit(c, func(roomID string, pos, page int) (*models.PageEdit, error) {
		to, ok := models.ParseIndex(c.PostForm("to"))
		if !ok {
			return nil, models.Invalid("#/to", "invalid_type", "to must be the page's new position (1, 2, …).")
		}
		return h.store.MoveRoomPage(c.Request.Context(), roomID, pos, page, to, c.PostForm("current"))
	})
}

// restoreRoomDocument undoes a page edit: POST
// /rooms/:id/documents/:position/restore with the form fields "version" (the
// document id to go back to) and "current" (the document id the client
// believes is at that position now).
func (h *Handler) restoreRoomDocument(c *gin.Context) error {
	id, pos, err := h.roomDocumentPost(c)
	if err != nil {
		return err
	}
	version, current := c.PostForm("version"), c.PostForm("current")
	if version == "" || current == "" {
		return models.Invalid("#/version", "required", "version and current name the document versions of the undo.")
	}
	edit, err := h.store.RestoreRoomDocument(c.Request.Context(), id, pos, version, current)
	if err != nil {
		return err
	}
	return h.afterPageEdit(c, id, edit)
}

// roomPageEdit checks the session, CSRF token and path of a page edit, runs
// it, and answers like every room change.
func (h *Handler) roomPageEdit(c *gin.Context, edit func(roomID string, pos, page int) (*models.PageEdit, error)) error {
	id, pos, err := h.roomDocumentPost(c)
	if err != nil {
		return err
	}
	page, err := strconv.Atoi(c.Param("page"))
	if err != nil {
		return models.ErrNotFound
	}
	done, err := edit(id, pos, page)
	if err != nil {
		return err
	}
	return h.afterPageEdit(c, id, done)
}

// afterPageEdit answers a page edit like every room change, telling an htmx
// client what was done (HX-Trigger).
func (h *Handler) afterPageEdit(c *gin.Context, roomID string, edit *models.PageEdit) error {
	if b, err := json.Marshal(map[string]any{pageEditEvent: edit}); err == nil && c.GetHeader("HX-Request") == "true" {
		c.Header("HX-Trigger", string(b))
	}
	return h.afterRoomChange(c, roomID)
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
