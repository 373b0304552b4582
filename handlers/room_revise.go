package handlers

import (
	"encoding/json"
	"mime"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
)

// reviseRoomDocument replaces a room document by its revised version and
// carries its tags onto it (models.ReviseRoomDocument):
// POST /rooms/:id/documents/:position/revise, either multipart/form-data
// with the parts "csrf" (unless the X-CSRF-Token header is sent) and "file"
// (the revised PDF, with the upload's checks and limits), or a form with
// "documentId" (a version the room held before: the editor's redo) and
// "current" (the document id the client believes is at that position). An
// htmx request gets the room with the revision's report (the "what changed"
// view) and the HX-Trigger "markuproom:page-edit" of kind "revised", the
// editor's one undo step (undone by the restore route).
func (h *roomHandler) reviseRoomDocument(c *gin.Context) error {
	mediaType, params, _ := mime.ParseMediaType(c.GetHeader("Content-Type"))
	var (
		id  string
		pos int
		out *models.RoomRevision
		err error
	)
	if mediaType == "multipart/form-data" {
		if id, pos, err = h.revisedUpload(c, params["boundary"], &out); err != nil {
			return err
		}
	} else {
		if id, pos, err = h.roomDocumentPost(c); err != nil {
			return err
		}
		documentID := c.PostForm("documentId")
		if documentID == "" {
			return models.Invalid("#/documentId", "required", "problem.room.revise_document")
		}
		if out, err = h.documents.ReviseRoomDocument(c.Request.Context(), id, pos, nil, documentID, c.PostForm("current")); err != nil {
			return err
		}
	}
	if c.GetHeader("HX-Request") != "true" {
		return h.afterRoomChange(c, id)
	}
	if b, err := json.Marshal(pageEditTrigger{Edit: &out.Edit}); err == nil {
		c.Header("HX-Trigger", string(b))
	}
	return h.renderRoomWith(c, id, func(v *templates.RoomView) {
		v.Revision = &templates.RevisionView{Document: pos, Report: out.Report}
	})
}

// revisedUpload is reviseRoomDocument's multipart path: the file staged
// as a room upload is (stageRoomUpload), then the revision made.
func (h *roomHandler) revisedUpload(c *gin.Context, boundary string, out **models.RoomRevision) (string, int, error) {
	id, err := h.boundRoomID(c)
	if err != nil {
		return "", 0, err
	}
	pos, err := strconv.Atoi(c.Param("position"))
	if err != nil {
		return "", 0, models.ErrNotFound
	}
	staged, _, err := h.stageRoomUpload(c, id, boundary)
	if err != nil {
		return "", 0, err
	}
	defer staged.Close()
	*out, err = h.documents.ReviseRoomDocument(c.Request.Context(), id, pos, staged, "", "")
	return id, pos, err
}
