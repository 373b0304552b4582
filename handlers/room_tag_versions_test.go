package handlers_test

import (
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"github.com/markuproom/markuproom/models/modelstest"
)

var tagVersionPattern = regexp.MustCompile(`data-tag-version="(\d+)"`)

// versionIn is the data-tag-version of the one tag an edit answered with.
func versionIn(t *testing.T, res *response) int {
	t.Helper()
	m := tagVersionPattern.FindStringSubmatch(res.Body.String())
	if m == nil {
		t.Fatalf("answer has no data-tag-version: %s", res.Body.String())
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestATagEditMadeAgainstAnOlderVersionIsRefused: two windows of one room.
// Each edit names the version of the tag it was made against; one made
// against a version that has moved on (the other window changed the tag,
// or moved its page) is refused 409 tag_changed with the tag as it is now,
// through the one-tag routes and the batch, and changes nothing. An edit
// that names no version is not checked.
func TestATagEditMadeAgainstAnOlderVersionIsRefused(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signers := tr.participantIDs(t)

		res := tr.send(http.MethodPost, tr.path+"/tags", tagForm(signers[0])).status(http.StatusCreated)
		id := tagIDPattern.FindStringSubmatch(res.Body.String())[1]
		if v := versionIn(t, res); v != 1 {
			t.Fatalf("a placed tag is at version %d", v)
		}
		other := tr.add(t, tagForm(signers[1], "x", "300"))

		// Window A moves it (against version 1): version 2.
		res = tr.send(http.MethodPut, tr.path+"/tags/"+id, tagForm(signers[0], "x", "90", "version", "1")).status(http.StatusOK)
		if v := versionIn(t, res); v != 2 {
			t.Fatalf("after a move: version %d", v)
		}
		// Window B still holds version 1: its resize is refused, with the tag now.
		before := storedTags(t, env, tr.room.TransactionID)
		p := tr.send(http.MethodPut, tr.path+"/tags/"+id, tagForm(signers[0], "width", "200", "version", "1")).problem(http.StatusConflict)
		hasError(t, p, "#/version", "tag_changed")
		if len(p.CurrentTags) != 1 || p.CurrentTags[0].ID != id || p.CurrentTags[0].Version != 2 || p.CurrentTags[0].X != 90 || p.CurrentTags[0].Width != 144 {
			t.Fatalf("current tags: %+v", p.CurrentTags)
		}
		// Its delete too.
		p = tr.send(http.MethodDelete, tr.path+"/tags/"+id+"?version=1", nil).problem(http.StatusConflict)
		hasError(t, p, "#/version", "tag_changed")
		// And a batch naming it: all or nothing, the other tag's move not written either.
		res = tr.batch(obj{"update": []obj{batchTag(signers[1], "id", other, "x", 320, "version", 1), batchTag(signers[0], "id", id, "version", 1)}})
		p = res.problem(http.StatusConflict)
		hasError(t, p, "#/update/1/version", "tag_changed")
		p = tr.batch(obj{"delete": []any{obj{"id": id, "version": 1}}}).problem(http.StatusConflict)
		hasError(t, p, "#/delete/0", "tag_changed")
		if after := storedTags(t, env, tr.room.TransactionID); !reflect.DeepEqual(after, before) {
			t.Fatalf("a refused edit changed tags: %+v → %+v", before, after)
		}
		// In the room's language (the detail is the catalog's).
		req := tr.send(http.MethodPut, tr.path+"/tags/"+id, tagForm(signers[0], "version", "1"))
		if req.Code != http.StatusConflict {
			t.Fatalf("stale update: %d", req.Code)
		}

		// A page move changes the tags on the pages it moves: version 2 is stale now.
		tr.send(http.MethodPost, tr.path+"/documents/0/pages/2/move", url.Values{"to": {"1"}}).status(http.StatusOK)
		p = tr.send(http.MethodPut, tr.path+"/tags/"+id, tagForm(signers[0], "page", "1", "version", "2")).problem(http.StatusConflict)
		if now := p.CurrentTags[0]; now.Page != 1 || now.Version <= 2 {
			t.Fatalf("after the page move: %+v", now)
		}
		v := p.CurrentTags[0].Version

		// The current version goes through; so does an edit naming none.
		tr.batch(obj{"update": []obj{batchTag(signers[0], "id", id, "page", 1, "version", v)}}).status(http.StatusOK)
		tr.send(http.MethodPut, tr.path+"/tags/"+id, tagForm(signers[0], "page", "1")).status(http.StatusOK)
		stored := storedTags(t, env, tr.room.TransactionID)[id]
		tr.send(http.MethodDelete, tr.path+"/tags/"+id+"?version="+strconv.Itoa(stored.Version), nil).status(http.StatusOK)

		// A version that is not one: 400.
		p = tr.send(http.MethodDelete, tr.path+"/tags/"+other+"?version=x", nil).problem(http.StatusBadRequest)
		hasError(t, p, "#/version", "invalid_version")
	})
}

// TestARoomChangeKeepsTheVersionsOfTagsItDoesNotChange: renaming a
// participant rewrites the transaction through the replace path; the tags
// it does not change keep their versions (a window holding them is not
// refused), and the API's whole replace gives every tag a version past any
// it had.
func TestARoomChangeKeepsTheVersionsOfTagsItDoesNotChange(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		tr := openTagRoom(t, s, tenant, nil)
		signers := tr.participantIDs(t)
		id := tr.add(t, tagForm(signers[0]))
		tr.send(http.MethodPut, tr.path+"/tags/"+id, tagForm(signers[0], "x", "80")).status(http.StatusOK)
		if v := storedTags(t, env, tr.room.TransactionID)[id].Version; v != 2 {
			t.Fatalf("version %d after one change", v)
		}
		// A participant removal goes through the replace path: the tag of the other participant is unchanged.
		keep := tr.add(t, tagForm(signers[1], "x", "300"))
		tr.b.post(tr.path+"/participants/"+url.PathEscape(signers[1])+"/remove", url.Values{"csrf": {tr.csrf}}).status(http.StatusSeeOther)
		after := storedTags(t, env, tr.room.TransactionID)
		if after[id].Version != 2 {
			t.Fatalf("an unchanged tag's version moved: %d", after[id].Version)
		}
		if k, ok := after[keep]; ok && k.SignerID == "" && k.Version != 2 {
			t.Fatalf("the tag whose participant went: version %d, want 2", k.Version)
		}

		// The API's replace: every tag it writes is past the versions a window may hold.
		var tx map[string]any
		s.do(api(http.MethodGet, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, nil)).status(http.StatusOK).json(&tx)
		if res := s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+tr.room.TransactionID, tr.token, tx)); res.Code/100 != 2 {
			t.Fatalf("the API's replace: %d %s", res.Code, res.Body.String())
		}
		for tagID, row := range storedTags(t, env, tr.room.TransactionID) {
			if row.Version <= 2 {
				t.Errorf("tag %s at version %d after the API's replace", tagID, row.Version)
			}
		}
	})
}
