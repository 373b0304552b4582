package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// tagRoom is an opened room with its CSRF token, for tag edits.
type tagRoom struct {
	s      *server
	b      *browser
	tenant *modelstest.Tenant
	token  string
	room   roomResp
	path   string
	csrf   string
}

func openTagRoom(t *testing.T, s *server, tenant *modelstest.Tenant, config obj) *tagRoom {
	t.Helper()
	body := roomBody(tenant, s.upload(tenant.Token))
	if config != nil {
		body["config"] = config
	}
	r := s.createRoom(tenant.Token, body)
	b := s.browser()
	path := b.open(r.URL)
	html := b.get(path).status(http.StatusOK).Body.String()
	return &tagRoom{s: s, b: b, tenant: tenant, token: tenant.Token, room: r, path: path, csrf: csrf(t, html)}
}

// send makes an htmx-style tag request (HX-Request, CSRF header).
func (tr *tagRoom) send(method, path string, form url.Values) *response {
	req := httptest.NewRequest(method, path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	req.Header.Set("X-CSRF-Token", tr.csrf)
	return tr.b.do(req)
}

var tagIDPattern = regexp.MustCompile(`data-tag-id="([^"]+)"`)

// add places a tag and returns its id.
func (tr *tagRoom) add(t *testing.T, form url.Values) string {
	t.Helper()
	res := tr.send(http.MethodPost, tr.path+"/tags", form).status(http.StatusCreated)
	m := tagIDPattern.FindStringSubmatch(res.Body.String())
	if m == nil {
		t.Fatalf("answer has no data-tag-id: %s", res.Body.String())
	}
	return m[1]
}

// apiTags reads the transaction's first document's tags and version through the API.
func (tr *tagRoom) apiTags(t *testing.T) ([]map[string]any, float64) {
	t.Helper()
	var tx struct {
		Version   float64 `json:"version"`
		Documents []struct {
			Tags []map[string]any `json:"tags"`
		} `json:"documents"`
	}
	tr.s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, nil)).status(http.StatusOK).json(&tx)
	return tx.Documents[0].Tags, tx.Version
}

// participantIDs reads the room's participant ids through the API.
func (tr *tagRoom) participantIDs(t *testing.T) []string {
	t.Helper()
	var tx struct {
		Participants []struct {
			ID string `json:"id"`
		} `json:"participants"`
	}
	tr.s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, nil)).status(http.StatusOK).json(&tx)
	ids := make([]string, len(tx.Participants))
	for i, p := range tx.Participants {
		ids[i] = p.ID
	}
	return ids
}

func tagForm(signer string, kv ...string) url.Values {
	f := url.Values{"documentPosition": {"0"}, "type": {"SIGNATURETEMPLATE"}, "signerId": {signer}, "page": {"2"},
		"x": {"72"}, "y": {"100"}, "width": {"144"}, "height": {"36"}, "required": {"true"}}
	for i := 0; i+1 < len(kv); i += 2 {
		f.Set(kv[i], kv[i+1])
	}
	return f
}

