package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// tagsByID reads the room transaction's first document's tags as stored, by tag id.
// versionless is tags with their versions left out: what an undo gives
// back (a tag that moved with the pages comes back at a later version).
func versionless(tags map[string]models.Tag) map[string]models.Tag {
	out := make(map[string]models.Tag, len(tags))
	for id, tag := range tags {
		tag.Version = 0
		out[id] = tag
	}
	return out
}

func tagsByID(t *testing.T, env *modelstest.Env, orgID int64, txID string) (map[string]models.Tag, int) {
	t.Helper()
	tx, err := env.Store.GetTransaction(context.Background(), orgID, txID)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]models.Tag{}
	for _, tg := range tx.Documents[0].Tags {
		out[tg.TagID] = tg
	}
	return out, tx.Version
}

// pageEditHeader reads the HX-Trigger event a page edit answers with.
func pageEditHeader(t *testing.T, res http.Header) models.PageEdit {
	t.Helper()
	var ev map[string]models.PageEdit
	if err := json.Unmarshal([]byte(res.Get("HX-Trigger")), &ev); err != nil {
		t.Fatalf("HX-Trigger %q: %v", res.Get("HX-Trigger"), err)
	}
	return ev["markuproom:page-edit"]
}

func TestRestoreUndoesAPageDeleteWithItsTags(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signer := tr.participantIDs(t)[0]
		tr.add(t, tagForm(signer, "page", "1", "x", "10"))
		gone1 := tr.add(t, tagForm(signer, "page", "2", "x", "20", "type", "DATETEMPLATE", "dateFormat", "DD/MM/YYYY"))
		gone2 := tr.add(t, tagForm("", "page", "2", "x", "21", "required", "false"))
		tr.add(t, tagForm(signer, "page", "3", "x", "30"))
		before, _ := tagsByID(t, env, tenant.Org.ID, tr.room.TransactionID)
		original := tr.doc(t)

		res := tr.send(http.MethodPost, tr.path+"/documents/0/pages/2/delete", nil).status(http.StatusOK)
		edit := pageEditHeader(t, res.Header())
		after := tr.doc(t)
		if edit.Kind != models.EventPageDeleted || edit.Page != 2 || edit.FromDocumentID != original.ID || edit.ToDocumentID != after.ID {
			t.Fatalf("the delete tells %+v (document %s → %s)", edit, original.ID, after.ID)
		}
		// The deleted tags are kept whole, ids included, in deleted_page_tags;
		// the history event names their row.
		events, _ := history(t, env, tenant.Org.ID, tr.room.TransactionID)
		var sum struct {
			Tags     []map[string]any `json:"tags"`
			TagsKept string           `json:"tagsKept"`
		}
		if err := json.Unmarshal(events[len(events)-1].Summary, &sum); err != nil {
			t.Fatal(err)
		}
		var keptJSON string
		if err := env.DB.DB.Raw("SELECT tags FROM deleted_page_tags WHERE transaction_id = ? AND document_id = ? AND page = 2 AND digest = ?",
			tr.room.TransactionID, original.ID, sum.TagsKept).Scan(&keptJSON).Error; err != nil {
			t.Fatal(err)
		}
		var kept []map[string]any
		if err := json.Unmarshal([]byte(keptJSON), &kept); err != nil {
			t.Fatalf("kept tags %q: %v", keptJSON, err)
		}
		if sum.Tags != nil || len(kept) != 2 || kept[0]["tagId"] != gone1 || kept[1]["tagId"] != gone2 || kept[0]["dateFormat"] != "DD/MM/YYYY" {
			t.Fatalf("the page_deleted event keeps %v inline and %v in deleted_page_tags", sum.Tags, kept)
		}
		_, v1 := tagsByID(t, env, tenant.Org.ID, tr.room.TransactionID)

		// A version and current that do not fit: refused, nothing changes.
		p := tr.send(http.MethodPost, tr.path+"/documents/0/restore", url.Values{"version": {original.ID}, "current": {original.ID}}).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/current", "document_changed")
		if !strings.Contains(p.Detail, "changed since") {
			t.Fatalf("the refusal says %q", p.Detail)
		}
		if d := tr.doc(t); d.ID != after.ID || len(d.Tags) != 2 {
			t.Fatalf("a refused restore changed the document: %+v", d)
		}
		// Without the CSRF token: refused.
		form := url.Values{"version": {original.ID}, "current": {after.ID}}
		tr.b.post(tr.path+"/documents/0/restore", form).status(http.StatusForbidden)

		// The undo: the original version, its tags back as they were.
		res = tr.send(http.MethodPost, tr.path+"/documents/0/restore", form).status(http.StatusOK)
		if !strings.Contains(res.Body.String(), `data-viewer`) {
			t.Fatal("a restore does not answer with the room")
		}
		undo := pageEditHeader(t, res.Header())
		if undo.Kind != models.EventPageRestored || undo.FromDocumentID != after.ID || undo.ToDocumentID != original.ID || undo.Page != 2 {
			t.Fatalf("the restore tells %+v", undo)
		}
		d := tr.doc(t)
		if d.ID != original.ID || d.Pages != 3 || d.GCSRefID != original.GCSRefID || len(d.Tags) != 4 {
			t.Fatalf("after the restore: %+v (was %+v)", d, original)
		}
		if pageOf(d.Tags, 10) != 1 || pageOf(d.Tags, 20) != 2 || pageOf(d.Tags, 21) != 2 || pageOf(d.Tags, 30) != 3 {
			t.Fatalf("tags after the restore: %v", d.Tags)
		}
		restored, v2 := tagsByID(t, env, tenant.Org.ID, tr.room.TransactionID)
		// The tag of page 3 went to page 2 and came back: its version moved on
		// (a window holding it from before must read it again, docs/live.md).
		for id, tag := range restored {
			if tag.Page == 3 && tag.Version <= before[id].Version {
				t.Fatalf("the tag that moved with the pages kept version %d", tag.Version)
			}
		}
		if !reflect.DeepEqual(versionless(restored), versionless(before)) {
			t.Fatalf("restored tags differ:\n%+v\nwant\n%+v", restored, before)
		}
		if v2 != v1+1 {
			t.Fatalf("version %d after %d", v2, v1)
		}
		if html := tr.b.get(tr.path).Body.String(); !strings.Contains(html, gone1) || !strings.Contains(html, gone2) {
			t.Fatal("the room does not show the restored tags")
		}
		if tx, err := env.Store.GetTransaction(context.Background(), tenant.Org.ID, tr.room.TransactionID); err != nil || tx.TagCount != 4 {
			t.Fatalf("tag count after the restore: %v %v", tx, err)
		}
		events, kinds := history(t, env, tenant.Org.ID, tr.room.TransactionID)
		if kinds[len(kinds)-1] != models.EventPageRestored {
			t.Fatalf("history ends with %v", kinds)
		}
		var rs map[string]any
		if err := json.Unmarshal(events[len(events)-1].Summary, &rs); err != nil {
			t.Fatal(err)
		}
		if rs["undoes"] != models.EventPageDeleted || rs["tagsRestored"] != 2.0 || rs["toDocumentId"] != original.ID {
			t.Fatalf("the page_restored event says %v", rs)
		}

		// The same undo again: the document is not the one it expects any more.
		p = tr.send(http.MethodPost, tr.path+"/documents/0/restore", form).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/current", "document_changed")

		// Redo: the delete again, against the version the client expects; a stale one is refused.
		p = tr.send(http.MethodPost, tr.path+"/documents/0/pages/2/delete", url.Values{"current": {after.ID}}).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/current", "document_changed")
		res = tr.send(http.MethodPost, tr.path+"/documents/0/pages/2/delete", url.Values{"current": {original.ID}}).status(http.StatusOK)
		redo := pageEditHeader(t, res.Header())
		if d := tr.doc(t); d.ID != redo.ToDocumentID || d.Pages != 2 || len(d.Tags) != 2 {
			t.Fatalf("after the redo: %+v", d)
		}
		// And undone once more: the same tags, ids and all.
		tr.send(http.MethodPost, tr.path+"/documents/0/restore", url.Values{"version": {original.ID}, "current": {redo.ToDocumentID}}).status(http.StatusOK)
		if again, _ := tagsByID(t, env, tenant.Org.ID, tr.room.TransactionID); !reflect.DeepEqual(versionless(again), versionless(before)) {
			t.Fatalf("tags after the second undo: %+v", again)
		}
	})
}

