package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// The console lists every organization's templates, searched by name,
// filtered by organization and state, and paged like its transactions.
func TestAdminTemplatesFilterSearchAndPage(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other Co")
		newAdmin(t, env, acme.Org.ID, "ada@example.com")
		d := s.upload(acme.Token)
		for i := 0; i < models.AdminPageSize; i++ {
			p := templatePayload(d)
			p["name"] = "Lease " + itoa64(int64(i))
			s.createTemplate(acme.Token, p)
		}
		p := templatePayload(s.upload(other.Token))
		p["name"] = "Findme 50%_off"
		target, _ := s.createTemplate(other.Token, p)
		id := target["id"].(string)

		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		rows := func(html string) int { return strings.Count(html, "data-template-id=") }
		page := b.get("/admin/templates").status(http.StatusOK).Body.String()
		if rows(page) != models.AdminPageSize || !strings.Contains(page, ">Next<") || strings.Contains(page, ">Previous<") {
			t.Fatalf("first page: %d rows", rows(page))
		}
		// The newest first, with its organization and counts: 2 documents,
		// 6 pages, 3 tags, 2 roles, 1 version, 0 uses, never used.
		row := page[strings.Index(page, `data-template-id="`+id+`"`):]
		row = row[:strings.Index(row, "</tr>")]
		for _, want := range []string{`href="/admin/templates/` + id + `"`, "Findme 50%_off", "Other Co",
			`<td class="num">2</td><td class="num">6</td><td class="num">3</td><td class="num">2</td><td class="num">1</td><td class="num">0</td>`, "Never"} {
			if !strings.Contains(row, want) {
				t.Errorf("the row lacks %q: %s", want, row)
			}
		}
		if !strings.Contains(page, `aria-current="page">Templates<`) {
			t.Error("the nav does not mark Templates")
		}
		i := strings.Index(page, `href="/admin/templates?after=`)
		next := page[i+6 : i+6+strings.Index(page[i+6:], `"`)]
		page2 := b.get(strings.ReplaceAll(next, "&amp;", "&")).status(http.StatusOK).Body.String()
		if rows(page2) != 1 || !strings.Contains(page2, ">Previous<") || strings.Contains(page2, ">Next<") {
			t.Fatalf("second page: %d rows", rows(page2))
		}
		for _, q := range []string{"FINDME", "50%_"} {
			res := b.get("/admin/templates?q=" + url.QueryEscape(q)).status(http.StatusOK).Body.String()
			if rows(res) != 1 || !strings.Contains(res, id) {
				t.Errorf("search %q: %d rows", q, rows(res))
			}
		}
		if got := rows(b.get("/admin/templates?q=%25off%25x").Body.String()); got != 0 {
			t.Errorf("a %% in the search matched %d rows", got)
		}
		if got := rows(b.get("/admin/templates?org=" + itoa64(other.Org.ID)).Body.String()); got != 1 {
			t.Errorf("org filter: %d rows", got)
		}
		archived := b.get("/admin/templates?status=archived").status(http.StatusOK).Body.String()
		if rows(archived) != 0 || !strings.Contains(archived, "No template matches") {
			t.Error("status filter or its empty state")
		}
		b.get("/admin/templates?status=bogus").status(http.StatusBadRequest)
		b.get("/admin/templates?org=x").status(http.StatusBadRequest)
	})
}

