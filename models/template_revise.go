package models

import (
	"context"
	"errors"
	"strconv"

	"github.com/markuproom/markuproom/models/revise"
)

// ReviseTemplateDocument makes a new version of template id in which its
// document at position is the uploaded document newDocumentID, each of that
// document's tags carried onto it by its words as a transaction's are
// (ReviseDocument, docs/revise.md); the other documents and their tags stay
// as they are. A template changed since it was read here is ErrConflict;
// a stale If-Match ErrPreconditionFailed; another organization's template
// or a position it does not have ErrNotFound; an unknown upload a 422 on
// /documentId. The answer is the template's new current version and the
// mapping's report, each tag named by its index in the version's tags.
func (s *Store) ReviseTemplateDocument(ctx context.Context, actor TemplateActor, id string, position int, newDocumentID, ifMatch string) (*Template, *revise.Report, error) {
	t, err := s.GetTemplate(ctx, actor.OrganizationID, id)
	if err != nil {
		return nil, nil, err
	}
	v, err := s.GetTemplateVersion(ctx, actor.OrganizationID, id, t.Version)
	if err != nil {
		return nil, nil, err
	}
	if position < 0 || position >= len(v.Documents) {
		return nil, nil, ErrNotFound
	}
	if err := s.loadTemplateFingerprints(ctx, actor.OrganizationID, v); err != nil {
		return nil, nil, err
	}
	oldDoc, err := s.GetDocument(ctx, actor.OrganizationID, v.Documents[position].DocumentID)
	if err != nil {
		return nil, nil, err
	}
	newDoc, err := s.GetDocument(ctx, actor.OrganizationID, newDocumentID)
	if errors.Is(err, ErrNotFound) {
		return nil, nil, Refusal(KindUnprocessable, "#/documentId", "unknown_document", Msg("problem.tx.unknown_upload_id", "id", Quoted(truncateForDetail(newDocumentID))))
	}
	if err != nil {
		return nil, nil, err
	}
	oldPages, err := s.pageWords(ctx, oldDoc)
	if err != nil {
		return nil, nil, err
	}
	newPages, err := s.pageWords(ctx, newDoc)
	if err != nil {
		return nil, nil, err
	}
	var tags []revise.Tag
	for i, g := range v.Tags {
		if g.Document == position {
			tags = append(tags, revise.Tag{ID: strconv.Itoa(i), Page: g.Page, Box: revise.Box{X: g.X, Y: g.Y, Width: g.Width, Height: g.Height}})
		}
	}
	report, err := revise.Match(ctx, oldPages, tags, newPages)
	if err != nil {
		return nil, nil, err
	}
	c := &templateContent{name: v.Name, description: v.Description, roles: v.Roles,
		documents: append([]TemplateDocument(nil), v.Documents...), tags: append([]TemplateTag(nil), v.Tags...)}
	for _, p := range report.Tags {
		if p.NewPage < 1 {
			continue // a new version of no pages: nowhere to go
		}
		i, _ := strconv.Atoi(p.ID)
		c.tags[i].Page, c.tags[i].X, c.tags[i].Y = p.NewPage, p.New.X, p.New.Y
	}
	d := &c.documents[position]
	d.DocumentID, d.Pages, d.PageBoxes = newDoc.ID, newDoc.PageCount, newDoc.Pages
	if d.Fingerprint, err = s.storedFingerprint(ctx, newDoc); err != nil {
		return nil, nil, err
	}
	var p Problems
	checkTemplateContent(&p, c)
	if err := p.Err(KindUnprocessable, "problem.summary.template_unprocessable"); err != nil {
		return nil, nil, err
	}
	out, err := s.addVersion(ctx, actor, id, ifMatch, func(_ *Store, now *Template) (*templateContent, *int, error) {
		if now.Version != v.Version {
			return nil, nil, ErrConflict // saved again while the words were read: revise that version
		}
		return c, nil, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, &report, nil
}
