package handlers

import (
	"math"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
)

// withTemplateOffers gives each document of the room view v the best
// template of the organization it resembles and does not carry yet
// (models.Store.RoomTemplateOffers), only when "Apply template…" is on. A
// failing match is logged and offers nothing: it never breaks the room page
// (docs/decisions.md, "Template offers in the room").
func (h *roomHandler) withTemplateOffers(c *gin.Context, ws *models.RoomWorkspace, v *templates.RoomView) {
	if v.Templates == nil || v.Templates.ApplyURL == "" {
		return
	}
	ctx := c.Request.Context()
	room, docs := ws.Room, ws.Transaction.Documents
	offers, err := h.templates.RoomTemplateOffers(ctx, room.OrganizationID, docs)
	if err != nil {
		loggerFrom(c).WarnContext(ctx, "template matching failed; the room offers no template", "room", room.ID, "error", err)
		return
	}
	for i := range v.Documents {
		if i >= len(docs) || docs[i].Position != v.Documents[i].Position {
			continue
		}
		m, ok := offers[docs[i].DocumentID]
		if !ok {
			continue
		}
		v.Documents[i].TemplateOffer = &templates.TemplateOfferView{
			TemplateID: m.TemplateID, Name: m.Name, Percent: int(math.Round(m.Score * 100)), TemplateDocument: m.Document,
			DismissKey: "markuproom:template-offer:" + room.ID + ":" + docs[i].DocumentID + ":" + m.TemplateID,
		}
	}
}
