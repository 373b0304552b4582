package models

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/markuproom/markuproom/models/secret"
)

// Kinds of a room removal (RoomRemoval.Kind) and of its undo.
const (
	RemovalDocument    = "document_removed"
	RemovalParticipant = "participant_removed"
	RestoredDocument   = "document_restored"
	RestoredPeople     = "participant_restored"
)

// maxKeptRemovals is how many removals of one transaction are kept for an
// undo: the editor's undo history holds 100 steps.
const maxKeptRemovals = 100

// RoomRemoval is what a document or participant removal (or its undo) did,
// as the room's editor records it in its undo history: Removal names the
// kept row an undo restores (empty in an undo's answer).
type RoomRemoval struct {
	Kind          string `json:"kind"`
	Removal       string `json:"removal,omitempty"`
	Position      int    `json:"position"`
	DocumentID    string `json:"documentId,omitempty"`
	ParticipantID string `json:"participantId,omitempty"`
	Title         string `json:"title"`
	Tags          int    `json:"tags"`
}

// roomRemoval is one removal kept for its undo (table room_removals).
type roomRemoval struct {
	ID            string    `gorm:"column:id;primaryKey"`
	TransactionID string    `gorm:"column:transaction_id"`
	Seq           int64     `gorm:"column:seq"`
	Kind          string    `gorm:"column:kind"`
	Kept          string    `gorm:"column:kept"`
	CreatedAt     time.Time `gorm:"column:created_at"`
}

// TableName implements gorm's Tabler.
func (roomRemoval) TableName() string { return "room_removals" }

// keptDocument is a removed document: its row and its tags, whole.
type keptDocument struct {
	Document TransactionDocument `json:"document"`
	Tags     []DeletedTag        `json:"tags"`
}

// keptParticipant is a removed participant at Index of the participants,
// with their tags, each at its document position and index among that
// document's tags.
type keptParticipant struct {
	Index       int              `json:"index"`
	Participant ParticipantInput `json:"participant"`
	// PasswordHash is their stored personal-password hash (the password
	// itself is never held), so that they come back able to sign in.
	PasswordHash *string         `json:"passwordHash,omitempty"`
	Tags         []keptSignerTag `json:"tags"`
}

type keptSignerTag struct {
	Document int        `json:"document"`
	Index    int        `json:"index"`
	Tag      DeletedTag `json:"tag"`
}

// errRoomChanged refuses an undo or redo of a removal made against a room
// whose documents or participants changed since (another window).
func errRoomChanged(what string) error {
	if what == "participants" {
		return Unprocessable("#/current", "room_changed", "problem.room.participants_changed")
	}
	return Unprocessable("#/current", "room_changed", "problem.room.documents_changed")
}

// keepRemoval stores what a removal took away and returns the row's id;
// the transaction's oldest rows beyond maxKeptRemovals go. It runs inside a
// room change, with the transaction row locked, so seq (the order of a
// transaction's removals) is taken without a race.
func (s *Store) keepRemoval(ctx context.Context, txID, kind string, kept any) (string, error) {
	b, err := json.Marshal(kept)
	if err != nil {
		return "", err
	}
	id, err := secret.RandomHex(12)
	if err != nil {
		return "", err
	}
	db := s.db.WithContext(ctx)
	var last int64
	if err := db.Model(&roomRemoval{}).Where("transaction_id = ?", txID).Select("COALESCE(MAX(seq), 0)").Scan(&last).Error; err != nil {
		return "", mapDBError(err)
	}
	row := roomRemoval{ID: "rm_" + id, TransactionID: txID, Seq: last + 1, Kind: kind, Kept: string(b), CreatedAt: s.Now()}
	if err := db.Create(&row).Error; err != nil {
		return "", mapDBError(err)
	}
	if err := db.Where("transaction_id = ? AND seq <= ?", txID, row.Seq-maxKeptRemovals).Delete(&roomRemoval{}).Error; err != nil {
		return "", mapDBError(err)
	}
	return "rm_" + id, nil
}

// keptRemoval reads a kept removal of a transaction; ErrNotFound when there is none.
func (s *Store) keptRemoval(ctx context.Context, txID, id string) (*roomRemoval, error) {
	var rows []roomRemoval
	if err := s.db.WithContext(ctx).Where("transaction_id = ? AND id = ?", txID, id).Limit(1).Find(&rows).Error; err != nil {
		return nil, mapDBError(err)
	}
	if len(rows) == 0 {
		return nil, ErrNotFound
	}
	return &rows[0], nil
}

