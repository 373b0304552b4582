package handlers

import (
	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// roomTemplatesView is the template dialogs of the room view v: nil when
// the room shows neither control (read-only, or both flags off).
func roomTemplatesView(ws *models.RoomWorkspace, v templates.RoomView) *templates.RoomTemplatesView {
	if v.ReadOnly || (!v.Can.SaveTemplate && !v.Can.ApplyTemplate) {
		return nil
	}
	r, t := ws.Room, ws.Transaction
	tv := &templates.RoomTemplatesView{DefaultName: v.Heading, RoomURL: route.Room.Path(r.ID)}
	if v.Can.SaveTemplate && len(t.Documents) > 0 {
		tv.SaveURL = route.RoomTemplates.Path(r.ID)
		if ws.TemplateName != "" && r.TemplateID != nil {
			tv.TemplateID, tv.TemplateName, tv.DefaultName = *r.TemplateID, ws.TemplateName, i18n.Plain(ws.TemplateName)
		}
	}
	if v.Can.ApplyTemplate && len(t.Documents) > 0 {
		tv.ListURL = route.RoomTemplates.Path(r.ID)
		tv.ApplyURL = route.RoomTemplateApply.Path(r.ID)
	}
	if tv.SaveURL == "" && tv.ListURL == "" {
		return nil
	}
	for _, d := range v.Documents {
		tv.Documents = append(tv.Documents, templates.RoomTemplateDocumentView{Position: d.Position, Title: d.Title, Pages: d.PageCount})
	}
	for _, p := range v.Participants {
		tv.Roles = append(tv.Roles, templates.RoomTemplateRoleView{ParticipantID: p.ID, Name: p.Name})
	}
	return tv
}
