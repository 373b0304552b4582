package models

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/web/i18n"
)

// The audit events of a transaction's history entries: every entry addEvent
// writes (an API create or replace, a room edit, a completion) is also an
// event of the organization's audit trail, in the same database
// transaction, with a stable action and a sentence a person reads. The
// actions are listed in docs/audit.md.

// historyAudit is the audit entry of one history entry of t, written by actor.
func historyAudit(t *Transaction, actor Actor, summary HistorySummary) AuditEntry {
	e := AuditEntry{OrganizationID: t.OrganizationID, TargetType: "transaction", TargetID: t.ID, TransactionID: t.ID}
	room := actor.TokenID == nil // a room's edit; the API's carry their token
	if v := reflect.ValueOf(summary); v.Kind() == reflect.Pointer && !v.IsNil() {
		summary = v.Elem().Interface().(HistorySummary) // room edits pass their summaries by pointer
	}
	switch s := summary.(type) {
	case CreatedSummary:
		e.Action, e.Summary = "transaction.created", fmt.Sprintf("Created transaction %s: %s, %s, %s",
			shortRef(t), count(s.Documents, "document"), count(s.Participants, "participant"), count(s.Tags, "tag"))
		if s.Room != "" {
			e.Action, e.TargetType, e.TargetID = "room.created", "room", s.Room
			e.Summary = fmt.Sprintf("Created a Markup Room with %s and %s",
				count(s.Documents, "document"), count(s.Participants, "participant"))
		}
	case ReplacedSummary:
		replacedAudit(&e, s, room)
	case StatusChangedSummary:
		e.Action, e.Summary = "transaction.status_changed", fmt.Sprintf("Changed the status %s → %s", s.From, s.To)
	case TagAddedSummary:
		e.Action, e.TargetType, e.TargetID = "room.tag_created", "tag", s.TagID
		e.Summary = fmt.Sprintf("Placed a %s tag on page %d of %s", tagWords(s.Type), s.Page, s.DocumentTitle)
	case TagChangedSummary:
		e.Action, e.TargetType, e.TargetID = "room.tag_changed", "tag", s.TagID
		e.Summary = fmt.Sprintf("Saved a %s tag on page %d of %s unchanged", tagWords(s.Type), s.Page, s.DocumentTitle)
		if n := len(s.Changed); n > 0 {
			what := s.Changed[n-1]
			if n > 1 {
				what = strings.Join(s.Changed[:n-1], ", ") + " and " + what
			}
			e.Summary = fmt.Sprintf("Changed the %s of a %s tag on page %d of %s", what, tagWords(s.Type), s.Page, s.DocumentTitle)
		}
	case TagRemovedSummary:
		e.Action, e.TargetType, e.TargetID = "room.tag_deleted", "tag", s.TagID
		e.Summary = fmt.Sprintf("Deleted a %s tag from page %d of %s", tagWords(s.Type), s.Page, s.DocumentTitle)
	case TagsBatchSummary:
		e.Action, e.Summary = "room.tags_batch", batchWords(s)
	case DocumentAddedSummary:
		e.Action, e.TargetType, e.TargetID = "document.added", "document", s.DocumentID
		e.Summary = fmt.Sprintf("Added %s (%s)", s.DocumentTitle, count(s.Pages, "page"))
		if s.TagsRestored != nil {
			e.Action = "document.restored"
			e.Summary = fmt.Sprintf("Restored the removed document %s with %s", s.DocumentTitle, count(*s.TagsRestored, "tag"))
		}
	case DocumentRemovedSummary:
		e.Action, e.TargetType, e.TargetID = "document.removed", "document", s.DocumentID
		e.Summary = fmt.Sprintf("Removed %s with %s", s.DocumentTitle, count(s.TagsRemoved, "tag"))
	case PageDeletedSummary:
		e.Action, e.TargetType, e.TargetID = "page.deleted", "document", s.ToDocumentID
		e.Summary = fmt.Sprintf("Deleted page %d of %s with %s", s.Page, s.DocumentTitle, count(s.TagsRemoved, "tag"))
	case PageMovedSummary:
		e.Action, e.TargetType, e.TargetID = "page.moved", "document", s.ToDocumentID
		e.Summary = fmt.Sprintf("Moved page %d of %s to position %d", s.From, s.DocumentTitle, s.To)
	case PageRestoredSummary:
		e.Action, e.TargetType, e.TargetID = "page.restored", "document", s.ToDocumentID
		e.Summary = fmt.Sprintf("Undid a page edit of %s", s.DocumentTitle)
	case RoomCompletedSummary:
		e.Action, e.TargetType, e.TargetID = "room.completed", "room", s.Room
		e.Summary = fmt.Sprintf("Created the e-signature session: %s, %s, %s",
			count(s.Documents, "document"), count(s.Participants, "participant"), count(s.Tags, "tag"))
	case RevisedSummary:
		e.Action, e.TargetType, e.TargetID = "document.revised", "document", s.ToDocumentID
		e.Summary = fmt.Sprintf("Revised %s: %s moved, %s unchanged, %s to look at", s.DocumentTitle,
			count(s.Moved, "tag"), count(s.Unchanged, "tag"), count(s.Flagged, "tag"))
	case InvitationsQueuedSummary:
		e.Action = "transaction.invitations_queued"
		e.Summary = fmt.Sprintf("Queued %s to %s", count(s.Count, "invitation"), strings.Join(s.Recipients, ", "))
	default:
		e.Action, e.Summary = "transaction."+summary.Kind(), "Changed the transaction"
	}
	return e
}

