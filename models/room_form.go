package models

import (
	"context"
	"encoding/json"
)

// RoomForm is a "New Markup Room" request made without the API: the
// console's form or the `markuproom room create` command. Input turns it
// into the API's RoomInput through the API's own parser, so both check it
// with the same rules and report problems at the same pointers
// (#/senderId, #/participants/0/email, #/documents/1, #/templateId,
// #/embed/origin).
type RoomForm struct {
	SenderID string
	Config   RoomConfig
	// Documents are ids of documents the organization uploaded before.
	Documents    []string
	Participants []RoomParticipantInput
	TemplateID   string
	// Locale is the room's language tag ("": none), checked like
	// operation B's "locale".
	Locale string
	// EmbedOrigin is the origin allowed to frame the room ("": none),
	// operation B's embed.origin: normalised by NormalizeEmbedOrigin and
	// refused by CreateRoom (422 embed_origin_not_allowed at
	// #/embed/origin) unless the organization's list allows it.
	EmbedOrigin string
}

// Input checks the form like operation B's body (ParseRoomInput): a
// 400-class *ValidationError lists every problem.
func (f RoomForm) Input() (*RoomInput, error) {
	type participant struct {
		FirstName string  `json:"firstName"`
		LastName  string  `json:"lastName"`
		Email     string  `json:"email"`
		Role      string  `json:"role,omitempty"`
		Locale    *string `json:"locale,omitempty"`
	}
	body := map[string]any{"senderId": f.SenderID, "config": f.Config}
	if len(f.Documents) > 0 {
		body["documents"] = f.Documents
	}
	if len(f.Participants) > 0 {
		ps := make([]participant, len(f.Participants))
		for i, p := range f.Participants {
			ps[i] = participant(p)
		}
		body["participants"] = ps
	}
	if f.Locale != "" {
		body["locale"] = f.Locale
	}
	if f.TemplateID != "" {
		body["templateId"] = f.TemplateID
	}
	if f.EmbedOrigin != "" {
		body["embed"] = map[string]string{"origin": f.EmbedOrigin}
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	return ParseRoomInput(b)
}

// RoomUpload is a PDF sent with a room request made without the API,
// staged (checked) and not yet saved.
type RoomUpload struct {
	File  *StagedUpload
	Title string
}

// CreateRoomWithUploads saves the uploads as the organization's documents
// (after the documents in.Documents already names) and creates the room
// with CreateRoom, all in one database transaction: a refused room leaves
// neither the documents nor the room behind (the files written to the
// bucket are removed again). Uploads are recorded without an API token.
func (s *Store) CreateRoomWithUploads(ctx context.Context, actor Actor, in *RoomInput, uploads []RoomUpload) (*CreatedRoom, error) {
	var (
		created *CreatedRoom
		keys    []string
	)
	err := s.inTx(ctx, func(tx *Store) error {
		if len(uploads) > 0 && len(in.Documents)+len(uploads) > MaxDocuments {
			return Invalid("#/documents", "too_many", "problem.room.too_many_documents", "max", MaxDocuments)
		}
		for _, u := range uploads {
			d, err := tx.SaveDocument(ctx, u.File, NewDocument{OrganizationID: actor.OrganizationID, Title: u.Title})
			if err != nil {
				return err
			}
			keys = append(keys, d.ObjectKey)
			in.Documents = append(in.Documents, d.ID)
		}
		var err error
		created, err = tx.CreateRoom(ctx, actor, in)
		return err
	})
	if err != nil {
		for _, k := range keys {
			if delErr := s.bucket.Delete(context.WithoutCancel(ctx), k); delErr != nil {
				s.log.WarnContext(ctx, "remove an upload of a refused room", "key", k, "error", delErr)
			}
		}
		return nil, err
	}
	return created, nil
}

// RecentDocuments lists the organization's last limit uploads, newest
// first, without their page geometry or detection (a picker's rows).
func (s *Store) RecentDocuments(ctx context.Context, orgID int64, limit int) ([]Document, error) {
	if limit <= 0 || limit > MaxListLimit {
		limit = DefaultListLimit
	}
	var out []Document
	err := s.db.WithContext(ctx).Select("id", "organization_id", "title", "file_name", "page_count", "size_bytes", "created_at").
		Where("organization_id = ?", orgID).Order("created_at DESC, id DESC").Limit(limit).Find(&out).Error
	return out, mapDBError(err)
}

// RoomSenders lists the organization's users who may send a Markup Room:
// every user not disabled, by name.
func (s *Store) RoomSenders(ctx context.Context, orgID int64) ([]User, error) {
	var out []User
	err := s.db.WithContext(ctx).Where("organization_id = ? AND disabled_at IS NULL", orgID).
		Order("first_name, last_name, id").Find(&out).Error
	return out, mapDBError(err)
}

// LiveTemplates lists the organization's templates that are not archived,
// by name (at most MaxListLimit).
func (s *Store) LiveTemplates(ctx context.Context, orgID int64) ([]Template, error) {
	var out []Template
	err := s.db.WithContext(ctx).Where("organization_id = ? AND archived_at IS NULL", orgID).
		Order("name, id").Limit(MaxListLimit).Find(&out).Error
	return out, mapDBError(err)
}

// ConsoleRoomActor is the history's actor of a room an admin creates in
// the console for organization orgID.
func ConsoleRoomActor(orgID int64, admin *User) Actor {
	return Actor{OrganizationID: orgID, Kind: HistoryActorAdmin, ID: formatInt(admin.ID), Name: admin.Email, Via: "console"}
}

// OperatorRoomActor is the history's actor of a room made with the
// `markuproom room create` command.
func OperatorRoomActor(orgID int64) Actor {
	return Actor{OrganizationID: orgID, Kind: HistoryActorOperator, Via: "cli"}
}
