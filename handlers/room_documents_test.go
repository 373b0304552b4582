package handlers_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// upload posts a file into the room as a browser form does (csrf part first).
func (tr *tagRoom) upload(csrf, fileName string, content []byte, hx bool) *response {
	return tr.b.do(tr.uploadReq(csrf, fileName, content, hx))
}

// uploadReq is the room upload's request (the browser's cookies not yet added).
func (tr *tagRoom) uploadReq(csrf, fileName string, content []byte, hx bool) *http.Request {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("csrf", csrf)
	_ = mw.WriteField("title", "Addendum")
	fw, _ := mw.CreateFormFile("file", fileName)
	_, _ = fw.Write(content)
	_ = mw.Close()
	req := httptest.NewRequest(http.MethodPost, tr.path+"/documents", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if hx {
		req.Header.Set("HX-Request", "true")
	}
	req.Header.Set("Accept", "text/html")
	return req
}

type txDocs struct {
	Documents []roomDoc `json:"documents"`
}

func (tr *tagRoom) docs(t *testing.T) []roomDoc {
	t.Helper()
	var tx txDocs
	tr.s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, nil)).status(http.StatusOK).json(&tx)
	return tx.Documents
}

func TestUploadingIntoTheRoom(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env, withMaxUpload(64<<10))
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		pdfBytes := pdftest.ThreePages(t)

		tr.upload(tr.csrf, "addendum.pdf", pdfBytes, false).status(http.StatusSeeOther)
		docs := tr.docs(t)
		if len(docs) != 2 || docs[1].Pages != 3 || len(docs[1].Tags) != 0 {
			t.Fatalf("after the upload: %+v", docs)
		}
		// The new document takes tags like any other.
		tr.add(t, tagForm(tr.participantIDs(t)[0], "documentPosition", "1", "page", "3"))

		// Refusals, each with a clear message; nothing is added.
		p := tr.upload(tr.csrf, "notes.txt", []byte("just some text, not a PDF"), true).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/file", "not_pdf")
		p = tr.upload(tr.csrf, "broken.pdf", pdftest.Truncated(t), true).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/file", "damaged_pdf")
		p = tr.upload(tr.csrf, "huge.pdf", append(append([]byte{}, pdfBytes...), make([]byte, 70<<10)...), true).problem(http.StatusRequestEntityTooLarge)
		hasError(t, p, "#/file", "file_too_large")
		tr.upload("forged", "addendum.pdf", pdfBytes, true).status(http.StatusForbidden)
		tr.send(http.MethodPost, tr.path+"/documents", url.Values{"file": {"x"}}).status(http.StatusUnsupportedMediaType)
		if n := len(tr.docs(t)); n != 2 {
			t.Fatalf("refused uploads changed the documents: %d", n)
		}

		// Without documents.edit a room that came with documents takes none…
		locked := openTagRoom(t, s, tenant, obj{"documents": obj{"edit": false}})
		locked.upload(locked.csrf, "addendum.pdf", pdfBytes, true).status(http.StatusForbidden)
		// …but a room that started empty always does.
		body := roomBody(tenant, s.upload(tenant.Token))
		body["documents"] = arr{}
		body["config"] = obj{"documents": obj{"edit": false}}
		r := s.createRoom(tenant.Token, body)
		b := s.browser()
		path := b.open(r.URL)
		empty := &tagRoom{s: s, b: b, token: tenant.Token, room: r, path: path, csrf: csrf(t, b.get(path).Body.String())}
		empty.upload(empty.csrf, "addendum.pdf", pdfBytes, true).status(http.StatusOK)
		if docs := empty.docs(t); len(docs) != 1 || docs[0].Pages != 3 {
			t.Fatalf("the empty room after an upload: %+v", docs)
		}
	})
}

