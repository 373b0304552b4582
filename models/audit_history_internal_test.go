package models

import "testing"

// The audit events of history entries name what changed in words, with
// the action and target the docs (docs/audit.md) list.
func TestHistoryAuditWords(t *testing.T) {
	t.Parallel()
	tx := &Transaction{ID: "t1", OrganizationID: 7, ReferenceID: "ref-42"}
	token, two := int64(3), 2
	api, room := Actor{TokenID: &token}, Actor{Kind: HistoryActorRoom, Name: "Sam Sender"}
	for _, c := range []struct {
		actor   Actor
		summary HistorySummary
		action  string
		target  string
		words   string
	}{
		{api, CreatedSummary{Documents: 1, Participants: 2, Tags: 4}, "transaction.created", "transaction:t1",
			"Created transaction ref-42: 1 document, 2 participants, 4 tags"},
		{api, ReplacedSummary{ParticipantsRenamed: []Rename{{From: "A", To: "B"}}, Version: 3, Documents: Count{After: 1}},
			"transaction.replaced", "transaction:t1", "Replaced the transaction (version 3): 1 document, 0 participants, 0 tags; renamed participant A → B"},
		{api, ReplacedSummary{Version: 4, Participants: Count{After: 1}, ParticipantsRemoved: []string{"Pat Buyer"},
			ParticipantsChanged: []ParticipantChange{{Name: "Robin", Email: &Rename{From: "a@x.io", To: "b@x.io"}}}, DocumentsRenamed: []Rename{{From: "contract", To: "Lease"}}},
			"transaction.replaced", "transaction:t1", "Replaced the transaction (version 4): 0 documents, 1 participant, 0 tags; removed participant Pat Buyer; changed participant Robin: e-mail a@x.io → b@x.io; renamed document contract → Lease"},
		{api, ReplacedSummary{Version: 5}, "transaction.replaced", "transaction:t1", "Replaced the transaction (version 5): 0 documents, 0 participants, 0 tags"},
		{room, ReplacedSummary{ParticipantsRenamed: []Rename{{From: "Robin Seller", To: "Robin Seller-Smith"}}, participant: "p_2"},
			"participant.renamed", "participant:p_2", "Renamed participant Robin Seller → Robin Seller-Smith"},
		{room, ReplacedSummary{ParticipantsChanged: []ParticipantChange{{Name: "Robin", Email: &Rename{From: "a@x.io", To: "b@x.io"}}}, participant: "p_2"},
			"participant.changed", "participant:p_2", "Changed participant Robin: e-mail a@x.io → b@x.io"},
		{room, ReplacedSummary{DocumentsRenamed: []Rename{{From: "contract", To: "Lease"}}},
			"document.renamed", "transaction:t1", "Renamed document contract → Lease"},
		{room, ReplacedSummary{reordered: true, participant: "p_3"}, "participant.moved", "participant:p_3", "Changed the order of the participants"},
		{room, &TagsBatchSummary{Created: 3, DocumentTitles: []string{"Lease.pdf"}, Types: map[string]int{"SIGNATURETEMPLATE": 2, "DATETEMPLATE": 1}},
			"room.tags_batch", "transaction:t1", "Placed 3 tags (1 date, 2 signature) on Lease.pdf"},
		{room, &TagChangedSummary{Changed: []string{"position", "size"}, Page: 1, DocumentTitle: "Lease", TagID: "g1", Type: "SIGNATURETEMPLATE"},
			"room.tag_changed", "tag:g1", "Changed the position and size of a signature tag on page 1 of Lease"},
		{room, &DocumentAddedSummary{DocumentID: "d2", DocumentTitle: "second", Pages: 3, TagsRestored: &two}, "document.restored", "document:d2",
			"Restored the removed document second with 2 tags"},
		{room, &DocumentAddedSummary{DocumentID: "d2", DocumentTitle: "second", Pages: 3}, "document.added", "document:d2", "Added second (3 pages)"},
		{room, ReplacedSummary{Reason: ReasonParticipantRestored, ParticipantsAdded: []string{"Dana Doe"}, participant: "p_4"},
			"participant.restored", "participant:p_4", "Restored the removed participant Dana Doe"},
		{room, ReplacedSummary{Reason: ReasonRoomCompleted, Version: 6, Documents: Count{1, 1}, Participants: Count{2, 2}, Tags: Count{4, 4}},
			"transaction.replaced", "transaction:t1", "Replaced the transaction to create its e-signature session (version 6): 1 document, 2 participants, 4 tags"},
		{api, RevisedSummary{DocumentTitle: "Lease", ToDocumentID: "d3", Moved: 12, Unchanged: 3, Flagged: 1}, "document.revised", "document:d3",
			"Revised Lease: 12 tags moved, 3 tags unchanged, 1 tag to look at"},
		{room, CreatedSummary{Room: "r1", Documents: 1, Participants: 2}, "room.created", "room:r1",
			"Created a Markup Room with 1 document and 2 participants"},
	} {
		e := historyAudit(tx, c.actor, c.summary)
		if e.Action != c.action || e.TargetType+":"+e.TargetID != c.target || e.Summary != c.words || e.OrganizationID != 7 || e.TransactionID != "t1" {
			t.Errorf("%T: got %s %s:%s %q", c.summary, e.Action, e.TargetType, e.TargetID, e.Summary)
		}
	}
}
