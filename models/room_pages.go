package models

import (
	"context"
	"errors"
	"fmt"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdfjob"
	"github.com/markuproom/markuproom/models/pdfworker"
)

// Event kinds of the Markup Room's page edits.
const (
	EventPageDeleted  = "page_deleted"
	EventPageMoved    = "page_moved"
	EventPageRestored = "page_restored"
)

// PageEdit tells what one page edit (or its undo) did: the editor's undo
// history records it (document ids change with every edit; tags keep theirs).
type PageEdit struct {
	Kind           string `json:"kind"`
	Position       int    `json:"position"`
	Page           int    `json:"page,omitempty"`
	From           int    `json:"from,omitempty"`
	To             int    `json:"to,omitempty"`
	FromDocumentID string `json:"fromDocumentId"`
	ToDocumentID   string `json:"toDocumentId"`
}

// errDocumentChanged refuses a page edit or an undo made against a document
// version that is no longer the current one.
func errDocumentChanged(title string) error {
	return Unprocessable("#/current", "document_changed", "problem.room.document_changed", "title", title)
}

// DeleteRoomPage removes page n (1-based) of the document at docPos of a
// room's transaction: a new version of the PDF is stored (the upload stays),
// the document points at it, the tags of that page go and those of later
// pages move up with their pages (see editRoomPages). The deleted tags are
// kept whole (ids included; keepTags) so that an undo (RestoreRoomDocument)
// brings them back as they were. A non-empty current
// is the document id the caller believes current (a redo): another one is
// refused.
func (s *Store) DeleteRoomPage(ctx context.Context, roomID string, docPos, n int, current string) (*PageEdit, error) {
	return s.editRoomPages(ctx, roomID, docPos, current, EventPageDeleted,
		func(pages int) error {
			if n < 1 || n > pages {
				return ErrNotFound
			}
			if pages == 1 {
				return Unprocessable("#/page", "last_page", "problem.room.last_page")
			}
			return nil
		},
		pdfjob.EditArgs{Op: pdfjob.EditDelete, Page: n},
		func(ctx context.Context, e *pageEdit) error {
			var gone []Tag
			if err := e.tx.db.WithContext(ctx).Where("transaction_id = ? AND document_position = ? AND page = ?", e.t.ID, e.docPos, n).
				Order("position").Find(&gone).Error; err != nil {
				return mapDBError(err)
			}
			kept := make([]DeletedTag, len(gone))
			for i, tg := range gone {
				kept[i] = deletedTagOf(tg)
			}
			var digest string
			if len(kept) > 0 {
				var err error
				if digest, err = e.tx.keepTags(ctx, e.t.ID, e.docs.from, n, kept); err != nil {
					return err
				}
				kept = nil
			}
			e.result.Page = n
			e.pageOf = func(p int) int { return deletedPage(p, n) }
			removed, err := e.exec(ctx, "DELETE FROM transaction_tags WHERE transaction_id = ? AND document_position = ? AND page = ?", n)
			if err != nil {
				return err
			}
			e.tagDelta = -int(removed)
			e.summary = &PageDeletedSummary{
				Document: e.docPos, DocumentTitle: e.docs.title, Pages: e.docs.pages, FromDocumentID: e.docs.from, ToDocumentID: e.docs.to,
				Tags: kept, TagsKept: digest, Page: n, TagsRemoved: int(removed),
			}
			_, err = e.exec(ctx, "UPDATE transaction_tags SET page = page - 1, version = version + 1 WHERE transaction_id = ? AND document_position = ? AND page > ?", n)
			return err
		})
}

// MoveRoomPage moves page from to position to (both 1-based) in the document
// at docPos of a room's transaction; its tags move with it. current is as
// for DeleteRoomPage.
func (s *Store) MoveRoomPage(ctx context.Context, roomID string, docPos, from, to int, current string) (*PageEdit, error) {
	return s.editRoomPages(ctx, roomID, docPos, current, EventPageMoved,
		func(pages int) error {
			if from < 1 || from > pages {
				return ErrNotFound
			}
			if to < 1 || to > pages || to == from {
				return Unprocessable("#/to", "invalid_position", "problem.room.page_position", "page", from, "to", to, "pages", pages)
			}
			return nil
		},
		pdfjob.EditArgs{Op: pdfjob.EditMove, From: from, To: to},
		func(ctx context.Context, e *pageEdit) error {
			e.summary = &PageMovedSummary{
				Document: e.docPos, DocumentTitle: e.docs.title, Pages: e.docs.pages, FromDocumentID: e.docs.from, ToDocumentID: e.docs.to,
				From: from, To: to,
			}
			e.result.From, e.result.To = from, to
			e.pageOf = func(p int) int { return movedPage(p, from, to) }
			return e.moveTags(ctx, from, to)
		})
}

