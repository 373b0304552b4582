package handlers

import (
	"encoding/json"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
)

// removalTrigger is the HX-Trigger header of a removal's answer (or its
// undo's): it fires the htmx event "markuproom:removal" with what was done,
// from which the editor's undo history records it.
type removalTrigger struct {
	Removal removalDone `json:"markuproom:removal"`
}

// removalDone is what a removal did, and the URL that undoes it (empty
// after an undo), so the editor composes no path.
type removalDone struct {
	*models.RoomRemoval
	RestoreURL string `json:"restoreUrl,omitempty"`
}

// removeRoomDocument removes a document and its tags from the room:
// POST /rooms/:id/documents/:position/remove (documents.advancedEdit). The
// optional form field "current" (a redo) is the document id the client
// believes is at that position.
func (h *roomHandler) removeRoomDocument(c *gin.Context) error {
	id, pos, err := h.roomDocumentPost(c)
	if err != nil {
		return err
	}
	done, err := h.documents.RemoveRoomDocument(c.Request.Context(), id, pos, c.PostForm("current"))
	if err != nil {
		return err
	}
	return h.afterRemoval(c, id, done)
}

// removeRoomParticipant removes a participant and their tags:
// POST /rooms/:id/participants/:participantId/remove.
func (h *roomHandler) removeRoomParticipant(c *gin.Context) error {
	id, err := h.roomPost(c)
	if err != nil {
		return err
	}
	done, err := h.participants.RemoveRoomParticipant(c.Request.Context(), id, c.Param("participantId"))
	if err != nil {
		return err
	}
	return h.afterRemoval(c, id, done)
}

// restoreRoomRemoval undoes a document's or participant's removal:
// POST /rooms/:id/removals/:removal/restore with the form fields
// "documents" and "participants", the room's document and participant ids
// in order as the client sees them (comma-separated).
func (h *roomHandler) restoreRoomRemoval(c *gin.Context) error {
	id, err := h.roomPost(c)
	if err != nil {
		return err
	}
	done, err := h.participants.RestoreRoomRemoval(c.Request.Context(), id, c.Param("removal"), c.PostForm("documents"), c.PostForm("participants"))
	if err != nil {
		return err
	}
	return h.afterRemoval(c, id, done)
}

// afterRemoval answers a removal or its undo like every room change, telling
// an htmx client what was done (HX-Trigger).
func (h *roomHandler) afterRemoval(c *gin.Context, roomID string, done *models.RoomRemoval) error {
	trigger := removalTrigger{Removal: removalDone{RoomRemoval: done}}
	if done != nil && done.Removal != "" {
		trigger.Removal.RestoreURL = route.RoomRemovalRestore.Path(roomID, done.Removal)
	}
	if b, err := json.Marshal(trigger); err == nil && c.GetHeader("HX-Request") == "true" {
		c.Header("HX-Trigger", string(b))
	}
	return h.afterRoomChange(c, roomID)
}
