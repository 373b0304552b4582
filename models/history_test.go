package models_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/markuproom/markuproom/models"
)

func ptr[T any](v T) *T { return &v }

// historyFixtures are summaries exactly as the map-based writers stored them
// before the typed summaries (Go's encoding/json sorts map keys), one or
// more per kind, with the typed value each must decode into.
var historyFixtures = []struct {
	name, kind, json string
	want             models.HistorySummary
}{
	{"created by the API", models.EventCreated, `{"documents":2,"participants":3,"status":"draft","tags":5}`,
		models.CreatedSummary{Documents: 2, Participants: 3, Status: "draft", Tags: 5}},
	{"created with a room", models.EventCreated, `{"documents":1,"participants":2,"room":"0190a0b0-room","status":"draft","tags":0}`,
		models.CreatedSummary{Documents: 1, Participants: 2, Room: "0190a0b0-room", Status: "draft"}},
	{"replaced", models.EventReplaced, `{"documents":{"after":3,"before":2},"participants":{"after":1,"before":3},"tags":{"after":5,"before":5},"version":4}`,
		models.ReplacedSummary{Documents: models.Count{After: 3, Before: 2}, Participants: models.Count{After: 1, Before: 3}, Tags: models.Count{After: 5, Before: 5}, Version: 4}},
	{"status changed", models.EventStatusChanged, `{"from":"draft","to":"esign_pending"}`,
		models.StatusChangedSummary{From: "draft", To: "esign_pending"}},
	{"tag added", models.EventTagAdded, `{"document":0,"documentTitle":"Lease.pdf","page":2,"tagId":"t_abc12345","type":"s","version":7}`,
		models.TagAddedSummary{DocumentTitle: "Lease.pdf", Page: 2, TagID: "t_abc12345", Type: "s", RoomVersion: models.RoomVersion{Version: 7}}},
	{"tag changed and moved", models.EventTagChanged, `{"changed":["position","size"],"document":0,"documentTitle":"Lease.pdf","fromPage":1,"page":2,"tagId":"t_abc12345","type":"s","version":7}`,
		models.TagChangedSummary{Changed: []string{"position", "size"}, DocumentTitle: "Lease.pdf", FromPage: 1, Page: 2, TagID: "t_abc12345", Type: "s", RoomVersion: models.RoomVersion{Version: 7}}},
	{"tag changed in nothing", models.EventTagChanged, `{"changed":null,"document":0,"documentTitle":"Lease.pdf","page":2,"tagId":"t_abc12345","type":"s","version":7}`,
		models.TagChangedSummary{DocumentTitle: "Lease.pdf", Page: 2, TagID: "t_abc12345", Type: "s", RoomVersion: models.RoomVersion{Version: 7}}},
	{"tag removed", models.EventTagRemoved, `{"document":1,"documentTitle":"Lease.pdf","page":2,"tagId":"t_abc12345","type":"s","version":7}`,
		models.TagRemovedSummary{Document: 1, DocumentTitle: "Lease.pdf", Page: 2, TagID: "t_abc12345", Type: "s", RoomVersion: models.RoomVersion{Version: 7}}},
	{"document added", models.EventDocumentAdded, `{"document":1,"documentId":"0190-doc","documentTitle":"Annex","pages":3,"version":2}`,
		models.DocumentAddedSummary{Document: 1, DocumentID: "0190-doc", DocumentTitle: "Annex", Pages: 3, RoomVersion: models.RoomVersion{Version: 2}}},
	{"document removed", models.EventDocumentRemoved, `{"document":0,"documentId":"0190-doc","documentTitle":"Annex","tagsRemoved":4,"version":3}`,
		models.DocumentRemovedSummary{DocumentID: "0190-doc", DocumentTitle: "Annex", TagsRemoved: 4, RoomVersion: models.RoomVersion{Version: 3}}},
	{"page deleted with a tag", models.EventPageDeleted, `{"document":0,"documentTitle":"Lease.pdf","fromDocumentId":"doc-a","page":2,"pages":4,"tags":[{"tagId":"t_1","position":3,"type":"s","page":2,"x":10,"y":20.5,"width":100,"height":30,"signerId":"p1","customData":{"a":1},"required":true,"fontSize":12.5}],"tagsRemoved":1,"toDocumentId":"doc-b","version":9}`,
		models.PageDeletedSummary{DocumentTitle: "Lease.pdf", FromDocumentID: "doc-a", Page: 2, Pages: 4, Tags: []models.DeletedTag{{
			TagID: "t_1", Position: 3, Type: "s", Page: 2, X: 10, Y: 20.5, Width: 100, Height: 30, SignerID: "p1",
			CustomData: json.RawMessage(`{"a":1}`), Required: ptr(true), FontSize: ptr(12.5),
		}}, TagsRemoved: 1, ToDocumentID: "doc-b", RoomVersion: models.RoomVersion{Version: 9}}},
	{"page deleted without tags", models.EventPageDeleted, `{"document":0,"documentTitle":"Lease.pdf","fromDocumentId":"doc-a","page":1,"pages":4,"tags":[],"tagsRemoved":0,"toDocumentId":"doc-b","version":9}`,
		models.PageDeletedSummary{DocumentTitle: "Lease.pdf", FromDocumentID: "doc-a", Page: 1, Pages: 4, Tags: []models.DeletedTag{}, ToDocumentID: "doc-b", RoomVersion: models.RoomVersion{Version: 9}}},
	{"page moved", models.EventPageMoved, `{"document":0,"documentTitle":"Lease.pdf","from":1,"fromDocumentId":"doc-a","pages":4,"to":3,"toDocumentId":"doc-b","version":10}`,
		models.PageMovedSummary{DocumentTitle: "Lease.pdf", From: 1, FromDocumentID: "doc-a", Pages: 4, To: 3, ToDocumentID: "doc-b", RoomVersion: models.RoomVersion{Version: 10}}},
	{"move undone", models.EventPageRestored, `{"document":0,"documentTitle":"Lease.pdf","from":3,"fromDocumentId":"doc-a","pages":4,"to":1,"toDocumentId":"doc-b","undoes":"page_moved","version":11}`,
		models.PageRestoredSummary{DocumentTitle: "Lease.pdf", From: ptr(3), FromDocumentID: "doc-a", Pages: 4, To: ptr(1), ToDocumentID: "doc-b", Undoes: models.EventPageMoved, RoomVersion: models.RoomVersion{Version: 11}}},
	{"deletion undone", models.EventPageRestored, `{"document":0,"documentTitle":"Lease.pdf","fromDocumentId":"doc-a","page":2,"pages":4,"tagsRestored":0,"toDocumentId":"doc-b","undoes":"page_deleted","version":12}`,
		models.PageRestoredSummary{DocumentTitle: "Lease.pdf", FromDocumentID: "doc-a", Page: ptr(2), Pages: 4, TagsRestored: ptr(0), ToDocumentID: "doc-b", Undoes: models.EventPageDeleted, RoomVersion: models.RoomVersion{Version: 12}}},
	{"room completed", models.EventRoomCompleted, `{"documents":1,"participants":2,"room":"0190-room","tags":3}`,
		models.RoomCompletedSummary{Documents: 1, Participants: 2, Room: "0190-room", Tags: 3}},
	{"invitations queued", models.EventInvitationsQueued, `{"count":2,"recipients":["pat@example.com","robin@example.com"]}`,
		models.InvitationsQueuedSummary{Count: 2, Recipients: []string{"pat@example.com", "robin@example.com"}}},
	{"revised", models.EventRevised, `{"document":0,"documentTitle":"Lease.pdf","flagged":1,"fromDocumentId":"doc-a","moved":12,"toDocumentId":"doc-b","unchanged":3,"version":4}`,
		models.RevisedSummary{DocumentTitle: "Lease.pdf", Flagged: 1, FromDocumentID: "doc-a", Moved: 12, ToDocumentID: "doc-b", Unchanged: 3, Version: 4}},
	{"tags edited together", models.EventTagsBatch, `{"created":20,"deleted":1,"documentTitles":["Lease.pdf","Annex"],"documents":[0,2],"updated":2,"version":5}`,
		models.TagsBatchSummary{Created: 20, Deleted: 1, DocumentTitles: []string{"Lease.pdf", "Annex"}, Documents: []int{0, 2}, Updated: 2, RoomVersion: models.RoomVersion{Version: 5}}},
}

