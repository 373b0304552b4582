package models_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// storedHistoryBytes is what a transaction's history and kept deleted-page
// tags take in the database.
func storedHistoryBytes(t *testing.T, env *modelstest.Env, txID string) (events, kept int64) {
	t.Helper()
	if err := env.DB.DB.Raw("SELECT COALESCE(SUM(LENGTH(summary)), 0) FROM transaction_events WHERE transaction_id = ?", txID).Scan(&events).Error; err != nil {
		t.Fatal(err)
	}
	if err := env.DB.DB.Raw("SELECT COALESCE(SUM(LENGTH(tags)), 0) FROM deleted_page_tags WHERE transaction_id = ?", txID).Scan(&kept).Error; err != nil {
		t.Fatal(err)
	}
	return events, kept
}

// Deleting a page with many tags and undoing it, again and again, stores
// the page's tags once: each further cycle adds only its two small history
// events, and every undo brings the tags back with their ids.
func TestDeleteRestoreCyclesKeepTheHistoryBounded(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room, _ := suggestionRoom(t, env, "lease-initials", `{"documents": {"advancedEdit": true}}`)
		const tags = 60
		want := map[string]bool{}
		for i := range tags {
			ed, err := env.Store.AddRoomTag(ctx, room.ID, 0, models.RoomTagForm{Type: "SIGNATURETEMPLATE", Page: "2",
				X: strconv.Itoa(72 + i), Y: "100", Width: "144", Height: "36", Required: "true"})
			if err != nil {
				t.Fatal(err)
			}
			want[ed.Tag.TagID] = true
		}
		cycle := func() {
			t.Helper()
			ed, err := env.Store.DeleteRoomPage(ctx, room.ID, 0, 2, "")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := env.Store.RestoreRoomDocument(ctx, room.ID, 0, ed.FromDocumentID, ed.ToDocumentID); err != nil {
				t.Fatal(err)
			}
			tr, err := env.Store.GetTransaction(ctx, room.OrganizationID, room.TransactionID)
			if err != nil {
				t.Fatal(err)
			}
			back := 0
			for _, tg := range tr.Documents[0].Tags {
				if want[tg.TagID] && tg.Page == 2 {
					back++
				}
			}
			if back != tags {
				t.Fatalf("after an undo %d of the %d tags are back on page 2", back, tags)
			}
		}
		cycle()
		events1, kept1 := storedHistoryBytes(t, env, room.TransactionID)
		const more = 9
		for range more {
			cycle()
		}
		events, kept := storedHistoryBytes(t, env, room.TransactionID)
		if kept != kept1 || kept1 < tags*100 {
			t.Fatalf("kept tags: %d bytes after one cycle, %d after %d (want the same, at least %d)", kept1, kept, 1+more, tags*100)
		}
		if perCycle := (events - events1) / more; perCycle > 2000 {
			t.Fatalf("each delete/undo cycle adds %d bytes of history", perCycle)
		}
		t.Logf("kept tags %d bytes; history %d bytes after 1 cycle, %d after %d", kept, events1, events, 1+more)
	})
}

// A page_deleted event written before deleted_page_tags, with the tags
// inline, is still undone with those tags.
func TestRestoreReadsTagsKeptInlineByOldEvents(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room, _ := suggestionRoom(t, env, "lease-initials", `{"documents": {"advancedEdit": true}}`)
		added, err := env.Store.AddRoomTag(ctx, room.ID, 0, models.RoomTagForm{Type: "SIGNATURETEMPLATE", Page: "2",
			X: "72", Y: "100", Width: "144", Height: "36"})
		if err != nil {
			t.Fatal(err)
		}
		ed, err := env.Store.DeleteRoomPage(ctx, room.ID, 0, 2, "")
		if err != nil {
			t.Fatal(err)
		}
		// Rewrite the event as the earlier code stored it: the tags inline, no row.
		old := `{"document":0,"documentTitle":"lease-initials","fromDocumentId":"` + ed.FromDocumentID + `","page":2,"pages":2,` +
			`"tags":[{"tagId":"` + added.Tag.TagID + `","position":0,"type":"SIGNATURETEMPLATE","page":2,"x":72,"y":100,"width":144,"height":36,"signerId":""}],` +
			`"tagsRemoved":1,"toDocumentId":"` + ed.ToDocumentID + `","version":3}`
		if err := env.DB.DB.Exec("UPDATE transaction_events SET summary = ? WHERE transaction_id = ? AND kind = ?",
			old, room.TransactionID, models.EventPageDeleted).Error; err != nil {
			t.Fatal(err)
		}
		if err := env.DB.DB.Exec("DELETE FROM deleted_page_tags").Error; err != nil {
			t.Fatal(err)
		}
		if _, err := env.Store.RestoreRoomDocument(ctx, room.ID, 0, ed.FromDocumentID, ed.ToDocumentID); err != nil {
			t.Fatal(err)
		}
		tr, err := env.Store.GetTransaction(ctx, room.OrganizationID, room.TransactionID)
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Documents[0].Tags) != 1 || tr.Documents[0].Tags[0].TagID != added.Tag.TagID || tr.Documents[0].Tags[0].Page != 2 {
			t.Fatalf("after undoing an old event the tags are %+v", tr.Documents[0].Tags)
		}
	})
}
