package handlers

import (
	"slices"
	"strings"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/web/i18n"
)

// replacedWords says what a replace changed: the participants and documents
// added, removed, renamed or changed by name, then the counts the names do
// not already say; a replace that names nothing (entries written before the
// names were kept, a change of tags only) reads “Replaced: …” with counts.
// A room's replace says why it was made (ReplacedSummary.Reason): the
// e-signature session created, a participant's removal undone.
func replacedWords(s models.ReplacedSummary) i18n.Words {
	var parts []i18n.Words
	for _, n := range s.ParticipantsAdded {
		if s.Reason == models.ReasonParticipantRestored {
			parts = append(parts, i18n.Msg("admin.history.participant_restored", "name", n))
			continue
		}
		parts = append(parts, i18n.Msg("admin.history.participant_added", "name", n))
	}
	for _, n := range s.ParticipantsRemoved {
		parts = append(parts, i18n.Msg("admin.history.participant_removed", "name", n))
	}
	for _, r := range s.ParticipantsRenamed {
		parts = append(parts, i18n.Msg("admin.history.participant_renamed", "from", r.From, "to", r.To))
	}
	for _, c := range s.ParticipantsChanged {
		if c.Email != nil {
			parts = append(parts, i18n.Msg("admin.history.participant_email", "name", c.Name, "from", c.Email.From, "to", c.Email.To))
		}
		if c.Auth != nil {
			parts = append(parts, i18n.Msg("admin.history.participant_auth", "name", c.Name, "from", c.Auth.From, "to", c.Auth.To))
		}
	}
	for _, t := range s.DocumentsAdded {
		parts = append(parts, i18n.Msg("admin.history.document_added_named", "title", t))
	}
	for _, t := range s.DocumentsRemoved {
		parts = append(parts, i18n.Msg("admin.history.document_removed_named", "title", t))
	}
	for _, r := range s.DocumentsRenamed {
		parts = append(parts, i18n.Msg("admin.history.document_renamed", "from", r.From, "to", r.To))
	}
	namedParts := len(parts)
	named := map[string]bool{
		"admin.history.count.documents":    len(s.DocumentsAdded)+len(s.DocumentsRemoved) > 0,
		"admin.history.count.participants": len(s.ParticipantsAdded)+len(s.ParticipantsRemoved) > 0,
	}
	for _, c := range []struct {
		id    string
		count models.Count
	}{{"admin.history.count.documents", s.Documents}, {"admin.history.count.tags", s.Tags}, {"admin.history.count.participants", s.Participants}} {
		if c.count.Before != c.count.After && !named[c.id] {
			parts = append(parts, i18n.Msg(c.id, "before", c.count.Before, "after", c.count.After))
		}
	}
	if len(parts) == 0 && s.Reason == models.ReasonRoomCompleted {
		return i18n.Msg("admin.history.session_created", "documents", i18n.Msg("admin.history.documents", "count", s.Documents.After),
			"tags", historyTags(s.Tags.After), "participants", i18n.Msg("admin.history.participants", "count", s.Participants.After))
	}
	if len(parts) == 0 {
		return i18n.Msg("admin.history.replaced_same")
	}
	if namedParts == 0 {
		return i18n.Msg("admin.history.replaced", "changes", i18n.List{Items: parts, Sep: ", "})
	}
	// What was named leads the line: “Participant renamed …”.
	return i18n.Capital{Words: i18n.List{Items: parts, Sep: ", "}}
}

// restoredWords says which page edit (or revision) an undo undid, with
// the page and its document.
func restoredWords(s models.PageRestoredSummary) i18n.Words {
	doc := ofDocument(s.Document, s.DocumentTitle)
	switch {
	case s.Undoes == models.EventPageMoved && s.From != nil && s.To != nil:
		return i18n.Msg("admin.history.undo_move", "page", *s.From, "document", doc, "position", *s.To)
	case s.Undoes == models.EventPageDeleted && s.Page != nil:
		restored := 0
		if s.TagsRestored != nil {
			restored = *s.TagsRestored
		}
		return i18n.Msg("admin.history.undo_delete", "page", *s.Page, "document", doc, "tags", historyTags(restored))
	case s.Undoes == models.EventRevised:
		restored := 0
		if s.TagsRestored != nil {
			restored = *s.TagsRestored
		}
		return i18n.Msg("admin.history.undo_revision", "document", doc, "tags", historyTags(restored))
	case s.Undoes != "":
		return i18n.Msg("admin.history.undo_other", "kind", strings.ReplaceAll(s.Undoes, "_", " "), "document", doc)
	}
	return i18n.Msg("admin.history.undo", "document", doc)
}

// typeCounts says a batch's tags by type (" (2 Signature, 1 Date)"), the
// most first; nothing for entries written before the types were kept.
func typeCounts(types map[string]int) i18n.Words {
	if len(types) == 0 {
		return i18n.Plain("")
	}
	codes := make([]string, 0, len(types))
	for code := range types {
		codes = append(codes, code)
	}
	slices.SortFunc(codes, func(a, b string) int {
		if types[a] != types[b] {
			return types[b] - types[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]i18n.Words, len(codes))
	for i, code := range codes {
		parts[i] = i18n.Msg("admin.history.type_count", "count", types[code], "type", typeName(code))
	}
	return i18n.List{Items: []i18n.Words{i18n.Plain(""), i18n.Msg("admin.history.type_counts", "list", i18n.List{Items: parts, Sep: ", "})}, Sep: " "}
}

// typeName is a tag type's name; a code this version does
// not know is itself.
func typeName(code string) i18n.Words {
	if tt, ok := tagtype.ByCode(code); ok {
		return i18n.Msg(tt.Key.Name)
	}
	return i18n.Plain(code)
}