func TestRestoreUndoesAPageMove(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signer := tr.participantIDs(t)[0]
		for _, page := range []string{"1", "2", "3"} {
			tr.add(t, tagForm(signer, "page", page, "x", page+"0"))
		}
		original := tr.doc(t)
		res := tr.send(http.MethodPost, tr.path+"/documents/0/pages/1/move", url.Values{"to": {"3"}}).status(http.StatusOK)
		moved := pageEditHeader(t, res.Header())
		if moved.Kind != models.EventPageMoved || moved.From != 1 || moved.To != 3 {
			t.Fatalf("the move tells %+v", moved)
		}
		if d := tr.doc(t); pageOf(d.Tags, 10) != 3 || pageOf(d.Tags, 20) != 1 {
			t.Fatalf("tags after the move: %v", d.Tags)
		}
		tr.send(http.MethodPost, tr.path+"/documents/0/restore", url.Values{"version": {original.ID}, "current": {moved.ToDocumentID}}).status(http.StatusOK)
		d := tr.doc(t)
		if d.ID != original.ID || pageOf(d.Tags, 10) != 1 || pageOf(d.Tags, 20) != 2 || pageOf(d.Tags, 30) != 3 {
			t.Fatalf("after undoing the move: %+v", d)
		}
		// A version that is not a past version of this document's history: refused.
		p := tr.send(http.MethodPost, tr.path+"/documents/0/restore", url.Values{"version": {moved.ToDocumentID}, "current": {original.ID}}).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/current", "document_changed")
	})
}

