package models

import (
	"encoding/json"
	"fmt"
)

// HistorySummary is what one transaction history entry says, one struct per
// event kind. The kind comes from the type, so a summary cannot be recorded
// under another kind's name; TransactionEvent.Decode reads one back.
//
// The stored JSON is the contract with rows already written: each struct's
// fields are in the alphabetical order of their JSON keys, so a summary
// marshals to the same bytes the earlier map-based writers stored (Go sorts
// map keys), and old rows decode into these types.
type HistorySummary interface {
	// Kind is the event kind the summary is recorded under (EventCreated, …).
	Kind() string
}

// roomEditSummary is a summary of a Markup Room edit: bumpTransaction sets
// the transaction version the edit produced.
type roomEditSummary interface {
	HistorySummary
	setVersion(v int)
}

// RoomVersion is the transaction version a Markup Room edit produced; it is
// embedded last in the summaries of room edits.
type RoomVersion struct {
	Version int `json:"version"`
}

func (v *RoomVersion) setVersion(n int) { v.Version = n }

// CreatedSummary records a new transaction (through the API, or as a new
// room's draft, then with Room set).
type CreatedSummary struct {
	Documents    int    `json:"documents"`
	Participants int    `json:"participants"`
	Room         string `json:"room,omitempty"`
	Status       string `json:"status"`
	Tags         int    `json:"tags"`
}

// Kind implements HistorySummary.
func (CreatedSummary) Kind() string { return EventCreated }

// Count is a number before and after a change.
type Count struct {
	After  int `json:"after"`
	Before int `json:"before"`
}

// ReplacedSummary records a replace: the counts before and after, the new
// version, and who and what the replace added, removed, renamed or changed
// (participants matched by their id, documents by their document id). Rows
// written before those lists were kept have only the counts.
type ReplacedSummary struct {
	Documents           Count               `json:"documents"`
	DocumentsAdded      []string            `json:"documentsAdded,omitempty"`
	DocumentsRemoved    []string            `json:"documentsRemoved,omitempty"`
	DocumentsRenamed    []Rename            `json:"documentsRenamed,omitempty"`
	Participants        Count               `json:"participants"`
	ParticipantsAdded   []string            `json:"participantsAdded,omitempty"`
	ParticipantsChanged []ParticipantChange `json:"participantsChanged,omitempty"`
	ParticipantsRemoved []string            `json:"participantsRemoved,omitempty"`
	ParticipantsRenamed []Rename            `json:"participantsRenamed,omitempty"`
	// Reason is why a room's replace was made when it is not an edit of
	// the transaction (ReasonRoomCompleted, ReasonParticipantRestored);
	// absent from every other replace and from rows written before it
	// was kept.
	Reason  string `json:"reason,omitempty"`
	Tags    Count  `json:"tags"`
	Version int    `json:"version"`
	// participant is the id of the first participant the lists name, for
	// the audit event's target (not stored in the history).
	participant string
	// reordered is true when the participants' order changed.
	reordered bool
}

// Rename is a value before and after a change: a participant's name, a
// document's title, an e-mail address or an authentication type.
type Rename struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// ParticipantChange records a participant (by name, as they are now) whose
// e-mail address or authentication type a replace changed.
type ParticipantChange struct {
	Auth  *Rename `json:"auth,omitempty"`
	Email *Rename `json:"email,omitempty"`
	Name  string  `json:"name"`
}

// Kind implements HistorySummary.
func (ReplacedSummary) Kind() string { return EventReplaced }

// The reasons of a room's replace that is not an edit (ReplacedSummary.Reason).
const (
	// ReasonRoomCompleted is the replace that creates the e-signature
	// session from a Markup Room (CompleteRoom).
	ReasonRoomCompleted = "room_completed"
	// ReasonParticipantRestored is the undo of a participant's removal in a
	// Markup Room (RestoreRoomRemoval).
	ReasonParticipantRestored = "participant_restored"
)

// StatusChangedSummary records a change of the transaction's status.
type StatusChangedSummary struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Kind implements HistorySummary.
func (StatusChangedSummary) Kind() string { return EventStatusChanged }

// TagAddedSummary records a tag placed in the Markup Room.
type TagAddedSummary struct {
	Document      int    `json:"document"`
	DocumentTitle string `json:"documentTitle"`
	Page          int    `json:"page"`
	TagID         string `json:"tagId"`
	Type          string `json:"type"`
	RoomVersion
	// live is the tag as the room's events carry it (not stored).
	live []RoomEventTag
}

