package handlers

import (
	"context"
	"math"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
)

// withTemplateOffers gives each document of the room view v the best
// template of the organization it resembles and does not carry yet
// (models.TransactionDocument.CarriesTemplate): one matching call per
// document, only when "Apply template…" is on. A failing match is logged
// and offers nothing: it never breaks the room page (docs/decisions.md,
// "Template offers in the room").
func (h *roomHandler) withTemplateOffers(c *gin.Context, ws *models.RoomWorkspace, v *templates.RoomView) {
	if v.Templates == nil || v.Templates.ApplyURL == "" {
		return
	}
	ctx := c.Request.Context()
	docs := ws.Transaction.Documents
	for i := range v.Documents {
		if i >= len(docs) || docs[i].Position != v.Documents[i].Position {
			continue
		}
		v.Documents[i].TemplateOffer = h.templateOffer(ctx, c, ws.Room, &docs[i])
	}
}

// templateOffer is the best match of one document, or nil.
func (h *roomHandler) templateOffer(ctx context.Context, c *gin.Context, room *models.Room, d *models.TransactionDocument) *templates.TemplateOfferView {
	matches, err := h.templates.DocumentTemplateMatches(ctx, room.OrganizationID, d.DocumentID)
	if err != nil {
		loggerFrom(c).WarnContext(ctx, "template matching failed; the room offers no template", "room", room.ID, "document", d.DocumentID, "error", err)
		return nil
	}
	for _, m := range matches {
		if d.CarriesTemplate(m.TemplateID) {
			continue
		}
		return &templates.TemplateOfferView{
			TemplateID: m.TemplateID, Name: m.Name, Percent: int(math.Round(m.Score * 100)), TemplateDocument: m.Document,
			DismissKey: "markuproom:template-offer:" + room.ID + ":" + d.DocumentID + ":" + m.TemplateID,
		}
	}
	return nil
}
