package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// batch posts a batch of tag edits as the editor's batch client does (JSON, CSRF header).
func (tr *tagRoom) batch(body any) *response {
	raw, err := json.Marshal(body)
	if err != nil {
		panic(err)
	}
	return tr.batchRaw(string(raw))
}

// batchRaw posts a batch body as given.
func (tr *tagRoom) batchRaw(raw string) *response {
	req := httptest.NewRequest(http.MethodPost, tr.path+"/tags/batch", strings.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/html")
	req.Header.Set("X-CSRF-Token", tr.csrf)
	return tr.b.do(req)
}

// batchTag is one tag of a batch, SIGNATURETEMPLATE on page 2 unless kv says otherwise.
func batchTag(signer string, kv ...any) obj {
	o := obj{"type": "SIGNATURETEMPLATE", "signerId": signer, "page": 2, "x": 72, "y": 100, "width": 144, "height": 36, "required": true}
	for i := 0; i+1 < len(kv); i += 2 {
		o[kv[i].(string)] = kv[i+1]
	}
	return o
}

func TestRoomTagBatchWritesEverythingAtOnce(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signers := tr.participantIDs(t)
		keep := tr.add(t, tagForm(signers[0]))
		move := tr.add(t, tagForm(signers[0], "page", "1"))
		drop := tr.add(t, tagForm(signers[1], "page", "3"))
		_, v0 := tr.apiTags(t)
		before := storedTags(t, env, tr.room.TransactionID)

		res := tr.batch(obj{
			"create": arr{
				obj{"documentPosition": 0, "type": "DATETEMPLATE", "signerId": signers[1], "page": 3, "x": 300, "y": 500, "width": 96, "height": 20, "dateFormat": "MMMM do, yyyy"},
				batchTag(signers[0], "documentPosition", 0, "page", 1, "x", 400.5),
			},
			"update": arr{batchTag(signers[1], "id", move, "page", 2, "x", 80.25, "y", 120, "required", false, "fontSize", 14)},
			"delete": arr{drop},
		}).status(http.StatusOK)
		if ct := res.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("content type %q", ct)
		}
		// The answer: created tags in request order, then updated ones.
		ids := tagIDPattern.FindAllStringSubmatch(res.Body.String(), -1)
		if len(ids) != 3 || ids[2][1] != move {
			t.Fatalf("answer ids %v: %s", ids, res.Body.String())
		}
		html := res.Body.String()
		if i, j, k := strings.Index(html, `data-tag-type="DATETEMPLATE"`), strings.Index(html, `data-x="400.5"`), strings.Index(html, `data-x="80.25"`); i < 0 || j < i || k < j {
			t.Fatalf("answer out of request order: %s", html)
		}

		after := storedTags(t, env, tr.room.TransactionID)
		if _, gone := after[drop]; gone || len(after) != 4 {
			t.Fatalf("after the batch: %+v", after)
		}
		if !reflect.DeepEqual(after[keep], before[keep]) {
			t.Fatalf("an untouched tag changed: %+v → %+v", before[keep], after[keep])
		}
		m := after[move]
		if m.X != 80.25 || m.Y != 120 || m.Page != 2 || m.SignerID != signers[1] || m.Position != before[move].Position || m.Required == nil || *m.Required || m.FontSize == nil || *m.FontSize != 14 {
			t.Fatalf("moved tag: %+v", m)
		}

		// The API shows it, one version later.
		tags, v := tr.apiTags(t)
		if v != v0+1 || len(tags) != 4 {
			t.Fatalf("API: %d tags, version %v (was %v)", len(tags), v, v0)
		}
		find := func(key string, v any) map[string]any {
			for _, tag := range tags {
				if tag[key] == v {
					return tag
				}
			}
			return nil
		}
		if c := find("type", "DATETEMPLATE"); c == nil || c["page"] != 3.0 || c["dateFormat"] != "MMMM do, yyyy" || c["signerId"] != signers[1] {
			t.Fatalf("created date tag in the API: %v", c)
		}
		if c := find("x", 400.5); c == nil || c["page"] != 1.0 {
			t.Fatalf("created signature tag in the API: %v", c)
		}
		if c := find("x", 80.25); c == nil || c["page"] != 2.0 || c["required"] != false {
			t.Fatalf("updated tag in the API: %v", c)
		}
		var tx models.Transaction
		if err := env.DB.DB.Where("id = ?", tr.room.TransactionID).Take(&tx).Error; err != nil {
			t.Fatal(err)
		}
		if tx.TagCount != 4 {
			t.Fatalf("tag_count %d", tx.TagCount)
		}
		xfdf := s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID+"/documents/"+firstDocumentID(t, tr)+"/xfdf", tr.token, nil)).status(http.StatusOK).Body.String()
		if strings.Count(xfdf, "DATETEMPLATE") == 0 || strings.Contains(xfdf, drop) {
			t.Fatalf("XFDF does not follow the batch: %s", xfdf)
		}

		// One history entry for the whole batch, shown in the console's words.
		events, kinds := history(t, env, tenant.Org.ID, tr.room.TransactionID)
		if got := kinds[len(kinds)-1]; got != models.EventTagsBatch || len(kinds) != 5 {
			t.Fatalf("history kinds = %v", kinds)
		}
		if s := string(events[4].Summary); !strings.Contains(s, `"created":2`) || !strings.Contains(s, `"updated":1`) || !strings.Contains(s, `"deleted":1`) || !strings.Contains(s, `"documents":[0]`) {
			t.Fatalf("batch summary = %s", s)
		}
		newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		console, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		page := console.get("/admin/transactions/" + tr.room.TransactionID).status(http.StatusOK).Body.String()
		if !strings.Contains(page, "Tags edited together: 2 tags added, 1 tag changed, 1 tag removed in “") {
			t.Error("the console's history does not show the batch")
		}
		if !strings.Contains(page, "1 tag removed in “contract” (3 Signature, 1 Date)") {
			t.Error("the console's history does not count the batch's tags by type")
		}
	})
}