// Every kind's stored JSON, as written before the typed summaries, decodes
// into its struct, and the struct writes the very same bytes again.
func TestHistorySummariesDecodeStoredRows(t *testing.T) {
	t.Parallel()
	kinds := map[string]bool{}
	for _, f := range historyFixtures {
		t.Run(f.name, func(t *testing.T) {
			e := models.TransactionEvent{ID: "ev1", Kind: f.kind, Summary: models.RawJSON(f.json)}
			got, err := e.Decode()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, f.want) {
				t.Fatalf("decoded %#v\nwant %#v", got, f.want)
			}
			if got.Kind() != f.kind {
				t.Fatalf("a %s row decodes into a %T of kind %s", f.kind, got, got.Kind())
			}
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != f.json {
				t.Fatalf("written again as\n%s\nnot\n%s", b, f.json)
			}
		})
		kinds[f.kind] = true
	}
	for _, k := range []string{
		models.EventCreated, models.EventReplaced, models.EventStatusChanged, models.EventTagAdded, models.EventTagChanged,
		models.EventTagRemoved, models.EventDocumentAdded, models.EventDocumentRemoved, models.EventPageDeleted,
		models.EventPageMoved, models.EventPageRestored, models.EventRoomCompleted, models.EventInvitationsQueued,
		models.EventTagsBatch, models.EventRevised,
	} {
		if !kinds[k] {
			t.Errorf("no fixture of kind %s", k)
		}
	}
}

// A summary written under its own kind reads back equal; a row of an
// unknown kind, or whose JSON does not fit its kind, is an error.
func TestHistorySummariesRoundTrip(t *testing.T) {
	t.Parallel()
	for _, f := range historyFixtures {
		b, err := json.Marshal(f.want)
		if err != nil {
			t.Fatal(err)
		}
		e := models.TransactionEvent{ID: "ev1", Kind: f.want.Kind(), Summary: b}
		got, err := e.Decode()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if !reflect.DeepEqual(got, f.want) {
			t.Errorf("%s: round trip gives %#v, want %#v", f.name, got, f.want)
		}
	}
	if _, err := (&models.TransactionEvent{ID: "ev2", Kind: "archived", Summary: models.RawJSON(`{}`)}).Decode(); err == nil {
		t.Error("an unknown kind decodes")
	}
	if _, err := (&models.TransactionEvent{ID: "ev3", Kind: models.EventStatusChanged, Summary: models.RawJSON(`{"from":1}`)}).Decode(); err == nil {
		t.Error("a status change with a number for a status decodes")
	}
}