func TestRemovingADocumentTakesItsTagsOnly(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signer := tr.participantIDs(t)[0]
		tr.upload(tr.csrf, "second.pdf", pdftest.ThreePages(t), false).status(http.StatusSeeOther)
		tr.upload(tr.csrf, "third.pdf", pdftest.ThreePages(t), false).status(http.StatusSeeOther)
		for pos := 0; pos < 3; pos++ {
			for i := 0; i <= pos; i++ { // 1, 2 and 3 tags
				tr.add(t, tagForm(signer, "documentPosition", strconv.Itoa(pos), "x", strconv.Itoa(10+10*i)))
			}
		}
		before := tr.docs(t)

		tr.send(http.MethodPost, tr.path+"/documents/1/remove", nil).status(http.StatusOK)
		after := tr.docs(t)
		if len(after) != 2 || after[0].ID != before[0].ID || after[1].ID != before[2].ID {
			t.Fatalf("documents after removing the second: %+v", after)
		}
		if len(after[0].Tags) != 1 || len(after[1].Tags) != 3 {
			t.Fatalf("tags after the removal: %d and %d", len(after[0].Tags), len(after[1].Tags))
		}
		// The removed document stays readable to this room (a viewer may still be loading it), not to another.
		tr.b.get(tr.path + "/pdf/" + before[1].ID).status(http.StatusOK)
		other := openTagRoom(t, s, env.NewTenant(t, "Other"), nil)
		other.b.get(other.path + "/pdf/" + before[1].ID).status(http.StatusNotFound)
		// Tag edits address the moved document by its new position.
		tr.add(t, tagForm(signer, "documentPosition", "1", "x", "400"))
		tr.send(http.MethodPost, tr.path+"/documents/2/remove", nil).status(http.StatusNotFound)

		off := openTagRoom(t, s, tenant, obj{"documents": obj{"advancedEdit": false}})
		off.send(http.MethodPost, off.path+"/documents/0/remove", nil).status(http.StatusForbidden)
	})
}

func TestADisabledUserIsNoSender(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		if err := env.DB.DB.Exec("UPDATE users SET disabled_at = ? WHERE id = ?", env.Store.Now(), tenant.Sender.ID).Error; err != nil {
			t.Fatal(err)
		}
		p := s.do(jsonReq(http.MethodPost, "/api/v1/markup-rooms", tenant.Token, roomBody(tenant, s.upload(tenant.Token)))).problem(http.StatusUnauthorized)
		if p.Detail == "" {
			t.Fatal("no reason given")
		}
	})
}

// After an htmx upload of a file that was decrypted or repaired, the room's
// documents panel says so; an ordinary upload gets no note.
func TestRoomUploadNotesDecryptionAndRepairs(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		shifted := func(b []byte) []byte {
			i := bytes.Index(b, []byte("endobj")) + len("endobj")
			return append(append(bytes.Clone(b[:i]), "\n% not in the table\n"...), b[i:]...)
		}
		for _, tc := range []struct {
			name    string
			content []byte
			note    string
		}{
			{"ordinary", pdftest.ThreePages(t), ""},
			{"empty user password", pdftest.Encrypted(t), "Opened without a password and stored unprotected."},
			{"offsets shifted", shifted(pdftest.ThreePages(t)), "Repaired: cross-reference table rebuilt."},
			{"both", shifted(pdftest.Encrypted(t)), "Opened without a password and stored unprotected. Repaired: cross-reference table rebuilt."},
		} {
			t.Run(tc.name, func(t *testing.T) {
				body := tr.upload(tr.csrf, "in.pdf", tc.content, true).status(http.StatusOK).Body.String()
				has := strings.Contains(body, "data-upload-note")
				if tc.note == "" && has || tc.note != "" && (!has || !strings.Contains(body, tc.note)) {
					t.Errorf("note %q: data-upload-note %t in the room", tc.note, has)
				}
			})
		}
		// In a Spanish room the note is Spanish, repairs and all (issue 39).
		req := tr.uploadReq(tr.csrf, "in.pdf", shifted(pdftest.Encrypted(t)), true)
		req.Header.Set("X-Markup-Lang", "es")
		body := tr.b.do(req).status(http.StatusOK).Body.String()
		es := "Se abrió sin contraseña y se guardó sin protección. Reparado: tabla de referencias cruzadas reconstruida."
		if !strings.Contains(body, es) || strings.Contains(body, "Opened without a password") || strings.Contains(body, "cross-reference table") {
			t.Errorf("the Spanish room's note is not %q", es)
		}
		// Without htmx the browser is sent back to the room (no note to carry).
		tr.upload(tr.csrf, "in.pdf", pdftest.Encrypted(t), false).status(http.StatusSeeOther)
	})
}
