package handlers

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
)

// roomChecklist renders the "Create e-signature session" dialog's checklist
// for the room as it is now: GET /rooms/:id/checklist (an htmx fragment).
func (h *roomHandler) roomChecklist(c *gin.Context) error {
	ws, err := h.roomFor(c)
	if err != nil {
		return err
	}
	if ws.Room.Status(h.clock.Now()) != models.RoomOpen {
		return models.ErrRoomCompleted
	}
	items := h.rooms.RoomChecklist(c.Request.Context(), ws)
	c.Header("Vary", "HX-Request")
	v := checklistView(ws, items, roomCSRFToken(c, ws.Room.ID))
	v.CompleteURL = withSession(v.CompleteURL, carriedSession(c))
	render(c, http.StatusOK, templates.Checklist(v))
	return nil
}

// completeRoom creates the e-signature session: POST /rooms/:id/complete,
// then back to the room, now read-only with its summary (303). An unmet
// checklist shows the room again with the dialog open (422).
func (h *roomHandler) completeRoom(c *gin.Context) error {
	id, err := h.roomPost(c)
	if err != nil {
		return err
	}
	_, err = h.rooms.CompleteRoom(c.Request.Context(), id, c.PostForm("notify") == "email")
	var ve *models.ValidationError
	if errors.As(err, &ve) && c.GetHeader("HX-Request") != "true" {
		ws, wsErr := h.rooms.RoomWorkspace(c.Request.Context(), id)
		if wsErr != nil {
			return wsErr
		}
		v := roomView(h.assets, ws, h.clock.Now(), nil)
		h.withTemplateOffers(c, ws, &v)
		cl := checklistView(ws, h.rooms.RoomChecklist(c.Request.Context(), ws), roomCSRFToken(c, id))
		v.OpenChecklist = &cl
		h.renderRoomView(c, http.StatusUnprocessableEntity, v)
		return nil
	}
	if err != nil {
		return err
	}
	if s := carriedSession(c); s != "" {
		// An embedded room: the session goes on, and the page tells its host.
		c.Redirect(http.StatusSeeOther, withSession(route.Room.Path(id), s, "embed_event", "completed"))
		return nil
	}
	c.Redirect(http.StatusSeeOther, route.Room.Path(id))
	return nil
}

// checklistView shapes the checklist, with a link to fix each unmet item.
func checklistView(ws *models.RoomWorkspace, items []models.ChecklistItem, csrf string) templates.ChecklistView {
	v := templates.ChecklistView{Ready: models.ChecklistDone(items), CompleteURL: route.RoomComplete.Path(ws.Room.ID), CSRFToken: csrf,
		NotifyEmail: ws.Transaction.OffersInvitations()}
	for _, it := range items {
		iv := templates.ChecklistItemView{ID: it.ID, Label: it.Label, OK: it.OK, Warning: it.Advisory && !it.OK, Problems: it.Problems}
		if !it.OK {
			iv.FixURL, iv.FixLabel = fixLink(ws, it.ID)
			iv.Fixes = fixLinks(ws, it.ID)
		}
		if iv.Warning {
			v.Warnings++
		}
		v.Items = append(v.Items, iv)
	}
	return v
}

// fixLink is where an unmet checklist item is fixed.
func fixLink(ws *models.RoomWorkspace, id string) (string, string) {
	switch id {
	case models.CheckDocuments:
		return "#documents-title", "Go to the documents"
	case models.CheckParticipants:
		return "#participants-title", "Go to the participants"
	case models.CheckEveryoneTags:
		return "#palette-title", "Place tags"
	case models.CheckTagsAssigned:
		for _, d := range ws.Transaction.Documents {
			for _, t := range d.Tags {
				if t.SignerID == "" {
					return "#doc-" + strconv.Itoa(d.Position) + "-page-" + strconv.Itoa(t.Page), "Show the first one"
				}
			}
		}
	case models.CheckSuggestionsDecided:
		return "#room-suggestions", "Open the suggested fields"
	}
	return "", ""
}

// fixLinks are the links of a warning about many things, one each: a
// document with no tags, each to its first page.
func fixLinks(ws *models.RoomWorkspace, id string) []templates.ChecklistFixView {
	var out []templates.ChecklistFixView
	if id == models.CheckDocumentsTagged {
		for _, d := range ws.Transaction.Documents {
			if len(d.Tags) == 0 {
				out = append(out, templates.ChecklistFixView{URL: "#doc-" + strconv.Itoa(d.Position) + "-page-1", Label: "Go to “" + d.Title + "”"})
			}
		}
	}
	return out
}
