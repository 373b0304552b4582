package handlers_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// newRoomFile is a PDF the console form uploads.
type newRoomFile struct {
	name    string
	content []byte
}

// postNewRoom posts the console's "New Markup Room" form as a browser does:
// multipart, the text fields (CSRF token first) before the files.
func postNewRoom(b *browser, fields [][2]string, files ...newRoomFile) *response {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, f := range fields {
		_ = mw.WriteField(f[0], f[1])
	}
	if len(files) == 0 {
		fw, _ := mw.CreateFormFile("files", "") // the file input left empty
		_, _ = fw.Write(nil)
	}
	for _, f := range files {
		fw, _ := mw.CreateFormFile("files", f.name)
		_, _ = fw.Write(f.content)
	}
	_ = mw.Close()
	req := httptest.NewRequest(http.MethodPost, "/admin/rooms/new", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return b.do(req)
}

// roomFlagsOn are the form's boxes for every flag but those named.
func roomFlagsOn(off ...string) [][2]string {
	var out [][2]string
	for _, a := range models.RoomActions() {
		if !contains(off, string(a)) {
			out = append(out, [2]string{string(a), "true"})
		}
	}
	out = append(out, [2]string{"documents.detectTags", "true"})
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

var newRoomURLPattern = regexp.MustCompile(`data-new-room-url>([^<]+)<`)

// rowCounts counts the rows a refused room must not have written.
func rowCounts(t *testing.T, env *modelstest.Env) [3]int64 {
	t.Helper()
	var n [3]int64
	for i, table := range []string{"documents", "transactions", "markup_rooms"} {
		if err := env.DB.DB.Table(table).Count(&n[i]).Error; err != nil {
			t.Fatal(err)
		}
	}
	return n
}

func TestAdminNewRoomFormFollowsTheOrganization(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		a := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Globex")
		newAdmin(t, env, a.Org.ID, "ada@example.com")
		d := s.upload(a.Token)
		od := s.upload(other.Token)
		tpl, _ := s.createTemplate(a.Token, templatePayload(d))
		otherTpl, _ := s.createTemplate(other.Token, templatePayload(od))
		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")

		rooms := b.get("/admin/rooms").status(http.StatusOK).Body.String()
		if !strings.Contains(rooms, `href="/admin/rooms/new" data-new-room`) {
			t.Fatal("the rooms page has no New Markup Room button")
		}
		first := b.get("/admin/rooms/new").status(http.StatusOK).Body.String()
		if !strings.Contains(first, `id="new-room-org"`) || strings.Contains(first, "data-new-room-form") {
			t.Fatal("before an organization is chosen the form offers only the organization")
		}
		page := b.get("/admin/rooms/new?org=" + itoa64(a.Org.ID)).status(http.StatusOK).Body.String()
		for _, want := range []string{"data-new-room-form", `value="` + itoa64(a.Sender.ID) + `"`, `data-recent-document="` + d.ID + `"`,
			"3 pages", `value="` + tpl["id"].(string) + `"`, `name="idv.kba" value="true" checked`, `name="documents.detectTags" value="true" checked`} {
			if !strings.Contains(page, want) {
				t.Errorf("the form for Acme lacks %s", want)
			}
		}
		for _, leak := range []string{other.Sender.Email, od.ID, otherTpl["id"].(string)} {
			if strings.Contains(page, leak) {
				t.Errorf("the form for Acme offers Globex's %s", leak)
			}
		}
		b.get("/admin/rooms/new?org=999999").status(http.StatusOK)
		b.get("/admin/rooms/new?org=x").status(http.StatusOK)
	})
}

