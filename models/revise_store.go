package models

import (
	"context"
	"errors"
	"slices"

	"github.com/markuproom/markuproom/models/pdfjob"
	"github.com/markuproom/markuproom/models/revise"
	"github.com/markuproom/markuproom/models/xfdf"
)

// EventRevised records a document replaced by its revised version, its
// tags carried onto it (docs/revise.md).
const EventRevised = "revised"

// RevisedSummary records a revision as codes and counts: the document
// (position, title, old and new document id), how many of its tags moved,
// stayed and were flagged for a look, and the digest of the tags as they
// were before (TagsKept, a row of deleted_page_tags on page 0), which an
// undo in the room puts back.
type RevisedSummary struct {
	Document       int    `json:"document"`
	DocumentTitle  string `json:"documentTitle"`
	Flagged        int    `json:"flagged"`
	FromDocumentID string `json:"fromDocumentId"`
	Moved          int    `json:"moved"`
	TagsKept       string `json:"tagsKept,omitempty"`
	ToDocumentID   string `json:"toDocumentId"`
	Unchanged      int    `json:"unchanged"`
	Version        int    `json:"version"`
}

// Kind implements HistorySummary.
func (RevisedSummary) Kind() string { return EventRevised }

func (s *RevisedSummary) setVersion(n int) { s.Version = n }

// Revision is a revision's answer: the transaction as it now is and the
// mapping's report (every tag, by its tag id, with its old and new place).
type Revision struct {
	Transaction *Transaction
	Report      revise.Report
}

