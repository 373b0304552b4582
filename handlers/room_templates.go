package handlers

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// maxRoomTemplateBody bounds the JSON body of a template save or apply.
const maxRoomTemplateBody = 64 << 10

// roomTemplateListSize is how many templates "Apply template…" lists for a search.
const roomTemplateListSize = 20

// RoomTemplateStore saves a room's layout as a template and applies one in
// the room (docs/decisions.md, "Templates in the room").
type RoomTemplateStore interface {
	RoomTemplates(ctx context.Context, roomID, query string, limit int) ([]models.Template, error)
	SaveRoomTemplate(ctx context.Context, roomID string, in *models.RoomTemplateSave) (*models.Template, error)
	ApplyRoomTemplate(ctx context.Context, roomID string, in *models.RoomTemplateApply) (*models.AppliedTemplate, error)
	// RoomTemplateOffers gives each document the best template it resembles
	// and does not carry yet (the room's offers), by document id.
	RoomTemplateOffers(ctx context.Context, orgID int64, docs []models.TransactionDocument) (map[string]models.TemplateMatch, error)
}

// listRoomTemplates answers "Apply template…"'s search: GET
// /rooms/:id/templates?q= → 200 {"items": [roomTemplateJSON]}, the
// organization's live templates whose name contains q, newest first.
func (h *roomHandler) listRoomTemplates(c *gin.Context) error {
	id, err := h.boundRoomID(c)
	if err != nil {
		return err
	}
	list, err := h.templates.RoomTemplates(c.Request.Context(), id, c.Query("q"), roomTemplateListSize)
	if err != nil {
		return err
	}
	items := make([]roomTemplateJSON, len(list))
	for i := range list {
		items[i] = toRoomTemplateJSON(&list[i])
	}
	c.JSON(http.StatusOK, gin.H{"items": items})
	return nil
}

// saveRoomTemplate is "Save as template…": POST /rooms/:id/templates with
// the room's CSRF token in X-CSRF-Token and a JSON body
// (models.ParseRoomTemplateSave) → 201 {"id", "name", "version"}.
func (h *roomHandler) saveRoomTemplate(c *gin.Context) error {
	id, body, err := h.roomJSONPost(c, maxRoomTemplateBody)
	if err != nil {
		return err
	}
	in, err := models.ParseRoomTemplateSave(body)
	if err != nil {
		return err
	}
	t, err := h.templates.SaveRoomTemplate(c.Request.Context(), id, in)
	if err != nil {
		return err
	}
	c.JSON(http.StatusCreated, gin.H{"id": t.ID, "name": t.Name, "version": t.Version})
	return nil
}

// applyRoomTemplate is "Apply template…": POST /rooms/:id/templates/apply
// with the room's CSRF token in X-CSRF-Token and a JSON body
// (models.ParseRoomTemplateApply) → 201 {"templateId", "version",
// "document", "title", "tagIds"}, the placed tags in the template's order
// (the editor records them as one undo step, as an upload's).
func (h *roomHandler) applyRoomTemplate(c *gin.Context) error {
	id, body, err := h.roomJSONPost(c, maxRoomTemplateBody)
	if err != nil {
		return err
	}
	in, err := models.ParseRoomTemplateApply(body)
	if err != nil {
		return err
	}
	a, err := h.templates.ApplyRoomTemplate(c.Request.Context(), id, in)
	if err != nil {
		return err
	}
	ids := make([]string, len(a.Tags))
	for i, t := range a.Tags {
		ids[i] = t.Tag.TagID
	}
	c.JSON(http.StatusCreated, gin.H{"templateId": a.Template.ID, "version": a.Template.Version, "document": a.Document, "title": a.Title, "tagIds": ids})
	return nil
}

// roomTemplateJSON is one template as "Apply template…" shows it: its
// documents with their page counts and tag counts, and its roles.
type roomTemplateJSON struct {
	ID        string                     `json:"id"`
	Name      string                     `json:"name"`
	Version   int                        `json:"version"`
	Documents []roomTemplateDocumentJSON `json:"documents"`
	Roles     []string                   `json:"roles"`
}

// roomTemplateDocumentJSON is one document of a roomTemplateJSON.
type roomTemplateDocumentJSON struct {
	Index int    `json:"index"`
	Title string `json:"title"`
	Pages int    `json:"pages"`
	Tags  int    `json:"tags"`
}

func toRoomTemplateJSON(t *models.Template) roomTemplateJSON {
	out := roomTemplateJSON{ID: t.ID, Name: t.Name, Version: t.Version, Documents: []roomTemplateDocumentJSON{}, Roles: []string{}}
	v := t.Current
	if v == nil {
		return out
	}
	counts := make([]int, len(v.Documents))
	for _, tag := range v.Tags {
		if tag.Document < len(counts) {
			counts[tag.Document]++
		}
	}
	for i, d := range v.Documents {
		out.Documents = append(out.Documents, roomTemplateDocumentJSON{Index: i, Title: d.Title, Pages: d.Pages, Tags: counts[i]})
	}
	for _, r := range v.Roles {
		out.Roles = append(out.Roles, r.Name)
	}
	return out
}