// Kind implements HistorySummary.
func (TagAddedSummary) Kind() string { return EventTagAdded }

// TagChangedSummary records a tag changed in the Markup Room: what changed
// ("position", "size", "type", "signer", "options"; null when nothing did)
// and, when it moved to another page, the page it left.
type TagChangedSummary struct {
	Changed       []string `json:"changed"`
	Document      int      `json:"document"`
	DocumentTitle string   `json:"documentTitle"`
	FromPage      int      `json:"fromPage,omitempty"` // pages count from 1: 0 is "same page"
	Page          int      `json:"page"`
	TagID         string   `json:"tagId"`
	Type          string   `json:"type"`
	RoomVersion
	// live is the tag as the room's events carry it (not stored).
	live []RoomEventTag
}

// Kind implements HistorySummary.
func (TagChangedSummary) Kind() string { return EventTagChanged }

// TagRemovedSummary records a tag removed in the Markup Room: the same
// fields as a tag added.
type TagRemovedSummary TagAddedSummary

// Kind implements HistorySummary.
func (TagRemovedSummary) Kind() string { return EventTagRemoved }

// TagsBatchSummary records a batch of tag edits of the Markup Room (one
// request, one database transaction): how many tags it created, updated and
// deleted, their types, and the documents it touched (positions in order, with their
// titles at the same index).
type TagsBatchSummary struct {
	Created        int      `json:"created"`
	Deleted        int      `json:"deleted"`
	DocumentTitles []string `json:"documentTitles"`
	Documents      []int    `json:"documents"`
	// Types counts the tags the batch created, changed or deleted by tag
	// type code; absent from rows written before it was kept.
	Types   map[string]int `json:"types,omitempty"`
	Updated int            `json:"updated"`
	RoomVersion
	// live is what the room's events say of the batch (not stored in the
	// history).
	live batchEvents
}

// batchEvents are the tags a batch created and updated (by id) and deleted
// (as they were), for its room events.
type batchEvents struct {
	created, updated, deleted []RoomEventTag
}

// Kind implements HistorySummary.
func (TagsBatchSummary) Kind() string { return EventTagsBatch }

// DocumentAddedSummary records a document added in the Markup Room.
type DocumentAddedSummary struct {
	Document      int    `json:"document"`
	DocumentID    string `json:"documentId"`
	DocumentTitle string `json:"documentTitle"`
	Pages         int    `json:"pages"`
	// TagsPlaced counts the tags placed from the document's own text tags and form fields.
	TagsPlaced int `json:"tagsPlaced,omitempty"`
	// TagsRestored is set when the entry is the undo of the document's
	// removal: the tags it brought back with it (nil for an upload, and
	// for every row written before it was kept).
	TagsRestored *int `json:"tagsRestored,omitempty"`
	RoomVersion
}

// Kind implements HistorySummary.
func (DocumentAddedSummary) Kind() string { return EventDocumentAdded }

// DocumentRemovedSummary records a document removed in the Markup Room with its tags.
type DocumentRemovedSummary struct {
	Document      int    `json:"document"`
	DocumentID    string `json:"documentId"`
	DocumentTitle string `json:"documentTitle"`
	TagsRemoved   int    `json:"tagsRemoved"`
	RoomVersion
}

// Kind implements HistorySummary.
func (DocumentRemovedSummary) Kind() string { return EventDocumentRemoved }

// PageDeletedSummary records a page deleted in the Markup Room. The page's
// tags are kept whole, so that an undo brings them back as they were: in the
// table deleted_page_tags, once per document version, page and content,
// named by TagsKept (Tags is then null). Rows written before that table (no
// TagsKept) carry them in Tags; a page without tags keeps Tags empty ([]).
type PageDeletedSummary struct {
	Document       int          `json:"document"`
	DocumentTitle  string       `json:"documentTitle"`
	FromDocumentID string       `json:"fromDocumentId"`
	Page           int          `json:"page"`
	Pages          int          `json:"pages"`
	Tags           []DeletedTag `json:"tags"`
	TagsKept       string       `json:"tagsKept,omitempty"`
	TagsRemoved    int          `json:"tagsRemoved"`
	ToDocumentID   string       `json:"toDocumentId"`
	RoomVersion
}

