package models

import (
	"context"

	"github.com/markuproom/markuproom/models/revise"
)

// RoomRevision is a revision made in a room: the page edit the editor
// records as one undo step (kind "revised", the document's version before
// and after) and the mapping's report, for the room's "what changed" view.
type RoomRevision struct {
	Edit   PageEdit
	Report revise.Report
}

// ReviseRoomDocument replaces the document at docPos of a room's
// transaction (documents.advancedEdit) by its revised version and carries
// its tags onto it by their words, as ReviseDocument does for the API. The
// revised version is the staged upload u, stored first as a new document of
// the organization (and removed again if the revision fails), or, when u
// is nil, newDocumentID: a version this transaction held before (a redo
// after an undo; any other id is ErrNotFound, so a room reaches no other
// upload of its organization). A non-empty current is the document id the
// caller believes is at docPos: another one is refused (422,
// "document_changed"). Both versions' words are read in the PDF workers
// before the database transaction; inside it the room is checked again, the
// tags are mapped as they are then, and the history records a "revised"
// entry whose kept tags RestoreRoomDocument puts back on undo.
func (s *Store) ReviseRoomDocument(ctx context.Context, roomID string, docPos int, u *StagedUpload, newDocumentID, current string) (*RoomRevision, error) {
	room, doc, err := s.checkedRoomDocument(ctx, roomID, docPos, ActionAdvancedEdit)
	if err != nil {
		return nil, err
	}
	if current != "" && current != doc.upload.ID {
		return nil, errDocumentChanged(doc.row.Title)
	}
	var newDoc *Document
	if u != nil {
		if newDoc, err = s.SaveDocument(ctx, u, NewDocument{OrganizationID: room.OrganizationID, Title: doc.row.Title}); err != nil {
			return nil, err
		}
	} else if newDoc, err = s.heldDocument(ctx, room, newDocumentID); err != nil {
		return nil, err
	}
	out, err := s.reviseRoom(ctx, roomID, docPos, doc.upload, newDoc)
	if err != nil && u != nil {
		s.discardDocument(ctx, newDoc)
	}
	return out, err
}

// heldDocument is a document this room's transaction held before (the
// versions a page edit, a removal or a revision replaced), else ErrNotFound.
func (s *Store) heldDocument(ctx context.Context, room *Room, id string) (*Document, error) {
	var held int64
	if err := s.db.WithContext(ctx).Model(&pastDocument{}).Where("transaction_id = ? AND document_id = ?", room.TransactionID, id).Count(&held).Error; err != nil {
		return nil, mapDBError(err)
	}
	if held == 0 {
		return nil, ErrNotFound
	}
	return s.GetDocument(ctx, room.OrganizationID, id)
}

// reviseRoom is ReviseRoomDocument's revision of oldDoc into newDoc, both stored.
func (s *Store) reviseRoom(ctx context.Context, roomID string, docPos int, oldDoc, newDoc *Document) (*RoomRevision, error) {
	in, err := s.readRevision(ctx, oldDoc, newDoc)
	if err != nil {
		return nil, err
	}
	var out *RoomRevision
	err = s.inTx(ctx, func(tx *Store) error {
		room, t, err := tx.lockRoom(ctx, roomID, ActionAdvancedEdit)
		if err != nil {
			return err
		}
		if err := tx.loadChildren(ctx, t); err != nil {
			return err
		}
		if docPos < 0 || docPos >= len(t.Documents) {
			return ErrNotFound
		}
		doc := &t.Documents[docPos]
		if doc.DocumentID != oldDoc.ID {
			return errDocumentChanged(doc.Title)
		}
		var b writeBatch
		report, summary, err := tx.addRevision(ctx, &b, t, doc, in)
		if err != nil {
			return err
		}
		if err := tx.addBump(ctx, &b, room, t, summary); err != nil {
			return err
		}
		if err := tx.execBatch(ctx, &b); err != nil {
			return err
		}
		out = &RoomRevision{Report: report, Edit: PageEdit{Kind: EventRevised, Position: docPos, FromDocumentID: oldDoc.ID, ToDocumentID: newDoc.ID}}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// placeBack undoes a revision's moves: each tag kept before it (kept) that
// the document still holds goes back to its page and box, at its next
// version and without a flag; a tag added since stays, moved to the last
// page of the old version (pages) when it lies beyond. It returns how many
// tags went back.
func (e *pageEdit) placeBack(ctx context.Context, kept []DeletedTag, pages int) (int, error) {
	db := e.tx.db.WithContext(ctx)
	n := 0
	for _, d := range kept {
		res := db.Exec("UPDATE transaction_tags SET page = ?, x = ?, y = ?, width = ?, height = ?, needs_look = NULL, version = version + 1 WHERE transaction_id = ? AND document_position = ? AND tag_id = ?",
			d.Page, d.X, d.Y, d.Width, d.Height, e.t.ID, e.docPos, d.TagID)
		if res.Error != nil {
			return n, mapDBError(res.Error)
		}
		n += int(res.RowsAffected)
	}
	if err := db.Exec("UPDATE transaction_tags SET page = ?, version = version + 1 WHERE transaction_id = ? AND document_position = ? AND page > ?",
		pages, e.t.ID, e.docPos, pages).Error; err != nil {
		return n, mapDBError(err)
	}
	return n, nil
}