func TestAdminCreatesARoomAndShowsItsURLOnce(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		a := env.NewTenant(t, "Acme")
		newAdmin(t, env, a.Org.ID, "ada@example.com")
		picked := s.upload(a.Token)
		tpl, _ := s.createTemplate(a.Token, templatePayload(picked))
		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")

		fields := [][2]string{{"csrf", token}, {"org", itoa64(a.Org.ID)}, {"sender", itoa64(a.Sender.ID)}, {"document", picked.ID},
			{"template", tpl["id"].(string)},
			{"firstName", "Pat"}, {"lastName", "Buyer"}, {"email", "pat@example.com"},
			{"firstName", "Robin"}, {"lastName", "Seller"}, {"email", "robin@example.com"},
			{"firstName", ""}, {"lastName", ""}, {"email", ""}}
		fields = append(fields, roomFlagsOn("documents.advancedEdit", "idv.kba")...)
		res := postNewRoom(b, fields, newRoomFile{"Addendum.pdf", pdftest.ThreePages(t)}).status(http.StatusSeeOther)
		loc := res.Header().Get("Location")
		id := strings.TrimSuffix(strings.TrimPrefix(loc, "/admin/rooms/"), "/created")
		if !strings.HasPrefix(loc, "/admin/rooms/") || id == "" {
			t.Fatalf("created room at %q", loc)
		}
		// A second room made before the first's page was seen (another tab): each URL is shown once.
		second := postNewRoom(b, fields).status(http.StatusSeeOther).Header().Get("Location")
		if second == loc || !newRoomURLPattern.MatchString(b.get(second).status(http.StatusOK).Body.String()) {
			t.Fatalf("the second room's page (%s) does not show its URL", second)
		}
		shown := b.get(loc).status(http.StatusOK).Body.String()
		m := newRoomURLPattern.FindStringSubmatch(shown)
		if m == nil || !strings.HasPrefix(m[1], testBaseURL+"/markup-room/mrr") {
			t.Fatalf("the page does not show the room's URL:\n%s", truncate(shown))
		}
		for _, want := range []string{`data-copy="#new-room-url"`, "data-room-expires", `href="/admin/transactions/`} {
			if !strings.Contains(shown, want) {
				t.Errorf("the created page lacks %s", want)
			}
		}
		again := b.get(loc).status(http.StatusOK).Body.String()
		if strings.Contains(again, "/markup-room/") || !strings.Contains(again, "data-room-url-gone") {
			t.Fatal("a reload shows the room's URL again")
		}

		// The room is operation B's: its config, documents, participants and template.
		var room roomResp
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+id, a.Token, nil)).status(http.StatusOK).json(&room)
		if room.Config.Documents["advancedEdit"] || room.Config.IDV["kba"] || !room.Config.Documents["edit"] || !room.Config.Templates["apply"] || room.SenderID != itoa64(a.Sender.ID) {
			t.Fatalf("room config %+v", room)
		}
		var tx struct {
			Documents []struct {
				Title string
				Tags  []obj
			}
			Participants []struct{ FirstName, Email string }
		}
		s.do(api(http.MethodGet, "/api/v1/transactions/"+room.TransactionID, a.Token, nil)).status(http.StatusOK).json(&tx)
		if len(tx.Documents) != 2 || len(tx.Participants) != 2 || tx.Participants[1].Email != "robin@example.com" {
			t.Fatalf("transaction %+v", tx)
		}
		if len(tx.Documents[0].Tags)+len(tx.Documents[1].Tags) != 3 { // the template's tags
			t.Fatalf("template tags: %+v", tx.Documents)
		}
		events, _ := history(t, env, a.Org.ID, room.TransactionID)
		if len(events) == 0 || !strings.Contains(events[0].Actor, "Admin ada@example.com") {
			t.Fatalf("history actor: %+v", events)
		}
		// The URL opens the room with its participants.
		rb := s.browser()
		html := rb.get(rb.open(m[1])).status(http.StatusOK).Body.String()
		if !strings.Contains(html, "Robin Seller") {
			t.Fatal("the room does not show its participants")
		}
	})
}

