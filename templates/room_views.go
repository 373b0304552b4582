package templates

import (
	"context"
	"html"
	"strconv"
	"strings"
	"time"

	"github.com/markuproom/markuproom/models/revise"
	"github.com/markuproom/markuproom/web/i18n"
)

// RoomView is everything the Markup Room page shows.
type RoomView struct {
	// Heading names the room for people (RoomHeading), in its header and
	// the page's title: the transaction's referenceId, else a short label
	// made of its documents' titles.
	Heading     i18n.Words
	RoomID      string
	ReferenceID string
	// Status is open, completed or expired; ReadOnly hides every editing control.
	Status   string
	ReadOnly bool
	// Sender is who asked for the room.
	SenderName  string
	SenderEmail string
	// ExpiresAt is the link's expiry; ExpiresISO for <time datetime>.
	ExpiresAt  time.Time
	ExpiresISO string

	Documents    []RoomDocumentView
	Participants []RoomParticipantView
	// PreviewScript and PreviewStyle are the "Preview as…" walk's script and
	// stylesheet (static/js/preview.js, static/css/preview.css), loaded on
	// the first click of [data-preview]; empty when the room has no
	// documents or no participants (nothing to preview).
	PreviewScript, PreviewStyle string
	// Can says which controls the room's configuration enables.
	Can RoomControls
	// Templates are the "Save as template…" and "Apply template…" dialogs;
	// nil when neither is shown.
	Templates *RoomTemplatesView
	// AuthOptions are the authentication types the dialog offers.
	AuthOptions []OptionView
	// ContactOptions are the two-factor contact channels.
	ContactOptions []OptionView
	// TagGroups is the palette: the tag types in their groups, in order.
	TagGroups []TagGroupView
	// DateFormats are the choices of a date tag's format.
	DateFormats []string
	// Viewer is the page viewer with every document's pages and tags.
	Viewer ViewerView
	// Limits are the server's input limits the forms and the editor check first.
	Limits InputLimits
	// PageTotal counts the pages of every document.
	PageTotal int
	// UploadURL receives PDFs uploaded into the room; empty when staff may not add documents.
	UploadURL string
	// MaxUploadBytes is the largest PDF accepted (shown, and checked before sending).
	MaxUploadBytes int64
	// UploadDecrypted and UploadRepairs, after an upload that was decrypted
	// or repaired, say so: the upload answer's decrypted and its repair codes
	// (pdf.Repair*), worded by the page (uploadNote).
	UploadDecrypted bool
	UploadRepairs   []string
	// UploadTitle and UploadProblems, after an upload, name the document and
	// the text tags on it that could not be read (its detection's problems).
	UploadTitle    string
	UploadProblems []UploadProblemView
	// Revision, in the answer of a revision, is what it did: the room
	// shows what changed (revisionView).
	Revision *RevisionView
	// UploadDocumentID, after an upload, is the document it added, which
	// the viewer then shows (data-uploaded-document).
	UploadDocumentID string
	// ChecklistURL serves the "Create e-signature session" checklist; CompleteURL creates it.
	ChecklistURL string
	CompleteURL  string
	// Summary describes a completed room (nil while open).
	Summary *RoomSummaryView
	// OpenChecklist, when set, renders the checklist dialog open (a refused completion).
	OpenChecklist *ChecklistView
	// AddForm is the "Add Participant" dialog (opened again with errors after a refused submission).
	AddForm ParticipantFormView
	// AddParticipantURL receives the add dialog's form.
	AddParticipantURL string
	// TransactionID is the room's transaction (data-transaction-id, for the
	// events an embedded room posts to its host).
	TransactionID string
	// EmbedOrigin is the one origin allowed to frame the room, which its
	// events are posted to (data-embed-origin); empty for a room that is
	// never framed.
	EmbedOrigin string
	// EventsURL is the room's event stream (an open room's only; with an
	// embedded room's session), which the editor follows to draw what other
	// windows change (web/src/editor/live.mjs, docs/live.md); EventSeq is
	// the number of the room's last event this markup shows.
	EventsURL string
	EventSeq  int64
	// PresenceURL receives the editor's selection, which the room's other
	// windows outline (docs/live.md, "Presence").
	PresenceURL string
	// EmbedEvent is an event the page posts to its host once when it loads
	// ("completed" right after the e-signature session was created).
	EmbedEvent string
}

// UploadProblemView is a text tag of an uploaded document that could not be
// read: its page (0: the whole document), the tag as written and why.
type UploadProblemView struct {
	Page         int
	Text, Detail string
}