// JoinIDs is how a room's document or participant ids in order are sent
// with an undo ("current"): joined by commas.
func JoinIDs(ids []string) string { return strings.Join(ids, ",") }

// RestoreRoomRemoval undoes a removal kept as removalID: a document comes
// back at its old position (the documents from there on move down one) with
// its tags, ids and all; a participant comes back at their old place with
// their tags, each at its old place among its document's tags. documents
// and participants are the room's document ids and participant ids in
// order as the caller sees them (JoinIDs): when the room's are others now
// (changed in another window), the undo is refused (422 "room_changed") and
// nothing changes. A removal this room's transaction does not keep is
// ErrNotFound.
func (s *Store) RestoreRoomRemoval(ctx context.Context, roomID, removalID, documents, participants string) (*RoomRemoval, error) {
	room, err := s.checkRoom(ctx, roomID, "")
	if err != nil {
		return nil, err
	}
	row, err := s.keptRemoval(ctx, room.TransactionID, removalID)
	if err != nil {
		return nil, err
	}
	switch row.Kind {
	case RemovalDocument:
		var kept keptDocument
		if err := json.Unmarshal([]byte(row.Kept), &kept); err != nil {
			return nil, fmt.Errorf("restore removal %s: %w", row.ID, err)
		}
		return s.restoreDocument(ctx, roomID, row.ID, documents, &kept)
	case RemovalParticipant:
		var kept keptParticipant
		if err := json.Unmarshal([]byte(row.Kept), &kept); err != nil {
			return nil, fmt.Errorf("restore removal %s: %w", row.ID, err)
		}
		return s.restoreParticipant(ctx, roomID, row.ID, documents, participants, &kept)
	}
	return nil, fmt.Errorf("restore removal %s: unknown kind %q", row.ID, row.Kind)
}

// documentIDs reads the document ids of a transaction in order.
func (s *Store) documentIDs(ctx context.Context, txID string) ([]string, error) {
	var ids []string
	err := s.db.WithContext(ctx).Model(&TransactionDocument{}).Where("transaction_id = ?", txID).Order("position").Pluck("document_id", &ids).Error
	return ids, mapDBError(err)
}

func (s *Store) restoreDocument(ctx context.Context, roomID, removalID, documents string, kept *keptDocument) (*RoomRemoval, error) {
	var done *RoomRemoval
	err := s.editRoomDocuments(ctx, roomID, func(tx *Store, room *Room, t *Transaction) error {
		if err := room.Config.Require(ActionAdvancedEdit); err != nil {
			return err
		}
		ids, err := tx.documentIDs(ctx, t.ID)
		if err != nil {
			return err
		}
		if JoinIDs(ids) != documents {
			return errRoomChanged("documents")
		}
		if len(ids) >= MaxDocuments {
			return Unprocessable("#", "too_many_documents", "problem.tx.too_many_documents_remove", "max", MaxDocuments)
		}
		pos := min(kept.Document.Position, len(ids))
		db := tx.db.WithContext(ctx)
		// Make room at pos through a range no row uses, as RemoveRoomDocument does.
		const park = 1000000
		for _, step := range []struct {
			sql        string
			by, behind int
		}{
			{"UPDATE transaction_documents SET position = position + ? WHERE transaction_id = ? AND position >= ?", park, pos},
			{"UPDATE transaction_tags SET document_position = document_position + ?, version = version + 1 WHERE transaction_id = ? AND document_position >= ?", park, pos},
			{"UPDATE transaction_documents SET position = position - ? WHERE transaction_id = ? AND position >= ?", park - 1, park},
			{"UPDATE transaction_tags SET document_position = document_position - ?, version = version + 1 WHERE transaction_id = ? AND document_position >= ?", park - 1, park},
		} {
			if err := db.Exec(step.sql, step.by, t.ID, step.behind).Error; err != nil {
				return mapDBError(err)
			}
		}
		d := kept.Document
		d.TransactionID, d.Position, d.Tags = t.ID, pos, nil
		if err := insertRows(ctx, tx, "transaction_documents", documentColumns(), []TransactionDocument{d}, documentValues); err != nil {
			return err
		}
		signers, err := tx.participantIDs(ctx, t.ID)
		if err != nil {
			return err
		}
		rows := make([]Tag, 0, len(kept.Tags))
		for _, k := range kept.Tags {
			tg := tagOfDeleted(t.ID, pos, k)
			if !slices.Contains(signers, tg.SignerID) {
				tg.SignerID = "" // a signer removed since leaves the tag unassigned
			}
			rows = append(rows, tg)
		}
		if len(rows) > 0 {
			if err := tx.insertTagRows(ctx, rows); err != nil {
				return err
			}
		}
		if err := db.Where("id = ?", removalID).Delete(&roomRemoval{}).Error; err != nil {
			return mapDBError(err)
		}
		t.DocumentCount++
		t.TagCount += len(rows)
		done = &RoomRemoval{Kind: RestoredDocument, Position: pos, DocumentID: d.DocumentID, Title: d.Title, Tags: len(rows)}
		restored := len(rows)
		return tx.bumpTransaction(ctx, room, t, &DocumentAddedSummary{
			Document: pos, DocumentTitle: d.Title, Pages: d.Pages, DocumentID: d.DocumentID, TagsRestored: &restored,
		})
	})
	if err != nil {
		return nil, err
	}
	return done, nil
}