func TestAdminNewRoomRefusalsKeepTheFormAndWriteNothing(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		a := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Globex")
		newAdmin(t, env, a.Org.ID, "ada@example.com")
		od := s.upload(other.Token)
		otherTpl, _ := s.createTemplate(other.Token, templatePayload(od))
		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")
		base := [][2]string{{"csrf", token}, {"org", itoa64(a.Org.ID)}}
		before := rowCounts(t, env)

		// A bad e-mail and a duplicate: each beside its row, the values kept, the upload not saved.
		fields := append(append([][2]string{}, base...), [2]string{"sender", itoa64(a.Sender.ID)},
			[2]string{"firstName", "Pat"}, [2]string{"lastName", "Buyer"}, [2]string{"email", "pat@example"},
			[2]string{"firstName", "Robin"}, [2]string{"lastName", "Seller"}, [2]string{"email", "robin@example.com"},
			[2]string{"firstName", "Robin"}, [2]string{"lastName", "Twice"}, [2]string{"email", "ROBIN@example.com"},
			[2]string{"participants.add", "true"})
		page := postNewRoom(b, fields, newRoomFile{"Contract.pdf", pdftest.ThreePages(t)}).status(http.StatusUnprocessableEntity).Body.String()
		for _, want := range []string{`value="Pat"`, `value="pat@example"`, `value="Twice"`, `id="new-room-error-0"`, `id="new-room-error-2"`,
			`aria-describedby="new-room-error-0"`, `name="participants.add" value="true" checked`, `name="idv.kba" value="true" data-room-flag`} {
			if !strings.Contains(page, want) {
				t.Errorf("the refused form lacks %s", want)
			}
		}
		if strings.Contains(page, `id="new-room-error-1"`) {
			t.Error("the valid row is marked wrong")
		}
		// Another organization's document, template and sender cannot be picked.
		fields = append(append([][2]string{}, base...), [2]string{"sender", itoa64(other.Sender.ID)}, [2]string{"document", od.ID},
			[2]string{"firstName", "Pat"}, [2]string{"lastName", "Buyer"}, [2]string{"email", "pat@example.com"})
		page = postNewRoom(b, fields).status(http.StatusUnprocessableEntity).Body.String()
		if !strings.Contains(page, `id="new-room-sender-error"`) {
			t.Error("Globex's sender was accepted")
		}
		fields = append(append([][2]string{}, base...), [2]string{"sender", itoa64(a.Sender.ID)}, [2]string{"document", od.ID},
			[2]string{"template", otherTpl["id"].(string)}, [2]string{"firstName", "Pat"}, [2]string{"lastName", "Buyer"}, [2]string{"email", "pat@example.com"})
		page = postNewRoom(b, fields).status(http.StatusUnprocessableEntity).Body.String()
		if !strings.Contains(page, `id="new-room-template-error"`) {
			t.Error("Globex's template was accepted")
		}
		fields = append(append([][2]string{}, base...), [2]string{"sender", itoa64(a.Sender.ID)}, [2]string{"document", od.ID},
			[2]string{"firstName", "Pat"}, [2]string{"lastName", "Buyer"}, [2]string{"email", "pat@example.com"})
		page = postNewRoom(b, fields, newRoomFile{"Contract.pdf", pdftest.ThreePages(t)}).status(http.StatusUnprocessableEntity).Body.String()
		if !strings.Contains(page, `id="new-room-documents-error"`) || !strings.Contains(page, "not a valid PDF uploaded by this organization") {
			t.Error("Globex's document was accepted")
		}
		// A file that is no PDF is refused like the API's upload.
		page = postNewRoom(b, fields[:len(fields)-4], newRoomFile{"notes.pdf", []byte("plain text")}).status(http.StatusUnprocessableEntity).Body.String()
		if !strings.Contains(page, `id="new-room-files-error"`) || !strings.Contains(page, "notes.pdf: ") {
			t.Error("a file that is no PDF was accepted")
		}
		if after := rowCounts(t, env); after != before {
			t.Fatalf("refused rooms wrote rows: %v → %v", before, after)
		}
		// "Add a participant" shows one more row and creates nothing.
		fields = append(append([][2]string{}, base...), [2]string{"firstName", "Pat"}, [2]string{"lastName", "Buyer"}, [2]string{"email", "pat@example.com"}, [2]string{"add", "participant"})
		page = postNewRoom(b, fields).status(http.StatusOK).Body.String()
		if !strings.Contains(page, `id="new-room-first-1"`) || !strings.Contains(page, `value="Pat"`) || strings.Contains(page, "data-field-error") {
			t.Error("adding a row")
		}
		// The CSRF token is checked before any file is read.
		postNewRoom(b, [][2]string{{"csrf", "forged"}, {"org", itoa64(a.Org.ID)}}, newRoomFile{"Contract.pdf", pdftest.ThreePages(t)}).status(http.StatusForbidden)
		if after := rowCounts(t, env); after != before {
			t.Fatalf("rows written: %v → %v", before, after)
		}
	})
}

