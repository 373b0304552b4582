package handlers

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
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
	addVary(c, "HX-Request")
	v := checklistView(i18n.From(c.Request.Context()), ws, items, roomCSRFToken(c, ws.Room.ID))
	v.CompleteURL = withCarried(c, v.CompleteURL)
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
		v := roomView(c.Request.Context(), h.assets, ws, h.clock.Now(), nil)
		h.withTemplateOffers(c, ws, &v)
		cl := checklistView(i18n.From(c.Request.Context()), ws, h.rooms.RoomChecklist(c.Request.Context(), ws), roomCSRFToken(c, id))
		v.OpenChecklist = &cl
		h.renderRoomView(c, http.StatusUnprocessableEntity, v)
		return nil
	}
	if err != nil {
		return err
	}
	if carriedSession(c) != "" {
		// An embedded room: the session (and the chosen language) go on, and
		// the page tells its host.
		c.Redirect(http.StatusSeeOther, withCarried(c, route.Room.Path(id), "embed_event", "completed"))
		return nil
	}
	c.Redirect(http.StatusSeeOther, route.Room.Path(id))
	return nil
}

// checklistLabelIDs are the catalog ids of each checklist item's label.
var checklistLabelIDs = map[string]string{
	models.CheckDocuments:          "room.checklist.documents",
	models.CheckParticipants:       "room.checklist.participants",
	models.CheckEveryoneTags:       "room.checklist.everyone_tags",
	models.CheckTagsAssigned:       "room.checklist.tags_assigned",
	models.CheckValid:              "room.checklist.valid",
	models.CheckDocumentsTagged:    "room.checklist.documents_tagged",
	models.CheckSuggestionsDecided: "room.checklist.suggestions_decided",
}

// checklistWords are an item's label and problems in l's language, from
// what the item speaks of (models.ChecklistItem's Names and Count); the
// validation's own problems stay as the validation wrote them.
func checklistWords(l *i18n.Localizer, it models.ChecklistItem) (string, []string) {
	label := it.ID
	if id, ok := checklistLabelIDs[it.ID]; ok {
		label = l.T(id)
	}
	if it.OK {
		return label, nil
	}
	var problems []string
	switch it.ID {
	case models.CheckDocuments:
		problems = []string{l.T("room.checklist.documents.problem")}
	case models.CheckParticipants:
		problems = []string{l.T("room.checklist.participants.problem")}
	case models.CheckEveryoneTags:
		for _, name := range it.Names {
			problems = append(problems, l.T("room.checklist.everyone_tags.problem", "name", name))
		}
	case models.CheckTagsAssigned:
		if it.Count > 0 {
			problems = []string{l.T("room.checklist.tags_assigned.problem", "count", it.Count)}
		}
	case models.CheckDocumentsTagged:
		for _, title := range it.Names {
			problems = append(problems, l.T("room.checklist.documents_tagged.problem", "title", title))
		}
	case models.CheckSuggestionsDecided:
		problems = []string{l.T("room.checklist.suggestions_decided.problem", "count", it.Count)}
	case models.CheckValid:
		problems = invalidWords(l, it.Invalid)
	}
	return label, problems
}

// invalidWords are why the transaction fails its validation: each field
// error's detail as the validation wrote it (docs/i18n.md, "The room"), or
// the item's own sentence when it could not be checked.
func invalidWords(l *i18n.Localizer, err error) []string {
	var ve *models.ValidationError
	if !errors.As(err, &ve) {
		return []string{l.T("room.checklist.valid.unchecked")}
	}
	var out []string
	for _, f := range ve.Errors {
		out = append(out, say(l, f.Message))
	}
	if len(out) == 0 {
		out = append(out, say(l, ve.Message))
	}
	return out
}

// checklistView shapes the checklist in l's language, with a link to fix each unmet item.
func checklistView(l *i18n.Localizer, ws *models.RoomWorkspace, items []models.ChecklistItem, csrf string) templates.ChecklistView {
	v := templates.ChecklistView{Ready: models.ChecklistDone(items), CompleteURL: route.RoomComplete.Path(ws.Room.ID), CSRFToken: csrf,
		NotifyEmail: ws.Transaction.OffersInvitations()}
	for _, it := range items {
		label, problems := checklistWords(l, it)
		iv := templates.ChecklistItemView{ID: it.ID, Label: label, OK: it.OK, Warning: it.Advisory && !it.OK, Problems: problems}
		if !it.OK {
			iv.FixURL, iv.FixLabel = fixLink(l, ws, it.ID)
			iv.Fixes = fixLinks(l, ws, it.ID)
		}
		if iv.Warning {
			v.Warnings++
		}
		v.Items = append(v.Items, iv)
	}
	return v
}

// fixLink is where an unmet checklist item is fixed.
func fixLink(l *i18n.Localizer, ws *models.RoomWorkspace, id string) (string, string) {
	switch id {
	case models.CheckDocuments:
		return "#documents-title", l.T("room.checklist.fix.documents")
	case models.CheckParticipants:
		return "#participants-title", l.T("room.checklist.fix.participants")
	case models.CheckEveryoneTags:
		return "#palette-title", l.T("room.checklist.fix.place_tags")
	case models.CheckTagsAssigned:
		for _, d := range ws.Transaction.Documents {
			for _, t := range d.Tags {
				if t.SignerID == "" {
					return "#doc-" + strconv.Itoa(d.Position) + "-page-" + strconv.Itoa(t.Page), l.T("room.checklist.fix.first_unassigned")
				}
			}
		}
	case models.CheckSuggestionsDecided:
		return "#room-suggestions", l.T("room.checklist.fix.suggestions")
	}
	return "", ""
}

// fixLinks are the links of a warning about many things, one each: a
// document with no tags, each to its first page.
func fixLinks(l *i18n.Localizer, ws *models.RoomWorkspace, id string) []templates.ChecklistFixView {
	var out []templates.ChecklistFixView
	if id == models.CheckDocumentsTagged {
		for _, d := range ws.Transaction.Documents {
			if len(d.Tags) == 0 {
				out = append(out, templates.ChecklistFixView{URL: "#doc-" + strconv.Itoa(d.Position) + "-page-1", Label: l.T("room.checklist.fix.document", "title", d.Title)})
			}
		}
	}
	return out
}