// ReviseDocument replaces the document documentID of transaction txID by
// the uploaded document newDocumentID of the same organization and carries
// its tags onto it by their words (models/revise), in one database
// transaction with its history entry. Another organization's transaction
// or document, or a document the transaction does not hold, is
// ErrNotFound; an unknown upload a 422 on /documentId; a transaction of a
// completed room ErrRoomCompleted; a stale If-Match ErrPreconditionFailed.
// Both versions' words are read in the PDF workers before the database
// transaction; the mapping runs inside it, on the tags as they are then.
func (s *Store) ReviseDocument(ctx context.Context, actor Actor, txID, documentID, newDocumentID, ifMatch string) (*Revision, error) {
	if _, err := s.getTransactionRow(ctx, s.db, actor.OrganizationID, txID); err != nil {
		return nil, err
	}
	oldDoc, err := s.GetDocument(ctx, actor.OrganizationID, documentID)
	if err != nil {
		return nil, err
	}
	newDoc, err := s.GetDocument(ctx, actor.OrganizationID, newDocumentID)
	if errors.Is(err, ErrNotFound) {
		return nil, Refusal(KindUnprocessable, "#/documentId", "unknown_document", Message{ID: "problem.tx.unknown_upload_id", Args: []any{"id", Quoted(truncateForDetail(newDocumentID))}})
	}
	if err != nil {
		return nil, err
	}
	if err := s.refuseCompletedRoom(ctx, txID); err != nil {
		return nil, err
	}
	in, err := s.readRevision(ctx, oldDoc, newDoc)
	if err != nil {
		return nil, err
	}
	var out *Revision
	err = s.inTx(ctx, func(tx *Store) error {
		t, err := tx.lockTransaction(ctx, actor.OrganizationID, txID)
		if err != nil {
			return err
		}
		if ifMatch != "" && !etagMatches(ifMatch, t.ETag()) {
			return ErrPreconditionFailed
		}
		if err := tx.refuseCompletedRoom(ctx, txID); err != nil {
			return err
		}
		if err := tx.loadChildren(ctx, t); err != nil {
			return err
		}
		pos := slices.IndexFunc(t.Documents, func(d TransactionDocument) bool { return d.DocumentID == documentID })
		if pos < 0 {
			return ErrNotFound
		}
		var b writeBatch
		report, summary, err := tx.addRevision(ctx, &b, t, &t.Documents[pos], in)
		if err != nil {
			return err
		}
		t.Version, t.UpdatedAt = t.Version+1, tx.Now()
		summary.Version = t.Version
		b.add(`UPDATE transactions SET version = ?, updated_at = ? WHERE id = ?`, t.Version, t.UpdatedAt, t.ID)
		if err := tx.addEvent(ctx, &b, t, actor, summary); err != nil {
			return err
		}
		if err := tx.execBatch(ctx, &b); err != nil {
			return err
		}
		out = &Revision{Transaction: t, Report: report}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// revisionInput is what a revision reads before its database transaction:
// both versions of the document and their pages' printed words (read in
// the PDF workers).
type revisionInput struct {
	oldDoc, newDoc     *Document
	oldPages, newPages []revise.Page
}

// readRevision reads both versions' words for a revision of oldDoc into newDoc.
func (s *Store) readRevision(ctx context.Context, oldDoc, newDoc *Document) (*revisionInput, error) {
	in := &revisionInput{oldDoc: oldDoc, newDoc: newDoc}
	var err error
	if in.oldPages, err = s.pageWords(ctx, oldDoc); err != nil {
		return nil, err
	}
	if in.newPages, err = s.pageWords(ctx, newDoc); err != nil {
		return nil, err
	}
	return in, nil
}

// addRevision maps the tags of doc (a document of t, with its tags loaded)
// from in.oldDoc onto in.newDoc and adds the writes to b: each tag's page
// and position (its next version; flagged ones keep their reason), the
// document row pointed at the new upload with its XFDF rebuilt. The tags as
// they were are kept whole (keepTags, named by the summary's TagsKept) and
// the old upload remembered as one the transaction held, so that the room's
// undo (RestoreRoomDocument) can bring both back. It returns the mapping's
// report and the history entry, its version left to the caller.
func (s *Store) addRevision(ctx context.Context, b *writeBatch, t *Transaction, doc *TransactionDocument, in *revisionInput) (revise.Report, *RevisedSummary, error) {
	tags := make([]revise.Tag, len(doc.Tags))
	before := make([]DeletedTag, len(doc.Tags))
	for i, g := range doc.Tags {
		tags[i] = revise.Tag{ID: g.TagID, Page: g.Page, Box: revise.Box{X: g.X, Y: g.Y, Width: g.Width, Height: g.Height}}
		before[i] = deletedTagOf(g)
	}
	report, err := revise.Match(ctx, in.oldPages, tags, in.newPages)
	if err != nil {
		return report, nil, err
	}
	kept, err := s.keepTags(ctx, t.ID, in.oldDoc.ID, 0, before)
	if err != nil {
		return report, nil, err
	}
	if err := s.rememberPastDocument(ctx, t.ID, in.oldDoc.ID); err != nil {
		return report, nil, err
	}
	for i, p := range report.Tags {
		g := &doc.Tags[i]
		if p.NewPage < 1 { // a new version of no pages: nowhere to go
			continue
		}
		g.Page, g.X, g.Y, g.Version, g.NeedsLook = p.NewPage, p.New.X, p.New.Y, g.Version+1, nil
		if p.Outcome == revise.Flagged {
			g.NeedsLook = &p.Reason
		}
		b.add(`UPDATE transaction_tags SET page = ?, x = ?, y = ?, version = version + 1, needs_look = ? WHERE transaction_id = ? AND document_position = ? AND position = ?`,
			g.Page, g.X, g.Y, g.NeedsLook, t.ID, doc.Position, g.Position)
	}
	merged, err := xfdf.MergeText([]byte(doc.XFDF), tagsToXFDF(t.ID, doc.Position, doc.Tags, colorsOf(t.Participants)))
	if err != nil {
		return report, nil, err
	}
	doc.DocumentID, doc.GCSRefID, doc.Pages, doc.XFDF = in.newDoc.ID, in.newDoc.ObjectKey, in.newDoc.PageCount, string(merged)
	b.add(`UPDATE transaction_documents SET document_id = ?, gcs_ref_id = ?, pages = ?, xfdf = ? WHERE transaction_id = ? AND position = ?`,
		doc.DocumentID, doc.GCSRefID, doc.Pages, doc.XFDF, t.ID, doc.Position)
	return report, &RevisedSummary{Document: doc.Position, DocumentTitle: doc.Title, FromDocumentID: in.oldDoc.ID, ToDocumentID: in.newDoc.ID,
		Moved: report.Moved, Unchanged: report.Unchanged, Flagged: report.Flagged, TagsKept: kept}, nil
}

// ParseRevisionInput reads the body of a revision, {"documentId": "…"}:
// the id of the upload that replaces the transaction's document. A body
// that is not that is a 400 naming each problem.
func ParseRevisionInput(body []byte) (string, error) {
	var p Problems
	o, ok := parseBody(&p, body)
	if !ok {
		return "", p.Err(KindInvalid, "problem.summary.request_json")
	}
	id, _ := o.str("documentId", true, MaxShortTextLength)
	o.finish()
	if err := p.Err(KindInvalid, "problem.summary.request_invalid"); err != nil {
		return "", err
	}
	return id, nil
}

// refuseCompletedRoom is ErrRoomCompleted when a room of the transaction
// created its e-signature session: its documents are then what was sent.
func (s *Store) refuseCompletedRoom(ctx context.Context, txID string) error {
	var n int64
	err := s.db.WithContext(ctx).Model(&Room{}).Where("transaction_id = ? AND status = ?", txID, RoomCompleted).Count(&n).Error
	if err != nil {
		return mapDBError(err)
	}
	if n > 0 {
		return ErrRoomCompleted
	}
	return nil
}

// pageWords are the pages and printed words of a stored document, read in
// a PDF worker.
func (s *Store) pageWords(ctx context.Context, d *Document) ([]revise.Page, error) {
	var pages []revise.Page
	err := s.withStoredFile(ctx, d, func(path string) error {
		res, err := pdfjob.ReadPageWordsIn(ctx, s.pdf.pool, s.pdf.limits, path)
		pages = res.Pages
		return busy(err)
	})
	return pages, err
}