func TestRoomTagEditsAreRowLevelAndRecorded(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signers := tr.participantIDs(t)
		_, v0 := tr.apiTags(t)

		a := tr.add(t, tagForm(signers[0]))
		b := tr.add(t, tagForm(signers[1], "type", "DATETEMPLATE", "page", "3", "x", "300", "y", "500", "width", "96", "height", "20", "dateFormat", "MMMM do, yyyy"))
		tags, v := tr.apiTags(t)
		if len(tags) != 2 || v != v0+2 {
			t.Fatalf("after two adds: %d tags, version %v (was %v)", len(tags), v, v0)
		}
		if tags[0]["x"] != 72.0 || tags[0]["y"] != 100.0 || tags[0]["page"] != 2.0 || tags[0]["signerId"] != signers[0] {
			t.Fatalf("first tag = %v", tags[0])
		}
		if tags[1]["dateFormat"] != "MMMM do, yyyy" || tags[1]["type"] != "DATETEMPLATE" {
			t.Fatalf("second tag = %v", tags[1])
		}

		// Moving a changes only a's row: b keeps its id, position and values.
		before := storedTags(t, env, tr.room.TransactionID)
		res := tr.send(http.MethodPut, tr.path+"/tags/"+a, tagForm(signers[0], "x", "80.5", "y", "120.25", "width", "150")).status(http.StatusOK)
		if !strings.Contains(res.Body.String(), `data-tag-id="`+a+`"`) || !strings.Contains(res.Body.String(), `data-x="80.5"`) {
			t.Fatalf("update answer: %s", res.Body.String())
		}
		after := storedTags(t, env, tr.room.TransactionID)
		if !reflect.DeepEqual(after[b], before[b]) {
			t.Fatalf("tag b changed: %+v → %+v", before[b], after[b])
		}
		if after[a].X != 80.5 || after[a].Y != 120.25 || after[a].Width != 150 || after[a].Position != before[a].Position {
			t.Fatalf("tag a after move: %+v", after[a])
		}

		// Deleting a leaves b alone; the API and the XFDF follow.
		tr.send(http.MethodDelete, tr.path+"/tags/"+a, nil).status(http.StatusOK)
		after = storedTags(t, env, tr.room.TransactionID)
		if _, ok := after[a]; ok || !reflect.DeepEqual(after[b], before[b]) || len(after) != 1 {
			t.Fatalf("after delete: %+v", after)
		}
		tags, v = tr.apiTags(t)
		if len(tags) != 1 || tags[0]["type"] != "DATETEMPLATE" || v != v0+4 {
			t.Fatalf("API after delete: %v version %v", tags, v)
		}
		xfdf := s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID+"/documents/"+firstDocumentID(t, tr)+"/xfdf", tr.token, nil)).status(http.StatusOK).Body.String()
		if strings.Count(xfdf, "DATETEMPLATE") == 0 || strings.Contains(xfdf, "SIGNATURETEMPLATE") {
			t.Fatalf("XFDF does not follow the edits: %s", xfdf)
		}

		// History: one event per edit, with readable summaries.
		events, kinds := history(t, env, tenant.Org.ID, tr.room.TransactionID)
		want := []string{models.EventCreated, models.EventTagAdded, models.EventTagAdded, models.EventTagChanged, models.EventTagRemoved}
		if strings.Join(kinds, ",") != strings.Join(want, ",") {
			t.Fatalf("history kinds = %v, want %v", kinds, want)
		}
		if s := string(events[3].Summary); !strings.Contains(s, `"changed":["position","size"]`) || !strings.Contains(s, `"page":2`) {
			t.Fatalf("change summary = %s", s)
		}

		// Unknown tag: 404.
		tr.send(http.MethodPut, tr.path+"/tags/t_nope", tagForm(signers[0])).status(http.StatusNotFound)
		tr.send(http.MethodDelete, tr.path+"/tags/"+a, nil).status(http.StatusNotFound)
	})
}

func firstDocumentID(t *testing.T, tr *tagRoom) string {
	t.Helper()
	var tx struct {
		Documents []struct {
			ID string `json:"id"`
		} `json:"documents"`
	}
	tr.s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, nil)).status(http.StatusOK).json(&tx)
	return tx.Documents[0].ID
}

func storedTags(t *testing.T, env *modelstest.Env, txID string) map[string]models.Tag {
	t.Helper()
	var rows []models.Tag
	if err := env.DB.DB.Where("transaction_id = ?", txID).Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	out := map[string]models.Tag{}
	for _, r := range rows {
		r.CustomData = nil
		out[r.TagID] = r
	}
	return out
}

func TestRoomTagEditsAreChecked(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signer := tr.participantIDs(t)[0]

		cases := []struct {
			name   string
			form   url.Values
			status int
			code   string
		}{
			{"unknown type", tagForm(signer, "type", "STAMP"), http.StatusBadRequest, "invalid_enum"},
			{"not a number", tagForm(signer, "x", "left"), http.StatusBadRequest, "invalid_type"},
			{"zero width", tagForm(signer, "width", "0"), http.StatusBadRequest, "out_of_range"},
			{"bad date format", tagForm(signer, "dateFormat", "YY"), http.StatusBadRequest, "invalid_enum"},
			{"outside the page", tagForm(signer, "x", "600"), http.StatusUnprocessableEntity, "outside_page"},
			{"page past the end", tagForm(signer, "page", "4"), http.StatusUnprocessableEntity, "page_out_of_range"},
			{"signer not in the room", tagForm("p_stranger"), http.StatusUnprocessableEntity, "unknown_signer"},
		}
		for _, tc := range cases {
			p := tr.send(http.MethodPost, tr.path+"/tags", tc.form).problem(tc.status)
			found := false
			for _, e := range p.Errors {
				found = found || e.Code == tc.code
			}
			if !found {
				t.Errorf("%s: errors %s, want code %s", tc.name, describeErrors(p.Errors), tc.code)
			}
		}
		tr.send(http.MethodPost, tr.path+"/tags", tagForm(signer, "documentPosition", "5")).status(http.StatusNotFound)
		if tags, _ := tr.apiTags(t); len(tags) != 0 {
			t.Fatalf("refused edits wrote %d tags", len(tags))
		}

		// CSRF and the session binding.
		bad := *tr
		bad.csrf = "forged"
		bad.send(http.MethodPost, tr.path+"/tags", tagForm(signer)).status(http.StatusForbidden)
		stranger := *tr
		stranger.b = s.browser()
		stranger.send(http.MethodPost, tr.path+"/tags", tagForm(signer)).status(http.StatusForbidden)

		// An unassigned tag is a draft's right; participant edits keep working with it.
		tr.add(t, tagForm(""))
		form := url.Values{"csrf": {tr.csrf}, "firstName": {"Casey"}, "lastName": {"Witness"}, "email": {"casey@example.com"}}
		tr.b.post(tr.path+"/participants", form).status(http.StatusSeeOther)
		if tags, _ := tr.apiTags(t); len(tags) != 1 || tags[0]["signerId"] != "" {
			t.Fatalf("unassigned tag after a participant edit: %v", tags)
		}
	})
}