// replacedAudit fills e for a replace: through the API one
// transaction.replaced; a room edit (one change of a participant or a
// document's title, through the same replace) by what it changed.
func replacedAudit(e *AuditEntry, s ReplacedSummary, room bool) {
	e.Action = "transaction.replaced"
	e.Summary = fmt.Sprintf("Replaced the transaction (version %d): %s, %s, %s", s.Version,
		count(s.Documents.After, "document"), count(s.Participants.After, "participant"), count(s.Tags.After, "tag"))
	if !room {
		if changes := replacedChanges(s); changes != "" {
			e.Summary += "; " + changes
		}
		return
	}
	participant := func(action, words string) {
		e.Action, e.Summary = action, words
		if s.participant != "" {
			e.TargetType, e.TargetID = "participant", s.participant
		}
	}
	switch {
	case s.Reason == ReasonRoomCompleted:
		e.Summary = fmt.Sprintf("Replaced the transaction to create its e-signature session (version %d): %s, %s, %s", s.Version,
			count(s.Documents.After, "document"), count(s.Participants.After, "participant"), count(s.Tags.After, "tag"))
	case s.Reason == ReasonParticipantRestored && len(s.ParticipantsAdded) > 0:
		participant("participant.restored", "Restored the removed participant "+strings.Join(s.ParticipantsAdded, ", "))
	case len(s.ParticipantsAdded) > 0:
		participant("participant.added", "Added participant "+strings.Join(s.ParticipantsAdded, ", "))
	case len(s.ParticipantsRemoved) > 0:
		participant("participant.removed", "Removed participant "+strings.Join(s.ParticipantsRemoved, ", "))
	case len(s.ParticipantsRenamed) > 0:
		r := s.ParticipantsRenamed[0]
		participant("participant.renamed", "Renamed participant "+r.From+" → "+r.To)
	case len(s.ParticipantsChanged) > 0:
		words := participantChangeWords(s.ParticipantsChanged[0])
		participant("participant.changed", "C"+strings.TrimPrefix(words, "c"))
	case len(s.DocumentsRenamed) > 0:
		r := s.DocumentsRenamed[0]
		e.Action, e.Summary = "document.renamed", "Renamed document "+r.From+" → "+r.To
	case s.reordered:
		participant("participant.moved", "Changed the order of the participants")
	}
}

