package handlers

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/templates"
)

// replacedWords says what a replace changed: the participants and documents
// added, removed, renamed or changed by name, then the counts the names do
// not already say; a replace that names nothing (entries written before the
// names were kept, a change of tags only) reads “Replaced: …” with counts.
func replacedWords(s models.ReplacedSummary) string {
	var parts []string
	for _, n := range s.ParticipantsAdded {
		parts = append(parts, fmt.Sprintf("participant “%s” added", n))
	}
	for _, n := range s.ParticipantsRemoved {
		parts = append(parts, fmt.Sprintf("participant “%s” removed", n))
	}
	for _, r := range s.ParticipantsRenamed {
		parts = append(parts, fmt.Sprintf("participant renamed “%s” → “%s”", r.From, r.To))
	}
	for _, c := range s.ParticipantsChanged {
		if c.Email != nil {
			parts = append(parts, fmt.Sprintf("“%s” e-mail %s → %s", c.Name, c.Email.From, c.Email.To))
		}
		if c.Auth != nil {
			parts = append(parts, fmt.Sprintf("“%s” authentication %s → %s", c.Name, c.Auth.From, c.Auth.To))
		}
	}
	for _, t := range s.DocumentsAdded {
		parts = append(parts, fmt.Sprintf("document “%s” added", t))
	}
	for _, t := range s.DocumentsRemoved {
		parts = append(parts, fmt.Sprintf("document “%s” removed", t))
	}
	for _, r := range s.DocumentsRenamed {
		parts = append(parts, fmt.Sprintf("document renamed “%s” → “%s”", r.From, r.To))
	}
	namedParts := len(parts)
	named := map[string]bool{
		"documents":    len(s.DocumentsAdded)+len(s.DocumentsRemoved) > 0,
		"participants": len(s.ParticipantsAdded)+len(s.ParticipantsRemoved) > 0,
	}
	for _, c := range []struct {
		name  string
		count models.Count
	}{{"documents", s.Documents}, {"tags", s.Tags}, {"participants", s.Participants}} {
		if c.count.Before != c.count.After && !named[c.name] {
			parts = append(parts, fmt.Sprintf("%s %d → %d", c.name, c.count.Before, c.count.After))
		}
	}
	if len(parts) == 0 {
		return "Replaced (same number of documents, tags and participants)"
	}
	if namedParts == 0 {
		return "Replaced: " + strings.Join(parts, ", ")
	}
	// What was named leads the line: “Participant renamed …”.
	line := strings.Join(parts, ", ")
	r, size := utf8.DecodeRuneInString(line)
	return string(unicode.ToUpper(r)) + line[size:]
}

// restoredWords says which page edit an undo undid, with the page and its
// document.
func restoredWords(s models.PageRestoredSummary) string {
	doc := ofDocument(s.Document, s.DocumentTitle)
	switch {
	case s.Undoes == models.EventPageMoved && s.From != nil && s.To != nil:
		return fmt.Sprintf("Page move undone: page %d %s back to position %d", *s.From, doc, *s.To)
	case s.Undoes == models.EventPageDeleted && s.Page != nil:
		restored := 0
		if s.TagsRestored != nil {
			restored = *s.TagsRestored
		}
		return fmt.Sprintf("Page deletion undone: page %d %s restored with %s", *s.Page, doc, templates.Plural(restored, "tag", "tags"))
	case s.Undoes != "":
		return fmt.Sprintf("Undone (%s) %s", strings.ReplaceAll(s.Undoes, "_", " "), doc)
	}
	return "Page edit undone " + doc
}

// typeCounts says a batch's tags by type (" — 2 Signature, 1 Date"), the
// most first; nothing for entries written before the types were kept.
func typeCounts(types map[string]int) string {
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
		label := code
		if tt, ok := tagtype.ByCode(code); ok {
			label = tt.Label
		}
		parts[i] = fmt.Sprintf("%d %s", types[code], label)
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
