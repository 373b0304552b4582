package models

import (
	"context"
	"time"

	"gorm.io/gorm/clause"

	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/xfdf"
)

// Event kinds of documents added to or removed from a room.
const (
	EventDocumentAdded   = "document_added"
	EventDocumentRemoved = "document_removed"
)

// CheckRoomUpload tells whether a document may be uploaded into a room now:
// the room open (expired 410, completed 409), staff allowed to add documents
// (they may when the room started without any, otherwise only with
// documents.edit; 403) and room for one more document. The room's upload
// route calls it before it reads the file, so that no PDF work is done for
// an upload that would be refused; AddRoomDocument checks again.
func (s *Store) CheckRoomUpload(ctx context.Context, roomID string) error {
	room, err := s.checkRoom(ctx, roomID, "")
	if err != nil {
		return err
	}
	var count int
	if err := s.db.WithContext(ctx).Model(&Transaction{}).Where("id = ? AND organization_id = ?", room.TransactionID, room.OrganizationID).
		Select("document_count").Scan(&count).Error; err != nil {
		return mapDBError(err)
	}
	return checkRoomUpload(room, count)
}

// checkRoomUpload is CheckRoomUpload's rule on a room and its transaction's document count.
func checkRoomUpload(room *Room, documents int) error {
	if !room.CanAddDocuments() {
		return &ForbiddenError{Action: ActionEditTags}
	}
	if documents >= MaxDocuments {
		return Unprocessable("#/file", "too_many_documents", "problem.tx.too_many_documents", "max", MaxDocuments)
	}
	return nil
}

// AddedRoomDocument is what adding a document to a room did: the stored
// upload, its position in the transaction, the tags placed on it from its
// own text tags and form fields (their ids, in order) and the text tags it
// could not read (its detection's problems), which the room shows.
type AddedRoomDocument struct {
	Document *Document
	Position int
	TagIDs   []string
	Problems []detect.DetectProblem
}

// AddRoomDocument stores a staged upload and appends it to the room's
// transaction as its last document. As at room creation, with the room's
// config.documents.detectTags the document's own text tags and form fields
// are placed on it (placedTags: signer n is the transaction's n-th
// participant) in the same database transaction; its suggested fields are
// offered from its stored detection. The upload is stored (PDF and document
// row) before the database transaction, which checks the room
// (CheckRoomUpload's rules) and writes the transaction's rows; the stored
// document is removed again if the change fails.
func (s *Store) AddRoomDocument(ctx context.Context, roomID string, u *StagedUpload, title string) (*AddedRoomDocument, error) {
	room, err := s.checkRoom(ctx, roomID, "")
	if err != nil {
		return nil, err
	}
	doc, err := s.SaveDocument(ctx, u, NewDocument{OrganizationID: room.OrganizationID, Title: title})
	if err != nil {
		return nil, err
	}
	found, err := doc.storedDetection()
	if err != nil {
		s.discardDocument(ctx, doc)
		return nil, err
	}
	out := &AddedRoomDocument{Document: doc, TagIDs: []string{}, Problems: []detect.DetectProblem{}}
	if found != nil && found.Problems != nil {
		out.Problems = found.Problems
	}
	err = s.editRoomDocuments(ctx, roomID, func(tx *Store, room *Room, t *Transaction) error {
		if err := checkRoomUpload(room, t.DocumentCount); err != nil {
			return err
		}
		row := TransactionDocument{
			TransactionID: t.ID, Position: t.DocumentCount, DocumentID: doc.ID, GCSRefID: doc.ObjectKey, Title: doc.Title,
			SessionType: "esign", Type: "undetermined", Pages: doc.PageCount,
		}
		tags, err := tx.uploadTags(ctx, room, t, found, row.Position)
		if err != nil {
			return err
		}
		merged, err := xfdf.MergeText(nil, tagsToXFDF(t.ID, row.Position, tags.rows, colorsOf(tags.participants)))
		if err != nil {
			return err
		}
		row.XFDF = merged
		var b writeBatch
		addRows(&b, tx.batchRows(), "transaction_documents", documentColumns(), []TransactionDocument{row}, documentValues)
		tx.addTagRows(&b, tags.rows)
		if err := tx.execBatch(ctx, &b); err != nil {
			return err
		}
		t.DocumentCount++
		t.TagCount += len(tags.rows)
		out.Position = row.Position
		for _, tag := range tags.rows {
			out.TagIDs = append(out.TagIDs, tag.TagID)
		}
		return tx.bumpTransaction(ctx, room, t, &DocumentAddedSummary{
			Document: row.Position, DocumentTitle: doc.Title, Pages: doc.PageCount, DocumentID: doc.ID, TagsPlaced: len(tags.rows),
		})
	})
	if err != nil {
		s.discardDocument(ctx, doc)
		return nil, err
	}
	return out, nil
}

