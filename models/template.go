package models

import (
	"database/sql/driver"
	"encoding/json"
	"strconv"
	"time"
)

// Template is a layout saved once and reused (docs/decisions.md,
// "Templates"): documents, roles and tags. It belongs to one organization and
// points at its current version; the counts are the current version's.
type Template struct {
	ID             string     `gorm:"column:id;primaryKey"`
	OrganizationID int64      `gorm:"column:organization_id"`
	Name           string     `gorm:"column:name"`
	Description    *string    `gorm:"column:description"`
	Version        int        `gorm:"column:version"`
	DocumentCount  int        `gorm:"column:document_count"`
	PageCount      int        `gorm:"column:page_count"`
	TagCount       int        `gorm:"column:tag_count"`
	RoleCount      int        `gorm:"column:role_count"`
	Uses           int64      `gorm:"column:uses"`
	LastUsedAt     *time.Time `gorm:"column:last_used_at"`
	ArchivedAt     *time.Time `gorm:"column:archived_at"`
	CreatedAt      time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt      time.Time  `gorm:"column:updated_at;autoUpdateTime:false"`

	// Current is the current version with its documents, when it was read.
	Current *TemplateVersion `gorm:"-"`
}

// TableName implements gorm's tabler.
func (Template) TableName() string { return "templates" }

// ETag is the entity tag of the template's current version.
func (t *Template) ETag() string { return `"` + strconv.Itoa(t.Version) + `"` }

// TemplateVersion is one immutable version of a template: what the template
// was after one change, and who made the change.
type TemplateVersion struct {
	TemplateID  string  `gorm:"column:template_id;primaryKey"`
	Version     int     `gorm:"column:version;primaryKey"`
	Name        string  `gorm:"column:name"`
	Description *string `gorm:"column:description"`
	ActorKind   string  `gorm:"column:actor_kind"`
	ActorID     string  `gorm:"column:actor_id"`
	ActorLabel  string  `gorm:"column:actor_label"`
	// ActorName is TemplateActor.Name (migration 00025).
	ActorName string `gorm:"column:actor_name"`
	// RestoredFrom is the version this one copies, for a restore.
	RestoredFrom *int            `gorm:"column:restored_from"`
	Roles        TemplateRoles   `gorm:"column:roles"`
	Tags         TemplateTagList `gorm:"column:tags"`
	TagCount     int             `gorm:"column:tag_count"`
	CreatedAt    time.Time       `gorm:"column:created_at;autoCreateTime:false"`

	Documents []TemplateDocument `gorm:"-"`
}

// TableName implements gorm's tabler.
func (TemplateVersion) TableName() string { return "template_versions" }

// PageCount is the number of pages of the version's documents.
func (v *TemplateVersion) PageCount() int {
	n := 0
	for _, d := range v.Documents {
		n += d.Pages
	}
	return n
}

// TemplateDocument is one document of a template version: an upload of the
// organization, with the page count and page boxes the upload recorded.
type TemplateDocument struct {
	TemplateID string   `gorm:"column:template_id;primaryKey"`
	Version    int      `gorm:"column:version;primaryKey"`
	Position   int      `gorm:"column:position;primaryKey"`
	DocumentID string   `gorm:"column:document_id"`
	Title      string   `gorm:"column:title"`
	Pages      int      `gorm:"column:pages"`
	PageBoxes  PageList `gorm:"column:page_boxes"`
	// Fingerprint recognises a new upload as this form; nil until computed.
	Fingerprint []byte `gorm:"column:fingerprint"`
}

// TableName implements gorm's tabler.
func (TemplateDocument) TableName() string { return "template_documents" }

// TemplateRole is one role of a template ("Buyer"); its name is unique in
// the template.
type TemplateRole struct {
	Name string `json:"name"`
}

// TemplateTag is a tag as operation A stores it, except that it names the
// role it is for (empty: nobody yet) instead of a signer, and the template
// document it lies on (0-based).
type TemplateTag struct {
	Type        string          `json:"type"`
	X           float64         `json:"x"`
	Y           float64         `json:"y"`
	Width       float64         `json:"width"`
	Height      float64         `json:"height"`
	Role        string          `json:"role,omitempty"`
	Document    int             `json:"document"`
	CustomData  json.RawMessage `json:"customData"`
	Page        int             `json:"page"`
	Required    *bool           `json:"required,omitempty"`
	StateFormat *string         `json:"stateFormat,omitempty"`
	DateFormat  *string         `json:"dateFormat,omitempty"`
	FontSize    *float64        `json:"fontSize,omitempty"`
}

// TemplateRoles is a version's roles, stored as a JSON array.
type TemplateRoles []TemplateRole

// Value implements driver.Valuer.
func (r TemplateRoles) Value() (driver.Value, error) {
	if r == nil {
		r = TemplateRoles{}
	}
	return jsonColumn([]TemplateRole(r))
}

// Scan implements sql.Scanner.
func (r *TemplateRoles) Scan(src any) error {
	return scanJSONColumn(src, (*[]TemplateRole)(r), "TemplateRoles")
}

// TemplateTagList is a version's tags, stored as one JSON array.
type TemplateTagList []TemplateTag

// Value implements driver.Valuer.
func (l TemplateTagList) Value() (driver.Value, error) {
	if l == nil {
		l = TemplateTagList{}
	}
	return jsonColumn([]TemplateTag(l))
}

// Scan implements sql.Scanner.
func (l *TemplateTagList) Scan(src any) error {
	return scanJSONColumn(src, (*[]TemplateTag)(l), "TemplateTagList")
}

// Kinds of the actor who made a template version.
const (
	TemplateActorAPIToken = "api_token"
	TemplateActorRoom     = "room"
	TemplateActorAdmin    = "admin"
)

// TemplateActor is who changes a template: an API token, a Markup Room or an
// admin of the console, of one organization.
type TemplateActor struct {
	OrganizationID int64
	// Kind is one of TemplateActorAPIToken, TemplateActorRoom, TemplateActorAdmin.
	Kind string
	// ID is the token's, room's or admin user's id.
	ID string
	// Name is the token's name or the admin's e-mail address ("" for a
	// room); the console words the actor from Kind, ID and Name.
	Name string
}

// Label is the actor in English as template_versions.actor_label keeps it
// for older readers ("API token 3 (CRM)", "ada@example.com (admin
// console)", "Markup Room r_…").
func (a TemplateActor) Label() string {
	switch a.Kind {
	case TemplateActorAPIToken:
		return "API token " + a.ID + " (" + a.Name + ")"
	case TemplateActorAdmin:
		return a.Name + " (admin console)"
	}
	return "Markup Room " + a.ID
}

// TemplateActor describes an API caller as the author of a template version.
func (p *Principal) TemplateActor() TemplateActor {
	return TemplateActor{OrganizationID: p.Organization.ID, Kind: TemplateActorAPIToken, ID: formatInt(p.Token.ID), Name: p.Token.Name}
}
