package models

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/markuproom/markuproom/models/secret"
)

// roomTokenPrefix starts every Markup Room capability token.
const roomTokenPrefix = "mrr"

// Room statuses.
const (
	RoomOpen      = "open"
	RoomCompleted = "completed"
	RoomExpired   = "expired"
)

// RoomStatuses lists the statuses a room may report.
func RoomStatuses() []string { return []string{RoomOpen, RoomCompleted, RoomExpired} }

// Room is a Markup Room: a capability URL through which staff edit one draft transaction.
type Room struct {
	ID               string     `gorm:"column:id;primaryKey"`
	OrganizationID   int64      `gorm:"column:organization_id"`
	SenderID         int64      `gorm:"column:sender_id"`
	TransactionID    string     `gorm:"column:transaction_id"`
	Config           RoomConfig `gorm:"column:config"`
	TokenSelector    string     `gorm:"column:token_selector"`
	TokenHash        []byte     `gorm:"column:token_hash"`
	State            string     `gorm:"column:status"`
	ExpiresAt        time.Time  `gorm:"column:expires_at"`
	CreatedByTokenID *int64     `gorm:"column:created_by_token_id"`
	CreatedAt        time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt        time.Time  `gorm:"column:updated_at;autoUpdateTime:false"`
	CompletedAt      *time.Time `gorm:"column:completed_at"`
	// StartedEmpty is true for a room created without documents: its staff
	// add them, whatever documents.edit says.
	StartedEmpty bool `gorm:"column:started_empty"`
	// TemplateID is the template the room was made from or last saved as
	// (nil: none); "Save as template…" offers a new version of it.
	TemplateID *string `gorm:"column:template_id"`
	// EmbedOrigin is the one origin allowed to frame the room ("": none;
	// docs/decisions.md, "Embedded rooms").
	EmbedOrigin string `gorm:"column:embed_origin"`
	// Locale is the room's own language (operation B's "locale", a tag of
	// i18n.Languages; nil: none), which its pages and invitations follow
	// unless the visitor chose one (docs/i18n.md).
	Locale *string `gorm:"column:locale"`
	// SenderName is the sender's "First Last" as RoomByID reads it (empty
	// when read otherwise): the history names a room's changes by it.
	SenderName string `gorm:"-"`
	// EventSeq is the number of the room's last event (room_events).
	EventSeq int64 `gorm:"column:event_seq"`
}

// CanAddDocuments tells whether staff may upload documents into the room.
func (r *Room) CanAddDocuments() bool { return r.StartedEmpty || r.Config.Documents.Edit }

// TableName implements gorm's tabler.
func (Room) TableName() string { return "markup_rooms" }

// Status is the room's status at time now: a room past its expiry that was
// not completed is expired.
func (r *Room) Status(now time.Time) string {
	if r.State == RoomCompleted {
		return RoomCompleted
	}
	if !now.Before(r.ExpiresAt) {
		return RoomExpired
	}
	return RoomOpen
}

// RoomURLPath is the path of a room's capability URL for token.
func RoomURLPath(token string) string { return "/markup-room/" + token }

// CreatedRoom is a new room with its capability token, shown only once.
type CreatedRoom struct {
	Room  *Room
	Token string
}

// ErrRoomExpired reports a capability URL past its expiry.
var ErrRoomExpired = errors.New("this Markup Room link has expired")

// CreateRoom checks a room request against the organization's users and
// documents and creates, in one database transaction, the draft
// transaction the room edits and the room itself. A sender who is not a
// user of the organization is an *AuthError (401; docs/decisions.md,
// "Operation B").
func (s *Store) CreateRoom(ctx context.Context, actor Actor, in *RoomInput) (*CreatedRoom, error) {
	senderID, err := in.SenderUserID()
	if err != nil {
		return nil, err
	}
	sender, err := s.GetUserInOrganization(ctx, actor.OrganizationID, senderID)
	if err == nil && sender.DisabledAt != nil {
		err = ErrNotFound // a disabled user sends no rooms
	}
	if errors.Is(err, ErrNotFound) {
		return nil, &AuthError{Message: Msg("error.sender_unknown")}
	}
	if err != nil {
		return nil, err
	}
	if err := s.readRoomTemplate(ctx, actor.OrganizationID, in); err != nil {
		return nil, err
	}
	if err := s.checkRoomEmbed(ctx, actor.OrganizationID, in.EmbedOrigin); err != nil {
		return nil, err
	}
	docs, err := s.FindDocumentsByRef(ctx, actor.OrganizationID, in.Documents)
	if err != nil {
		return nil, err
	}
	if in.Config.Documents.DetectTags {
		for _, d := range docs {
			if err := s.ensureDetection(ctx, d); err != nil {
				return nil, err
			}
		}
	}
	plan, err := s.PlanRoom(actor, sender, in, docs)
	if err != nil {
		return nil, err
	}
	// The transaction, its children, the room and the history entry: on
	// PostgreSQL one statement, with the audit event in the same database
	// transaction.
	err = s.inTx(ctx, func(tx *Store) error {
		var b writeBatch
		addRows(&b, 1, "transactions", transactionColumns(), []Transaction{*plan.Transaction}, transactionValues)
		tx.addChildren(&b, plan.Transaction)
		addRows(&b, 1, "markup_rooms", roomColumns(), []Room{*plan.Room}, roomValues)
		if err := tx.addEvent(ctx, &b, plan.Transaction, plan.Actor, plan.Created); err != nil {
			return err
		}
		if in.template != nil {
			useTemplate(&b, in.template.ID, plan.Room.CreatedAt)
			if err := tx.audit(ctx, templateApplied(plan.Transaction, in.template.ID)); err != nil {
				return err
			}
		}
		addCountsToBatch(&b, plan.Room.CreatedAt, plan.Room.OrganizationID, MetricTransactionsCreated, MetricRoomsOpened)
		return tx.execBatch(ctx, &b)
	})
	if err != nil {
		return nil, err
	}
	return &CreatedRoom{Room: plan.Room, Token: plan.Token}, nil
}