// moveTags moves the tags of page from to page to and those of the pages in
// between one page towards from, as moving that page does.
func (e *pageEdit) moveTags(ctx context.Context, from, to int) error {
	// Park the moved page's tags on page 0, shift the pages in between, then land them.
	if _, err := e.exec(ctx, "UPDATE transaction_tags SET page = 0, version = version + 1 WHERE transaction_id = ? AND document_position = ? AND page = ?", from); err != nil {
		return err
	}
	shift := "UPDATE transaction_tags SET page = page - 1, version = version + 1 WHERE transaction_id = ? AND document_position = ? AND page > ? AND page <= ?"
	lo, hi := from, to
	if from > to {
		shift = "UPDATE transaction_tags SET page = page + 1, version = version + 1 WHERE transaction_id = ? AND document_position = ? AND page >= ? AND page < ?"
		lo, hi = to, from
	}
	if _, err := e.exec(ctx, shift, lo, hi); err != nil {
		return err
	}
	return mapDBError(e.tx.db.WithContext(ctx).Exec("UPDATE transaction_tags SET page = ?, version = version + 1 WHERE transaction_id = ? AND document_position = ? AND page = 0",
		to, e.t.ID, e.docPos).Error)
}

// deletedPage is where page p is after page n was deleted (0: it was page n).
func deletedPage(p, n int) int {
	switch {
	case p == n:
		return 0
	case p > n:
		return p - 1
	}
	return p
}

// movedPage is where page p is after page from moved to page to.
func movedPage(p, from, to int) int {
	switch {
	case p == from:
		return to
	case from < to && p > from && p <= to:
		return p - 1
	case to < from && p >= to && p < from:
		return p + 1
	}
	return p
}

// pageEdit is one page edit in progress, inside its database transaction.
// retag sets summary, the history entry, from docs and what it did, and
// pageOf, where each page of the old version is in the new one (0: gone).
type pageEdit struct {
	tx       *Store
	t        *Transaction
	docPos   int
	docs     pageEditDocuments
	tagDelta int
	summary  roomEditSummary
	result   *PageEdit
	pageOf   func(int) int
}

// pageEditDocuments is what every page edit's history entry tells: the
// document's title, its new page count, and the upload it turned into which.
type pageEditDocuments struct {
	title    string
	pages    int
	from, to string
}

// exec runs a statement whose first two parameters are the transaction id
// and the document position, followed by args; it returns the rows affected.
func (e *pageEdit) exec(ctx context.Context, sql string, args ...any) (int64, error) {
	res := e.tx.db.WithContext(ctx).Exec(sql, append([]any{e.t.ID, e.docPos}, args...)...)
	return res.RowsAffected, mapDBError(res.Error)
}

// editRoomPages runs one page edit of a room document in three steps, so
// that no PDF work happens inside a database write transaction (SQLite's
// lock is database-wide; see docs/decisions.md, "Page edits outside the
// write lock"):
//
//  1. a plain read checks the room (state, documents.advancedEdit), the
//     document at docPos, current and the pages named (check), before any
//     PDF work;
//  2. in a PDF worker and outside any transaction, the PDF is rewritten,
//     checked and read again like an upload, and stored as a new document;
//  3. one database transaction locks the transaction row, checks the room
//     again and that the document at docPos is still the version rewritten
//     (else errDocumentChanged), and writes rows only: the document row
//     pointed at the new version, the tags moved by retag, the XFDF
//     regenerated, the version bumped and the history recorded.
//
// The new document (row and PDF) is removed again when step 3 fails.
func (s *Store) editRoomPages(ctx context.Context, roomID string, docPos int, current, kind string,
	check func(pages int) error,
	rewrite pdfjob.EditArgs,
	retag func(ctx context.Context, e *pageEdit) error) (*PageEdit, error) {
	room, before, err := s.checkedRoomDocument(ctx, roomID, docPos, ActionAdvancedEdit)
	if err != nil {
		return nil, err
	}
	if current != "" && current != before.upload.ID {
		return nil, errDocumentChanged(before.row.Title)
	}
	if err := check(before.upload.PageCount); err != nil {
		return nil, err
	}
	created, err := s.rewriteDocument(ctx, room.OrganizationID, before.upload, rewrite)
	if err != nil {
		return nil, err
	}
	var result *PageEdit
	err = s.inTx(ctx, func(tx *Store) error {
		room, t, err := tx.lockRoom(ctx, roomID, ActionAdvancedEdit)
		if err != nil {
			return err
		}
		ed := &tagEditor{tx: tx, room: room, t: t}
		row, err := tx.documentRow(ctx, t.ID, docPos)
		if err != nil {
			return err
		}
		if row.DocumentID != before.upload.ID {
			return errDocumentChanged(row.Title)
		}
		if err := tx.rememberPastDocument(ctx, t.ID, row.DocumentID); err != nil {
			return err
		}
		err = tx.db.WithContext(ctx).Model(&TransactionDocument{}).Where("transaction_id = ? AND position = ?", t.ID, docPos).
			Updates(map[string]any{"document_id": created.ID, "gcs_ref_id": created.ObjectKey, "pages": created.PageCount}).Error
		if err != nil {
			return mapDBError(err)
		}
		e := &pageEdit{tx: tx, t: t, docPos: docPos, docs: pageEditDocuments{
			title: row.Title, pages: created.PageCount, from: row.DocumentID, to: created.ID,
		}, result: &PageEdit{Kind: kind, Position: docPos, FromDocumentID: row.DocumentID, ToDocumentID: created.ID}}
		if err := retag(ctx, e); err != nil {
			return err
		}
		if e.summary == nil || e.summary.Kind() != kind || e.pageOf == nil {
			return fmt.Errorf("page edit %s: no history entry of its kind or no page map", kind)
		}
		if err := tx.carryDismissals(ctx, room.ID, row.DocumentID, created.ID, e.pageOf); err != nil {
			return err
		}
		if err := tx.db.WithContext(ctx).Where("transaction_id = ?", t.ID).Order("position").Find(&ed.participants).Error; err != nil {
			return mapDBError(err)
		}
		result = e.result
		return ed.finish(ctx, docPos, e.tagDelta, e.summary)
	})
	if err != nil {
		s.discardDocument(ctx, created)
		return nil, err
	}
	return result, nil
}

