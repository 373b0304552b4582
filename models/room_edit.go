package models

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// ErrRoomCompleted reports a change to a room whose session was already created.
var ErrRoomCompleted = errors.New("this Markup Room is completed and can no longer be changed")

// RoomWorkspace is everything the Markup Room page shows.
type RoomWorkspace struct {
	Room        *Room
	Transaction *Transaction
	Sender      *User
	// Uploads are the uploaded documents of the transaction, by document id, for page geometry.
	Uploads map[string]*Document
}

// RoomWorkspace loads a room with its transaction and sender.
func (s *Store) RoomWorkspace(ctx context.Context, roomID string) (*RoomWorkspace, error) {
	room, err := s.RoomByID(ctx, roomID)
	if err != nil {
		return nil, err
	}
	t, err := s.GetTransaction(ctx, room.OrganizationID, room.TransactionID)
	if err != nil {
		return nil, err
	}
	sender, err := s.GetUserInOrganization(ctx, room.OrganizationID, room.SenderID)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(t.Documents))
	for i, d := range t.Documents {
		ids[i] = d.DocumentID
	}
	uploads, err := s.FindDocumentsByRef(ctx, room.OrganizationID, ids)
	if err != nil {
		return nil, err
	}
	return &RoomWorkspace{Room: room, Transaction: t, Sender: sender, Uploads: uploads}, nil
}

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

// RemoveRoomParticipant removes a participant and the tags assigned to them.
func (s *Store) RemoveRoomParticipant(ctx context.Context, roomID, participantID string) error {
	return s.editRoom(ctx, roomID, ActionRemoveParticipant, func(_ *Room, in *TransactionInput) error {
		i := participantIndex(in, participantID)
		if i < 0 {
			return ErrNotFound
		}
		in.Participants = append(in.Participants[:i], in.Participants[i+1:]...)
		for d := range in.Documents {
			kept := in.Documents[d].Tags[:0]
			for _, t := range in.Documents[d].Tags {
				if t.SignerID != participantID {
					kept = append(kept, t)
				}
			}
			in.Documents[d].Tags = kept
		}
		return nil
	})
}

// RenameRoomDocument changes the title of the document at position.
func (s *Store) RenameRoomDocument(ctx context.Context, roomID string, position int, title string) error {
	return s.editRoom(ctx, roomID, ActionRenameDocument, func(_ *Room, in *TransactionInput) error {
		if position < 0 || position >= len(in.Documents) {
			return ErrNotFound
		}
		title = strings.TrimSpace(title)
		var p Problems
		checkRequiredLine(&p, "#/title", title, MaxTitleLength)
		if len(p.list) > 0 { // the page shows the detail: say what is wrong
			return Invalid("#/title", p.list[0].Code, "The title is not valid: "+p.list[0].Detail)
		}
		in.Documents[position].Title = title
		return nil
	})
}

// editRoom applies one change to a room's transaction through the same
// checks and atomic replace as the API, in one database transaction.
func (s *Store) editRoom(ctx context.Context, roomID string, action RoomAction, change func(*Room, *TransactionInput) error) error {
	return s.inTx(ctx, func(tx *Store) error {
		room, old, err := tx.lockRoom(ctx, roomID, action)
		if err != nil {
			return err
		}
		if err := tx.loadChildren(ctx, old); err != nil {
			return err
		}
		in := inputFromTransaction(old)
		in.AllowUnassignedTags = true
		if err := change(room, in); err != nil {
			return err
		}
		actor := Actor{OrganizationID: room.OrganizationID, Label: "Markup Room " + room.ID}
		t, err := tx.prepareTransaction(ctx, actor, room.TransactionID, in)
		if err != nil {
			return err
		}
		for i := range t.Participants {
			room.Config.ApplyParticipantRules(&t.Participants[i])
		}
		return tx.writeReplacement(ctx, actor, old, t)
	})
}

// lockRoom starts a change of an open room inside the caller's database
// transaction: the room read, its state checked (expired 410, completed
// 409), its configuration asked for action (none when empty; 403), and its
// transaction row read and locked, so changes of one room take turns.
func (s *Store) lockRoom(ctx context.Context, roomID string, action RoomAction) (*Room, *Transaction, error) {
	room, err := s.RoomByID(ctx, roomID)
	if err != nil {
		return nil, nil, err
	}
	switch room.Status(s.Now()) {
	case RoomExpired:
		return nil, nil, ErrRoomExpired
	case RoomCompleted:
		return nil, nil, ErrRoomCompleted
	}
	if action != "" {
		if err := room.Config.Require(action); err != nil {
			return nil, nil, err
		}
	}
	t, err := s.lockTransaction(ctx, room.OrganizationID, room.TransactionID)
	if err != nil {
		return nil, nil, err
	}
	return room, t, nil
}