// SenderUserID reads the request's senderId as a user id; anything else is
// the *AuthError (401) a sender who is no user of the organization gets.
func (in *RoomInput) SenderUserID() (int64, error) {
	id, err := strconv.ParseInt(in.SenderID, 10, 64)
	if err != nil || id <= 0 {
		return 0, &AuthError{Message: Msg("error.sender_unknown")}
	}
	return id, nil
}

// RoomPlan is what creating a room writes: the draft transaction (with its
// documents and participants), the room, and the history entry with the
// actor it names; Token is the room URL's capability, shown once.
type RoomPlan struct {
	Room        *Room
	Transaction *Transaction
	Token       string
	Actor       Actor
	Created     CreatedSummary
}

// PlanRoom is the part of creating a room that needs no database: it checks
// the request against the sender and the documents its references name
// (docs, as FindDocumentsByRef returns them) and builds the rows to write.
func (s *Store) PlanRoom(actor Actor, sender *User, in *RoomInput, docs map[string]*Document) (*RoomPlan, error) {
	var p Problems
	for i, ref := range in.Documents {
		if docs[ref] == nil {
			p.Add(pointer("#/documents", i), "unknown_document", "problem.room.unknown_document", "document", i, "ref", Quoted(truncateForDetail(ref)))
		}
	}
	if len(in.Participants) == 0 && !in.Config.Participants.Add {
		p.Add("#/participants", "participants_required", "problem.room.participants_required")
	}
	checkRoomTemplate(&p, in, docs)
	if err := p.Err(KindUnprocessable, "problem.summary.room_unprocessable"); err != nil {
		return nil, err
	}

	roomUID, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	txUID, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	tok, err := secret.NewSplitToken(roomTokenPrefix)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	room := &Room{
		ID: roomUID.String(), OrganizationID: actor.OrganizationID, SenderID: sender.ID, TransactionID: txUID.String(),
		Config: in.Config, TokenSelector: tok.Selector, TokenHash: tok.Hash, State: RoomOpen,
		ExpiresAt: now.Add(s.roomTTL), CreatedByTokenID: actor.TokenID, CreatedAt: now, UpdatedAt: now,
		StartedEmpty: len(in.Documents) == 0, EmbedOrigin: in.EmbedOrigin, Locale: in.Locale,
	}
	if in.template != nil {
		room.TemplateID = &in.template.ID
	}
	t, err := s.roomTransaction(room, in, docs, now)
	if err != nil {
		return nil, err
	}
	actor.UserID = &sender.ID
	actor.For = sender.FullName()
	return &RoomPlan{
		Room: room, Transaction: t, Token: tok.Plaintext, Actor: actor,
		Created: CreatedSummary{Status: t.Status, Documents: t.DocumentCount, Tags: t.TagCount, Participants: t.ParticipantCount, Room: room.ID},
	}, nil
}

// roomTransaction builds the draft transaction a new room edits.
func (s *Store) roomTransaction(room *Room, in *RoomInput, docs map[string]*Document, now time.Time) (*Transaction, error) {
	ref := room.ID
	if in.ReferenceID != nil {
		ref = *in.ReferenceID
	}
	ti := &TransactionInput{Status: StatusDraft, ReferenceID: ref}
	for _, rp := range in.Participants {
		id, err := NewParticipantID()
		if err != nil {
			return nil, err
		}
		ti.Participants = append(ti.Participants, ParticipantInput{
			ID: id, Email: rp.Email, FirstName: rp.FirstName, LastName: rp.LastName,
			AuthenticationType: AuthNone, TwoFactorContact: ContactEmail, Locale: rp.Locale,
		})
	}
	signerOf := in.templateSigners(ti.Participants)
	byRef := map[string]*Document{}
	for i, loc := range in.Documents {
		d := docs[loc]
		byRef[d.ID] = d
		tags := []TagInput{}
		title := d.Title
		if v := in.templateVersion(); v != nil && i < len(v.Documents) {
			// The template's tags take the place of those the content proposes.
			tags = templateTags(v, i, signerOf, nil)
			if in.templateDocuments {
				title = v.Documents[i].Title
			}
		} else if room.Config.Documents.DetectTags {
			found, err := d.storedDetection()
			if err != nil {
				return nil, err
			}
			if tags, err = placedTags(found, ti.Participants); err != nil {
				return nil, err
			}
		}
		ti.Documents = append(ti.Documents, DocumentInput{GCSRefID: d.ID, Title: title, SessionType: "esign", Type: "undetermined", Tags: tags})
	}
	t, err := s.buildTransaction(room.TransactionID, room.OrganizationID, ti, byRef)
	if err != nil {
		return nil, err
	}
	for i := range t.Participants {
		room.Config.ApplyParticipantRules(&t.Participants[i])
	}
	t.Version, t.CreatedAt, t.UpdatedAt = 1, now, now
	return t, nil
}