func TestAdminNewRoomChoosesTheRoomsLanguage(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		a := env.NewTenant(t, "Acme")
		newAdmin(t, env, a.Org.ID, "ada@example.com")
		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")

		// The field: the browser's language first, then each language by its own name.
		page := b.get("/admin/rooms/new?org=" + itoa64(a.Org.ID)).status(http.StatusOK).Body.String()
		for _, want := range []string{`<select class="select" id="new-room-locale" name="locale">`, `<option value="" selected>— browser&#39;s language —</option>`,
			`<option value="es" lang="es">Español</option>`, `<option value="ar" lang="ar">العربية</option>`} {
			if !strings.Contains(page, want) {
				t.Errorf("the form lacks %s", want)
			}
		}
		fields := func(locale string) [][2]string {
			return [][2]string{{"csrf", token}, {"org", itoa64(a.Org.ID)}, {"sender", itoa64(a.Sender.ID)}, {"locale", locale},
				{"firstName", "Pat"}, {"lastName", "Buyer"}, {"email", "pat@example.com"}}
		}
		// A language the product does not speak: refused beside the field, kept, nothing written.
		before := rowCounts(t, env)
		page = postNewRoom(b, fields("pt")).status(http.StatusUnprocessableEntity).Body.String()
		for _, want := range []string{`id="new-room-locale-error"`, `aria-invalid="true" aria-describedby="new-room-locale-error"`, `&#34;pt&#34; is not allowed here`} {
			if !strings.Contains(page, want) {
				t.Errorf("the refused form lacks %s", want)
			}
		}
		if after := rowCounts(t, env); after != before {
			t.Fatalf("a refused room wrote rows: %v → %v", before, after)
		}
		// A chosen language is the room's, stored canonical, and kept when the form comes back.
		loc := postNewRoom(b, fields("FR")).status(http.StatusSeeOther).Header().Get("Location")
		id := strings.TrimSuffix(strings.TrimPrefix(loc, "/admin/rooms/"), "/created")
		var room struct{ Locale string }
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+id, a.Token, nil)).status(http.StatusOK).json(&room)
		if room.Locale != "fr" {
			t.Fatalf("the room's locale is %q", room.Locale)
		}
		page = postNewRoom(b, append(fields("de"), [2]string{"add", "participant"})).status(http.StatusOK).Body.String()
		if !strings.Contains(page, `<option value="de" lang="de" selected>Deutsch</option>`) {
			t.Error("the form forgets its language")
		}
		// None chosen: no locale.
		loc = postNewRoom(b, fields("")).status(http.StatusSeeOther).Header().Get("Location")
		id = strings.TrimSuffix(strings.TrimPrefix(loc, "/admin/rooms/"), "/created")
		var plain map[string]any
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+id, a.Token, nil)).status(http.StatusOK).json(&plain)
		if l, ok := plain["locale"]; ok && l != nil {
			t.Fatalf("a room without a language has locale %v", l)
		}
	})
}

