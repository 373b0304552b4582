package handlers

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// Tag edits of the Markup Room editor: one request per change, each answered
// with the server's rendering of the tag (templates.Tag), which the editor
// swaps in place of its own guess. The store checks the room's state, the
// documents.edit flag and operation A's rules.

// addRoomTag places a new tag: POST /rooms/:id/tags with documentPosition and the tag fields.
func (h *roomHandler) addRoomTag(c *gin.Context) error {
	roomID, err := h.roomPost(c)
	if err != nil {
		return err
	}
	pos, ok := models.ParseIndex(c.PostForm("documentPosition"))
	if !ok {
		return models.Invalid("#/documentPosition", "invalid_type", "problem.room.document_position")
	}
	edit, err := h.tags.AddRoomTag(c.Request.Context(), roomID, pos, tagFormFromRequest(c))
	if err != nil {
		return err
	}
	renderTag(c, http.StatusCreated, roomID, edit)
	return nil
}

// updateRoomTag changes one tag: PUT /rooms/:id/tags/:tagId with every field of the tag.
func (h *roomHandler) updateRoomTag(c *gin.Context) error {
	roomID, err := h.roomPost(c)
	if err != nil {
		return err
	}
	edit, err := h.tags.UpdateRoomTag(c.Request.Context(), roomID, c.Param("tagId"), tagFormFromRequest(c))
	if err != nil {
		return err
	}
	renderTag(c, http.StatusOK, roomID, edit)
	return nil
}

// deleteRoomTag removes one tag: DELETE /rooms/:id/tags/:tagId[?version=n] (200, empty body, so an htmx swap removes it).
func (h *roomHandler) deleteRoomTag(c *gin.Context) error {
	roomID, err := h.roomPost(c)
	if err != nil {
		return err
	}
	version, err := models.ParseTagVersion(c.Query("version"), "#/version")
	if err != nil {
		return err
	}
	if err := h.tags.DeleteRoomTag(c.Request.Context(), roomID, c.Param("tagId"), version); err != nil {
		return err
	}
	c.Data(http.StatusOK, "text/html; charset=utf-8", nil)
	return nil
}

func tagFormFromRequest(c *gin.Context) models.RoomTagForm {
	return models.RoomTagForm{
		Type: c.PostForm("type"), SignerID: c.PostForm("signerId"), Page: c.PostForm("page"),
		X: c.PostForm("x"), Y: c.PostForm("y"), Width: c.PostForm("width"), Height: c.PostForm("height"),
		Required: c.PostForm("required"), DateFormat: c.PostForm("dateFormat"),
		StateFormat: c.PostForm("stateFormat"), FontSize: c.PostForm("fontSize"), Version: c.PostForm("version"),
	}
}

func renderTag(c *gin.Context, status int, roomID string, e *models.TagEdit) {
	render(c, status, tagComponent(i18n.From(c.Request.Context()), roomID, e))
}

// tagComponent is the server's rendering of one edited tag of a room
// (templates.Tag), with the URL the editor saves and removes it at.
func tagComponent(l *i18n.Localizer, roomID string, e *models.TagEdit) templ.Component {
	signers := viewerSigners{}
	if e.Signer != nil {
		signers[e.Signer.ParticipantID] = templates.TagView{
			SignerName: e.Signer.FullName(), Initials: initials(e.Signer.FirstName, e.Signer.LastName), ColorClass: signerClass(e.SignerIndex),
		}
	}
	v := signers.tagView(&e.Tag, true)
	v.SaveURL = route.RoomTag.Path(roomID, e.Tag.TagID)
	return templates.Tag(v)
}
