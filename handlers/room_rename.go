package handlers

import (
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
)

// renameRoomDocument sets the title of the room's document at a position:
// POST /rooms/:id/documents/:position/title with the form field "title";
// answered as roomChange answers every room form.
func (h *roomHandler) renameRoomDocument(c *gin.Context) error {
	return h.roomChange(c, func(roomID string) (*templates.ParticipantFormView, error) {
		pos, err := strconv.Atoi(c.Param("position"))
		if err != nil {
			return nil, models.ErrNotFound
		}
		return nil, h.documents.RenameRoomDocument(c.Request.Context(), roomID, pos, c.PostForm("title"))
	})
}