// participantFromForm checks a posted participant with the API's own rules
// and the room's flags (a hidden option cannot be posted: 403).
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
	case "":
		f.AuthenticationType = AuthNone
	}
	if f.TwoFactorContact == "" {
		f.TwoFactorContact = ContactEmail
	}
	obj := map[string]any{
		"id": id, "firstName": f.FirstName, "lastName": f.LastName, "email": strings.TrimSpace(f.Email),
		"authenticationType": f.AuthenticationType, "twoFactorContact": f.TwoFactorContact,
		"kbaRequired": f.KBARequired, "credAnalysisRequired": f.CredAnalysisRequired,
	}
	for name, v := range map[string]string{"middleName": f.MiddleName, "phone": f.Phone, "personalPasswordQuestion": f.PersonalPasswordQuestion, "personalPassword": f.PersonalPassword} {
		if strings.TrimSpace(v) != "" {
			obj[name] = v
		}
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return ParticipantInput{}, err
	}
	var p Problems
	pi, _ := parseParticipantInput(&p, "#", scanJSON(raw))
	if f.AuthenticationType != AuthPersonalPassword {
		pi.PersonalPassword, pi.PersonalPasswordQuestion = nil, nil
	}
	if err := p.Err(KindInvalid, "The participant is not valid; see errors for each field."); err != nil {
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
			return Invalid("#/email", "duplicate_email", "This e-mail is already used by "+strings.TrimSpace(p.FirstName+" "+p.LastName)+" in this room (e-mails are compared ignoring case).")
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

// inputFromTransaction turns a stored transaction back into a request, so an
// edit can go through the same checks and writes as an API replace. Stored
// passwords are not in it; writeReplacement keeps them by participant id.
func inputFromTransaction(t *Transaction) *TransactionInput {
	in := &TransactionInput{
		Status: t.Status, ReferenceID: t.ReferenceID, SigningOrder: t.SigningOrder,
		PersonalizedMessage: t.PersonalizedMessage, InviteEmailSubject: t.InviteEmailSubject,
		HasNotify: t.HasNotify, NotifyEmail: t.NotifyEmail, SendFinalEnoteTo: t.SendFinalEnoteTo,
	}
	for _, d := range t.Documents {
		di := DocumentInput{
			GCSRefID: d.DocumentID, Title: d.Title, Description: d.Description, SessionType: d.SessionType,
			Type: d.Type, Order: d.Order, ReadOnly: d.ReadOnly, Visible: d.Visible, XFDF: &d.XFDF,
		}
		for _, tag := range d.Tags {
			di.Tags = append(di.Tags, TagInput{
				ID: tag.TagID, Type: tag.Type, X: tag.X, Y: tag.Y, Width: tag.Width, Height: tag.Height, SignerID: tag.SignerID,
				CustomData: tag.CustomData, Page: tag.Page, Required: tag.Required, StateFormat: tag.StateFormat,
				DateFormat: tag.DateFormat, FontSize: tag.FontSize,
			})
		}
		in.Documents = append(in.Documents, di)
	}
	for _, p := range t.Participants {
		in.Participants = append(in.Participants, ParticipantInput{
			ID: p.ParticipantID, Order: p.Order, Email: p.Email, FirstName: p.FirstName, MiddleName: p.MiddleName,
			LastName: p.LastName, Address1: p.Address1, Address2: p.Address2, Country: p.Country, City: p.City,
			State: p.State, Zip: p.Zip, Phone: p.Phone, KBARequired: p.KBARequired,
			CredAnalysisRequired: p.CredAnalysisRequired, ExternalID: p.ExternalID,
			AuthenticationType: p.AuthenticationType, TwoFactorContact: p.TwoFactorContact,
			PersonalPasswordQuestion: p.PersonalPasswordQuestion,
		})
	}
	return in
}

// MoveRoomParticipant moves a participant to position to (1-based) in a
// room's transaction that uses a signing order; every participant's order
// follows its new position (participants.edit).
func (s *Store) MoveRoomParticipant(ctx context.Context, roomID, participantID string, to int) error {
	return s.editRoom(ctx, roomID, ActionEditParticipant, func(_ *Room, in *TransactionInput) error {
		if in.SigningOrder == nil || !*in.SigningOrder {
			return Unprocessable("#/signingOrder", "no_signing_order", "This transaction has no signing order, so participants have no order to change.")
		}
		i := participantIndex(in, participantID)
		if i < 0 {
			return ErrNotFound
		}
		if to < 1 || to > len(in.Participants) {
			return Unprocessable("#/to", "invalid_position", "There is no position "+strconv.Itoa(to)+" among "+strconv.Itoa(len(in.Participants))+" participants.")
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
