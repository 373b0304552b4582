package models

import (
	"context"
	"errors"
	"fmt"
)

// roomTemplateActor is a Markup Room as the author of a template version.
func roomTemplateActor(room *Room) TemplateActor {
	return TemplateActor{OrganizationID: room.OrganizationID, Kind: TemplateActorRoom, ID: room.ID}
}

// SaveRoomTemplate saves the room's documents (all, or those in.Documents
// names), roles (its participants, renamed by in.RoleNames) and tags as a
// template of the room's organization, or, with in.TemplateID, as a new
// version of that template; the room then remembers the template
// (Room.TemplateID). templates.save false is a 403; the template checks are
// CreateTemplate's and ReplaceTemplate's, their problems pointing into the
// room's body.
func (s *Store) SaveRoomTemplate(ctx context.Context, roomID string, in *RoomTemplateSave) (*Template, error) {
	room, err := s.checkRoom(ctx, roomID, ActionSaveTemplate)
	if err != nil {
		return nil, err
	}
	actor := roomTemplateActor(room)
	ctx = roomAuditContext(ctx, room)
	ti := &TemplateInput{Name: in.Name, TransactionID: room.TransactionID, RoleNames: in.RoleNames, positions: in.Documents}
	var t *Template
	if in.TemplateID != "" {
		t, err = s.ReplaceTemplate(ctx, actor, in.TemplateID, ti, "")
		if errors.Is(err, ErrNotFound) {
			var p Problems
			unknownTemplate(&p, "#/templateId", in.TemplateID)
			return nil, p.Err(KindUnprocessable, "problem.summary.template_not_saved")
		}
	} else {
		t, err = s.CreateTemplate(ctx, actor, ti)
	}
	if err != nil {
		return nil, roomSaveProblems(err)
	}
	err = s.db.WithContext(ctx).Model(&Room{}).Where("id = ?", room.ID).Update("template_id", t.ID).Error
	return t, mapDBError(err)
}

// roomSaveProblems points a template problem about the copied transaction
// (#/transactionId) at the room's body as a whole (#): the room's body
// names no transaction.
func roomSaveProblems(err error) error {
	var ve *ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	for i := range ve.Errors {
		if ve.Errors[i].Pointer == "#/transactionId" {
			ve.Errors[i].Pointer = "#"
		}
	}
	return ve
}

// RoomTemplates lists the live templates of the room's organization whose
// name contains query (newest first, at most limit), each with its current
// version, for "Apply template…". templates.apply false is a 403.
func (s *Store) RoomTemplates(ctx context.Context, roomID, query string, limit int) ([]Template, error) {
	room, err := s.checkRoom(ctx, roomID, ActionApplyTemplate)
	if err != nil {
		return nil, err
	}
	page, err := s.ListTemplates(ctx, room.OrganizationID, TemplateFilter{Query: query, Limit: limit})
	if err != nil {
		return nil, err
	}
	for i := range page.Items {
		t := &page.Items[i]
		if t.Current, err = s.loadTemplateVersion(ctx, t.ID, t.Version, true); err != nil {
			return nil, err
		}
	}
	return page.Items, nil
}