func TestRoomTagBatchIsAllOrNothing(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signers := tr.participantIDs(t)
		a := tr.add(t, tagForm(signers[0]))
		b := tr.add(t, tagForm(signers[1], "page", "3"))
		before := storedTags(t, env, tr.room.TransactionID)
		_, kinds0 := history(t, env, tenant.Org.ID, tr.room.TransactionID)
		unchanged := func(what string) {
			t.Helper()
			if after := storedTags(t, env, tr.room.TransactionID); !reflect.DeepEqual(after, before) {
				t.Fatalf("%s changed the tags: %+v → %+v", what, before, after)
			}
			if _, kinds := history(t, env, tenant.Org.ID, tr.room.TransactionID); len(kinds) != len(kinds0) {
				t.Fatalf("%s wrote history: %v", what, kinds)
			}
		}
		good := batchTag(signers[0], "documentPosition", 0)

		// One entry off the page: 422 pointing at it, nothing written.
		p := tr.batch(obj{"create": arr{good, batchTag(signers[0], "documentPosition", 0, "x", 600)}, "delete": arr{a}}).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/create/1", "outside_page")
		unchanged("an entry outside the page")
		p = tr.batch(obj{"update": arr{batchTag(signers[0], "id", a), batchTag("p_stranger", "id", b)}}).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/update/1/signerId", "unknown_signer")
		unchanged("an unknown signer")
		p = tr.batch(obj{"update": arr{batchTag(signers[0], "id", a, "x", "left")}}).problem(http.StatusBadRequest)
		hasError(t, p, "#/update/0/x", "invalid_type")
		p = tr.batch(obj{"update": arr{batchTag(signers[0], "id", a, "documentPosition", 0)}}).problem(http.StatusBadRequest)
		hasError(t, p, "#/update/0/documentPosition", "unknown_field")

		// An id that is no tag of this room: 404 at its entry.
		p = tr.batch(obj{"create": arr{good}, "update": arr{batchTag(signers[0], "id", a)}, "delete": arr{b, "t_nope"}}).problem(http.StatusNotFound)
		hasError(t, p, "#/delete/1", "unknown_tag")
		unchanged("an unknown tag id")
		p = tr.batch(obj{"create": arr{batchTag(signers[0], "documentPosition", 7)}}).problem(http.StatusNotFound)
		hasError(t, p, "#/create/0/documentPosition", "unknown_document")

		// A tag once per batch; an empty batch; too many changes.
		p = tr.batch(obj{"update": arr{batchTag(signers[0], "id", a)}, "delete": arr{a}}).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#/delete/0", "duplicate_tag")
		p = tr.batch(obj{"create": arr{}}).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#", "empty_batch")
		many := make(arr, models.MaxTagBatchChanges+1)
		for i := range many {
			many[i] = "t_x"
		}
		p = tr.batch(obj{"delete": many}).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#", "too_many_changes")
		unchanged("refused batches")

		// Bodies that are not a batch: 400 at the place that is wrong.
		for _, c := range []struct{ body, pointer, code string }{
			{`{"create": [`, "#", "invalid_json"},
			{`[]`, "#", "invalid_type"},
			{`{"create": {}}`, "#/create", "invalid_type"},
			{`{"create": [5]}`, "#/create/0", "invalid_type"},
			{`{"delete": [5]}`, "#/delete/0", "invalid_type"},
			{`{"move": [], "delete": ["` + a + `"]}`, "#/move", "unknown_field"},
			{`{"create": [{"documentPosition": 0, "type": "SIGNATURETEMPLATE", "page": "2", "x": 1, "y": 1, "width": 9, "height": 9}]}`, "#/create/0/page", "invalid_type"},
			{`{"create": [{"documentPosition": 0, "type": "SIGNATURETEMPLATE", "page": 2, "x": 1, "y": 1, "width": 9, "height": 9, "required": "yes"}]}`, "#/create/0/required", "invalid_type"},
			{`{"create": [{"type": "SIGNATURETEMPLATE", "page": 2, "x": 1, "y": 1, "width": 9, "height": 9}]}`, "#/create/0/documentPosition", "required"},
			{`{"create": [{"documentPosition": 0, "type": "STAMP", "page": 2, "x": 1, "y": 1, "width": 0, "height": 9}]}`, "#/create/0/width", "out_of_range"},
		} {
			hasError(t, tr.batchRaw(c.body).problem(http.StatusBadRequest), c.pointer, c.code)
		}
		unchanged("bodies that are not a batch")

		// The CSRF token and the browser's session are checked.
		bad := *tr
		bad.csrf = "forged"
		bad.batch(obj{"delete": arr{a}}).status(http.StatusForbidden)
		stranger := *tr
		stranger.b = s.browser()
		stranger.batch(obj{"delete": arr{a}}).status(http.StatusForbidden)
		req := httptest.NewRequest(http.MethodPost, tr.path+"/tags/batch", strings.NewReader(url.Values{"delete": {a}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-CSRF-Token", tr.csrf)
		tr.b.do(req).status(http.StatusUnsupportedMediaType)
		tr.batch(obj{"delete": arr{strings.Repeat("t", 2<<20)}}).problem(http.StatusRequestEntityTooLarge)
		unchanged("forged, misdirected and oversized batches")
	})
}

func TestRoomTagBatchStaysInItsRoom(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		mine := openTagRoom(t, s, tenant, nil)
		theirs := openTagRoom(t, s, tenant, nil)
		theirTag := theirs.add(t, tagForm(theirs.participantIDs(t)[0]))
		before := storedTags(t, env, theirs.room.TransactionID)

		p := mine.batch(obj{"update": arr{batchTag(mine.participantIDs(t)[0], "id", theirTag)}}).problem(http.StatusNotFound)
		hasError(t, p, "#/update/0/id", "unknown_tag")
		mine.batch(obj{"delete": arr{theirTag}}).status(http.StatusNotFound)
		cross := *theirs
		cross.csrf = mine.csrf
		cross.batch(obj{"delete": arr{theirTag}}).status(http.StatusForbidden)
		if after := storedTags(t, env, theirs.room.TransactionID); !reflect.DeepEqual(after, before) {
			t.Fatalf("another room's batch changed this room's tags: %+v", after)
		}

		// documents.edit off: 403; a completed room: 409.
		off := openTagRoom(t, s, tenant, obj{"documents": obj{"edit": false}})
		off.batch(obj{"create": arr{batchTag("", "documentPosition", 0)}}).status(http.StatusForbidden)

		ids := mine.participantIDs(t)
		mine.batch(obj{"create": arr{batchTag(ids[0], "documentPosition", 0), batchTag(ids[1], "documentPosition", 0, "x", 300)}}).status(http.StatusOK)
		mine.b.post(mine.path+"/complete", url.Values{"csrf": {mine.csrf}}).status(http.StatusSeeOther)
		mine.batch(obj{"create": arr{batchTag(ids[0], "documentPosition", 0)}}).status(http.StatusConflict)
	})
}

