package handlers

import (
	"fmt"
	"strings"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/templates"
)

// historyWords says what one history entry changed, for people. An entry
// of a kind this version does not know (or that does not decode) is named
// by its kind.
func historyWords(e models.TransactionEvent) string {
	sum, err := e.Decode()
	if err != nil {
		return strings.ReplaceAll(e.Kind, "_", " ")
	}
	switch s := sum.(type) {
	case models.CreatedSummary:
		return fmt.Sprintf("Created with %s, %s and %s", templates.Plural(s.Documents, "document", "documents"), templates.Plural(s.Tags, "tag", "tags"), templates.Plural(s.Participants, "participant", "participants"))
	case models.ReplacedSummary:
		return replacedWords(s)
	case models.StatusChangedSummary:
		return fmt.Sprintf("Status %s → %s", s.From, s.To)
	case models.TagAddedSummary:
		return fmt.Sprintf("%s tag added on page %d %s", tagTypeWord(s.Type), s.Page, ofDocument(s.Document, s.DocumentTitle))
	case models.TagChangedSummary:
		what := s.Changed
		if len(what) == 0 {
			what = []string{"nothing"}
		}
		return fmt.Sprintf("%s tag on page %d %s changed: %s", tagTypeWord(s.Type), s.Page, ofDocument(s.Document, s.DocumentTitle), strings.Join(what, ", "))
	case models.TagRemovedSummary:
		return fmt.Sprintf("%s tag removed from page %d %s", tagTypeWord(s.Type), s.Page, ofDocument(s.Document, s.DocumentTitle))
	case models.TagsBatchSummary:
		var parts []string
		for _, c := range []struct {
			n    int
			verb string
		}{{s.Created, "added"}, {s.Updated, "changed"}, {s.Deleted, "removed"}} {
			if c.n > 0 {
				parts = append(parts, templates.Plural(c.n, "tag", "tags")+" "+c.verb)
			}
		}
		where := ""
		switch len(s.Documents) {
		case 0:
		case 1:
			if len(s.DocumentTitles) > 0 && s.DocumentTitles[0] != "" {
				where = fmt.Sprintf(" in “%s”", s.DocumentTitles[0])
			} else {
				where = fmt.Sprintf(" in document %d", s.Documents[0]+1)
			}
		default:
			where = " in " + templates.Plural(len(s.Documents), "document", "documents")
		}
		return "Tags edited together: " + strings.Join(parts, ", ") + where + typeCounts(s.Types)
	case models.PageDeletedSummary:
		return fmt.Sprintf("Page %d %s deleted (%s removed with it)", s.Page, ofDocument(s.Document, s.DocumentTitle), templates.Plural(s.TagsRemoved, "tag", "tags"))
	case models.PageMovedSummary:
		return fmt.Sprintf("Page %d %s moved to position %d", s.From, ofDocument(s.Document, s.DocumentTitle), s.To)
	case models.PageRestoredSummary:
		return restoredWords(s)
	case models.DocumentAddedSummary:
		return fmt.Sprintf("Document “%s” added (%s)", s.DocumentTitle, templates.Plural(s.Pages, "page", "pages"))
	case models.DocumentRemovedSummary:
		return fmt.Sprintf("Document “%s” removed with %s", s.DocumentTitle, templates.Plural(s.TagsRemoved, "tag", "tags"))
	case models.RoomCompletedSummary:
		return "E-signature session created from the Markup Room"
	case models.InvitationsQueuedSummary:
		return fmt.Sprintf("Invitations queued: %s to %s", templates.Plural(s.Count, "e-mail", "e-mails"), strings.Join(s.Recipients, ", "))
	default:
		return strings.ReplaceAll(e.Kind, "_", " ")
	}
}

// tagTypeWord names a tag type by its label ("A" for a code it does not know).
func tagTypeWord(code string) string {
	if tt, ok := tagtype.ByCode(code); ok {
		return tt.Label
	}
	return "A"
}

// ofDocument names a document of a history entry by its title, else by its
// position counted from 1.
func ofDocument(pos int, title string) string {
	if title != "" {
		return fmt.Sprintf("of “%s”", title)
	}
	return fmt.Sprintf("of document %d", pos+1)
}
