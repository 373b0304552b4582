package handlers

import (
	"encoding/json"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/web/i18n"
)

// An undo says which page edit it undid; a batch counts its tags by type;
// the undo of a removal says "restored" and the session's replace says the
// session was created (issue 40, item 3); entries written before those
// were kept still read.
func TestHistoryWordsOfUndoAndBatch(t *testing.T) {
	t.Parallel()
	two, three, one := 2, 3, 1
	same := func(n int) models.Count { return models.Count{Before: n, After: n} }
	for _, c := range []struct {
		sum  models.HistorySummary
		want string
	}{
		{models.PageRestoredSummary{Document: 0, DocumentTitle: "Lease", From: &three, To: &two, Undoes: models.EventPageMoved},
			"Page move undone: page 3 of “Lease” back to position 2"},
		{models.PageRestoredSummary{Document: 1, Page: &two, TagsRestored: &one, Undoes: models.EventPageDeleted},
			"Page deletion undone: page 2 of document 2 restored with 1 tag"},
		{models.PageRestoredSummary{Document: 0, DocumentTitle: "Lease", TagsRestored: &three, Undoes: models.EventRevised},
			"Revision undone: the earlier version of “Lease” is back, with its 3 tags where they were"},
		{models.TagsBatchSummary{Created: 2, Deleted: 1, Documents: []int{0}, DocumentTitles: []string{"Lease"},
			Types: map[string]int{"SIGNATURETEMPLATE": 2, "DATETEMPLATE": 1}}, "Tags edited together: 2 tags added, 1 tag removed in “Lease” (2 Signature, 1 Date)"},
		{models.TagsBatchSummary{Created: 1, Documents: []int{0}, DocumentTitles: []string{"Lease"}}, "Tags edited together: 1 tag added in “Lease”"},
		{models.ReplacedSummary{Participants: models.Count{Before: 3, After: 2}}, "Replaced: participants 3 → 2"},
		{models.DocumentAddedSummary{DocumentTitle: "Lease", Pages: 3, TagsRestored: &two}, "Document “Lease” restored with 2 tags"},
		{models.DocumentAddedSummary{DocumentTitle: "Lease", Pages: 3}, "Document “Lease” added (3 pages)"},
		{models.ReplacedSummary{Reason: models.ReasonRoomCompleted, Documents: same(1), Tags: same(4), Participants: same(2)},
			"E-signature session created with 1 document, 4 tags and 2 participants"},
		{models.ReplacedSummary{Documents: same(1), Tags: same(4), Participants: same(2)},
			"Replaced (same number of documents, tags and participants)"},
		{models.ReplacedSummary{Reason: models.ReasonParticipantRestored, ParticipantsAdded: []string{"Dana Doe"}, Participants: models.Count{Before: 1, After: 2}},
			"Participant “Dana Doe” restored"},
		{models.ReplacedSummary{ParticipantsAdded: []string{"Dana Doe"}, Participants: models.Count{Before: 1, After: 2}}, "Participant “Dana Doe” added"},
		{models.RevisedSummary{DocumentTitle: "Lease", Moved: 12, Unchanged: 3, Flagged: 1},
			"Document “Lease” revised: 12 tags moved, 3 unchanged, 1 needs a look"},
		{models.RevisedSummary{DocumentTitle: "Lease", Moved: 1, Flagged: 2}, "Document “Lease” revised: 1 tag moved, 0 unchanged, 2 need a look"},
		{models.ReplacedSummary{Documents: models.Count{Before: 1, After: 1}, DocumentsRenamed: []models.Rename{{From: "Lease", To: "Lease v2"}},
			ParticipantsChanged: []models.ParticipantChange{{Name: "Pat Buyer", Email: &models.Rename{From: "a@x.test", To: "b@x.test"},
				Auth: &models.Rename{From: "none", To: "sms"}}}},
			"“Pat Buyer” e-mail a@x.test → b@x.test, “Pat Buyer” authentication none → sms, document renamed “Lease” → “Lease v2”"},
	} {
		data, err := json.Marshal(c.sum)
		if err != nil {
			t.Fatal(err)
		}
		got := i18n.English().Say(historyWords(models.TransactionEvent{Kind: c.sum.Kind(), Summary: data}))
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.sum.Kind(), got, c.want)
		}
	}
}