// replacedChanges names who and what a replace through the API added,
// removed, renamed or changed ("renamed participant Robin Seller → Robin
// Seller-Smith; removed document Addendum"), as its history entry lists
// them; "" when it changed none of them.
func replacedChanges(s ReplacedSummary) string {
	var parts []string
	list := func(words string, names []string) {
		if len(names) > 0 {
			parts = append(parts, words+" "+strings.Join(names, ", "))
		}
	}
	renames := func(words string, rs []Rename) {
		for _, r := range rs {
			parts = append(parts, words+" "+r.From+" → "+r.To)
		}
	}
	list("added participant", s.ParticipantsAdded)
	list("removed participant", s.ParticipantsRemoved)
	renames("renamed participant", s.ParticipantsRenamed)
	for _, c := range s.ParticipantsChanged {
		parts = append(parts, participantChangeWords(c))
	}
	list("added document", s.DocumentsAdded)
	list("removed document", s.DocumentsRemoved)
	renames("renamed document", s.DocumentsRenamed)
	return strings.Join(parts, "; ")
}

// participantChangeWords is what a change of one participant's e-mail or
// authentication says, in the middle of a sentence ("changed participant
// Robin: e-mail a@x.io → b@x.io").
func participantChangeWords(c ParticipantChange) string {
	words := "changed participant " + c.Name + ":"
	if c.Email != nil {
		words += " e-mail " + c.Email.From + " → " + c.Email.To
	}
	if c.Auth != nil {
		words += " authentication " + c.Auth.From + " → " + c.Auth.To
	}
	return words
}

// batchWords is a tag batch's sentence: "Placed 3 tags (2 signature, 1
// date) on Lease.pdf", or its counts of each kind of edit.
func batchWords(s TagsBatchSummary) string {
	var parts []string
	for _, p := range []struct {
		verb string
		n    int
	}{{"placed", s.Created}, {"changed", s.Updated}, {"deleted", s.Deleted}} {
		if p.n > 0 {
			parts = append(parts, p.verb+" "+count(p.n, "tag"))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "changed no tags")
	}
	words := strings.Join(parts, ", ")
	words = strings.ToUpper(words[:1]) + words[1:]
	if len(s.Types) > 0 {
		var types []string
		for _, code := range slices.Sorted(maps.Keys(s.Types)) {
			types = append(types, strconv.Itoa(s.Types[code])+" "+tagWords(code))
		}
		words += " (" + strings.Join(types, ", ") + ")"
	}
	if len(s.DocumentTitles) > 0 {
		words += " on " + strings.Join(s.DocumentTitles, ", ")
	}
	return words
}

// tagWords names a tag type for a sentence: "signature", "date".
func tagWords(code string) string {
	if t, ok := tagtype.ByCode(code); ok {
		return strings.ToLower(i18n.English().T(t.Key.Name))
	}
	return code
}

// count is "1 tag", "3 tags".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// shortRef names a transaction in a sentence: its reference id, else its id.
func shortRef(t *Transaction) string {
	if t.ReferenceID != "" {
		return t.ReferenceID
	}
	return t.ID
}

// auditNamed queues e like audit, naming a room's actor by label (the
// room's sender with the session's short id, as the history names it)
// when the context's actor is a room session.
func (s *Store) auditNamed(ctx context.Context, e AuditEntry, label string) error {
	if a := AuditActorFrom(ctx); a.Kind == AuditActorRoom && label != "" {
		a.Name = label
		ctx = WithAuditActor(ctx, a)
	}
	return s.audit(ctx, e)
}

// roomAuditContext is ctx with its room actor named as roomActor names the
// room's changes; other actors are left as they are.
func roomAuditContext(ctx context.Context, room *Room) context.Context {
	if a := AuditActorFrom(ctx); a.Kind == AuditActorRoom {
		a.Name = roomActor(ctx, room).Label()
		return WithAuditActor(ctx, a)
	}
	return ctx
}
