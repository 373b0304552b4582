package admin

import (
	"context"
	"strconv"
	"time"

	"github.com/a-h/templ"

	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// NewRoomView is the console's "New Markup Room" form. Before an
// organization is chosen (OrganizationID empty) it shows only the
// organization's choice; the rest of the form follows the organization.
type NewRoomView struct {
	// Action is the form's own address (GET ?org= chooses the organization,
	// POST creates the room).
	Action string
	// RoomsURL is the list of Markup Rooms.
	RoomsURL      string
	CSRFToken     string
	Organizations []templates.OptionView
	// OrganizationID and OrganizationName are the chosen organization.
	OrganizationID, OrganizationName string
	Senders                          []templates.OptionView
	SenderID                         string
	// Recent are the organization's last uploads, to pick from.
	Recent    []RecentDocumentView
	Templates []templates.OptionView
	// TemplateID is the template chosen ("" for none).
	TemplateID string
	// Locale is the room's language chosen ("" for none: each visitor's
	// browser's).
	Locale string
	// EmbedOrigins are the origins the organization allows to frame its
	// rooms (its page's "Embedding"); EmbedOrigin the one chosen ("": the
	// room is not embedded); OrganizationURL the organization's page,
	// where the list is set.
	EmbedOrigins    []string
	EmbedOrigin     string
	OrganizationURL string
	Participants    []NewRoomParticipantView
	// FlagGroups are the room's configuration switches.
	FlagGroups []RoomFlagGroupView
	// MaxUploadMB is the size limit of each uploaded PDF; MaxFiles how many
	// one form may carry.
	MaxUploadMB, MaxFiles int
	// Errors are the problems by field: "organization", "sender",
	// "documents", "files", "participants", "template", "config", "locale",
	// "embed", and "form" for one that names none of them.
	Errors map[string]i18n.Words
	// Error is the form's summary of what stopped the room.
	Error i18n.Words
}

// RecentDocumentView is one of the organization's recent uploads.
// Uploads of one name are told apart by their size, time and short id.
type RecentDocumentView struct {
	ID, Title string
	Pages     int
	Uploaded  time.Time
	// SizeKB is the file's size in kilobytes, rounded up; ShortID the end
	// of its id, as the console's lists show ids.
	SizeKB  int
	ShortID string
	Checked bool
}

// NewRoomParticipantView is one participant row of the form.
type NewRoomParticipantView struct {
	FirstName, LastName, Email string
	// Error is the problem of this row, if any.
	Error i18n.Words
}

// RoomFlagGroupView is one group of the room's switches ("Documents").
type RoomFlagGroupView struct {
	Legend i18n.Words
	Flags  []RoomFlagView
}

// RoomFlagView is one switch of the room's configuration: Name is the
// form field (the OpenAPI RoomConfig path, "documents.edit").
type RoomFlagView struct {
	Name    string
	Label   i18n.Words
	Checked bool
}

// RoomCreatedView is the page after a room was created in the console: its
// URL only the first time (URL empty afterwards), its expiry and its
// transaction.
type RoomCreatedView struct {
	ID, ShortID, URL         string
	Organization, Sender     string
	Expires                  time.Time
	TransactionURL, RoomsURL string
	NewRoomURL               string
	Participants, Documents  int
	// EmbedOrigin is the origin that may frame the room ("": none).
	EmbedOrigin string
}

// roomStatusLabel is a room's status ("open", "completed", "expired") in
// the page's language; the badge's class keeps the code.
func roomStatusLabel(ctx context.Context, status string) string {
	switch status {
	case "open":
		return i18n.T(ctx, "admin.rooms.status.open")
	case "completed":
		return i18n.T(ctx, "admin.rooms.status.completed")
	case "expired":
		return i18n.T(ctx, "admin.rooms.status.expired")
	}
	return status
}

// personID is the id of one field of participant row i.
func personID(field string, i int) string { return "new-room-" + field + "-" + strconv.Itoa(i) }

// personInvalid marks a participant row's inputs when the row has a problem.
func personInvalid(p NewRoomParticipantView, i int) templ.Attributes {
	if p.Error == nil {
		return templ.Attributes{}
	}
	return templ.Attributes{"aria-invalid": "true", "aria-describedby": personID("error", i)}
}
