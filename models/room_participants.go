package models

import (
	"context"
	"encoding/json"
	"strings"
)

// ParticipantForm is a participant as the room's add/edit dialog posts it.
type ParticipantForm struct {
	FirstName                string
	MiddleName               string
	LastName                 string
	Email                    string
	Phone                    string
	AuthenticationType       string
	TwoFactorContact         string
	PersonalPasswordQuestion string
	// PersonalPassword empty keeps the password stored for this participant.
	PersonalPassword     string
	KBARequired          bool
	CredAnalysisRequired bool
	// Locale is the participant's language tag ("": the room's).
	Locale string
}

// AddRoomParticipant adds a participant to a room's transaction.
func (s *Store) AddRoomParticipant(ctx context.Context, roomID string, f ParticipantForm) (string, error) {
	id, err := NewParticipantID()
	if err != nil {
		return "", err
	}
	err = s.editRoom(ctx, roomID, ActionAddParticipant, func(room *Room, in *TransactionInput) error {
		pi, err := room.participantFromForm(id, f)
		if err != nil {
			return err
		}
		if err := checkEmailFree(in, pi.Email, -1); err != nil {
			return err
		}
		in.Participants = append(in.Participants, pi)
		return nil
	})
	return id, err
}

// UpdateRoomParticipant changes a participant of a room's transaction.
func (s *Store) UpdateRoomParticipant(ctx context.Context, roomID, participantID string, f ParticipantForm) error {
	return s.editRoom(ctx, roomID, ActionEditParticipant, func(room *Room, in *TransactionInput) error {
		i := participantIndex(in, participantID)
		if i < 0 {
			return ErrNotFound
		}
		pi, err := room.participantFromForm(participantID, f)
		if err != nil {
			return err
		}
		if err := checkEmailFree(in, pi.Email, i); err != nil {
			return err
		}
		pi.Order = in.Participants[i].Order
		in.Participants[i] = pi
		return nil
	})
}

// RemoveRoomParticipant removes a participant and the tags assigned to
// them. What it removes is kept (keepRemoval) so that RestoreRoomRemoval can
// bring them back, ids and all; the answer names the kept row.
func (s *Store) RemoveRoomParticipant(ctx context.Context, roomID, participantID string) (*RoomRemoval, error) {
	var done *RoomRemoval
	err := s.editRoomWith(ctx, roomID, ActionRemoveParticipant, func(tx *Store, room *Room, in *TransactionInput) error {
		i := participantIndex(in, participantID)
		if i < 0 {
			return ErrNotFound
		}
		kept := keptParticipant{Index: i, Participant: in.Participants[i]}
		var rows []Participant
		if err := tx.db.WithContext(ctx).Select("personal_password_hash").Where("transaction_id = ? AND participant_id = ?", room.TransactionID, participantID).
			Limit(1).Find(&rows).Error; err != nil {
			return mapDBError(err)
		}
		if len(rows) > 0 {
			kept.PasswordHash = rows[0].PersonalPasswordHash
		}
		in.Participants = append(in.Participants[:i], in.Participants[i+1:]...)
		for d := range in.Documents {
			left := in.Documents[d].Tags[:0]
			for k, t := range in.Documents[d].Tags {
				if t.SignerID != participantID {
					left = append(left, t)
					continue
				}
				kept.Tags = append(kept.Tags, keptSignerTag{Document: d, Index: k, Tag: deletedTagOfInput(t)})
			}
			in.Documents[d].Tags = left
		}
		id, err := tx.keepRemoval(ctx, room.TransactionID, RemovalParticipant, kept)
		if err != nil {
			return err
		}
		p := kept.Participant
		done = &RoomRemoval{Kind: RemovalParticipant, Removal: id, Position: i, ParticipantID: participantID,
			Title: strings.TrimSpace(p.FirstName + " " + p.LastName), Tags: len(kept.Tags)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return done, nil
}

// deletedTagOfInput is a room edit's tag as a removal keeps it.
func deletedTagOfInput(t TagInput) DeletedTag {
	return DeletedTag{
		TagID: t.ID, Type: t.Type, Page: t.Page, X: t.X, Y: t.Y, Width: t.Width, Height: t.Height, SignerID: t.SignerID,
		CustomData: json.RawMessage(t.CustomData), Required: t.Required, StateFormat: t.StateFormat, DateFormat: t.DateFormat,
		FontSize: t.FontSize,
	}
}

// participantFromForm checks a posted participant against the room's flags
// (a hidden option cannot be posted: 403), then decodes it
// (ParticipantForm.draft) and checks it with the API's own rules
// (checkParticipant).
func (r *Room) participantFromForm(id string, f ParticipantForm) (ParticipantInput, error) {
	if f.KBARequired {
		if err := r.Config.Require(ActionSetKBA); err != nil {
			return ParticipantInput{}, err
		}
	}
	if f.CredAnalysisRequired {
		if err := r.Config.Require(ActionSetCredentialAnalysis); err != nil {
			return ParticipantInput{}, err
		}
	}
	switch f.AuthenticationType {
	case AuthPersonalPassword:
		if err := r.Config.Require(ActionUsePersonalPassword); err != nil {
			return ParticipantInput{}, err
		}
	case AuthTwoFactor:
		if err := r.Config.Require(ActionUseTwoFactor); err != nil {
			return ParticipantInput{}, err
		}
	}
	var p Problems
	pi := checkParticipant(&p, "#", f.draft(id))
	if pi.AuthenticationType != AuthPersonalPassword {
		pi.PersonalPassword, pi.PersonalPasswordQuestion = nil, nil
	}
	if err := p.Err(KindInvalid, "problem.summary.participant_invalid"); err != nil {
		return ParticipantInput{}, err
	}
	return pi, nil
}

// checkEmailFree refuses an e-mail that a participant other than the one at
// index self already has, compared ignoring case as a Markup Room request's
// participants are.
func checkEmailFree(in *TransactionInput, email string, self int) error {
	key := EmailKey(email)
	for i, p := range in.Participants {
		if i != self && EmailKey(p.Email) == key {
			return Invalid("#/email", "duplicate_email", "problem.room.email_taken", "name", strings.TrimSpace(p.FirstName+" "+p.LastName))
		}
	}
	return nil
}

func participantIndex(in *TransactionInput, id string) int {
	for i, p := range in.Participants {
		if p.ID == id {
			return i
		}
	}
	return -1
}

// MoveRoomParticipant moves a participant to position to (1-based) in a
// room's transaction that uses a signing order; every participant's order
// follows its new position (participants.edit).
func (s *Store) MoveRoomParticipant(ctx context.Context, roomID, participantID string, to int) error {
	return s.editRoom(ctx, roomID, ActionEditParticipant, func(_ *Room, in *TransactionInput) error {
		if in.SigningOrder == nil || !*in.SigningOrder {
			return Unprocessable("#/signingOrder", "no_signing_order", "problem.room.no_signing_order")
		}
		i := participantIndex(in, participantID)
		if i < 0 {
			return ErrNotFound
		}
		if to < 1 || to > len(in.Participants) {
			return Unprocessable("#/to", "invalid_position", "problem.room.participant_position", "to", to, "participants", len(in.Participants))
		}
		moved := in.Participants[i]
		rest := append(append([]ParticipantInput{}, in.Participants[:i]...), in.Participants[i+1:]...)
		in.Participants = append(append(append([]ParticipantInput{}, rest[:to-1]...), moved), rest[to-1:]...)
		for k := range in.Participants {
			n := k + 1
			in.Participants[k].Order = &n
		}
		return nil
	})
}