// checkedRoomDocument is the plain read that precedes a room's PDF work: the
// room checked for action (checkRoom) and the document at docPos of its
// transaction with its upload. Nothing is locked: the write that follows
// checks again inside its transaction.
func (s *Store) checkedRoomDocument(ctx context.Context, roomID string, docPos int, action RoomAction) (*Room, *roomDocument, error) {
	room, err := s.checkRoom(ctx, roomID, action)
	if err != nil {
		return nil, nil, err
	}
	row, err := s.documentRow(ctx, room.TransactionID, docPos)
	if err != nil {
		return nil, nil, err
	}
	// The upload without its detection (its JSON may be large; no page edit reads it).
	var ups []Document
	if err := s.db.WithContext(ctx).Omit("detection").Where("organization_id = ? AND id = ?", room.OrganizationID, row.DocumentID).
		Limit(1).Find(&ups).Error; err != nil {
		return nil, nil, mapDBError(err)
	}
	if len(ups) == 0 {
		return nil, nil, errors.New("page edit: the upload of a transaction document is missing")
	}
	return room, &roomDocument{row: *row, upload: &ups[0]}, nil
}

// rewriteDocument is a page edit's PDF work, in a PDF worker and outside
// any database transaction: the stored PDF of from rewritten, checked and
// read again as an upload is (detection included), and saved as a new
// document of the organization.
func (s *Store) rewriteDocument(ctx context.Context, orgID int64, from *Document, edit pdfjob.EditArgs) (*Document, error) {
	out, err := s.tempFile()
	if err != nil {
		return nil, err
	}
	staged := &StagedUpload{file: out, fileName: from.FileName}
	defer staged.Close()
	var res pdfjob.Staged
	err = s.withStoredFile(ctx, from, func(path string) error {
		res, err = s.pdf.edit(ctx, edit, path, out.Name())
		return err
	})
	if err != nil {
		var ve *ValidationError
		switch {
		case errors.Is(err, ErrNotFound) || errors.As(err, &ve) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrPDFBusy):
			return nil, err
		case errors.Is(err, pdf.ErrExpandsTooMuch):
			return nil, expandsProblem("#/document", err)
		case errors.Is(err, pdfworker.ErrLimit):
			return nil, tooComplexProblem("#/document", err)
		case errors.Is(err, pdf.ErrOutputTooLarge):
			var oe *pdf.OutputTooLargeError
			errors.As(err, &oe)
			return nil, tooLargeError(oe.Limit)
		}
		return nil, fmt.Errorf("edit the pages of document %s: %w", from.ID, err)
	}
	if s.pdfStepHook != nil {
		s.pdfStepHook(ctx)
	}
	if err := staged.adopt(out, s.pdf.limits.MaxOutputBytes); err != nil {
		return nil, err
	}
	if err := staged.keep(res); err != nil {
		return nil, err
	}
	return s.SaveDocument(ctx, staged, NewDocument{OrganizationID: orgID, Title: from.Title})
}

// documentRow reads the transaction document at docPos (ErrNotFound when
// there is none) without its upload: what a room change re-checks inside
// its database transaction.
func (s *Store) documentRow(ctx context.Context, txID string, docPos int) (*TransactionDocument, error) {
	var rows []TransactionDocument
	if err := s.db.WithContext(ctx).Where("transaction_id = ? AND position = ?", txID, docPos).Limit(1).Find(&rows).Error; err != nil {
		return nil, mapDBError(err)
	}
	if len(rows) == 0 {
		return nil, ErrNotFound
	}
	return &rows[0], nil
}

// discardDocument removes a document a failed room change saved and never
// referenced: its row and its PDF. Failures are logged, not returned (the
// caller reports the change's own error).
func (s *Store) discardDocument(ctx context.Context, d *Document) {
	ctx = context.WithoutCancel(ctx)
	if err := s.db.WithContext(ctx).Where("id = ?", d.ID).Delete(&Document{}).Error; err != nil {
		s.log.WarnContext(ctx, "remove the row of a document a failed room change saved", "document", d.ID, "error", err)
	}
	if err := s.bucket.Delete(ctx, d.ObjectKey); err != nil {
		s.log.WarnContext(ctx, "remove the PDF of a failed room change", "key", d.ObjectKey, "error", err)
	}
}
