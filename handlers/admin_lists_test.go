package handlers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/modelstest"
)

// tableRow is the HTML of the table row that starts with attr="id".
func tableRow(t *testing.T, page, attr, id string) string {
	t.Helper()
	i := strings.Index(page, `<tr `+attr+`="`+id+`"`)
	if i < 0 {
		t.Fatalf("no row %s=%q", attr, id)
	}
	return page[i : i+strings.Index(page[i:], "</tr>")]
}

// visibleText drops the tags and attributes of html, leaving what a reader sees.
func visibleText(html string) string {
	var b strings.Builder
	in := false
	for _, r := range html {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
			b.WriteByte(' ')
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func TestAdminListsNameDocumentsPeopleAndOneShortID(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		s := newServer(t, env)
		acme := env.NewTenant(t, "Acme")
		newAdmin(t, env, acme.Org.ID, "ada@example.com")

		// A room made without a referenceId (it becomes the room's id) and two documents.
		body := roomBody(acme, s.upload(acme.Token))
		body["documents"] = arr{body["documents"].(arr)[0], s.upload(acme.Token).Location}
		plain := s.createRoom(acme.Token, body)
		// A room whose caller set a referenceId.
		withRef := roomBody(acme, s.upload(acme.Token))
		withRef["referenceId"] = "CRM-42"
		named := s.createRoom(acme.Token, withRef)
		// A transaction made through the API alone.
		var tx struct {
			ID string `json:"id"`
		}
		s.do(jsonReq(http.MethodPost, "/api/v1/transactions", acme.Token, txPayload(s.upload(acme.Token), "deal-7"))).status(http.StatusCreated).json(&tx)

		// Sent for signing three days later; the list is read two hours after that.
		env.Clock.Advance(72 * time.Hour)
		sent := txPayload(s.upload(acme.Token), "deal-7")
		sent["status"] = "esign_pending"
		s.do(jsonReq(http.MethodPut, "/api/v1/transactions/"+tx.ID, acme.Token, sent)).status(http.StatusCreated)
		env.Clock.Advance(2 * time.Hour)

		b, _ := adminSignIn(t, s, "ada@example.com", "correct horse")
		page := b.get("/admin/transactions").status(http.StatusOK).Body.String()

		row := tableRow(t, page, "data-transaction-id", plain.TransactionID)
		text := visibleText(row)
		for _, want := range []string{"contract", "1 more", "Sam Sender", "Pat Buyer, Robin Seller", "draft 3 d", "3 d ago", plain.TransactionID[len(plain.TransactionID)-8:], "Acme"} {
			if !strings.Contains(text, want) {
				t.Errorf("room transaction's row %q lacks %q", text, want)
			}
		}
		if strings.Contains(row, "data-reference-id") || strings.Contains(row, plain.ID) {
			t.Errorf("the row shows the room's id as a reference: %s", row)
		}
		if strings.Contains(text, plain.TransactionID) {
			t.Errorf("the row shows the whole id: %q", text)
		}
		if !strings.Contains(row, `data-copy-text="`+plain.TransactionID+`"`) {
			t.Errorf("no copy button with the whole id: %s", row)
		}

		text = visibleText(tableRow(t, page, "data-transaction-id", named.TransactionID))
		if !strings.Contains(text, "Ref. CRM-42") || strings.Contains(text, "more") {
			t.Errorf("the caller's referenceId is not shown, or a lone document has more: %q", text)
		}

		text = visibleText(tableRow(t, page, "data-transaction-id", tx.ID))
		for _, want := range []string{"Purchase Agreement", "Ref. deal-7", "Pat Q Buyer, Robin Seller", "esign_pending 2 h", "2 h ago"} {
			if !strings.Contains(text, want) {
				t.Errorf("API transaction's row %q lacks %q", text, want)
			}
		}
		if strings.Contains(text, "Sam Sender") {
			t.Errorf("an API transaction names a room sender: %q", text)
		}

		// A transaction's page headlines its first document, shows one short id
		// with its copy button, and a reference only when the caller set one.
		head := func(id string) string {
			page := b.get("/admin/transactions/" + id).status(http.StatusOK).Body.String()
			i := strings.Index(page, `class="admin-page__head"`)
			return page[i : i+strings.Index(page[i:], "</div>")]
		}
		h := head(plain.TransactionID)
		if text := visibleText(h); !strings.Contains(text, "contract") || !strings.Contains(text, "+ 1 more") ||
			strings.Contains(text, plain.ID) || strings.Contains(text, plain.TransactionID) || strings.Contains(h, "data-reference-id") {
			t.Errorf("room transaction's page head: %q", text)
		}
		if !strings.Contains(h, `data-copy-text="`+plain.TransactionID+`"`) {
			t.Errorf("no copy button with the whole id: %s", h)
		}
		if text := visibleText(head(named.TransactionID)); !strings.Contains(text, "reference CRM-42") {
			t.Errorf("the caller's referenceId is not on its page: %q", text)
		}

		rooms := b.get("/admin/rooms").status(http.StatusOK).Body.String()
		text = visibleText(tableRow(t, rooms, "data-room-id", plain.ID))
		for _, want := range []string{"contract", "Sam Sender", "expired", plain.ID[len(plain.ID)-8:], "UTC"} {
			if !strings.Contains(text, want) {
				t.Errorf("room's row %q lacks %q", text, want)
			}
		}
		if strings.Contains(text, plain.ID) || strings.Contains(text, plain.TransactionID) {
			t.Errorf("the room's row shows a whole id: %q", text)
		}
	})
}
