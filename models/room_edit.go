package models

import (
	"context"
	"errors"
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
	// Suggestions are the suggested fields the room offers, by document position.
	Suggestions map[int][]RoomSuggestion
	// TemplateName is the name of the live template the room was made from
	// or last saved as ("" for none): "Save as template…" offers its update.
	TemplateName string
	// Invitations counts the transaction's invitation e-mails by outbox
	// status, read only for a completed room (nil otherwise).
	Invitations map[MessageStatus]int64
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
	suggestions, err := s.roomSuggestions(ctx, room, t, uploads)
	if err != nil {
		return nil, err
	}
	templateName, err := s.RoomTemplateName(ctx, room)
	if err != nil {
		return nil, err
	}
	ws := &RoomWorkspace{Room: room, Transaction: t, Sender: sender, Uploads: uploads, Suggestions: suggestions, TemplateName: templateName}
	if room.State == RoomCompleted {
		if ws.Invitations, err = s.InvitationCounts(ctx, room.OrganizationID, t.ID); err != nil {
			return nil, err
		}
	}
	return ws, nil
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
			return Refusal(p.kindOf(KindInvalid), "#/title", p.list[0].Code, Msg("problem.room.title_invalid", "why", p.list[0].Message))
		}
		in.Documents[position].Title = title
		return nil
	})
}

// editRoom applies one change to a room's transaction through the same
// checks and atomic replace as the API, in one database transaction.
func (s *Store) editRoom(ctx context.Context, roomID string, action RoomAction, change func(*Room, *TransactionInput) error) error {
	return s.editRoomWith(ctx, roomID, action, func(_ *Store, room *Room, in *TransactionInput) error { return change(room, in) })
}

// editRoomWith is editRoom whose change also writes rows of its own, in the
// same database transaction (tx).
func (s *Store) editRoomWith(ctx context.Context, roomID string, action RoomAction, change func(tx *Store, room *Room, in *TransactionInput) error) error {
	return s.editRoomFor(ctx, roomID, action, "", change)
}

// editRoomFor is editRoomWith whose history entry says why the replace was
// made (ReplacedSummary.Reason; "" for an edit).
func (s *Store) editRoomFor(ctx context.Context, roomID string, action RoomAction, reason string, change func(tx *Store, room *Room, in *TransactionInput) error) error {
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
		if err := change(tx, room, in); err != nil {
			return err
		}
		actor := roomActor(ctx, room)
		t, err := tx.prepareTransaction(ctx, actor, room.TransactionID, in)
		if err != nil {
			return err
		}
		for i := range t.Participants {
			room.Config.ApplyParticipantRules(&t.Participants[i])
		}
		return tx.writeReplacement(ctx, actor, old, t, reason)
	})
}

// lockRoom starts a change of an open room inside the caller's database
// transaction: the room read, its state checked (expired 410, completed
// 409), its configuration asked for action (none when empty; 403), and its
// transaction row read and locked, so changes of one room take turns.
func (s *Store) lockRoom(ctx context.Context, roomID string, action RoomAction) (*Room, *Transaction, error) {
	room, err := s.checkRoom(ctx, roomID, action)
	if err != nil {
		return nil, nil, err
	}
	t, err := s.lockTransaction(ctx, room.OrganizationID, room.TransactionID)
	if err != nil {
		return nil, nil, err
	}
	return room, t, nil
}

// checkRoom reads a room and checks that it is open (expired 410, completed
// 409) and that its configuration allows action (none when empty; 403). A
// change that must read a PDF calls it with a plain read before that work,
// and again, through lockRoom, inside its database transaction.
func (s *Store) checkRoom(ctx context.Context, roomID string, action RoomAction) (*Room, error) {
	room, err := s.RoomByID(ctx, roomID)
	if err != nil {
		return nil, err
	}
	switch room.Status(s.Now()) {
	case RoomExpired:
		return nil, ErrRoomExpired
	case RoomCompleted:
		return nil, ErrRoomCompleted
	}
	if action != "" {
		if err := room.Config.Require(action); err != nil {
			return nil, err
		}
	}
	return room, nil
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
			PersonalPasswordQuestion: p.PersonalPasswordQuestion, Locale: p.Locale,
		})
	}
	return in
}