// RoomControls mirrors the twelve flags of the room configuration
// (models.RoomConfig; RoomConfig in the OpenAPI document).
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
	SaveTemplate       bool
	ApplyTemplate      bool
}

// RoomDocumentView is one document of the room.
type RoomDocumentView struct {
	Position  int
	Title     string
	PageCount int
	TagCount  int
	RenameURL string
	// RemoveURL removes the document with its tags (documents.advancedEdit).
	RemoveURL string
	// ReviseURL replaces the document by its revised version (documents.advancedEdit).
	ReviseURL string
	Pages     []RoomPageView
	// TemplateOffer is the template the document matches, offered to apply
	// in one click (nil: none).
	TemplateOffer *TemplateOfferView
}

// TemplateOfferView is a template a document of the room resembles
// (web/src/editor/templates.mjs applies or dismisses it).
type TemplateOfferView struct {
	TemplateID string
	Name       string
	// Percent is the match's score in percent, rounded.
	Percent int
	// TemplateDocument is the template's document the room's resembles.
	TemplateDocument int
	// DismissKey names the offer in the tab's sessionStorage once dismissed.
	DismissKey string
}

// RoomPageView is one page in the documents sidebar.
type RoomPageView struct {
	Number   int
	TagCount int
	// First and Last disable the moves that would leave the document.
	First, Last bool
	// MoveURL and DeleteURL receive the page edits (documents.advancedEdit).
	MoveURL   string
	DeleteURL string
}

// RoomParticipantView is one participant in the participants panel.
type RoomParticipantView struct {
	ID    string
	Name  string
	Email string
	// ColorClass colours the participant's swatch and tags ("signer-c0" …);
	// Initials go with the colour everywhere, so colour is never the only cue.
	ColorClass string
	Initials   string
	AuthLabel  i18n.Words
	TagCount   int
	// Checks lists the identity checks required of the participant.
	Checks    []i18n.Words
	RemoveURL string
	// Order is the place in the signing order (0 when the transaction has none);
	// MoveURL changes it, First/Last disable the moves that would leave the list.
	Order       int
	MoveURL     string
	First, Last bool
	// Form is the participant's "Edit" dialog, filled in.
	Form ParticipantFormView
}

// ParticipantFormView is the add/edit participant dialog.
type ParticipantFormView struct {
	// DialogID is the id of the <dialog> element.
	DialogID string
	// Heading is "Add participant" or "Edit participant".
	Heading i18n.Words
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
	// Locale is the participant's language tag ("": the room's).
	Locale string
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
	Label i18n.Words
}

// TagGroupView is one group of the palette ("Signer fields", …).
type TagGroupView struct {
	ID    string
	Title i18n.Words
	Types []TagTypeView
	// Collapsed groups (the notary fields) start folded away.
	Collapsed bool
}

// TagTypeView is one entry of the tag palette; Width and Height are its
// default size in points.
type TagTypeView struct {
	Code          string
	Label         i18n.Words
	Width, Height string
	// Icon is the id of its <symbol> in static/img/tags.svg; Description says
	// in one line what the signer does with it (shown on hover and focus).
	Icon        string
	Description i18n.Words
}

// removeConfirm is the question asked before a participant is removed.
func removeConfirm(ctx context.Context, p RoomParticipantView) string {
	return RemoveParticipantQuestion(ctx, p.Name, p.TagCount)
}

// RemoveParticipantQuestion asks before a participant is removed, saying what
// goes with them (the editor asks the same, with the count as it is then);
// the dialog's note says that Undo brings them back.
func RemoveParticipantQuestion(ctx context.Context, name string, tags int) string {
	if tags == 0 {
		return t(ctx, "room.participant.remove_question_none", "name", name)
	}
	return t(ctx, "room.participant.remove_question", "name", name, "count", tags)
}

// ChecklistView is the "Create e-signature session" dialog: the session
// check (docs/review.md), what blocks first, then what warns.
type ChecklistView struct {
	Blocking []ChecklistItemView
	Warning  []ChecklistItemView
	// Blocked is true when something blocks: the button is disabled.
	Blocked     bool
	CompleteURL string
	CSRFToken   string
	// NotifyEmail pre-ticks "E-mail each participant an invitation".
	NotifyEmail bool
	// Warnings counts what is asked about once before the session is created.
	Warnings int
}