// participantIDs reads the participant ids of a transaction in order.
func (s *Store) participantIDs(ctx context.Context, txID string) ([]string, error) {
	var ids []string
	err := s.db.WithContext(ctx).Model(&Participant{}).Where("transaction_id = ?", txID).Order("position").Pluck("participant_id", &ids).Error
	return ids, mapDBError(err)
}

func (s *Store) restoreParticipant(ctx context.Context, roomID, removalID, documents, participants string, kept *keptParticipant) (*RoomRemoval, error) {
	var done *RoomRemoval
	err := s.editRoomFor(ctx, roomID, ActionRemoveParticipant, ReasonParticipantRestored, func(tx *Store, _ *Room, in *TransactionInput) error {
		docs := make([]string, len(in.Documents))
		for i, d := range in.Documents {
			docs[i] = d.GCSRefID
		}
		people := make([]string, len(in.Participants))
		for i, p := range in.Participants {
			people[i] = p.ID
		}
		if JoinIDs(people) != participants || slices.Contains(people, kept.Participant.ID) {
			return errRoomChanged("participants")
		}
		if JoinIDs(docs) != documents {
			return errRoomChanged("documents")
		}
		at := min(kept.Index, len(in.Participants))
		p := kept.Participant
		p.keptPasswordHash = kept.PasswordHash
		in.Participants = slices.Insert(in.Participants, at, p)
		for _, k := range kept.Tags {
			if k.Document >= len(in.Documents) {
				return errRoomChanged("documents")
			}
			tags := in.Documents[k.Document].Tags
			in.Documents[k.Document].Tags = slices.Insert(tags, min(k.Index, len(tags)), tagInputOfDeleted(k.Tag))
		}
		if err := tx.db.WithContext(ctx).Where("id = ?", removalID).Delete(&roomRemoval{}).Error; err != nil {
			return mapDBError(err)
		}
		done = &RoomRemoval{Kind: RestoredPeople, Position: at, ParticipantID: p.ID,
			Title: strings.TrimSpace(p.FirstName + " " + p.LastName), Tags: len(kept.Tags)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return done, nil
}

// tagOfDeleted is a kept tag as a row of document position docPos.
func tagOfDeleted(txID string, docPos int, d DeletedTag) Tag {
	return Tag{
		TransactionID: txID, DocumentPosition: docPos, Position: d.Position, TagID: d.TagID, Type: d.Type, Page: d.Page,
		X: d.X, Y: d.Y, Width: d.Width, Height: d.Height, SignerID: d.SignerID, CustomData: RawJSON(d.CustomData),
		Required: d.Required, StateFormat: d.StateFormat, DateFormat: d.DateFormat, FontSize: d.FontSize,
	}
}

// tagInputOfDeleted is a kept tag as a room edit's input (its id kept).
func tagInputOfDeleted(d DeletedTag) TagInput {
	return TagInput{
		ID: d.TagID, Type: d.Type, X: d.X, Y: d.Y, Width: d.Width, Height: d.Height, SignerID: d.SignerID,
		CustomData: RawJSON(d.CustomData), Page: d.Page, Required: d.Required, StateFormat: d.StateFormat,
		DateFormat: d.DateFormat, FontSize: d.FontSize,
	}
}