func TestRoomTagBatchCountsTagsOnTheResult(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signer := tr.participantIDs(t)[0]
		a := tr.add(t, tagForm(signer))
		tr.add(t, tagForm(signer, "page", "3"))
		creates := func(n int) arr {
			out := make(arr, n)
			for i := range out {
				out[i] = batchTag(signer, "documentPosition", 0, "page", 1+i%3, "x", 10+i%400, "width", 20, "height", 10)
			}
			return out
		}

		// 2 stored + 4999 new is one too many; with one of the stored deleted it fits.
		p := tr.batch(obj{"create": creates(models.MaxTagsPerDocument - 1)}).problem(http.StatusUnprocessableEntity)
		hasError(t, p, "#", "too_many_tags")
		if n := len(storedTags(t, env, tr.room.TransactionID)); n != 2 {
			t.Fatalf("a refused batch left %d tags", n)
		}
		res := tr.batch(obj{"create": creates(models.MaxTagsPerDocument - 1), "delete": arr{a}}).status(http.StatusOK)
		if n := strings.Count(res.Body.String(), "data-tag-id="); n != models.MaxTagsPerDocument-1 {
			t.Fatalf("answer renders %d tags", n)
		}
		if tags, _ := tr.apiTags(t); len(tags) != models.MaxTagsPerDocument {
			t.Fatalf("API has %d tags", len(tags))
		}
	})
}

