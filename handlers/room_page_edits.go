package handlers

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
)

// pageEditTrigger is the HX-Trigger header of a page edit's answer: it fires
// the htmx event "markuproom:page-edit" with the edit, from which the
// editor's undo history records it.
type pageEditTrigger struct {
	Edit *models.PageEdit `json:"markuproom:page-edit"`
}

// deleteRoomPage removes a page of a room document:
// POST /rooms/:id/documents/:position/pages/:page/delete. The optional form
// field "current" (a redo) is the document id the client believes current.
func (h *roomHandler) deleteRoomPage(c *gin.Context) error {
	return h.roomPageEdit(c, func(roomID string, pos, page int) (*models.PageEdit, error) {
		return h.documents.DeleteRoomPage(c.Request.Context(), roomID, pos, page, c.PostForm("current"))
	})
}

// moveRoomPage moves a page of a room document to the position in the form
// field "to": POST /rooms/:id/documents/:position/pages/:page/move
// ("current" as for deleteRoomPage).
func (h *roomHandler) moveRoomPage(c *gin.Context) error {
	return h.roomPageEdit(c, func(roomID string, pos, page int) (*models.PageEdit, error) {
		to, ok := models.ParseIndex(c.PostForm("to"))
		if !ok {
			return nil, models.Invalid("#/to", "invalid_type", "problem.room.page_to")
		}
		return h.documents.MoveRoomPage(c.Request.Context(), roomID, pos, page, to, c.PostForm("current"))
	})
}

// restoreRoomDocument undoes a page edit: POST
// /rooms/:id/documents/:position/restore with the form fields "version" (the
// document id to go back to) and "current" (the document id the client
// believes is at that position now).
func (h *roomHandler) restoreRoomDocument(c *gin.Context) error {
	id, pos, err := h.roomDocumentPost(c)
	if err != nil {
		return err
	}
	version, current := c.PostForm("version"), c.PostForm("current")
	if version == "" || current == "" {
		return models.Invalid("#/version", "required", "problem.room.undo_versions")
	}
	edit, err := h.documents.RestoreRoomDocument(c.Request.Context(), id, pos, version, current)
	if err != nil {
		return err
	}
	return h.afterPageEdit(c, id, edit)
}

// roomPageEdit checks the session, CSRF token and path of a page edit, runs
// it, and answers like every room change.
func (h *roomHandler) roomPageEdit(c *gin.Context, edit func(roomID string, pos, page int) (*models.PageEdit, error)) error {
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
func (h *roomHandler) afterPageEdit(c *gin.Context, roomID string, edit *models.PageEdit) error {
	if b, err := json.Marshal(pageEditTrigger{Edit: edit}); err == nil && c.GetHeader("HX-Request") == "true" {
		c.Header("HX-Trigger", string(b))
	}
	return h.afterRoomChange(c, roomID)
}

// afterRoomChange answers a room change: an htmx request gets the room page
// as it is now (the editor swaps in the parts it shows), a plain form post
// the redirect back to the room (303).
func (h *roomHandler) afterRoomChange(c *gin.Context, roomID string) error {
	addVary(c, "HX-Request")
	if c.GetHeader("HX-Request") != "true" {
		c.Redirect(http.StatusSeeOther, route.Room.Path(roomID))
		return nil
	}
	ws, err := h.rooms.RoomWorkspace(c.Request.Context(), roomID)
	if err != nil {
		return err
	}
	h.renderRoom(c, http.StatusOK, ws, nil)
	return nil
}