// ChecklistItemView is one finding of the pre-send check, or one of the
// room's own checks (the validation, the undecided suggested fields).
type ChecklistItemView struct {
	// Code is the finding's code (Finding) or the check's id.
	Code    string
	Finding bool
	// Label names a check (none for a finding: its sentence says it all);
	// Problems say what is wrong.
	Label    i18n.Words
	Problems []i18n.Words
	// Fixes are what one click does about it.
	Fixes []ChecklistFixView
}

// ChecklistFixView is a fix of the session check: a link to where it is
// fixed and, for a finding's own fix, what the editor does there (Kind:
// show, assign, copy_to_pages) with which tag and to which pages ("4,5,6").
type ChecklistFixView struct {
	URL   string
	Label i18n.Words
	Kind  string
	TagID string
	Pages string
}

// RoomSummaryView is what a completed room shows: the session it created.
type RoomSummaryView struct {
	TransactionID string
	Status        string
	CompletedAt   *time.Time
	Participants  []RoomSummaryPerson
	Documents     []RoomSummaryDocument
	TagCount      int
	// Invitations says whether the participants were e-mailed.
	Invitations i18n.Words
}

// RoomSummaryPerson is one participant of a completed room's summary.
type RoomSummaryPerson struct {
	Name  string
	Email string
}

// RoomSummaryDocument is one document of a completed room's summary.
type RoomSummaryDocument struct {
	Title    string
	Pages    int
	TagCount int
}

// moveTo is the hx-vals of a page move to position n.
func moveTo(n int) string {
	return `{"to":"` + strconv.Itoa(n) + `"}`
}

// megabytes writes a byte limit for people ("50 MB").
func megabytes(ctx context.Context, n int64) string {
	return t(ctx, "room.upload.megabytes", "size", int(n>>20))
}

// emailParts splits an e-mail address where a line may break: after the
// "@" and before each dot ("robin.seller@example.com" → "robin",
// ".seller@", "example", ".com"), so an address never breaks mid-word.
func emailParts(email string) []string {
	var parts []string
	start := 0
	for i, r := range email {
		switch {
		case r == '.' && i > start:
			parts = append(parts, email[start:i])
			start = i
		case r == '@':
			parts = append(parts, email[start:i+1])
			start = i + 1
		}
	}
	if start < len(email) {
		parts = append(parts, email[start:])
	}
	return parts
}

// emailHTML is an e-mail address as escaped HTML whose lines may break only
// between its emailParts: each part is a span (white-space: nowrap in
// editor.css, so no break at a hyphen) with a <wbr> between parts, and no
// whitespace anywhere (copying it gives the address back).
func emailHTML(email string) string {
	parts := emailParts(email)
	for i, p := range parts {
		parts[i] = "<span>" + html.EscapeString(p) + "</span>"
	}
	return strings.Join(parts, "<wbr>")
}

// RoomHeading names a room's transaction for people: its referenceId; when
// that is empty or only the room's own id (a room made without one), its
// first document's title ("Purchase agreement", "Purchase agreement + 2
// more"); with no document, "New Markup Room". Never a 36-character id.
func RoomHeading(referenceID, roomID string, titles []string) i18n.Words {
	ref := strings.TrimSpace(referenceID)
	if ref != "" && ref != roomID && !looksLikeUUID(ref) {
		return i18n.Plain(ref)
	}
	switch len(titles) {
	case 0:
		return i18n.Msg("room.heading.new")
	case 1:
		return i18n.Plain(titles[0])
	default:
		return i18n.Msg("room.heading.more", "title", titles[0], "count", len(titles)-1)
	}
}

// looksLikeUUID tells a generated id (8-4-4-4-12 hex digits) from a name people gave.
func looksLikeUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if r != '-' {
				return false
			}
		case !strings.ContainsRune("0123456789abcdefABCDEF", r):
			return false
		}
	}
	return true
}

// RoomMeta is the header's one line under the heading: the documents by
// their titles, who the room was prepared for and, while open, how long the
// link is valid (the whole of it is the line's tooltip when it is cut).
func RoomMeta(ctx context.Context, v RoomView) string {
	var b strings.Builder
	for i, d := range v.Documents {
		if i > 0 {
			b.WriteString(" · ")
		}
		b.WriteString(d.Title)
	}
	if b.Len() > 0 {
		b.WriteString(" — ")
	}
	if v.SenderEmail != "" {
		b.WriteString(t(ctx, "room.meta.prepared_for_email", "name", v.SenderName, "email", v.SenderEmail))
	} else {
		b.WriteString(t(ctx, "room.meta.prepared_for", "name", v.SenderName))
	}
	if v.Summary == nil && !v.ExpiresAt.IsZero() {
		b.WriteString(t(ctx, "room.meta.valid_until", "when", utcTime(ctx, v.ExpiresAt)))
	}
	return b.String()
}

