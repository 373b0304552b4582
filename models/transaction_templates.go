package models

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
)

// parseDocumentTemplate reads a document's templateId and templateDocument
// (an extension of operation A's DocumentInput).
func parseDocumentTemplate(o *jsonObject, d *DocumentInput) {
	if o.has("templateId") {
		d.TemplateID, _ = o.str("templateId", true, MaxShortTextLength)
	} else {
		o.field("templateId", true)
	}
	if n := o.optInt("templateDocument", 0, MaxTemplateDocuments-1); n != nil {
		d.TemplateDocument = *n
		if !o.has("templateId") {
			o.p.Add(o.at("templateDocument"), "conflicting_value", "problem.template.document_needs_id")
		}
	}
}

// expandTemplates adds to each document that names a template the tags of
// that template document (after the tags the request lists), each with
// customData gaining {"template": id, "templateVersion": n}; roles go to
// the participants by their "role", else in order. The stored transaction
// is the request with those tags added: templateId, templateDocument and
// the participants' role are not stored. An unknown or archived template, a
// template document the template does not have, a document whose pages do
// not fit it, or a role with tags on it and no participant, is a 422 at
// #/documents/i/templateId. It returns the templates used.
func (s *Store) expandTemplates(ctx context.Context, orgID int64, in *TransactionInput, docs map[string]*Document) ([]string, error) {
	roles := make([]string, len(in.Participants))
	named := false
	for i, pi := range in.Participants {
		roles[i] = pi.Role
		named = named || pi.Role != ""
	}
	var p Problems
	templates := map[string]*Template{}
	var used []string
	declared := map[string]bool{}
	for i := range in.Documents {
		d := &in.Documents[i]
		if d.TemplateID == "" {
			continue
		}
		ptr := pointer(pointer("#/documents", i), "templateId")
		t, ok := templates[d.TemplateID]
		if !ok {
			var err error
			t, err = s.GetTemplate(ctx, orgID, d.TemplateID)
			if err != nil && !errors.Is(err, ErrNotFound) {
				return nil, err
			}
			templates[d.TemplateID] = t
			if t != nil {
				used = append(used, t.ID)
			}
		}
		if t == nil {
			unknownTemplate(&p, ptr, d.TemplateID)
			continue
		}
		v := t.Current
		for _, r := range v.Roles {
			declared[r.Name] = true
		}
		if d.TemplateDocument >= len(v.Documents) {
			p.Add(pointer(pointer("#/documents", i), "templateDocument"), "unknown_document", "problem.template.no_such_document", "documents", len(v.Documents), "document", d.TemplateDocument)
			continue
		}
		doc := docs[d.GCSRefID]
		if doc == nil {
			continue // unknown_document, reported by checkReferences
		}
		if why := templateMismatch(doc, &v.Documents[d.TemplateDocument]); !why.IsZero() {
			p.Add(ptr, "template_mismatch", "problem.template.mismatch", "why", why)
			continue
		}
		var ignored Problems // the participants' roles are checked below, once
		holders := templateRoleHolders(&ignored, "#/participants", v.Roles, roles)
		signerOf := make(map[string]string, len(holders))
		for role, j := range holders {
			signerOf[role] = in.Participants[j].ID
		}
		tags := templateTags(v, d.TemplateDocument, signerOf, templateOrigin(t.ID, v.Version))
		for _, tag := range tags {
			if tag.SignerID == "" {
				p.Add(ptr, "unassigned_role", "problem.template.unassigned_role", "page", tag.Page)
				break
			}
		}
		if len(d.Tags)+len(tags) > MaxTagsPerDocument {
			p.Add(ptr, "too_many", "problem.template.too_many_tags", "tags", len(tags), "max", MaxTagsPerDocument)
			continue
		}
		d.Tags = append(d.Tags, tags...)
	}
	if named {
		seen := map[string]int{}
		for i, r := range roles {
			if r == "" {
				continue
			}
			ptr := pointer(pointer("#/participants", i), "role")
			if j, dup := seen[r]; dup {
				p.Add(ptr, "duplicate_role", "problem.template.role_taken", "participant", j, "role", Quoted(truncateForDetail(r)))
			} else if !declared[r] {
				p.Add(ptr, "unknown_role", "problem.template.request_no_role", "role", Quoted(truncateForDetail(r)))
			}
			seen[r] = i
		}
	}
	if err := p.Err(KindUnprocessable, "problem.summary.tx_unprocessable"); err != nil {
		return nil, err
	}
	return used, nil
}

// templateOrigin rewrites a template tag's customData to name the template
// and version it came from (replacing members of those names).
func templateOrigin(id string, version int) func(RawJSON) RawJSON {
	quoted, _ := json.Marshal(id)
	origin := `"template":` + string(quoted) + `,"templateVersion":` + strconv.Itoa(version)
	return func(cd RawJSON) RawJSON {
		kept, _ := splitObject(scanJSON(cd.orEmpty()), []string{"template", "templateVersion"})
		body := bytes.TrimSpace(kept)
		if len(scanJSON(body).keys) == 0 {
			return RawJSON("{" + origin + "}")
		}
		out := make([]byte, 0, len(body)+len(origin)+1)
		out = append(out, body[:len(body)-1]...)
		out = append(out, ',')
		out = append(out, origin...)
		return append(out, '}')
	}
}

// addTemplateUses adds to b the count of each template t's request used.
func (s *Store) addTemplateUses(ctx context.Context, b *writeBatch, t *Transaction) error {
	for _, id := range t.templatesUsed {
		useTemplate(b, id, t.UpdatedAt)
		if err := s.audit(ctx, templateApplied(t, id)); err != nil {
			return err
		}
	}
	return nil
}

// templateApplied is the audit event of template id's tags added to t.
func templateApplied(t *Transaction, id string) AuditEntry {
	return AuditEntry{OrganizationID: t.OrganizationID, Action: "template.applied", TargetType: "template", TargetID: id,
		TransactionID: t.ID, Summary: "Applied template " + id + " to transaction " + shortRef(t)}
}
