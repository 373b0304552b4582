package models

import (
	"context"
	"errors"
	"strings"
)

// templateContent is what one template version holds, checked and ready to
// write: its name, description, documents, roles and tags.
type templateContent struct {
	name        string
	description *string
	documents   []TemplateDocument
	roles       []TemplateRole
	tags        []TemplateTag
}

// prepareTemplate turns a parsed body into a version's content, reading the
// uploads or the transaction it names; every reference and placement
// problem is one 422-class error. Nothing is written.
func (s *Store) prepareTemplate(ctx context.Context, orgID int64, in *TemplateInput) (*templateContent, error) {
	if in.TransactionID != "" {
		return s.templateFromTransaction(ctx, orgID, in)
	}
	refs := make([]string, len(in.Documents))
	for i, d := range in.Documents {
		refs[i] = d.Ref
	}
	docs, err := s.FindDocumentsByRef(ctx, orgID, refs)
	if err != nil {
		return nil, err
	}
	c := &templateContent{name: in.Name, description: in.Description, roles: in.Roles, tags: in.Tags}
	var p Problems
	for i, d := range in.Documents {
		doc := docs[d.Ref]
		if doc == nil {
			p.Add(pointer(pointer("#/documents", i), d.RefField), "unknown_document", "problem.template.unknown_upload", "ref", Quoted(truncateForDetail(d.Ref)))
			continue
		}
		title := doc.Title
		if d.Title != nil {
			title = *d.Title
		}
		c.documents = append(c.documents, TemplateDocument{Position: i, DocumentID: doc.ID, Title: title, Pages: doc.PageCount, PageBoxes: doc.Pages})
	}
	if p.Len() == 0 {
		checkTemplateContent(&p, c)
	}
	if err := p.Err(KindUnprocessable, "problem.summary.template_unprocessable"); err != nil {
		return nil, err
	}
	for i, d := range in.Documents {
		if c.documents[i].Fingerprint, err = s.storedFingerprint(ctx, docs[d.Ref]); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// storedFingerprint is the encoded template fingerprint of d, as its row
// keeps it (computed and kept now for a document stored before
// fingerprints were).
func (s *Store) storedFingerprint(ctx context.Context, d *Document) ([]byte, error) {
	if d.Fingerprint == nil {
		if _, err := s.documentFingerprint(ctx, d); err != nil {
			return nil, err
		}
	}
	return d.Fingerprint, nil
}

// checkTemplateContent records the problems of roles and tags: duplicate role
// names, a tag's role not declared, its document not in the template, its
// page not in the document or its rectangle outside the page box.
func checkTemplateContent(p *Problems, c *templateContent) {
	roles := make(map[string]bool, len(c.roles))
	for i, r := range c.roles {
		if roles[r.Name] {
			p.Add(pointer(pointer("#/roles", i), "name"), "duplicate_role", "problem.template.duplicate_role", "role", Quoted(truncateForDetail(r.Name)))
		}
		roles[r.Name] = true
	}
	for i, t := range c.tags {
		ptr := pointer("#/tags", i)
		if t.Role != "" && !roles[t.Role] {
			p.Add(pointer(ptr, "role"), "unknown_role", "problem.template.unknown_role", "role", Quoted(truncateForDetail(t.Role)))
		}
		if t.Document >= len(c.documents) {
			p.Add(pointer(ptr, "document"), "unknown_document", "problem.template.no_such_document", "documents", len(c.documents), "document", t.Document)
			continue
		}
		doc := c.documents[t.Document]
		if t.Page > doc.Pages || t.Page > len(doc.PageBoxes) {
			p.Add(pointer(ptr, "page"), "page_out_of_range", "problem.doc.page_out_of_range", "pages", doc.Pages, "page", t.Page)
			continue
		}
		box := doc.PageBoxes[t.Page-1].CropBox
		if !box.Contains(t.X, t.Y, t.Width, t.Height) {
			p.AddMessage(ptr, "outside_page", outsidePage(t.X, t.Y, t.Width, t.Height, t.Page, box))
		}
	}
}

// templateFromTransaction copies a transaction of the organization: its
// documents (with the page boxes their uploads recorded) and tags; each
// participant becomes a role named "First Last", in participant order,
// renamed in order by RoleNames.
func (s *Store) templateFromTransaction(ctx context.Context, orgID int64, in *TemplateInput) (*templateContent, error) {
	const ptr = "#/transactionId"
	t, err := s.transactionLayout(ctx, orgID, in.TransactionID)
	if errors.Is(err, ErrNotFound) {
		return nil, Unprocessable(ptr, "unknown_transaction", "problem.template.unknown_transaction", "id", Quoted(truncateForDetail(in.TransactionID)))
	}
	if err != nil {
		return nil, err
	}
	var p Problems
	if in.positions != nil {
		t.Documents = pickDocuments(&p, t.Documents, in.positions)
	}
	if len(t.Documents) == 0 && p.Len() == 0 {
		p.Add(ptr, "no_documents", "problem.template.tx_no_documents")
	}
	if len(t.Documents) > MaxTemplateDocuments {
		p.Add(ptr, "too_many_documents", "problem.template.tx_too_many_documents", "documents", len(t.Documents), "max", MaxTemplateDocuments)
	}
	if len(t.Participants) > MaxTemplateRoles {
		p.Add(ptr, "too_many_roles", "problem.template.tx_too_many_roles", "participants", len(t.Participants), "max", MaxTemplateRoles)
	}
	if len(in.RoleNames) > len(t.Participants) {
		p.Add("#/roleNames", "too_many_roles", "problem.template.role_names_count", "participants", len(t.Participants), "names", len(in.RoleNames))
	}
	if err := p.Err(KindUnprocessable, "problem.summary.template_unprocessable"); err != nil {
		return nil, err
	}

	c := &templateContent{name: in.Name, description: in.Description, roles: make([]TemplateRole, len(t.Participants))}
	roleOf := make(map[string]string, len(t.Participants))
	seen := make(map[string]int, len(t.Participants))
	for i, part := range t.Participants {
		name := strings.TrimSpace(part.FirstName + " " + part.LastName)
		at := ptr
		if i < len(in.RoleNames) {
			name, at = in.RoleNames[i], pointer("#/roleNames", i)
		}
		if j, dup := seen[name]; dup {
			p.Add(at, "duplicate_role", "problem.template.role_names_clash", "first", j, "second", i, "role", Quoted(truncateForDetail(name)))
		}
		seen[name] = i
		c.roles[i] = TemplateRole{Name: name}
		roleOf[part.ParticipantID] = name
	}
	if err := p.Err(KindUnprocessable, "problem.summary.template_unprocessable"); err != nil {
		return nil, err
	}

	ids := make([]string, len(t.Documents))
	for i, d := range t.Documents {
		ids[i] = d.DocumentID
	}
	docs, err := s.FindDocumentsByRef(ctx, orgID, ids)
	if err != nil {
		return nil, err
	}
	for i, d := range t.Documents {
		doc := docs[d.DocumentID]
		if doc == nil {
			return nil, Unprocessable(ptr, "unknown_document", "problem.template.tx_document_gone")
		}
		fp, err := s.storedFingerprint(ctx, doc)
		if err != nil {
			return nil, err
		}
		c.documents = append(c.documents, TemplateDocument{Position: i, DocumentID: doc.ID, Title: d.Title, Pages: doc.PageCount,
			PageBoxes: doc.Pages, Fingerprint: fp})
		for _, tag := range d.Tags {
			c.tags = append(c.tags, TemplateTag{
				Type: tag.Type, X: tag.X, Y: tag.Y, Width: tag.Width, Height: tag.Height, Role: roleOf[tag.SignerID],
				Document: i, CustomData: []byte(tag.CustomData.orEmpty()), Page: tag.Page, Required: tag.Required,
				StateFormat: tag.StateFormat, DateFormat: tag.DateFormat, FontSize: tag.FontSize,
			})
		}
	}
	return c, nil
}

// transactionLayout reads what a template copies of a transaction: its
// documents (without their XFDF), their tags (without ids) and its
// participants' ids and names, with four queries whatever its size.
func (s *Store) transactionLayout(ctx context.Context, orgID int64, id string) (*Transaction, error) {
	t, err := s.getTransactionRow(ctx, s.db, orgID, id)
	if err != nil {
		return nil, err
	}
	db := s.db.WithContext(ctx)
	err = db.Select("transaction_id", "position", "document_id", "title").Where("transaction_id = ?", id).Order("position").Find(&t.Documents).Error
	if err != nil {
		return nil, mapDBError(err)
	}
	var tags []Tag
	err = db.Select("document_position", "type", "x", "y", "width", "height", "signer_id", "custom_data", "page", "required",
		"state_format", "date_format", "font_size").Where("transaction_id = ?", id).Order("document_position, position").Find(&tags).Error
	if err != nil {
		return nil, mapDBError(err)
	}
	err = db.Select("participant_id", "first_name", "last_name").Where("transaction_id = ?", id).Order("position").Find(&t.Participants).Error
	if err != nil {
		return nil, mapDBError(err)
	}
	attachTags(t, tags)
	return t, nil
}

// pickDocuments keeps the documents at positions, in that order; a position
// the transaction does not have is recorded in p at #/documents/i.
func pickDocuments(p *Problems, docs []TransactionDocument, positions []int) []TransactionDocument {
	out := make([]TransactionDocument, 0, len(positions))
	for i, pos := range positions {
		if pos < 0 || pos >= len(docs) {
			p.Add(pointer("#/documents", i), "unknown_document", "problem.room.no_such_document", "documents", len(docs), "document", pos)
			continue
		}
		out = append(out, docs[pos])
	}
	return out
}
