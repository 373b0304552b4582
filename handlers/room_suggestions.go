package handlers

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// maxSuggestionDecisionBytes bounds the JSON body of a request deciding
// suggested fields: 5000 entries of about 100 bytes each, with room to spare.
const maxSuggestionDecisionBytes = 1 << 20

// decideRoomSuggestions dismisses suggested fields the room offers, or offers
// dismissed ones again (the editor's undo of a dismissal): POST
// /rooms/:id/suggestions with a JSON body {dismiss, restore}
// (models.ParseSuggestionDecisions), the room's CSRF token in X-CSRF-Token.
// The answer is 204; a refusal is a problem (400/404/422, errors pointing
// into the body) and changes nothing. Accepting a suggestion is a tag batch
// whose create entry names it (models.TagBatchCreate.Suggestion).
func (h *roomHandler) decideRoomSuggestions(c *gin.Context) error {
	roomID, body, err := h.roomJSONPost(c, maxSuggestionDecisionBytes)
	if err != nil {
		return err
	}
	d, err := models.ParseSuggestionDecisions(body)
	if err != nil {
		return err
	}
	if err := h.tags.DecideRoomSuggestions(c.Request.Context(), roomID, d); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}