func TestRoomTagBatchFailingMidwayWritesNothing(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signers := tr.participantIDs(t)
		a := tr.add(t, tagForm(signers[0]))
		b := tr.add(t, tagForm(signers[1], "page", "3"))
		before := storedTags(t, env, tr.room.TransactionID)
		xfdfBefore := s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID+"/documents/"+firstDocumentID(t, tr)+"/xfdf", tr.token, nil)).status(http.StatusOK).Body.String()

		// The history row is the batch's last write: make the database refuse it.
		failing := []string{
			`CREATE TRIGGER fail_events BEFORE INSERT ON transaction_events BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
		}
		undo := []string{`DROP TRIGGER fail_events`}
		if env.DB.Dialect == models.DialectPostgres {
			failing = []string{
				`CREATE FUNCTION fail_events() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'forced failure'; END $$ LANGUAGE plpgsql`,
				`CREATE TRIGGER fail_events BEFORE INSERT ON transaction_events FOR EACH ROW EXECUTE FUNCTION fail_events()`,
			}
			undo = []string{`DROP TRIGGER fail_events ON transaction_events`, `DROP FUNCTION fail_events()`}
		}
		for _, q := range failing {
			if err := env.DB.DB.Exec(q).Error; err != nil {
				t.Fatal(err)
			}
		}
		tr.batch(obj{
			"create": arr{batchTag(signers[0], "documentPosition", 0, "page", 1)},
			"update": arr{batchTag(signers[1], "id", a, "x", 300)},
			"delete": arr{b},
		}).problem(http.StatusInternalServerError)
		for _, q := range undo {
			if err := env.DB.DB.Exec(q).Error; err != nil {
				t.Fatal(err)
			}
		}
		if after := storedTags(t, env, tr.room.TransactionID); !reflect.DeepEqual(after, before) {
			t.Fatalf("a failed batch left changes: %+v → %+v", before, after)
		}
		xfdf := s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID+"/documents/"+firstDocumentID(t, tr)+"/xfdf", tr.token, nil)).status(http.StatusOK).Body.String()
		if xfdf != xfdfBefore {
			t.Fatal("a failed batch changed the XFDF")
		}
		// The same batch succeeds once the database takes writes again.
		tr.batch(obj{"delete": arr{b}}).status(http.StatusOK)
	})
}
