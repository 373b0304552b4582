package models

import (
	"context"
	"strings"
)

// What a replace changed, by name, for its history entry (ReplacedSummary):
// the participants and documents before (read from the database when the
// caller did not load them) against those after.

// loadReplacedNames reads old's participants and documents, with only the
// columns the history names, when the caller has not loaded them (the API's
// replace): one query, before the rows are deleted.
func (s *Store) loadReplacedNames(ctx context.Context, old *Transaction) error {
	if !needsReplacedNames(old) {
		return nil
	}
	var rows []replacedName
	err := s.db.WithContext(ctx).Raw(`SELECT 'p' AS kind, position, participant_id AS id, first_name AS first,
	COALESCE(middle_name, '') AS middle, last_name AS last, email, authentication_type AS auth
	FROM transaction_participants WHERE transaction_id = ?
	UNION ALL SELECT 'd', position, document_id, title, '', '', '', '' FROM transaction_documents WHERE transaction_id = ?
	ORDER BY kind, position`, old.ID, old.ID).Scan(&rows).Error
	if err != nil {
		return mapDBError(err)
	}
	setReplacedNames(old, rows)
	return nil
}

// needsReplacedNames tells whether old's participants and documents are
// still to be read (a room edit has them already).
func needsReplacedNames(old *Transaction) bool {
	return old.Participants == nil && old.Documents == nil && (old.ParticipantCount != 0 || old.DocumentCount != 0)
}

// replacedName is one participant ('p') or document ('d') about to be replaced.
type replacedName struct {
	Kind     string
	Position int
	ID       string
	First    string
	Middle   string
	Last     string
	Email    string
	Auth     string
}

// deleteReplacedChildren deletes old's tags, participants and documents
// (deleteChildren) after reading the names the history needs
// (loadReplacedNames). On PostgreSQL, while they are still to be read, it is
// one statement: the deletes return them.
func (s *Store) deleteReplacedChildren(ctx context.Context, old *Transaction) error {
	if s.dialect != DialectPostgres || !needsReplacedNames(old) {
		if err := s.loadReplacedNames(ctx, old); err != nil {
			return err
		}
		return s.deleteChildren(ctx, old.ID)
	}
	var rows []replacedName
	err := s.db.WithContext(ctx).Raw(`WITH tags AS (DELETE FROM transaction_tags WHERE transaction_id = ?),
	p AS (DELETE FROM transaction_participants WHERE transaction_id = ? RETURNING 'p' AS kind, position, participant_id AS id,
		first_name AS first, COALESCE(middle_name, '') AS middle, last_name AS last, email, authentication_type AS auth),
	d AS (DELETE FROM transaction_documents WHERE transaction_id = ? RETURNING 'd' AS kind, position, document_id AS id,
		title AS first, '' AS middle, '' AS last, '' AS email, '' AS auth)
	SELECT * FROM p UNION ALL SELECT * FROM d ORDER BY kind, position`, old.ID, old.ID, old.ID).Scan(&rows).Error
	if err != nil {
		return mapDBError(err)
	}
	setReplacedNames(old, rows)
	return nil
}

// setReplacedNames gives old the participants and documents of rows (by kind, then position).
func setReplacedNames(old *Transaction, rows []replacedName) {
	for _, r := range rows {
		if r.Kind == "d" {
			old.Documents = append(old.Documents, TransactionDocument{Position: r.Position, DocumentID: r.ID, Title: r.First})
			continue
		}
		p := Participant{Position: r.Position, ParticipantID: r.ID, FirstName: r.First, LastName: r.Last, Email: r.Email, AuthenticationType: r.Auth}
		if r.Middle != "" {
			middle := r.Middle
			p.MiddleName = &middle
		}
		old.Participants = append(old.Participants, p)
	}
}

// describeReplace fills sum's lists of participants and documents added,
// removed, renamed or changed between old and t.
func describeReplace(sum *ReplacedSummary, old, t *Transaction) {
	var ids changedParticipants
	defer func() { sum.participant = ids.target() }()
	for i := range t.Participants {
		if i < len(old.Participants) && old.Participants[i].ParticipantID != t.Participants[i].ParticipantID {
			sum.reordered = true
			ids.first(3, t.Participants[i].ParticipantID)
			break
		}
	}
	before := map[string]*Participant{}
	for i := range old.Participants {
		before[old.Participants[i].ParticipantID] = &old.Participants[i]
	}
	for i := range t.Participants {
		p := &t.Participants[i]
		was, ok := before[p.ParticipantID]
		if !ok {
			sum.ParticipantsAdded = append(sum.ParticipantsAdded, p.FullName())
			ids.first(0, p.ParticipantID)
			continue
		}
		delete(before, p.ParticipantID)
		if was.FullName() != p.FullName() {
			sum.ParticipantsRenamed = append(sum.ParticipantsRenamed, Rename{From: was.FullName(), To: p.FullName()})
			ids.first(2, p.ParticipantID)
		}
		change := ParticipantChange{Name: p.FullName()}
		if !strings.EqualFold(was.Email, p.Email) {
			change.Email = &Rename{From: was.Email, To: p.Email}
		}
		if was.AuthenticationType != p.AuthenticationType {
			change.Auth = &Rename{From: was.AuthenticationType, To: p.AuthenticationType}
		}
		if change.Email != nil || change.Auth != nil {
			sum.ParticipantsChanged = append(sum.ParticipantsChanged, change)
			ids.first(3, p.ParticipantID)
		}
	}
	for i := range old.Participants {
		if _, gone := before[old.Participants[i].ParticipantID]; gone {
			sum.ParticipantsRemoved = append(sum.ParticipantsRemoved, old.Participants[i].FullName())
			ids.first(1, old.Participants[i].ParticipantID)
		}
	}
	// A document id may appear twice: the copies pair in order.
	docs := map[string][]*TransactionDocument{}
	for i := range old.Documents {
		id := old.Documents[i].DocumentID
		docs[id] = append(docs[id], &old.Documents[i])
	}
	for i := range t.Documents {
		d := &t.Documents[i]
		queue := docs[d.DocumentID]
		if len(queue) == 0 {
			sum.DocumentsAdded = append(sum.DocumentsAdded, d.Title)
			continue
		}
		was := queue[0]
		docs[d.DocumentID] = queue[1:]
		if was.Title != d.Title {
			sum.DocumentsRenamed = append(sum.DocumentsRenamed, Rename{From: was.Title, To: d.Title})
		}
	}
	for i := range old.Documents {
		for _, left := range docs[old.Documents[i].DocumentID] {
			if left == &old.Documents[i] {
				sum.DocumentsRemoved = append(sum.DocumentsRemoved, left.Title)
			}
		}
	}
}

// changedParticipants keeps the first participant id a replace added (0),
// removed (1), renamed (2) or changed or moved (3): its audit event's
// target is the first of those in that order.
type changedParticipants [4]string

func (c *changedParticipants) first(kind int, id string) {
	if c[kind] == "" {
		c[kind] = id
	}
}

func (c *changedParticipants) target() string {
	for _, id := range c {
		if id != "" {
			return id
		}
	}
	return ""
}
