package models

import (
	"context"
	"reflect"
)

// historyRoomEvents queues the room events of one history entry of t: every
// change of a transaction writes one (addEvent), so every change of a
// room's transaction — a room edit, an API replace or revision, the room's
// completion — reaches its rooms' streams. Names and titles stay in the
// history: an event carries codes, ids and numbers.
func (s *Store) historyRoomEvents(ctx context.Context, t *Transaction, summary HistorySummary) {
	ev := func(typ string, data any) { s.roomEvent(ctx, t.ID, typ, data) }
	if v := reflect.ValueOf(summary); v.Kind() == reflect.Pointer && !v.IsNil() {
		summary = v.Elem().Interface().(HistorySummary) // room edits pass their summaries by pointer
	}
	switch sum := summary.(type) {
	case TagAddedSummary:
		s.tagEvent(ctx, t.ID, RoomEventTagCreated, sum.live)
	case TagChangedSummary:
		s.tagEvent(ctx, t.ID, RoomEventTagUpdated, sum.live)
	case TagRemovedSummary:
		s.tagEvent(ctx, t.ID, RoomEventTagDeleted, []RoomEventTag{{ID: sum.TagID, Type: sum.Type, Document: sum.Document, Page: sum.Page}})
	case TagsBatchSummary:
		s.tagEvent(ctx, t.ID, RoomEventTagDeleted, sum.live.deleted)
		s.tagEvent(ctx, t.ID, RoomEventTagUpdated, sum.live.updated)
		s.tagEvent(ctx, t.ID, RoomEventTagCreated, sum.live.created)
	case PageMovedSummary:
		ev(RoomEventPageMoved, pageEventData{Document: sum.Document, Pages: sum.Pages, From: &sum.From, To: &sum.To, Version: sum.Version})
	case PageDeletedSummary:
		ev(RoomEventPageDeleted, pageEventData{Document: sum.Document, Pages: sum.Pages, Page: &sum.Page, Version: sum.Version})
	case PageRestoredSummary:
		ev(RoomEventPageRestored, pageEventData{Document: sum.Document, Pages: sum.Pages, Page: sum.Page, From: sum.From, To: sum.To,
			Undoes: sum.Undoes, Version: sum.Version})
	case DocumentAddedSummary:
		ev(RoomEventDocumentAdded, documentEventData{Document: sum.Document, Pages: sum.Pages, Version: sum.Version})
	case DocumentRemovedSummary:
		ev(RoomEventDocumentRemoved, documentEventData{Document: sum.Document, Version: sum.Version})
	case RevisedSummary:
		ev(RoomEventDocumentRevised, documentEventData{Document: sum.Document, Version: sum.Version})
	case ReplacedSummary:
		replacedRoomEvents(ev, &sum)
	case StatusChangedSummary:
		ev(RoomEventStatusChanged, struct {
			From string `json:"from"`
			To   string `json:"to"`
		}{sum.From, sum.To})
	case RoomCompletedSummary:
		ev(RoomEventRoomCompleted, struct{}{})
	}
}

// replacedRoomEvents queues the events of a replace: one per kind of change
// it made to the participants and documents, else transaction_replaced (an
// API replace of the tags, say). The replace that completes a room says
// nothing: room_completed follows it.
func replacedRoomEvents(ev func(string, any), sum *ReplacedSummary) {
	if sum.Reason == ReasonRoomCompleted {
		return
	}
	n := func(typ string, count int) bool {
		if count > 0 {
			ev(typ, countEventData{Count: count, Version: sum.Version})
		}
		return count > 0
	}
	any := n(RoomEventParticipantAdded, len(sum.ParticipantsAdded))
	changed := len(sum.ParticipantsChanged) + len(sum.ParticipantsRenamed)
	if changed == 0 && sum.reordered {
		changed = 1
	}
	any = n(RoomEventParticipantUpdated, changed) || any
	any = n(RoomEventParticipantRemoved, len(sum.ParticipantsRemoved)) || any
	any = n(RoomEventDocumentRenamed, len(sum.DocumentsRenamed)) || any
	any = n(RoomEventDocumentAdded, len(sum.DocumentsAdded)) || any
	any = n(RoomEventDocumentRemoved, len(sum.DocumentsRemoved)) || any
	if !any {
		ev(RoomEventTransactionReplaced, countEventData{Version: sum.Version})
	}
}

// pageEventData is the data of a page event: the document, its page count
// after the edit, the page (deleted, restored) or the move, and the
// transaction's version.
type pageEventData struct {
	Document int    `json:"document"`
	Pages    int    `json:"pages"`
	Page     *int   `json:"page,omitempty"`
	From     *int   `json:"from,omitempty"`
	To       *int   `json:"to,omitempty"`
	Undoes   string `json:"undoes,omitempty"`
	Version  int    `json:"version"`
}

// documentEventData is the data of a document event.
type documentEventData struct {
	Document int `json:"document"`
	Pages    int `json:"pages,omitempty"`
	Version  int `json:"version"`
}

// countEventData is the data of an event about several participants or
// documents: how many, and the transaction's version.
type countEventData struct {
	Count   int `json:"count,omitempty"`
	Version int `json:"version"`
}
