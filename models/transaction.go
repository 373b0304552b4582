package models

import (
	"database/sql/driver"
	"fmt"
	"strconv"
	"time"

	"github.com/markuproom/markuproom/models/passwordhash"
)

// Transaction is an e-signature transaction: documents with tags, and participants.
type Transaction struct {
	ID                  string     `gorm:"column:id;primaryKey"`
	OrganizationID      int64      `gorm:"column:organization_id"`
	ReferenceID         string     `gorm:"column:reference_id"`
	Status              string     `gorm:"column:status"`
	SigningOrder        *bool      `gorm:"column:signing_order"`
	PersonalizedMessage *string    `gorm:"column:personalized_message"`
	InviteEmailSubject  *string    `gorm:"column:invite_email_subject"`
	NotifyEmail         *bool      `gorm:"column:notify_email"`
	HasNotify           bool       `gorm:"column:has_notify"`
	EVault              string     `gorm:"column:evault"`
	SendFinalEnoteTo    StringList `gorm:"column:send_final_enote_to"`
	Version             int        `gorm:"column:version"`
	DocumentCount       int        `gorm:"column:document_count"`
	TagCount            int        `gorm:"column:tag_count"`
	ParticipantCount    int        `gorm:"column:participant_count"`
	CreatedAt           time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt           time.Time  `gorm:"column:updated_at;autoUpdateTime:false"`

	Documents    []TransactionDocument `gorm:"-"`
	Participants []Participant         `gorm:"-"`
	// templatesUsed are the templates whose tags the request added, each
	// counted as one use when the transaction is written.
	templatesUsed []string
	// storedDocs are the stored documents a replace read, by id: the
	// review of its answer reads them from here (ReviewReplaced).
	storedDocs map[string]*Document
}

// TableName implements gorm's tabler.
func (Transaction) TableName() string { return "transactions" }

// OffersInvitations tells whether a room's "Create e-signature session"
// offers invitation e-mails ticked: yes, unless the caller's transaction
// says notifyParticipants.email false.
func (t *Transaction) OffersInvitations() bool { return t.NotifyEmail == nil || *t.NotifyEmail }

// ETag is the entity tag of the transaction's current version.
func (t *Transaction) ETag() string { return `"` + strconv.Itoa(t.Version) + `"` }

// TransactionDocument is one document of a transaction.
type TransactionDocument struct {
	TransactionID string  `gorm:"column:transaction_id;primaryKey"`
	Position      int     `gorm:"column:position;primaryKey"`
	DocumentID    string  `gorm:"column:document_id"`
	GCSRefID      string  `gorm:"column:gcs_ref_id"`
	Title         string  `gorm:"column:title"`
	Description   *string `gorm:"column:description"`
	XFDF          string  `gorm:"column:xfdf"`
	SessionType   string  `gorm:"column:session_type"`
	Type          string  `gorm:"column:type"`
	Order         *int    `gorm:"column:display_order"`
	Pages         int     `gorm:"column:pages"`
	ReadOnly      *bool   `gorm:"column:read_only"`
	Visible       *bool   `gorm:"column:visible"`

	Tags []Tag `gorm:"-"`
}

// TableName implements gorm's tabler.
func (TransactionDocument) TableName() string { return "transaction_documents" }

// Tag is a field placed on a document page for one signer.
type Tag struct {
	TransactionID    string `gorm:"column:transaction_id;primaryKey"`
	DocumentPosition int    `gorm:"column:document_position;primaryKey"`
	Position         int    `gorm:"column:position;primaryKey"`
	// TagID is stable for the tag's life: room edits address a tag by it.
	TagID       string   `gorm:"column:tag_id"`
	Type        string   `gorm:"column:type"`
	X           float64  `gorm:"column:x"`
	Y           float64  `gorm:"column:y"`
	Width       float64  `gorm:"column:width"`
	Height      float64  `gorm:"column:height"`
	SignerID    string   `gorm:"column:signer_id"`
	CustomData  RawJSON  `gorm:"column:custom_data"`
	Page        int      `gorm:"column:page"`
	Required    *bool    `gorm:"column:required"`
	StateFormat *string  `gorm:"column:state_format"`
	DateFormat  *string  `gorm:"column:date_format"`
	FontSize    *float64 `gorm:"column:font_size"`
	// Version is 1 when the tag is placed and one more at each change of
	// it (its fields, its page, its place in the document's order): a room
	// edit made against an older one is refused (TagChangedError).
	Version int `gorm:"column:version"`
	// NeedsLook is why a revision could not carry the tag surely onto its
	// document's new version (a revise reason code), until the tag is
	// edited; nil for every other tag.
	NeedsLook *string `gorm:"column:needs_look"`
}

// TableName implements gorm's tabler.
func (Tag) TableName() string { return "transaction_tags" }