// placedOnUpload are the tags an upload into a room places, as rows, with
// the transaction's participants (their colours go into the XFDF).
type placedOnUpload struct {
	rows         []Tag
	participants []Participant
}

// uploadTags builds the tags a document added to a room at position pos
// places (none without config.documents.detectTags): placedTags against the
// transaction's participants in their order, as new rows. found is the
// document's detection, decoded once before the room change.
func (s *Store) uploadTags(ctx context.Context, room *Room, t *Transaction, found *detect.Detection, pos int) (placedOnUpload, error) {
	var out placedOnUpload
	if err := s.db.WithContext(ctx).Where("transaction_id = ?", t.ID).Order("position").Find(&out.participants).Error; err != nil {
		return out, mapDBError(err)
	}
	if !room.Config.Documents.DetectTags {
		return out, nil
	}
	people := make([]ParticipantInput, len(out.participants))
	for i, p := range out.participants {
		people[i] = ParticipantInput{ID: p.ParticipantID}
	}
	inputs, err := placedTags(found, people)
	if err != nil {
		return out, err
	}
	for j, ti := range inputs {
		id, err := NewTagID()
		if err != nil {
			return out, err
		}
		out.rows = append(out.rows, Tag{
			TransactionID: t.ID, DocumentPosition: pos, Position: j, TagID: id, Type: ti.Type,
			X: ti.X, Y: ti.Y, Width: ti.Width, Height: ti.Height, SignerID: ti.SignerID,
			CustomData: ti.CustomData, Page: ti.Page, Required: ti.Required,
			StateFormat: ti.StateFormat, DateFormat: ti.DateFormat, FontSize: ti.FontSize,
		})
	}
	return out, nil
}

// RemoveRoomDocument removes the document at position pos and its tags from
// a room's transaction (documents.advancedEdit); the documents after it move
// up one position with their tags. The upload itself stays, and the
// document's row and tags are kept (keepRemoval) so that RestoreRoomRemoval
// can bring them back; the answer names the kept row. A non-empty current
// is the document id the caller believes is at pos (a redo): another one is
// refused (422 "document_changed").
func (s *Store) RemoveRoomDocument(ctx context.Context, roomID string, pos int, current string) (*RoomRemoval, error) {
	var done *RoomRemoval
	err := s.editRoomDocuments(ctx, roomID, func(tx *Store, room *Room, t *Transaction) error {
		if err := room.Config.Require(ActionAdvancedEdit); err != nil {
			return err
		}
		var docs []TransactionDocument
		if err := tx.db.WithContext(ctx).Where("transaction_id = ? AND position = ?", t.ID, pos).Limit(1).Find(&docs).Error; err != nil {
			return mapDBError(err)
		}
		if len(docs) == 0 {
			return ErrNotFound
		}
		if current != "" && current != docs[0].DocumentID {
			return errDocumentChanged(docs[0].Title)
		}
		var tags []Tag
		if err := tx.db.WithContext(ctx).Where("transaction_id = ? AND document_position = ?", t.ID, pos).Order("position").Find(&tags).Error; err != nil {
			return mapDBError(err)
		}
		kept := keptDocument{Document: docs[0], Tags: make([]DeletedTag, len(tags))}
		for i, tg := range tags {
			kept.Tags[i] = deletedTagOf(tg)
		}
		id, err := tx.keepRemoval(ctx, t.ID, RemovalDocument, kept)
		if err != nil {
			return err
		}
		done = &RoomRemoval{Kind: RemovalDocument, Removal: id, Position: pos, DocumentID: docs[0].DocumentID, Title: docs[0].Title, Tags: len(tags)}
		db := tx.db.WithContext(ctx)
		res := db.Exec("DELETE FROM transaction_tags WHERE transaction_id = ? AND document_position = ?", t.ID, pos)
		if res.Error != nil {
			return mapDBError(res.Error)
		}
		removed := int(res.RowsAffected)
		if err := tx.rememberPastDocument(ctx, t.ID, docs[0].DocumentID); err != nil {
			return err
		}
		if err := db.Exec("DELETE FROM transaction_documents WHERE transaction_id = ? AND position = ?", t.ID, pos).Error; err != nil {
			return mapDBError(err)
		}
		// Shift later documents and their tags down by one, through a range no
		// row uses, so no step collides with a row not yet moved.
		const park = 1000000
		for _, sql := range []string{
			"UPDATE transaction_documents SET position = position + ? WHERE transaction_id = ? AND position > ?",
			"UPDATE transaction_tags SET document_position = document_position + ?, version = version + 1 WHERE transaction_id = ? AND document_position > ?",
		} {
			if err := db.Exec(sql, park, t.ID, pos).Error; err != nil {
				return mapDBError(err)
			}
		}
		for _, sql := range []string{
			"UPDATE transaction_documents SET position = position - ? WHERE transaction_id = ? AND position > ?",
			"UPDATE transaction_tags SET document_position = document_position - ?, version = version + 1 WHERE transaction_id = ? AND document_position > ?",
		} {
			if err := db.Exec(sql, park+1, t.ID, park).Error; err != nil {
				return mapDBError(err)
			}
		}
		t.DocumentCount--
		t.TagCount -= removed
		return tx.bumpTransaction(ctx, room, t, &DocumentRemovedSummary{
			Document: pos, DocumentTitle: docs[0].Title, TagsRemoved: removed, DocumentID: docs[0].DocumentID,
		})
	})
	if err != nil {
		return nil, err
	}
	return done, nil
}

