package handlers

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

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
func replacedWords(l *i18n.Localizer, s models.ReplacedSummary) string {
	var parts []string
	for _, n := range s.ParticipantsAdded {
		if s.Reason == models.ReasonParticipantRestored {
			parts = append(parts, l.T("admin.history.participant_restored", "name", n))
			continue
		}
		parts = append(parts, l.T("admin.history.participant_added", "name", n))
	}
	for _, n := range s.ParticipantsRemoved {
		parts = append(parts, l.T("admin.history.participant_removed", "name", n))
	}
	for _, r := range s.ParticipantsRenamed {
		parts = append(parts, l.T("admin.history.participant_renamed", "from", r.From, "to", r.To))
	}
	for _, c := range s.ParticipantsChanged {
		if c.Email != nil {
			parts = append(parts, l.T("admin.history.participant_email", "name", c.Name, "from", c.Email.From, "to", c.Email.To))
		}
		if c.Auth != nil {
			parts = append(parts, l.T("admin.history.participant_auth", "name", c.Name, "from", c.Auth.From, "to", c.Auth.To))
		}
	}
	for _, t := range s.DocumentsAdded {
		parts = append(parts, l.T("admin.history.document_added_named", "title", t))
	}
	for _, t := range s.DocumentsRemoved {
		parts = append(parts, l.T("admin.history.document_removed_named", "title", t))
	}
	for _, r := range s.DocumentsRenamed {
		parts = append(parts, l.T("admin.history.document_renamed", "from", r.From, "to", r.To))
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
			parts = append(parts, l.T(c.id, "before", c.count.Before, "after", c.count.After))
		}
	}
	if len(parts) == 0 && s.Reason == models.ReasonRoomCompleted {
		return l.T("admin.history.session_created", "documents", l.T("admin.history.documents", "count", s.Documents.After),
			"tags", historyTags(l, s.Tags.After), "participants", l.T("admin.history.participants", "count", s.Participants.After))
	}
	if len(parts) == 0 {
		return l.T("admin.history.replaced_same")
	}
	if namedParts == 0 {
		return l.T("admin.history.replaced", "changes", strings.Join(parts, ", "))
	}
	// What was named leads the line: “Participant renamed …”.
	line := strings.Join(parts, ", ")
	r, size := utf8.DecodeRuneInString(line)
	return string(unicode.ToUpper(r)) + line[size:]
}

// restoredWords says which page edit an undo undid, with the page and its
// document.
func restoredWords(l *i18n.Localizer, s models.PageRestoredSummary) string {
	doc := ofDocument(l, s.Document, s.DocumentTitle)
	switch {
	case s.Undoes == models.EventPageMoved && s.From != nil && s.To != nil:
		return l.T("admin.history.undo_move", "page", *s.From, "document", doc, "position", *s.To)
	case s.Undoes == models.EventPageDeleted && s.Page != nil:
		restored := 0
		if s.TagsRestored != nil {
			restored = *s.TagsRestored
		}
		return l.T("admin.history.undo_delete", "page", *s.Page, "document", doc, "tags", historyTags(l, restored))
	case s.Undoes != "":
		return l.T("admin.history.undo_other", "kind", strings.ReplaceAll(s.Undoes, "_", " "), "document", doc)
	}
	return l.T("admin.history.undo", "document", doc)
}

// typeCounts says a batch's tags by type (" (2 Signature, 1 Date)"), the
// most first; nothing for entries written before the types were kept.
func typeCounts(l *i18n.Localizer, types map[string]int) string {
	if len(types) == 0 {
		return ""
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
	parts := make([]string, len(codes))
	for i, code := range codes {
		parts[i] = l.T("admin.history.type_count", "count", types[code], "type", typeName(l, code))
	}
	return " " + l.T("admin.history.type_counts", "list", strings.Join(parts, ", "))
}

// typeName is a tag type's name in l's language; a code this version does
// not know is itself.
func typeName(l *i18n.Localizer, code string) string {
	if tt, ok := tagtype.ByCode(code); ok {
		return l.T(tt.Key.Name)
	}
	return code
}