// RoomTemplateName is the name of the live template the room was made from
// or last saved as, or "" (none, or archived since).
func (s *Store) RoomTemplateName(ctx context.Context, room *Room) (string, error) {
	if room.TemplateID == nil {
		return "", nil
	}
	t, err := s.getTemplateRow(ctx, s.db, room.OrganizationID, *room.TemplateID)
	if errors.Is(err, ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return t.Name, nil
}

// AppliedTemplate is what applying a template in a room placed: the
// template (at the version applied), the room document and the new tags,
// in the template's order.
type AppliedTemplate struct {
	Template *Template
	Document int
	Title    string
	Tags     []*TagEdit
}

// ApplyRoomTemplate places the tags of one document of a template on a
// document of the room, as one batch of tag edits (one history entry, one
// database transaction under the room's lock), each tag for the participant
// its role maps to (unassigned when the role is left out) and its
// customData naming the template and version. templates.apply or
// documents.edit false is a 403; an unknown template, template document,
// role or participant, or a room document whose pages do not fit the
// template's (templateMismatch: 422 template_mismatch at #/document), is a
// 422. The use is counted.
func (s *Store) ApplyRoomTemplate(ctx context.Context, roomID string, in *RoomTemplateApply) (*AppliedTemplate, error) {
	room, err := s.checkRoom(ctx, roomID, ActionApplyTemplate)
	if err != nil {
		return nil, err
	}
	t, err := s.GetTemplate(ctx, room.OrganizationID, in.TemplateID)
	if errors.Is(err, ErrNotFound) {
		var p Problems
		unknownTemplate(&p, "#/templateId", in.TemplateID)
		return nil, p.Err(KindUnprocessable, "problem.summary.template_not_applied")
	}
	if err != nil {
		return nil, err
	}
	v := t.Current
	var p Problems
	if in.TemplateDocument >= len(v.Documents) {
		p.Add("#/templateDocument", "unknown_document", "problem.template.no_such_document", "documents", len(v.Documents), "document", in.TemplateDocument)
	}
	declared := make(map[string]bool, len(v.Roles))
	for _, r := range v.Roles {
		declared[r.Name] = true
	}
	for _, h := range in.Roles {
		if !declared[h.Role] {
			p.Add(pointer("#/roles", h.Role), "unknown_role", "problem.template.no_such_role", "role", Quoted(truncateForDetail(h.Role)))
		}
	}
	if err := p.Err(KindUnprocessable, "problem.summary.template_not_applied_each"); err != nil {
		return nil, err
	}
	out := &AppliedTemplate{Template: t, Document: in.Document}
	err = s.editRoomTag(ctx, roomID, func(e *tagEditor) error {
		if err := e.room.Config.Require(ActionApplyTemplate); err != nil {
			return err
		}
		batch, title, err := e.templateBatch(ctx, t, in)
		if err != nil {
			return err
		}
		res, err := e.applyBatch(ctx, batch)
		if err != nil {
			return err
		}
		out.Title, out.Tags = title, res.Created
		var b writeBatch
		useTemplate(&b, t.ID, e.tx.Now())
		if err := e.tx.execBatch(ctx, &b); err != nil {
			return err
		}
		e.tx.roomEvent(ctx, e.t.ID, RoomEventTemplateApplied, struct {
			Template string `json:"template"`
			Document int    `json:"document"`
			Tags     int    `json:"tags"`
		}{t.ID, in.Document, len(res.Created)})
		return e.tx.audit(roomAuditContext(ctx, e.room), AuditEntry{OrganizationID: e.room.OrganizationID,
			Action: "template.applied", TargetType: "template", TargetID: t.ID, TransactionID: e.t.ID,
			Summary: fmt.Sprintf("Applied template %s to %s: %s", t.Name, title, count(len(res.Created), "tag"))})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// templateBatch is the batch that creates the tags of template document
// in.TemplateDocument of t on the room's document in.Document, and that
// document's title; a document that does not fit, a participant who is not
// the room's, or a template document without tags is a 422.
func (e *tagEditor) templateBatch(ctx context.Context, t *Template, in *RoomTemplateApply) (*TagBatch, string, error) {
	doc, err := e.document(ctx, in.Document)
	if errors.Is(err, ErrNotFound) {
		return nil, "", Unprocessable("#/document", "unknown_document", "problem.room.no_document_at", "position", in.Document)
	}
	if err != nil {
		return nil, "", err
	}
	v := t.Current
	var p Problems
	if why := templateMismatch(doc.upload, &v.Documents[in.TemplateDocument]); !why.IsZero() {
		p.Add("#/document", "template_mismatch", "problem.template.mismatch", "why", why)
	}
	signerOf := make(map[string]string, len(in.Roles))
	for _, h := range in.Roles {
		if e.signerIndex(h.ParticipantID) < 0 {
			p.Add(pointer("#/roles", h.Role), "unknown_signer", "problem.room.unknown_signer", "id", Quoted(truncateForDetail(h.ParticipantID)))
		}
		signerOf[h.Role] = h.ParticipantID
	}
	tags := templateTags(v, in.TemplateDocument, signerOf, templateOrigin(t.ID, v.Version))
	if len(tags) == 0 && p.Len() == 0 {
		p.Add("#/templateDocument", "no_tags", "problem.template.document_no_tags", "document", in.TemplateDocument)
	}
	if err := p.Err(KindUnprocessable, "problem.summary.template_not_applied_each"); err != nil {
		return nil, "", err
	}
	b := &TagBatch{Create: make([]TagBatchCreate, len(tags))}
	for i, tag := range tags {
		b.Create[i] = TagBatchCreate{DocumentPosition: in.Document, Form: tagDraft(tag)}
	}
	return b, doc.row.Title, nil
}

// tagDraft is a template's tag (with its signer and customData) as the
// room's tag checker takes it (checkForm).
func tagDraft(t TagInput) TagDraft {
	page := float64(t.Page)
	return TagDraft{
		Type: &t.Type, SignerID: &t.SignerID, Page: &page, X: &t.X, Y: &t.Y, Width: &t.Width, Height: &t.Height,
		Required: t.Required, StateFormat: t.StateFormat, DateFormat: t.DateFormat, FontSize: t.FontSize, CustomData: t.CustomData,
	}
}
