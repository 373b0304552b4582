package models_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// suggestionRoom creates a room (one participant) on the corpus document
// name and returns it.
func suggestionRoom(t *testing.T, env *modelstest.Env, name, config string) (*models.Room, *modelstest.Tenant) {
	t.Helper()
	tenant := env.NewTenant(t, "Acme")
	d := env.UploadPDF(t, tenant.Org.ID, corpusDoc(t, name).PDF, name)
	return createRoomOn(t, env, tenant, d.ID, config), tenant
}

// createRoomOn creates a room of the tenant on document docID, with one
// participant (Pat Buyer) and the given config JSON.
func createRoomOn(t *testing.T, env *modelstest.Env, tenant *modelstest.Tenant, docID, config string) *models.Room {
	t.Helper()
	ctx := context.Background()
	p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
	if err != nil {
		t.Fatal(err)
	}
	in, err := models.ParseRoomInput([]byte(`{"senderId": "` + strconv.FormatInt(tenant.Sender.ID, 10) + `", "documents": ["` + docID + `"],` +
		` "participants": [{"firstName": "Pat", "lastName": "Buyer", "email": "pat@example.com"}], "config": ` + config + `}`))
	if err != nil {
		t.Fatal(err)
	}
	created, err := env.Store.CreateRoom(ctx, p.Actor(), in)
	if err != nil {
		t.Fatal(err)
	}
	return created.Room
}

// offered returns the suggested fields the room offers on its first document.
func offered(t *testing.T, env *modelstest.Env, roomID string) []models.RoomSuggestion {
	t.Helper()
	ws, err := env.Store.RoomWorkspace(context.Background(), roomID)
	if err != nil {
		t.Fatal(err)
	}
	return ws.Suggestions[0]
}

func refOf(s models.RoomSuggestion) models.SuggestionRef {
	return models.SuggestionRef{DocumentPosition: 0, Page: s.Page, Key: s.Key}
}

// A room offers its document's suggested fields (not placed); a dismissed one
// is no longer offered and comes back when restored; a dismissal naming no
// suggestion of the page is refused whole; with detectTags false nothing is offered.
func TestARoomOffersSuggestedFieldsUntilDismissed(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room, _ := suggestionRoom(t, env, "agreement-lines-below", `{}`)
		all := offered(t, env, room.ID)
		if len(all) != 8 {
			t.Fatalf("%d suggestions offered, want the corpus file's 8", len(all))
		}
		keys := map[string]bool{}
		for _, s := range all {
			k := strconv.Itoa(s.Page) + "/" + s.Key
			if keys[k] {
				t.Fatalf("two suggestions share the key %s", k)
			}
			keys[k] = true
		}
		ws, _ := env.Store.RoomWorkspace(ctx, room.ID)
		if n := len(ws.Transaction.Documents[0].Tags); n != 0 {
			t.Fatalf("the room placed %d tags; suggestions are only offered", n)
		}

		if err := env.Store.DecideRoomSuggestions(ctx, room.ID, &models.SuggestionDecisions{Dismiss: []models.SuggestionRef{refOf(all[0]), refOf(all[5])}}); err != nil {
			t.Fatal(err)
		}
		left := offered(t, env, room.ID)
		if len(left) != 6 || left[0].Key != all[1].Key {
			t.Fatalf("after dismissing two: %d offered, first %q", len(left), left[0].Key)
		}
		// Dismissing again changes nothing; a bad entry refuses the whole request.
		bad := refOf(all[1])
		bad.Key = "SIGNATURETEMPLATE@1,2,3,4"
		err := env.Store.DecideRoomSuggestions(ctx, room.ID, &models.SuggestionDecisions{Dismiss: []models.SuggestionRef{refOf(all[0]), refOf(all[1]), bad}})
		var ve *models.ValidationError
		if !errors.As(err, &ve) || ve.Kind != models.KindNotFound || ve.Errors[0].Pointer != "#/dismiss/2" || ve.Errors[0].Code != "unknown_suggestion" {
			t.Fatalf("a dismissal of no suggestion: %v", err)
		}
		if n := len(offered(t, env, room.ID)); n != 6 {
			t.Fatalf("a refused request changed the offer: %d", n)
		}
		err = env.Store.DecideRoomSuggestions(ctx, room.ID, &models.SuggestionDecisions{Dismiss: []models.SuggestionRef{{DocumentPosition: 3, Page: 1, Key: all[0].Key}}})
		if !errors.As(err, &ve) || ve.Errors[0].Pointer != "#/dismiss/0/documentPosition" {
			t.Fatalf("a dismissal on a document the room lacks: %v", err)
		}

		if err := env.Store.DecideRoomSuggestions(ctx, room.ID, &models.SuggestionDecisions{Restore: []models.SuggestionRef{refOf(all[5])}}); err != nil {
			t.Fatal(err)
		}
		if got := offered(t, env, room.ID); len(got) != 7 || got[4].Key != all[5].Key || got[4].Page != all[5].Page {
			t.Fatalf("after restoring one: %d offered", len(got))
		}

		for _, config := range []string{`{"documents": {"detectTags": false}}`, `{"documents": {"edit": false}}`} {
			off, _ := suggestionRoom(t, env, "agreement-lines-below", config)
			if n := len(offered(t, env, off.ID)); n != 0 {
				t.Fatalf("%s: %d suggestions offered", config, n)
			}
		}
		// Nor does a room that is no longer open.
		env.Clock.Advance(48 * time.Hour) // past the room's link: expired
		if n := len(offered(t, env, room.ID)); n != 0 {
			t.Fatalf("an expired room offers %d suggestions", n)
		}
	})
}

