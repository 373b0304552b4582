package handlers

import (
	"strings"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// historyWords says what one history entry changed, for people, in l's
// language: the stored summary is data, its sentence is made at read time
// (docs/i18n.md). An entry of a kind this version does not know (or that
// does not decode) is named by its kind.
func historyWords(l *i18n.Localizer, e models.TransactionEvent) string {
	sum, err := e.Decode()
	if err != nil {
		return strings.ReplaceAll(e.Kind, "_", " ")
	}
	switch s := sum.(type) {
	case models.CreatedSummary:
		return l.T("admin.history.created", "documents", l.T("admin.history.documents", "count", s.Documents),
			"tags", historyTags(l, s.Tags), "participants", l.T("admin.history.participants", "count", s.Participants))
	case models.ReplacedSummary:
		return replacedWords(l, s)
	case models.StatusChangedSummary:
		return l.T("admin.history.status", "from", transactionStatusLabel(l, s.From), "to", transactionStatusLabel(l, s.To))
	case models.TagAddedSummary:
		return l.T("admin.history.tag_added", "tag", tagOfType(l, s.Type), "page", s.Page, "document", ofDocument(l, s.Document, s.DocumentTitle))
	case models.TagChangedSummary:
		what := make([]string, len(s.Changed))
		for i, c := range s.Changed {
			what[i] = tagChangeWord(l, c)
		}
		if len(what) == 0 {
			what = []string{l.T("admin.history.changed.nothing")}
		}
		return l.T("admin.history.tag_changed", "tag", tagOfType(l, s.Type), "page", s.Page,
			"document", ofDocument(l, s.Document, s.DocumentTitle), "changes", strings.Join(what, ", "))
	case models.TagRemovedSummary:
		return l.T("admin.history.tag_removed", "tag", tagOfType(l, s.Type), "page", s.Page, "document", ofDocument(l, s.Document, s.DocumentTitle))
	case models.TagsBatchSummary:
		return batchWords(l, s)
	case models.PageDeletedSummary:
		return l.T("admin.history.page_deleted", "page", s.Page, "document", ofDocument(l, s.Document, s.DocumentTitle), "tags", historyTags(l, s.TagsRemoved))
	case models.PageMovedSummary:
		return l.T("admin.history.page_moved", "page", s.From, "document", ofDocument(l, s.Document, s.DocumentTitle), "position", s.To)
	case models.PageRestoredSummary:
		return restoredWords(l, s)
	case models.DocumentAddedSummary:
		if s.TagsRestored != nil {
			return l.T("admin.history.document_restored", "title", s.DocumentTitle, "tags", historyTags(l, *s.TagsRestored))
		}
		return l.T("admin.history.document_added", "title", s.DocumentTitle, "pages", l.T("admin.history.pages", "count", s.Pages))
	case models.DocumentRemovedSummary:
		return l.T("admin.history.document_removed", "title", s.DocumentTitle, "tags", historyTags(l, s.TagsRemoved))
	case models.RoomCompletedSummary:
		return l.T("admin.history.room_completed")
	case models.RevisedSummary:
		return l.T("admin.history.revised", "title", s.DocumentTitle, "moved", historyTags(l, s.Moved), "unchanged", s.Unchanged,
			"flagged", l.T("admin.history.revised_flagged", "count", s.Flagged))
	case models.InvitationsQueuedSummary:
		return l.T("admin.history.invitations_queued", "emails", l.T("admin.history.emails", "count", s.Count), "recipients", strings.Join(s.Recipients, ", "))
	default:
		return strings.ReplaceAll(e.Kind, "_", " ")
	}
}

// batchWords says what a batch of tag edits did: how many tags were added,
// changed and removed, where, and of which types.
func batchWords(l *i18n.Localizer, s models.TagsBatchSummary) string {
	var parts []string
	if s.Created > 0 {
		parts = append(parts, l.T("admin.history.batch.added", "count", s.Created))
	}
	if s.Updated > 0 {
		parts = append(parts, l.T("admin.history.batch.changed", "count", s.Updated))
	}
	if s.Deleted > 0 {
		parts = append(parts, l.T("admin.history.batch.removed", "count", s.Deleted))
	}
	edits, types := strings.Join(parts, ", "), typeCounts(l, s.Types)
	switch {
	case len(s.Documents) == 1 && len(s.DocumentTitles) > 0 && s.DocumentTitles[0] != "":
		return l.T("admin.history.batch_in_titled", "edits", edits, "title", s.DocumentTitles[0], "types", types)
	case len(s.Documents) == 1:
		return l.T("admin.history.batch_in_number", "edits", edits, "number", s.Documents[0]+1, "types", types)
	case len(s.Documents) > 1:
		return l.T("admin.history.batch_in_documents", "edits", edits, "documents", l.T("admin.history.documents", "count", len(s.Documents)), "types", types)
	}
	return l.T("admin.history.batch", "edits", edits, "types", types)
}

// historyTags is "3 tags".
func historyTags(l *i18n.Localizer, n int) string { return l.T("admin.history.tags", "count", n) }

// tagOfType names a tag by its type ("Signature tag"; "A tag" for a code
// this version does not know).
func tagOfType(l *i18n.Localizer, code string) string {
	if tt, ok := tagtype.ByCode(code); ok {
		return l.T("admin.history.tag_of_type", "type", l.T(tt.Key.Name))
	}
	return l.T("admin.history.a_tag")
}

// tagChangeIDs are the words of what a tag change touched (the summary
// stores these codes).
var tagChangeIDs = map[string]string{
	"position": "admin.history.changed.position", "size": "admin.history.changed.size",
	"type": "admin.history.changed.type", "signer": "admin.history.changed.signer",
	"options": "admin.history.changed.options",
}

// tagChangeWord is what a tag change touched, in words (a code this
// version does not know is itself).
func tagChangeWord(l *i18n.Localizer, code string) string {
	if id, ok := tagChangeIDs[code]; ok {
		return l.T(id)
	}
	return code
}

// ofDocument names a document of a history entry by its title, else by its
// position counted from 1.
func ofDocument(l *i18n.Localizer, pos int, title string) string {
	if title != "" {
		return l.T("admin.history.of_titled", "title", title)
	}
	return l.T("admin.history.of_number", "number", pos+1)
}

// historyActor is who made a history entry, as stored (migration 00025);
// the view words it (templates/admin actorWho).
func historyActor(e *models.TransactionEvent) admin.ActorView {
	a := admin.ActorView{Kind: e.ActorKind, Name: e.ActorName, For: e.ActorFor, Session: e.ActorSession,
		Address: e.ActorAddress, Label: e.Actor}
	if e.ActorKind == models.HistoryActorAPIToken {
		a.ID = e.ActorID
	}
	return a
}