// A template's page draws its current version's tags on its pages,
// read-only, and lists its versions; "Restore" makes a new version by the
// admin and "Archive" takes it out of the API, each behind the console's
// CSRF token and recorded in the activity log.
func TestAdminTemplatePageRestoreAndArchive(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		tenant := env.NewTenant(t, "Acme")
		admin := newAdmin(t, env, tenant.Org.ID, "ada@example.com")
		d := s.upload(tenant.Token)
		created, etag := s.createTemplate(tenant.Token, templatePayload(d))
		id := created["id"].(string)
		changed := clone(created)
		changed["tags"] = arr{at(created, "tags", 0)}
		s.do(withHeader(jsonReq(http.MethodPut, "/api/v1/templates/"+id, tenant.Token, changed), "If-Match", etag)).status(http.StatusOK)
		path := "/admin/templates/" + id
		restore, archive := path+"/versions/1/restore", path+"/archive"

		s.browser().get(path).status(http.StatusSeeOther)
		s.browser().post(restore, url.Values{}).status(http.StatusUnauthorized)
		s.browser().post(archive, url.Values{}).status(http.StatusUnauthorized)
		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")
		page := b.get(path).status(http.StatusOK).Body.String()
		for _, want := range []string{"data-viewer", `data-tag-id="0-0"`, `data-signer-id="Buyer"`, `data-template-role="Seller"`,
			`data-template-version="1"`, `data-template-version="2"`, `action="` + restore + `"`, `action="` + archive + `"`,
			`data-content-url="` + path + `/documents/0/content?v=`, "Purchase agreement", ">active<"} {
			if !strings.Contains(page, want) {
				t.Errorf("template page lacks %q", want)
			}
		}
		if strings.Contains(page, "data-editable") || strings.Contains(page, `data-tag-id="1-1"`) || strings.Contains(page, path+"/versions/2/restore") {
			t.Error("the viewer is editable, shows version 1's tags, or offers to restore the current version")
		}
		if pdf := b.get(path + "/documents/1/content").status(http.StatusOK); pdf.Header().Get("Content-Type") != "application/pdf" {
			t.Fatal("no PDF for the viewer")
		}
		b.get(path + "/documents/2/content").status(http.StatusNotFound)
		b.get("/admin/templates/nope").status(http.StatusNotFound)

		// CSRF: a forged token changes nothing.
		b.post(restore, url.Values{"csrf": {"forged"}}).status(http.StatusForbidden)
		b.post(archive, url.Values{"csrf": {"forged"}}).status(http.StatusForbidden)
		var read obj
		s.do(api(http.MethodGet, "/api/v1/templates/"+id, tenant.Token, nil)).status(http.StatusOK).json(&read)
		if read["version"] != float64(2) {
			t.Fatalf("a forged form changed the template: %v", read["version"])
		}

		// Restore: version 3 equals version 1, made by the admin.
		b.post(path+"/versions/9/restore", url.Values{"csrf": {token}}).status(http.StatusNotFound)
		if loc := b.post(restore, url.Values{"csrf": {token}}).status(http.StatusSeeOther).Header().Get("Location"); !strings.HasPrefix(loc, path) {
			t.Fatalf("restore went to %q", loc)
		}
		s.do(api(http.MethodGet, "/api/v1/templates/"+id, tenant.Token, nil)).status(http.StatusOK).json(&read)
		if read["version"] != float64(3) {
			t.Fatalf("after restore: version %v", read["version"])
		}
		assertEchoes(t, created["tags"], read["tags"], "restored tags")
		var versions struct{ Items []obj }
		s.do(api(http.MethodGet, "/api/v1/templates/"+id+"/versions", tenant.Token, nil)).status(http.StatusOK).json(&versions)
		assertEchoes(t, obj{"version": 3, "restoredFrom": 1, "actor": obj{"kind": "admin", "id": itoa64(admin.ID)}}, versions.Items[0], "version 3")
		page = b.get(path).status(http.StatusOK).Body.String()
		if !strings.Contains(page, `data-tag-id="1-1"`) || !strings.Contains(page, "restored from 1") || !strings.Contains(page, "Admin ada@example.com (console)") {
			t.Error("the page does not show the restored version")
		}

		// Archive: gone from the API, kept in the console, no more changes.
		b.post(archive, url.Values{"csrf": {token}}).status(http.StatusSeeOther)
		s.do(api(http.MethodGet, "/api/v1/templates/"+id, tenant.Token, nil)).problem(http.StatusNotFound)
		page = b.get(path).status(http.StatusOK).Body.String()
		if !strings.Contains(page, ">archived<") || strings.Contains(page, "/restore\"") || strings.Contains(page, `action="`+archive+`"`) {
			t.Error("an archived template still offers Restore or Archive")
		}
		b.post(restore, url.Values{"csrf": {token}}).status(http.StatusConflict)
		b.post(archive, url.Values{"csrf": {token}}).status(http.StatusConflict)
		if got := b.get("/admin/templates?status=archived").Body.String(); !strings.Contains(got, `data-template-id="`+id+`"`) {
			t.Error("the archived template is not listed as archived")
		}

		// The activity log has one row for each change, by the admin.
		var log []models.Activity
		if err := env.DB.DB.Where("action IN ?", []string{models.ActivityRestore, models.ActivityArchive}).Order("id").Find(&log).Error; err != nil {
			t.Fatal(err)
		}
		if len(log) != 2 || log[0].Action != "restore" || log[1].Action != "archive" || *log[0].UserID != admin.ID ||
			!strings.Contains(log[0].Target, id) || !strings.Contains(log[0].Target, "version 1 restored as version 3") || !strings.Contains(log[1].Target, id) {
			t.Fatalf("activity rows: %+v", log)
		}
		activity := b.get("/admin/activity").status(http.StatusOK).Body.String()
		for _, want := range []string{">restore<", ">archive<", "Purchase agreement"} {
			if !strings.Contains(activity, want) {
				t.Errorf("activity page lacks %q", want)
			}
		}
	})
}