// Participant is a signer of a transaction.
type Participant struct {
	TransactionID            string  `gorm:"column:transaction_id;primaryKey"`
	Position                 int     `gorm:"column:position;primaryKey"`
	ParticipantID            string  `gorm:"column:participant_id"`
	Order                    *int    `gorm:"column:signing_order"`
	Email                    string  `gorm:"column:email"`
	FirstName                string  `gorm:"column:first_name"`
	MiddleName               *string `gorm:"column:middle_name"`
	LastName                 string  `gorm:"column:last_name"`
	Address1                 *string `gorm:"column:address1"`
	Address2                 *string `gorm:"column:address2"`
	Country                  *string `gorm:"column:country"`
	City                     *string `gorm:"column:city"`
	State                    *string `gorm:"column:state"`
	Zip                      *string `gorm:"column:zip"`
	Phone                    *string `gorm:"column:phone"`
	KBARequired              *bool   `gorm:"column:kba_required"`
	CredAnalysisRequired     *bool   `gorm:"column:cred_analysis_required"`
	ExternalID               *string `gorm:"column:external_id"`
	AuthenticationType       string  `gorm:"column:authentication_type"`
	TwoFactorContact         string  `gorm:"column:two_factor_contact"`
	PersonalPasswordQuestion *string `gorm:"column:personal_password_question"`
	// PersonalPasswordHash is an argon2id hash; the password itself is never stored.
	PersonalPasswordHash *string `gorm:"column:personal_password_hash"`
	// Locale (an extension) is the language of the participant's invitation
	// e-mail (a tag of i18n.Languages; nil: the room's, else English).
	Locale *string `gorm:"column:locale"`
}

// TableName implements gorm's tabler.
func (Participant) TableName() string { return "transaction_participants" }

// VerifyPersonalPassword reports whether password is the participant's personal password.
func (p *Participant) VerifyPersonalPassword(password string) bool {
	return p.PersonalPasswordHash != nil && passwordhash.Verify(*p.PersonalPasswordHash, password)
}

// FullName is "First Middle Last".
func (p *Participant) FullName() string {
	name := p.FirstName
	if p.MiddleName != nil && *p.MiddleName != "" {
		name += " " + *p.MiddleName
	}
	return name + " " + p.LastName
}

// RawJSON is a JSON value stored as text, byte for byte.
type RawJSON []byte

// Value implements driver.Valuer.
func (r RawJSON) Value() (driver.Value, error) {
	if r == nil {
		return "{}", nil
	}
	return string(r), nil
}

// Scan implements sql.Scanner.
func (r *RawJSON) Scan(src any) error {
	switch v := src.(type) {
	case string:
		*r = RawJSON(v)
	case []byte:
		*r = append(RawJSON(nil), v...)
	case nil:
		*r = nil
	default:
		return fmt.Errorf("RawJSON: cannot scan %T", src)
	}
	return nil
}

// MarshalJSON writes the stored bytes.
func (r RawJSON) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("{}"), nil
	}
	return r, nil
}

// StringList is a list of strings stored as a JSON array.
type StringList []string

// Value implements driver.Valuer.
func (l StringList) Value() (driver.Value, error) {
	if l == nil {
		l = StringList{}
	}
	return jsonColumn([]string(l))
}

// Scan implements sql.Scanner.
func (l *StringList) Scan(src any) error { return scanJSONColumn(src, (*[]string)(l), "StringList") }

// TransactionEvent is one entry of a transaction's history.
type TransactionEvent struct {
	ID             string `gorm:"column:id;primaryKey"`
	TransactionID  string `gorm:"column:transaction_id"`
	OrganizationID int64  `gorm:"column:organization_id"`
	Kind           string `gorm:"column:kind"`
	// Actor is the actor's label in English (Actor.Label), kept for the
	// rows written before the typed columns; the console words the typed
	// ones (HistoryActor), or shows this when ActorKind is "".
	Actor        string    `gorm:"column:actor"`
	ActorKind    string    `gorm:"column:actor_kind"`
	ActorID      string    `gorm:"column:actor_id"`
	ActorName    string    `gorm:"column:actor_name"`
	ActorVia     string    `gorm:"column:actor_via"`
	ActorFor     string    `gorm:"column:actor_for"`
	ActorSession string    `gorm:"column:actor_session"`
	ActorAddress string    `gorm:"column:actor_address"`
	TokenID      *int64    `gorm:"column:token_id"`
	UserID       *int64    `gorm:"column:user_id"`
	Summary      RawJSON   `gorm:"column:summary"`
	CreatedAt    time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

// TableName implements gorm's tabler.
func (TransactionEvent) TableName() string { return "transaction_events" }

// Event kinds recorded in a transaction's history.
const (
	EventCreated       = "created"
	EventReplaced      = "replaced"
	EventStatusChanged = "status_changed"
)