// Kind implements HistorySummary.
func (PageDeletedSummary) Kind() string { return EventPageDeleted }

// PageMovedSummary records a page moved from one position to another in the Markup Room.
type PageMovedSummary struct {
	Document       int    `json:"document"`
	DocumentTitle  string `json:"documentTitle"`
	From           int    `json:"from"`
	FromDocumentID string `json:"fromDocumentId"`
	Pages          int    `json:"pages"`
	To             int    `json:"to"`
	ToDocumentID   string `json:"toDocumentId"`
	RoomVersion
}

// Kind implements HistorySummary.
func (PageMovedSummary) Kind() string { return EventPageMoved }

// PageRestoredSummary records the undo of a page edit (Undoes is its kind):
// From and To for a move, Page and TagsRestored for a deletion.
type PageRestoredSummary struct {
	Document       int    `json:"document"`
	DocumentTitle  string `json:"documentTitle"`
	From           *int   `json:"from,omitempty"`
	FromDocumentID string `json:"fromDocumentId"`
	Page           *int   `json:"page,omitempty"`
	Pages          int    `json:"pages"`
	TagsRestored   *int   `json:"tagsRestored,omitempty"`
	To             *int   `json:"to,omitempty"`
	ToDocumentID   string `json:"toDocumentId"`
	Undoes         string `json:"undoes"`
	RoomVersion
}

// Kind implements HistorySummary.
func (PageRestoredSummary) Kind() string { return EventPageRestored }

// RoomCompletedSummary records the e-signature session created from a Markup Room.
type RoomCompletedSummary struct {
	Documents    int    `json:"documents"`
	Participants int    `json:"participants"`
	Room         string `json:"room"`
	Tags         int    `json:"tags"`
}

// Kind implements HistorySummary.
func (RoomCompletedSummary) Kind() string { return EventRoomCompleted }

// InvitationsQueuedSummary records the invitation e-mails queued, one per recipient.
type InvitationsQueuedSummary struct {
	Count      int      `json:"count"`
	Recipients []string `json:"recipients"`
}

// Kind implements HistorySummary.
func (InvitationsQueuedSummary) Kind() string { return EventInvitationsQueued }

// Decode reads the entry's summary into the struct of its kind (a value,
// such as CreatedSummary). An unknown kind or a summary that does not fit
// its kind is an error.
func (e *TransactionEvent) Decode() (HistorySummary, error) {
	var (
		s   HistorySummary
		err error
	)
	switch e.Kind {
	case EventCreated:
		s, err = decodeSummary[CreatedSummary](e.Summary)
	case EventReplaced:
		s, err = decodeSummary[ReplacedSummary](e.Summary)
	case EventStatusChanged:
		s, err = decodeSummary[StatusChangedSummary](e.Summary)
	case EventTagAdded:
		s, err = decodeSummary[TagAddedSummary](e.Summary)
	case EventTagChanged:
		s, err = decodeSummary[TagChangedSummary](e.Summary)
	case EventTagRemoved:
		s, err = decodeSummary[TagRemovedSummary](e.Summary)
	case EventTagsBatch:
		s, err = decodeSummary[TagsBatchSummary](e.Summary)
	case EventDocumentAdded:
		s, err = decodeSummary[DocumentAddedSummary](e.Summary)
	case EventDocumentRemoved:
		s, err = decodeSummary[DocumentRemovedSummary](e.Summary)
	case EventPageDeleted:
		s, err = decodeSummary[PageDeletedSummary](e.Summary)
	case EventPageMoved:
		s, err = decodeSummary[PageMovedSummary](e.Summary)
	case EventPageRestored:
		s, err = decodeSummary[PageRestoredSummary](e.Summary)
	case EventRoomCompleted:
		s, err = decodeSummary[RoomCompletedSummary](e.Summary)
	case EventInvitationsQueued:
		s, err = decodeSummary[InvitationsQueuedSummary](e.Summary)
	case EventRevised:
		s, err = decodeSummary[RevisedSummary](e.Summary)
	default:
		return nil, fmt.Errorf("history event %s: unknown kind %q", e.ID, e.Kind)
	}
	if err != nil {
		return nil, fmt.Errorf("history event %s (%s): %w", e.ID, e.Kind, err)
	}
	return s, nil
}

func decodeSummary[T HistorySummary](raw []byte) (HistorySummary, error) {
	var s T
	if len(raw) == 0 {
		return s, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	return s, nil
}
