package templates

import "github.com/markuproom/markuproom/web/i18n"

// RoomTemplatesView is what the room's template dialogs show
// (web/src/editor/templates.mjs sends them).
type RoomTemplatesView struct {
	// SaveURL receives "Save as template…" (empty: the control is off).
	SaveURL string
	// ListURL searches the organization's templates and ApplyURL applies
	// one (empty: "Apply template…" is off).
	ListURL  string
	ApplyURL string
	// RoomURL is the room page, fetched again once a template is applied.
	RoomURL string
	// TemplateID and TemplateName are the template the room was made from
	// or last saved as ("" for none): the save dialog offers "Update".
	TemplateID   string
	TemplateName string
	// DefaultName prefills a new template's name.
	DefaultName i18n.Words
	Documents   []RoomTemplateDocumentView
	Roles       []RoomTemplateRoleView
}

// RoomTemplateDocumentView is a document of the room in the template dialogs.
type RoomTemplateDocumentView struct {
	Position int
	Title    string
	Pages    int
}

// RoomTemplateRoleView is a participant of the room: a role when saving, a
// choice of who takes a role when applying.
type RoomTemplateRoleView struct {
	ParticipantID string
	Name          string
}
