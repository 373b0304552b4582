package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// removal reads the HX-Trigger a removal (or its undo) answers with.
func removal(t *testing.T, r *response) map[string]any {
	t.Helper()
	var trig map[string]map[string]any
	if err := json.Unmarshal([]byte(r.Header().Get("HX-Trigger")), &trig); err != nil {
		t.Fatalf("HX-Trigger %q: %v", r.Header().Get("HX-Trigger"), err)
	}
	return trig["markuproom:removal"]
}

// roomIDs is what the editor sends with an undo: the document and participant ids in order.
func (tr *tagRoom) roomIDs(t *testing.T) url.Values {
	t.Helper()
	var docs []string
	for _, d := range tr.docs(t) {
		docs = append(docs, d.ID)
	}
	return url.Values{"documents": {strings.Join(docs, ",")}, "participants": {strings.Join(tr.participantIDs(t), ",")}}
}

// A document's and a participant's removal answer the room with what they
// did (HX-Trigger markuproom:removal, naming the kept row); the restore
// route brings them back with their tags, and refuses (422 room_changed) an
// undo made against a room that changed since.
func TestRemovalsAreUndoneThroughTheRoom(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		people := tr.participantIDs(t)
		signer := people[0]
		tr.upload(tr.csrf, "second.pdf", pdftest.ThreePages(t), false).status(http.StatusSeeOther)
		tr.add(t, tagForm(signer, "documentPosition", "0", "x", "10"))
		tr.add(t, tagForm(signer, "documentPosition", "1", "x", "20"))
		tr.add(t, tagForm(signer, "documentPosition", "1", "x", "30"))
		before := tr.docs(t)

		res := tr.send(http.MethodPost, tr.path+"/documents/1/remove", url.Values{"current": {before[1].ID}}).status(http.StatusOK)
		done := removal(t, res)
		if done["kind"] != "document_removed" || done["tags"] != float64(2) || done["documentId"] != before[1].ID || done["removal"] == "" {
			t.Fatalf("removal trigger %v", done)
		}
		// The trigger names the URL of the undo, so the editor composes no path.
		if done["restoreUrl"] != tr.path+"/removals/"+done["removal"].(string)+"/restore" {
			t.Fatalf("removal trigger's restoreUrl %v", done["restoreUrl"])
		}
		stale := tr.roomIDs(t)
		res = tr.send(http.MethodPost, done["restoreUrl"].(string), stale).status(http.StatusOK)
		if back := removal(t, res); back["kind"] != "document_restored" || back["restoreUrl"] != nil {
			t.Fatalf("restore trigger %v", back)
		}
		if after := tr.docs(t); len(after) != 2 || after[1].ID != before[1].ID || len(after[1].Tags) != 2 || after[1].Tags[0]["id"] != before[1].Tags[0]["id"] {
			t.Fatalf("documents after the undo: %+v", after)
		}
		// A redo naming a version no longer there is refused.
		tr.send(http.MethodPost, tr.path+"/documents/1/remove", url.Values{"current": {"doc-elsewhere"}}).status(http.StatusUnprocessableEntity)

		// The participant, removed over htmx and undone; the undo of a room changed since is refused.
		res = tr.send(http.MethodPost, tr.path+"/participants/"+url.PathEscape(signer)+"/remove", url.Values{}).status(http.StatusOK)
		gone := removal(t, res)
		if gone["kind"] != "participant_removed" || gone["participantId"] != signer || gone["tags"] != float64(3) {
			t.Fatalf("removal trigger %v", gone)
		}
		ids := tr.roomIDs(t)
		changed := url.Values{"documents": ids["documents"], "participants": {"p_other"}}
		p := tr.send(http.MethodPost, tr.path+"/removals/"+gone["removal"].(string)+"/restore", changed).problem(http.StatusUnprocessableEntity)
		if len(p.Errors) != 1 || p.Errors[0].Code != "room_changed" || !strings.Contains(p.Detail+p.Errors[0].Detail, "Reload the room") {
			t.Fatalf("refusal %+v", p)
		}
		tr.send(http.MethodPost, tr.path+"/removals/"+gone["removal"].(string)+"/restore", ids).status(http.StatusOK)
		if got := tr.participantIDs(t); strings.Join(got, ",") != strings.Join(people, ",") {
			t.Fatalf("participants after the undo: %v", got)
		}
		n := 0
		for _, d := range tr.docs(t) {
			n += len(d.Tags)
		}
		if n != 3 {
			t.Fatalf("%d tags after the undo, want 3", n)
		}
		tr.send(http.MethodPost, tr.path+"/removals/rm_unknown/restore", ids).status(http.StatusNotFound)
	})
}
