package models

import (
	"context"
	"errors"
)

// readRoomTemplate reads the template a room request names, if any: an
// unknown or archived one is a 422 at #/templateId. A request without
// documents gets the template's.
func (s *Store) readRoomTemplate(ctx context.Context, orgID int64, in *RoomInput) error {
	if in.TemplateID == "" {
		return nil
	}
	t, err := s.GetTemplate(ctx, orgID, in.TemplateID)
	if errors.Is(err, ErrNotFound) {
		var p Problems
		unknownTemplate(&p, "#/templateId", in.TemplateID)
		return p.Err(KindUnprocessable, "problem.summary.room_unprocessable")
	}
	if err != nil {
		return err
	}
	in.template = t
	if len(in.Documents) == 0 {
		for _, d := range t.Current.Documents {
			in.Documents = append(in.Documents, d.DocumentID)
		}
		in.templateDocuments = true
	}
	return nil
}

// checkRoomTemplate records the problems of a room request's template:
// participants' roles the template does not have, and documents whose pages
// do not fit the template document whose tags they would get.
func checkRoomTemplate(p *Problems, in *RoomInput, docs map[string]*Document) {
	roles := make([]string, len(in.Participants))
	for i, rp := range in.Participants {
		roles[i] = rp.Role
		if rp.Role != "" && in.template == nil {
			p.Add(pointer(pointer("#/participants", i), "role"), "unknown_role", "problem.room.no_template_roles")
		}
	}
	v := in.templateVersion()
	if v == nil {
		return
	}
	templateRoleHolders(p, "#/participants", v.Roles, roles)
	for i, ref := range in.Documents {
		doc := docs[ref]
		if doc == nil || i >= len(v.Documents) {
			continue
		}
		if why := templateMismatch(doc, &v.Documents[i]); !why.IsZero() {
			p.Add(pointer("#/documents", i), "template_mismatch", "problem.template.mismatch", "why", why)
		}
	}
}

// templateVersion is the current version of the request's template, or nil.
func (in *RoomInput) templateVersion() *TemplateVersion {
	if in.template == nil {
		return nil
	}
	return in.template.Current
}

// templateSigners maps each role of the request's template to the id of the
// participant who takes it (participants are the room's, in request order).
func (in *RoomInput) templateSigners(participants []ParticipantInput) map[string]string {
	v := in.templateVersion()
	if v == nil {
		return nil
	}
	roles := make([]string, len(in.Participants))
	for i, rp := range in.Participants {
		roles[i] = rp.Role
	}
	var ignored Problems // checked before, by checkRoomTemplate
	signers := map[string]string{}
	for role, i := range templateRoleHolders(&ignored, "#/participants", v.Roles, roles) {
		signers[role] = participants[i].ID
	}
	return signers
}