// NewParticipantID generates an id for a participant added in a room.
func NewParticipantID() (string, error) {
	s, err := secret.RandomHex(6)
	if err != nil {
		return "", err
	}
	return "p_" + s, nil
}

// GetRoom reads a room of one organization.
func (s *Store) GetRoom(ctx context.Context, orgID int64, id string) (*Room, error) {
	var r Room
	if err := s.db.WithContext(ctx).Where("id = ? AND organization_id = ?", id, orgID).Take(&r).Error; err != nil {
		return nil, mapDBError(err)
	}
	return &r, nil
}

// RoomFilter selects and pages a room list.
type RoomFilter struct {
	Status string
	Limit  int
	Cursor string
}

// ListRooms lists an organization's rooms, newest first.
func (s *Store) ListRooms(ctx context.Context, orgID int64, f RoomFilter) ([]Room, string, error) {
	var p Problems
	if f.Status != "" && !slices.Contains(RoomStatuses(), f.Status) {
		p.Add("query:status", "invalid_enum", "problem.list.room_status")
	}
	limit, after := pageArgs(&p, f.Limit, f.Cursor)
	if err := p.Err(KindInvalid, "problem.summary.list_invalid"); err != nil {
		return nil, "", err
	}
	now := s.Now()
	q := s.db.WithContext(ctx).Where("organization_id = ?", orgID)
	switch f.Status {
	case RoomCompleted:
		q = q.Where("status = ?", RoomCompleted)
	case RoomOpen:
		q = q.Where("status = ? AND expires_at > ?", RoomOpen, now)
	case RoomExpired:
		q = q.Where("status = ? AND expires_at <= ?", RoomOpen, now)
	}
	if after != "" {
		q = q.Where("id < ?", after)
	}
	var rows []Room
	if err := q.Order("id DESC").Limit(limit + 1).Find(&rows).Error; err != nil {
		return nil, "", mapDBError(err)
	}
	next := ""
	if len(rows) > limit {
		rows = rows[:limit]
		next = encodeCursor(rows[limit-1].ID)
	}
	return rows, next, nil
}

// OpenRoom checks a capability token: an unknown token is ErrNotFound, an
// expired room ErrRoomExpired.
func (s *Store) OpenRoom(ctx context.Context, token string) (*Room, error) {
	selector, verifier, ok := secret.ParseSplitToken(roomTokenPrefix, token)
	if !ok {
		return nil, ErrNotFound
	}
	var r Room
	err := s.db.WithContext(ctx).Where("token_selector = ?", selector).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		secret.VerifierMatches(verifier, make([]byte, 32))
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, mapDBError(err)
	}
	if !secret.VerifierMatches(verifier, r.TokenHash) {
		return nil, ErrNotFound
	}
	if r.Status(s.Now()) == RoomExpired {
		return nil, ErrRoomExpired
	}
	return &r, nil
}

// roomLocaleWhere reads the locale of the room the condition picks ("" for
// none or no room).
func (s *Store) roomLocaleWhere(ctx context.Context, cond string, arg any) (string, error) {
	var locale []sql.NullString
	err := s.db.WithContext(ctx).Model(&Room{}).Where(cond, arg).Limit(1).Pluck("locale", &locale).Error
	if err != nil || len(locale) == 0 {
		return "", mapDBError(err)
	}
	return locale[0].String, nil
}

// RoomByID reads a room for a browser session already bound to it.
func (s *Store) RoomByID(ctx context.Context, id string) (*Room, error) {
	var row struct {
		Room            `gorm:"embedded"`
		SenderFirstName string
		SenderLastName  string
	}
	err := s.db.WithContext(ctx).Table("markup_rooms").
		Select("markup_rooms.*, COALESCE(users.first_name, '') AS sender_first_name, COALESCE(users.last_name, '') AS sender_last_name").
		Joins("LEFT JOIN users ON users.id = markup_rooms.sender_id").
		Where("markup_rooms.id = ?", id).Take(&row).Error
	if err != nil {
		return nil, mapDBError(err)
	}
	r := row.Room
	r.SenderName = strings.TrimSpace(row.SenderFirstName + " " + row.SenderLastName)
	return &r, nil
}