// A tag of a batch that names a suggestion records the label it came from
// in its customData; a key the page does not hold refuses the batch.
func TestAcceptingASuggestionRecordsItsLabel(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room, tenant := suggestionRoom(t, env, "boxes-right", `{}`)
		s := offered(t, env, room.ID)[0]
		body := func(page int, key string) []byte {
			b, _ := json.Marshal(map[string]any{"create": []map[string]any{{
				"documentPosition": 0, "type": s.Type, "page": page, "x": s.X, "y": s.Y, "width": s.Width, "height": s.Height, "suggestion": key,
			}}})
			return b
		}
		b, err := models.ParseTagBatch(body(s.Page, s.Key))
		if err != nil {
			t.Fatal(err)
		}
		res, err := env.Store.ApplyRoomTagBatch(ctx, room.ID, b)
		if err != nil {
			t.Fatal(err)
		}
		var cd struct{ DetectedFrom, DetectedText string }
		if err := json.Unmarshal(res.Created[0].Tag.CustomData, &cd); err != nil || cd.DetectedFrom != "label" || cd.DetectedText != s.Text {
			t.Fatalf("customData %s, want the label %q", res.Created[0].Tag.CustomData, s.Text)
		}
		tx, err := env.Store.GetTransaction(ctx, tenant.Org.ID, room.TransactionID)
		if err != nil || string(tx.Documents[0].Tags[0].CustomData) != string(res.Created[0].Tag.CustomData) {
			t.Fatalf("stored customData %s (%v)", tx.Documents[0].Tags[0].CustomData, err)
		}

		b, err = models.ParseTagBatch(body(s.Page, s.Key+"0"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = env.Store.ApplyRoomTagBatch(ctx, room.ID, b)
		var ve *models.ValidationError
		if !errors.As(err, &ve) || ve.Kind != models.KindUnprocessable || ve.Errors[0].Pointer != "#/create/0/suggestion" || ve.Errors[0].Code != "unknown_suggestion" {
			t.Fatalf("a batch naming no suggestion: %v", err)
		}
	})
}

// A page edit keeps the dismissals of the pages it keeps, on their new page
// numbers; the same blank on another page is a suggestion of its own.
func TestPageEditsKeepDismissals(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room, _ := suggestionRoom(t, env, "lease-initials", `{}`)
		all := offered(t, env, room.ID)
		byPage := map[int][]models.RoomSuggestion{}
		for _, s := range all {
			byPage[s.Page] = append(byPage[s.Page], s)
		}
		if len(byPage[1]) != 2 || len(byPage[2]) != 2 || len(byPage[3]) != 2 {
			t.Fatalf("suggestions by page: %d %d %d, want 2 each", len(byPage[1]), len(byPage[2]), len(byPage[3]))
		}
		gone := byPage[3][0]
		if err := env.Store.DecideRoomSuggestions(ctx, room.ID, &models.SuggestionDecisions{Dismiss: []models.SuggestionRef{refOf(gone)}}); err != nil {
			t.Fatal(err)
		}
		count := func(page int, key string) int {
			n := 0
			for _, s := range offered(t, env, room.ID) {
				if s.Page == page && s.Key == key {
					n++
				}
			}
			return n
		}
		if count(3, gone.Key) != 0 || (gone.Key == byPage[2][0].Key && count(2, gone.Key) != 1) {
			t.Fatal("a dismissal on page 3 was not applied to page 3 alone")
		}
		if _, err := env.Store.DeleteRoomPage(ctx, room.ID, 0, 1, ""); err != nil {
			t.Fatal(err)
		}
		if n := len(offered(t, env, room.ID)); n != 3 {
			t.Fatalf("after deleting page 1: %d offered, want 3 (page 1's two gone, one dismissed)", n)
		}
		if count(2, gone.Key) != 0 {
			t.Fatal("the dismissed suggestion of page 3 came back on page 2 after page 1 was deleted")
		}
		if _, err := env.Store.MoveRoomPage(ctx, room.ID, 0, 2, 1, ""); err != nil {
			t.Fatal(err)
		}
		if count(1, gone.Key) != 0 || len(offered(t, env, room.ID)) != 3 {
			t.Fatal("the dismissal did not follow its page when the page moved")
		}
	})
}