// utcTime is a day and time in the page's language, naming UTC.
func utcTime(ctx context.Context, at time.Time) string {
	return t(ctx, "room.meta.utc", "when", i18n.From(ctx).DateTime(at.UTC()))
}

// PageLabel numbers a page within its document: "Purchase agreement · page 2 of 3".
func PageLabel(ctx context.Context, title string, n, total int) string {
	return t(ctx, "viewer.page_label", "title", title, "page", n, "total", total)
}

// firstTitle and firstPages describe the first document, which the toolbar names until the pages scroll.
func firstTitle(ctx context.Context, v RoomView) string {
	if len(v.Documents) == 0 {
		return t(ctx, "room.toolbar.no_document")
	}
	return v.Documents[0].Title
}

// emptyRoomText is what the viewer's toolbar says in a room without documents.
func emptyRoomText(ctx context.Context, v RoomView) string {
	if v.UploadURL != "" {
		return t(ctx, "room.toolbar.empty_upload")
	}
	return t(ctx, "room.toolbar.empty")
}

func firstPages(v RoomView) int {
	if len(v.Documents) == 0 {
		return 1
	}
	return v.Documents[0].PageCount
}

// InputLimits are the lengths and sizes the server accepts (models' limits,
// passed in by the handler so that no form states them a second time). A zero
// leaves the form's field without a limit of its own.
type InputLimits struct {
	Name, Email, Title, ShortText, StateFormat, Password int
	// FontSizeMax is the largest font size of a tag, in points.
	FontSizeMax int
}

// attrLimit is a limit as an attribute value ("" when there is none).
func attrLimit(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// statusIDs are the words of a room's status (models.RoomOpen, …): its
// badge, the read-only notice's title and the palette's note. The status
// itself stays a code (the badge's class, the API).
var statusIDs = map[string][3]string{
	"open":      {"room.status.open", "room.readonly.title_open", "room.palette.readonly_open"},
	"completed": {"room.status.completed", "room.readonly.title_completed", "room.palette.readonly_completed"},
	"expired":   {"room.status.expired", "room.readonly.title_expired", "room.palette.readonly_expired"},
}

// statusWords is word i (0 badge, 1 notice, 2 palette) of the room's status
// in the page's language; an unknown status shows as it is.
func statusWords(ctx context.Context, status string, i int) string {
	if ids, ok := statusIDs[status]; ok {
		return t(ctx, ids[i])
	}
	return status
}

// shortcut is one line of the palette's keyboard shortcuts: the keys and
// what they do (catalog ids).
type shortcut struct{ Keys, Does string }

// shortcuts are the palette's keyboard shortcuts, in order.
var shortcuts = []shortcut{
	{"room.keys.enter", "room.keys.enter.does"},
	{"room.keys.tab", "room.keys.tab.does"},
	{"room.keys.arrows", "room.keys.arrows.does"},
	{"room.keys.delete", "room.keys.delete.does"},
	{"room.keys.copy", "room.keys.copy.does"},
	{"room.keys.duplicate", "room.keys.duplicate.does"},
	{"room.keys.undo", "room.keys.undo.does"},
	{"room.keys.zoom", "room.keys.zoom.does"},
	{"room.keys.escape", "room.keys.escape.does"},
	{"room.keys.select", "room.keys.select.does"},
	{"room.keys.select_all", "room.keys.select_all.does"},
	{"room.keys.tab_space", "room.keys.tab_space.does"},
	{"room.keys.align_lcr", "room.keys.align_lcr.does"},
	{"room.keys.align_tmb", "room.keys.align_tmb.does"},
	{"room.keys.distribute", "room.keys.distribute.does"},
	{"room.keys.same", "room.keys.same.does"},
	{"room.keys.alt_drag", "room.keys.alt_drag.does"},
}

// RevisionView is a revision just made in the room: the document's
// position and the mapping's report (each tag's old and new place, each
// page's added and removed words), which the editor draws as "what
// changed" (web/src/editor/revision.mjs) from its JSON.
type RevisionView struct {
	Document int           `json:"document"`
	Report   revise.Report `json:"report"`
}
