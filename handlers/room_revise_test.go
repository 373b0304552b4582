package handlers_test

import (
	"bytes"
	"math"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// reviseReq is the room's "Replace with revised version…" form as htmx
// posts it: multipart, the csrf part first, then the file.
func (tr *tagRoom) reviseReq(csrf string, pos int, content []byte) *http.Request {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("csrf", csrf)
	fw, _ := mw.CreateFormFile("file", "revised.pdf")
	_, _ = fw.Write(content)
	_ = mw.Close()
	req := httptest.NewRequest(http.MethodPost, tr.path+"/documents/"+strconv.Itoa(pos)+"/revise", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("HX-Request", "true")
	req.Header.Set("Accept", "text/html")
	return req
}

// TestTheRoomRevisesADocumentAsOneUndoStep: "Replace with revised version…"
// in the room replaces the document by the uploaded revision, every tag
// following its field (within 2 pt), answers the room with the report (the
// "what changed" view) and the page-edit event of kind "revised"; the
// restore route (the editor's undo) brings back the old version with every
// tag where it was, and the revise route with the revised version's id (the
// redo) places them again. A version the room never held, a stale current,
// a file that is no PDF, a forged token and a room without page edits are
// refused, and change nothing.
func TestTheRoomRevisesADocumentAsOneUndoStep(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		base, revisions := pdftest.RevisionCorpus()
		revised := revisions[0] // a paragraph added on page 1
		var first uploadedDoc
		s.do(uploadReq(tenant.Token, "services.pdf", base.PDF, "Services")).status(http.StatusCreated).json(&first)
		r := s.createRoom(tenant.Token, roomBody(tenant, first))
		b := s.browser()
		path := b.open(r.URL)
		tr := &tagRoom{s: s, b: b, token: tenant.Token, room: r, path: path, csrf: csrf(t, b.get(path).Body.String())}
		signer := tr.participantIDs(t)[0]
		field := map[string]string{} // tag id → its field
		for name, f := range base.Fields {
			id := tr.add(t, tagForm(signer, "type", "INITIALSTEMPLATE", "page", strconv.Itoa(f.Page), "x", fmtNum(f.Box.LLX), "y", fmtNum(f.Box.LLY),
				"width", fmtNum(f.Box.URX-f.Box.LLX), "height", fmtNum(f.Box.URY-f.Box.LLY)))
			field[id] = name
		}
		before := versionless(storedTags(t, env, r.TransactionID))

		// Refusals first: nothing changes.
		tr.b.do(tr.reviseReq("forged", 0, revised.PDF)).status(http.StatusForbidden)
		hasError(t, tr.b.do(tr.reviseReq(tr.csrf, 0, []byte("not a PDF at all"))).problem(http.StatusUnprocessableEntity), "#/file", "not_pdf")
		var elsewhere uploadedDoc
		s.do(uploadReq(tenant.Token, "other.pdf", revised.PDF, "Other")).status(http.StatusCreated).json(&elsewhere)
		tr.send(http.MethodPost, tr.path+"/documents/0/revise", url.Values{"documentId": {elsewhere.ID}}).problem(http.StatusNotFound)
		tr.send(http.MethodPost, tr.path+"/documents/0/revise", url.Values{}).problem(http.StatusBadRequest)
		if got := tr.doc(t); got.ID != first.ID {
			t.Fatalf("a refusal changed the document: %s", got.ID)
		}

		// The revision: one answer with the room, the report and the undo step's event.
		res := tr.b.do(tr.reviseReq(tr.csrf, 0, revised.PDF)).status(http.StatusOK)
		edit := pageEditHeader(t, res.Header())
		now := tr.doc(t)
		if edit.Kind != models.EventRevised || edit.FromDocumentID != first.ID || edit.ToDocumentID != now.ID || now.ID == first.ID {
			t.Fatalf("the revision tells %+v (document %s → %s)", edit, first.ID, now.ID)
		}
		html := res.Body.String()
		for _, want := range []string{`data-revision-summary`, `data-revision-report="{`, `&#34;moved&#34;:`, "is now its revised version", `data-document-revise`} {
			if !strings.Contains(html, want) {
				t.Fatalf("the room answered without %s", want)
			}
		}
		placed := func(want map[string]pdftest.RevisionField) {
			t.Helper()
			for id, tag := range storedTags(t, env, r.TransactionID) {
				f := want[field[id]]
				if tag.Page != f.Page || math.Abs(tag.X-f.Box.LLX) > 2 || math.Abs(tag.Y-f.Box.LLY) > 2 {
					t.Errorf("%s on page %d at (%.1f, %.1f); its field is on page %d at (%.1f, %.1f)", field[id], tag.Page, tag.X, tag.Y, f.Page, f.Box.LLX, f.Box.LLY)
				}
			}
		}
		placed(revised.Fields)

		// A stale current is refused; the undo brings the old version back, every tag as it was.
		tr.send(http.MethodPost, tr.path+"/documents/0/revise", url.Values{"documentId": {now.ID}, "current": {first.ID}}).problem(http.StatusUnprocessableEntity)
		res = tr.send(http.MethodPost, tr.path+"/documents/0/restore", url.Values{"version": {first.ID}, "current": {now.ID}}).status(http.StatusOK)
		if undo := pageEditHeader(t, res.Header()); undo.Kind != models.EventPageRestored || undo.ToDocumentID != first.ID {
			t.Fatalf("the undo tells %+v", undo)
		}
		if got := tr.doc(t); got.ID != first.ID {
			t.Fatalf("after the undo the document is %s, want %s", got.ID, first.ID)
		}
		after := versionless(storedTags(t, env, r.TransactionID))
		for id, tag := range before {
			if a := after[id]; a.Page != tag.Page || a.X != tag.X || a.Y != tag.Y || a.Width != tag.Width || a.Height != tag.Height || a.NeedsLook != nil {
				t.Errorf("after the undo %s is %+v, was %+v", field[id], a, tag)
			}
		}

		// The redo: the revised version again, by its id.
		res = tr.send(http.MethodPost, tr.path+"/documents/0/revise", url.Values{"documentId": {now.ID}, "current": {first.ID}}).status(http.StatusOK)
		if redo := pageEditHeader(t, res.Header()); redo.Kind != models.EventRevised || redo.ToDocumentID != now.ID {
			t.Fatalf("the redo tells %+v", redo)
		}
		placed(revised.Fields)

		// A room without page edits offers no revision and takes none.
		locked := openTagRoom(t, s, tenant, obj{"documents": obj{"advancedEdit": false}})
		if strings.Contains(locked.b.get(locked.path).Body.String(), "data-document-revise") {
			t.Fatal("a room without page edits offers the revision")
		}
		locked.b.do(locked.reviseReq(locked.csrf, 0, revised.PDF)).status(http.StatusForbidden)
	})
}