// The console's New Markup Room makes embedded rooms too (issue 40, item
// 3): it offers the organization's allowed origins, the room is made for
// the one chosen, and an origin off the list is refused beside its field
// with operation B's rule, nothing written; an organization that allows
// none says where the list is set.
func TestAdminNewRoomMakesEmbeddedRooms(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		a := env.NewTenant(t, "Acme")
		newAdmin(t, env, a.Org.ID, "ada@example.com")
		b, token := adminSignIn(t, s, "ada@example.com", "correct horse")
		form := "/admin/rooms/new?org=" + itoa64(a.Org.ID)

		page := b.get(form).status(http.StatusOK).Body.String()
		if !strings.Contains(page, "data-embed-none") || !strings.Contains(page, `href="/admin/organizations/`+itoa64(a.Org.ID)+`"`) ||
			strings.Contains(page, `name="embedOrigin"`) {
			t.Fatal("an organization without origins does not say where they are set")
		}
		if _, err := env.Store.SetOrganizationEmbedOrigins(t.Context(), a.Org.ID, []string{"https://app.acme.example", "https://staff.acme.example"}); err != nil {
			t.Fatal(err)
		}
		page = b.get(form).status(http.StatusOK).Body.String()
		for _, want := range []string{`name="embedOrigin" data-embed-origin>`, `<option value="" selected>Not embedded: opened by its link</option>`,
			`<option value="https://app.acme.example" dir="ltr">https://app.acme.example</option>`,
			`<option value="https://staff.acme.example" dir="ltr">https://staff.acme.example</option>`} {
			if !strings.Contains(page, want) {
				t.Errorf("the form lacks %s", want)
			}
		}
		fields := func(origin string) [][2]string {
			return [][2]string{{"csrf", token}, {"org", itoa64(a.Org.ID)}, {"sender", itoa64(a.Sender.ID)}, {"embedOrigin", origin},
				{"firstName", "Pat"}, {"lastName", "Buyer"}, {"email", "pat@example.com"}}
		}
		before := rowCounts(t, env)
		for _, refused := range []string{"https://evil.example", "http://app.acme.example", "https://app.acme.example/path"} {
			page = postNewRoom(b, fields(refused)).status(http.StatusUnprocessableEntity).Body.String()
			if !strings.Contains(page, `id="new-room-embed-error"`) || !strings.Contains(page, `aria-invalid="true" aria-describedby="new-room-embed-error"`) {
				t.Errorf("%s: no problem beside the field", refused)
			}
		}
		if !strings.Contains(page, `<option value="https://app.acme.example/path" dir="ltr" selected>`) {
			t.Error("a refused origin is not shown as sent")
		}
		if after := rowCounts(t, env); after != before {
			t.Fatalf("a refused room wrote rows: %v → %v", before, after)
		}

		loc := postNewRoom(b, fields("https://staff.acme.example")).status(http.StatusSeeOther).Header().Get("Location")
		id := strings.TrimSuffix(strings.TrimPrefix(loc, "/admin/rooms/"), "/created")
		var room struct {
			Embed *struct{ Origin string } `json:"embed"`
		}
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+id, a.Token, nil)).status(http.StatusOK).json(&room)
		if room.Embed == nil || room.Embed.Origin != "https://staff.acme.example" {
			t.Fatalf("the room's embed: %+v", room.Embed)
		}
		if page := b.get(loc).status(http.StatusOK).Body.String(); !strings.Contains(page, `<bdi dir="ltr" data-room-embed-origin>https://staff.acme.example</bdi>`) {
			t.Error("the created room's page does not name its origin")
		}
		loc = postNewRoom(b, fields("")).status(http.StatusSeeOther).Header().Get("Location")
		id = strings.TrimSuffix(strings.TrimPrefix(loc, "/admin/rooms/"), "/created")
		var plain map[string]any
		s.do(api(http.MethodGet, "/api/v1/markup-rooms/"+id, a.Token, nil)).status(http.StatusOK).json(&plain)
		if _, ok := plain["embed"]; ok {
			t.Fatalf("a room not embedded has embed %v", plain["embed"])
		}
	})
}

// Recent uploads of one name are told apart (issue 40, item 3): each row
// says its pages, size, upload time and short id, and its title is data
// isolated from the page's direction.
func TestAdminNewRoomTellsSameNamedUploadsApart(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		a := env.NewTenant(t, "Acme")
		newAdmin(t, env, a.Org.ID, "ada@example.com")
		first, second := s.upload(a.Token), s.upload(a.Token)
		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		page := b.get("/admin/rooms/new?org=" + itoa64(a.Org.ID)).status(http.StatusOK).Body.String()
		rows := regexp.MustCompile(`(?s)data-recent-document="([^"]+)".*?<bdi class="admin-new-room__recent-title" dir="auto">([^<]*)</bdi>\s*<span class="muted small" data-recent-facts>(.*?)</span>`).FindAllStringSubmatch(page, -1)
		if len(rows) != 2 {
			t.Fatalf("%d recent rows", len(rows))
		}
		kb := strconv.Itoa(int((first.SizeBytes + 1023) / 1024))
		facts := map[string]string{}
		for _, r := range rows {
			facts[r[1]] = strings.Join(strings.Fields(r[3]), " ")
			if r[2] != "contract" {
				t.Errorf("row title %q", r[2])
			}
		}
		for _, d := range []uploadedDoc{first, second} {
			f := facts[d.ID]
			if !strings.HasPrefix(f, "3 pages · "+kb+" KB · <time datetime=") || !strings.HasSuffix(f, ` UTC</time> · id <code dir="ltr">`+d.ID[len(d.ID)-8:]+`</code>`) {
				t.Errorf("the row of %s says %q", d.ID, f)
			}
		}
		if facts[first.ID] == facts[second.ID] {
			t.Error("two uploads of one name read the same")
		}
	})
}
