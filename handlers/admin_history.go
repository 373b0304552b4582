package handlers

import (
	"strings"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/tagtype"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// historyWords says what one history entry changed, as words the view
// writes in the reader's language: the stored summary is data, its
// sentence is made at read time (docs/words.md). An entry of a kind this version does not know (or that
// does not decode) is named by its kind.
func historyWords(e models.TransactionEvent) i18n.Words {
	sum, err := e.Decode()
	if err != nil {
		return i18n.Plain(strings.ReplaceAll(e.Kind, "_", " "))
	}
	switch s := sum.(type) {
	case models.CreatedSummary:
		return i18n.Msg("admin.history.created", "documents", i18n.Msg("admin.history.documents", "count", s.Documents),
			"tags", historyTags(s.Tags), "participants", i18n.Msg("admin.history.participants", "count", s.Participants))
	case models.ReplacedSummary:
		return replacedWords(s)
	case models.StatusChangedSummary:
		return i18n.Msg("admin.history.status", "from", transactionStatusLabel(s.From), "to", transactionStatusLabel(s.To))
	case models.TagAddedSummary:
		return i18n.Msg("admin.history.tag_added", "tag", tagOfType(s.Type), "page", s.Page, "document", ofDocument(s.Document, s.DocumentTitle))
	case models.TagChangedSummary:
		what := make([]i18n.Words, len(s.Changed))
		for i, c := range s.Changed {
			what[i] = tagChangeWord(c)
		}
		if len(what) == 0 {
			what = []i18n.Words{i18n.Msg("admin.history.changed.nothing")}
		}
		return i18n.Msg("admin.history.tag_changed", "tag", tagOfType(s.Type), "page", s.Page,
			"document", ofDocument(s.Document, s.DocumentTitle), "changes", i18n.List{Items: what, Sep: ", "})
	case models.TagRemovedSummary:
		return i18n.Msg("admin.history.tag_removed", "tag", tagOfType(s.Type), "page", s.Page, "document", ofDocument(s.Document, s.DocumentTitle))
	case models.TagsBatchSummary:
		return batchWords(s)
	case models.PageDeletedSummary:
		return i18n.Msg("admin.history.page_deleted", "page", s.Page, "document", ofDocument(s.Document, s.DocumentTitle), "tags", historyTags(s.TagsRemoved))
	case models.PageMovedSummary:
		return i18n.Msg("admin.history.page_moved", "page", s.From, "document", ofDocument(s.Document, s.DocumentTitle), "position", s.To)
	case models.PageRestoredSummary:
		return restoredWords(s)
	case models.DocumentAddedSummary:
		if s.TagsRestored != nil {
			return i18n.Msg("admin.history.document_restored", "title", s.DocumentTitle, "tags", historyTags(*s.TagsRestored))
		}
		return i18n.Msg("admin.history.document_added", "title", s.DocumentTitle, "pages", i18n.Msg("admin.history.pages", "count", s.Pages))
	case models.DocumentRemovedSummary:
		return i18n.Msg("admin.history.document_removed", "title", s.DocumentTitle, "tags", historyTags(s.TagsRemoved))
	case models.RoomCompletedSummary:
		return i18n.Msg("admin.history.room_completed")
	case models.RevisedSummary:
		return i18n.Msg("admin.history.revised", "title", s.DocumentTitle, "moved", historyTags(s.Moved), "unchanged", s.Unchanged,
			"flagged", i18n.Msg("admin.history.revised_flagged", "count", s.Flagged))
	case models.InvitationsQueuedSummary:
		return i18n.Msg("admin.history.invitations_queued", "emails", i18n.Msg("admin.history.emails", "count", s.Count), "recipients", strings.Join(s.Recipients, ", "))
	default:
		return i18n.Plain(strings.ReplaceAll(e.Kind, "_", " "))
	}
}

// batchWords says what a batch of tag edits did: how many tags were added,
// changed and removed, where, and of which types.
func batchWords(s models.TagsBatchSummary) i18n.Words {
	var parts []i18n.Words
	if s.Created > 0 {
		parts = append(parts, i18n.Msg("admin.history.batch.added", "count", s.Created))
	}
	if s.Updated > 0 {
		parts = append(parts, i18n.Msg("admin.history.batch.changed", "count", s.Updated))
	}
	if s.Deleted > 0 {
		parts = append(parts, i18n.Msg("admin.history.batch.removed", "count", s.Deleted))
	}
	edits, types := i18n.List{Items: parts, Sep: ", "}, typeCounts(s.Types)
	switch {
	case len(s.Documents) == 1 && len(s.DocumentTitles) > 0 && s.DocumentTitles[0] != "":
		return i18n.Msg("admin.history.batch_in_titled", "edits", edits, "title", s.DocumentTitles[0], "types", types)
	case len(s.Documents) == 1:
		return i18n.Msg("admin.history.batch_in_number", "edits", edits, "number", s.Documents[0]+1, "types", types)
	case len(s.Documents) > 1:
		return i18n.Msg("admin.history.batch_in_documents", "edits", edits, "documents", i18n.Msg("admin.history.documents", "count", len(s.Documents)), "types", types)
	}
	return i18n.Msg("admin.history.batch", "edits", edits, "types", types)
}

// historyTags is "3 tags".
func historyTags(n int) i18n.Words { return i18n.Msg("admin.history.tags", "count", n) }

// tagOfType names a tag by its type ("Signature tag"; "A tag" for a code
// this version does not know).
func tagOfType(code string) i18n.Words {
	if tt, ok := tagtype.ByCode(code); ok {
		return i18n.Msg("admin.history.tag_of_type", "type", i18n.Msg(tt.Key.Name))
	}
	return i18n.Msg("admin.history.a_tag")
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
func tagChangeWord(code string) i18n.Words {
	if id, ok := tagChangeIDs[code]; ok {
		return i18n.Msg(id)
	}
	return i18n.Plain(code)
}

// ofDocument names a document of a history entry by its title, else by its
// position counted from 1.
func ofDocument(pos int, title string) i18n.Words {
	if title != "" {
		return i18n.Msg("admin.history.of_titled", "title", title)
	}
	return i18n.Msg("admin.history.of_number", "number", pos+1)
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
