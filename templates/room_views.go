package templates

import "strconv"

// RoomView is everything the Markup Room page shows.
type RoomView struct {
	Title string
	// Heading names the room for people: its first document's title, or "Markup Room".
	Heading     string
	RoomID      string
	ReferenceID string
	// Status is open, completed or expired; ReadOnly hides every editing control.
	Status   string
	ReadOnly bool
	// Sender is who asked for the room.
	SenderName  string
	SenderEmail string
	// ExpiresAt is the link's expiry, formatted for people; ExpiresISO for <time datetime>.
	ExpiresAt  string
	ExpiresISO string

	Documents    []RoomDocumentView
	Participants []RoomParticipantView
	// Can says which controls the room's configuration enables.
	Can RoomControls
	// AuthOptions are the authentication types the dialog offers.
	AuthOptions []OptionView
	// ContactOptions are the two-factor contact channels.
	ContactOptions []OptionView
	// TagTypes is the palette, in order.
	TagTypes []TagTypeView
	// AddForm is the "Add Participant" dialog (opened again with errors after a refused submission).
	AddForm ParticipantFormView
	// AddParticipantURL receives the add dialog's form.
	AddParticipantURL string
}

// RoomControls mirrors the ten flags of the room configuration (SPEC 2.8).
type RoomControls struct {
	KBA                bool
	CredentialAnalysis bool
	PersonalPassword   bool
	TwoFactor          bool
	RenameDocument     bool
	EditTags           bool
	AdvancedEdit       bool
	AddParticipant     bool
	EditParticipant    bool
	RemoveParticipant  bool
}

// RoomDocumentView is one document of the room.
type RoomDocumentView struct {
	Position   int
	Title      string
	PageCount  int
	TagCount   int
	RenameURL  string
	ContentURL string
	Pages      []RoomPageView
}

// RoomPageView is one page, drawn as an SVG in PDF points with its tags.
type RoomPageView struct {
	Number int
	// ViewBox is the SVG viewBox of the page's crop box ("0 0 612 792").
	ViewBox string
	Tags    []RoomTagView
}

// RoomTagView is a tag drawn on a page, in SVG coordinates (y grows downwards).
type RoomTagView struct {
	X, Y, Width, Height string
	Color               string
	Label               string
	SignerName          string
}

// RoomParticipantView is one participant in the participants panel.
type RoomParticipantView struct {
	ID        string
	Name      string
	Email     string
	Color     string
	AuthLabel string
	TagCount  int
	// Checks lists the identity checks required of the participant, in words.
	Checks    []string
	RemoveURL string
	// Form is the participant's "Edit" dialog, filled in.
	Form ParticipantFormView
}

// ParticipantFormView is the add/edit participant dialog.
type ParticipantFormView struct {
	// DialogID is the id of the <dialog> element.
	DialogID string
	// Heading is "Add participant" or "Edit participant".
	Heading string
	Action  string
	// Open renders the dialog open (after a refused submission).
	Open bool

	FirstName                string
	MiddleName               string
	LastName                 string
	Email                    string
	Phone                    string
	AuthenticationType       string
	TwoFactorContact         string
	PersonalPasswordQuestion string
	// HasPassword tells that a personal password is stored (the field may stay empty).
	HasPassword          bool
	KBARequired          bool
	CredAnalysisRequired bool
	// Errors holds one message per field name (firstName, email, …).
	Errors map[string]string
}

// OptionView is one <option> of a select.
type OptionView struct {
	Value string
	Label string
}

// TagTypeView is one entry of the tag palette.
type TagTypeView struct {
	Code  string
	Label string
	Group string
}

// pluralize writes "1 page" / "3 pages".
func pluralize(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// removeConfirm is the question asked before a participant is removed.
func removeConfirm(p RoomParticipantView) string {
	if p.TagCount == 0 {
		return "Remove " + p.Name + "?"
	}
	return "Remove " + p.Name + " and their " + pluralize(p.TagCount, "tag", "tags") + "?"
}