func TestRoomTagEditsNeedDocumentsEdit(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		on := openTagRoom(t, s, tenant, nil)
		id := on.add(t, tagForm(on.participantIDs(t)[0]))
		html := on.b.get(on.path).Body.String()
		for _, hook := range []string{`data-tag-type="SIGNATURETEMPLATE"`, "data-tag-props", "data-editable", `data-tag-id="` + id + `"`} {
			if !strings.Contains(html, hook) {
				t.Errorf("editable room lacks %s", hook)
			}
		}

		off := openTagRoom(t, s, tenant, obj{"documents": obj{"edit": false}})
		signer := off.participantIDs(t)[0]
		html = off.b.get(off.path).Body.String()
		for _, tool := range []string{"data-palette", "data-tag-props", "data-editable", "data-signer-picker", `data-action="undo"`} {
			if strings.Contains(html, tool) {
				t.Errorf("documents.edit=false still renders %s", tool)
			}
		}
		if !strings.Contains(html, "data-viewer") {
			t.Error("documents.edit=false hides the pages too")
		}
		p := off.send(http.MethodPost, off.path+"/tags", tagForm(signer)).problem(http.StatusForbidden)
		if !strings.Contains(p.Detail, "documents.edit") {
			t.Errorf("403 detail = %q", p.Detail)
		}
		off.send(http.MethodPut, off.path+"/tags/"+id, tagForm(signer)).status(http.StatusForbidden)
		off.send(http.MethodDelete, off.path+"/tags/"+id, nil).status(http.StatusForbidden)
	})
}

func TestRoomTagEditsFromTwoTabsLoseNothing(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signer := tr.participantIDs(t)[0]
		shared := tr.add(t, tagForm(signer))

		// Two tabs (one session) add tags and move the same tag at once.
		var wg sync.WaitGroup
		const perTab = 6
		for tab := 0; tab < 2; tab++ {
			wg.Add(1)
			go func(tab int) {
				defer wg.Done()
				for i := 0; i < perTab; i++ {
					x := 50 + 10*i + 200*tab
					tr.send(http.MethodPost, tr.path+"/tags", tagForm(signer, "page", "1", "x", strconv.Itoa(x))).status(http.StatusCreated)
					tr.send(http.MethodPut, tr.path+"/tags/"+shared, tagForm(signer, "x", strconv.Itoa(x))).status(http.StatusOK)
				}
			}(tab)
		}
		wg.Wait()
		rows := storedTags(t, env, tr.room.TransactionID)
		tags, _ := tr.apiTags(t)
		if len(rows) != 1+2*perTab || len(tags) != len(rows) {
			t.Fatalf("stored %d tags, API %d, want %d", len(rows), len(tags), 1+2*perTab)
		}
		var tx models.Transaction
		if err := env.DB.DB.Where("id = ?", tr.room.TransactionID).Take(&tx).Error; err != nil {
			t.Fatal(err)
		}
		if tx.TagCount != len(rows) {
			t.Fatalf("tag_count %d, rows %d", tx.TagCount, len(rows))
		}
	})
}

// history reads a transaction's events and their kinds, oldest first.
func history(t *testing.T, env *modelstest.Env, orgID int64, txID string) ([]models.TransactionEvent, []string) {
	t.Helper()
	events, err := env.Store.ListTransactionEvents(context.Background(), orgID, txID)
	if err != nil {
		t.Fatal(err)
	}
	kinds := make([]string, len(events))
	for i, e := range events {
		kinds[i] = e.Kind
	}
	return events, kinds
}