// editRoomDocuments runs one document change of an open room with its
// transaction row locked, in one database transaction.
func (s *Store) editRoomDocuments(ctx context.Context, roomID string, change func(tx *Store, room *Room, t *Transaction) error) error {
	return s.inTx(ctx, func(tx *Store) error {
		room, t, err := tx.lockRoom(ctx, roomID, "")
		if err != nil {
			return err
		}
		return change(tx, room, t)
	})
}

// bumpTransaction stores a room change's new counts, moves the transaction
// to its next version and records the change in its history.
func (s *Store) bumpTransaction(ctx context.Context, room *Room, t *Transaction, summary roomEditSummary) error {
	var b writeBatch
	if err := s.addBump(ctx, &b, room, t, summary); err != nil {
		return err
	}
	return s.execBatch(ctx, &b)
}

// addBump adds bumpTransaction's writes to b, after the change's own.
func (s *Store) addBump(ctx context.Context, b *writeBatch, room *Room, t *Transaction, summary roomEditSummary) error {
	t.Version++
	t.UpdatedAt = s.Now()
	b.add("UPDATE transactions SET version = ?, document_count = ?, tag_count = ?, updated_at = ? WHERE id = ?",
		t.Version, t.DocumentCount, t.TagCount, t.UpdatedAt, t.ID)
	summary.setVersion(t.Version)
	return s.addEvent(ctx, b, t, roomActor(ctx, room), summary)
}

// RoomDocument reads a document of a room's transaction by its document id,
// in one query that also reads the room's state (the room's PDF route). The
// documents the transaction holds now and those a page edit or a removal
// replaced (transaction_past_documents) are served; another room's id is
// ErrNotFound. A room that has expired, by its clock or because an admin
// ended it, is ErrRoomExpired, as on every other room route.
func (s *Store) RoomDocument(ctx context.Context, roomID, documentID string) (*Document, error) {
	var rows []struct {
		Document      `gorm:"embedded"`
		RoomState     string    `gorm:"column:room_state"`
		RoomExpiresAt time.Time `gorm:"column:room_expires_at"`
	}
	err := s.db.WithContext(ctx).Model(&Document{}).
		Select("documents.*, r.status AS room_state, r.expires_at AS room_expires_at").
		Joins("JOIN markup_rooms r ON r.organization_id = documents.organization_id").
		Where("r.id = ? AND documents.id = ?", roomID, documentID).
		Where("(EXISTS (SELECT 1 FROM transaction_documents td WHERE td.transaction_id = r.transaction_id AND td.document_id = documents.id)" +
			" OR EXISTS (SELECT 1 FROM transaction_past_documents pd WHERE pd.transaction_id = r.transaction_id AND pd.document_id = documents.id))").
		Limit(1).Scan(&rows).Error
	if err != nil {
		return nil, mapDBError(err)
	}
	if len(rows) == 0 {
		return nil, ErrNotFound
	}
	room := Room{State: rows[0].RoomState, ExpiresAt: rows[0].RoomExpiresAt}
	if room.Status(s.Now()) == RoomExpired {
		return nil, ErrRoomExpired
	}
	d := rows[0].Document
	return &d, nil
}

// pastDocument is a document a transaction held before a room change
// replaced or removed it (table transaction_past_documents).
type pastDocument struct {
	TransactionID string    `gorm:"column:transaction_id;primaryKey"`
	DocumentID    string    `gorm:"column:document_id;primaryKey"`
	CreatedAt     time.Time `gorm:"column:created_at"`
}

// TableName implements gorm's Tabler.
func (pastDocument) TableName() string { return "transaction_past_documents" }

// rememberPastDocument records that a transaction held a document a room
// change is about to replace or remove, so that the room keeps serving it.
func (s *Store) rememberPastDocument(ctx context.Context, transactionID, documentID string) error {
	return mapDBError(s.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).
		Create(&pastDocument{TransactionID: transactionID, DocumentID: documentID, CreatedAt: s.Now()}).Error)
}