func TestRestoreKeepsToItsRoom(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		other := openTagRoom(t, s, env.NewTenant(t, "Other"), nil)
		original := other.doc(t)
		res := other.send(http.MethodPost, other.path+"/documents/0/pages/1/delete", nil).status(http.StatusOK)
		theirs := pageEditHeader(t, res.Header())
		mine := tr.doc(t)

		// Another room's version: 404, in this room and for its current document.
		tr.send(http.MethodPost, tr.path+"/documents/0/restore", url.Values{"version": {original.ID}, "current": {mine.ID}}).status(http.StatusNotFound)
		tr.send(http.MethodPost, tr.path+"/documents/0/restore", url.Values{"version": {original.ID}, "current": {theirs.ToDocumentID}}).status(http.StatusNotFound)
		// This browser's session is not the other room's.
		tr.send(http.MethodPost, other.path+"/documents/0/restore", url.Values{"version": {original.ID}, "current": {theirs.ToDocumentID}}).status(http.StatusForbidden)
		tr.send(http.MethodPost, tr.path+"/documents/7/restore", url.Values{"version": {original.ID}, "current": {mine.ID}}).status(http.StatusNotFound)
		tr.send(http.MethodPost, tr.path+"/documents/0/restore", url.Values{"current": {mine.ID}}).status(http.StatusBadRequest)
		if d := other.doc(t); d.ID != theirs.ToDocumentID {
			t.Fatal("the other room's document changed")
		}
		if tr.doc(t).ID != mine.ID {
			t.Fatal("this room's document changed")
		}
	})
}

func TestRestoreNeedsAdvancedEdit(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tr := openTagRoom(t, s, env.NewTenant(t, "Acme"), obj{"documents": obj{"advancedEdit": false}})
		d := tr.doc(t)
		tr.send(http.MethodPost, tr.path+"/documents/0/restore", url.Values{"version": {d.ID}, "current": {d.ID}}).status(http.StatusForbidden)
	})
}

// A restore that would bring a document past MaxTagsPerDocument is refused
// (the deleted page's tags came back on top of those placed since).
func TestRestoreKeepsTheTagLimit(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signer := tr.participantIDs(t)[0]
		tr.add(t, tagForm(signer, "page", "2", "x", "20"))
		original := tr.doc(t)
		tr.send(http.MethodPost, tr.path+"/documents/0/pages/2/delete", nil).status(http.StatusOK)
		after := tr.doc(t)

		// The document fills up to the limit after the delete.
		filled, _ := tagsByID(t, env, tenant.Org.ID, tr.room.TransactionID)
		if len(filled) != 0 {
			t.Fatalf("%d tags left after the delete", len(filled))
		}
		rows := make([]models.Tag, models.MaxTagsPerDocument)
		for i := range rows {
			rows[i] = models.Tag{TransactionID: tr.room.TransactionID, Position: i, TagID: "filler-" + strconv.Itoa(i), Type: "SIGNATURETEMPLATE",
				X: 10, Y: 10, Width: 60, Height: 20, SignerID: signer, Page: 1}
		}
		if err := env.DB.DB.CreateInBatches(rows, 500).Error; err != nil {
			t.Fatal(err)
		}

		p := tr.send(http.MethodPost, tr.path+"/documents/0/restore", url.Values{"version": {original.ID}, "current": {after.ID}}).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#", "too_many_tags")
		if d := tr.doc(t); d.ID != after.ID || d.Pages != original.Pages-1 {
			t.Fatalf("a refused restore changed the document: %+v", d)
		}
	})
}
