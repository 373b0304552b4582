package models_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
)

// removalRoom is a room (documents.advancedEdit) on two documents with two
// participants, Pat and Robin, and tags for each on both documents.
func removalRoom(t *testing.T, env *modelstest.Env) *models.Room {
	t.Helper()
	ctx := context.Background()
	tenant := env.NewTenant(t, "Acme")
	a := env.UploadPDF(t, tenant.Org.ID, corpusDoc(t, "lease-initials").PDF, "Lease")
	b := env.UploadPDF(t, tenant.Org.ID, corpusDoc(t, "lease-initials").PDF, "Addendum")
	p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
	if err != nil {
		t.Fatal(err)
	}
	in, err := models.ParseRoomInput([]byte(`{"senderId": "` + strconv.FormatInt(tenant.Sender.ID, 10) + `", "documents": ["` + a.ID + `", "` + b.ID + `"],` +
		` "participants": [{"firstName": "Pat", "lastName": "Buyer", "email": "pat@example.com"}, {"firstName": "Robin", "lastName": "Seller", "email": "robin@example.com"}],` +
		` "config": {"documents": {"advancedEdit": true}, "authentication": {"personalPassword": true}}}`))
	if err != nil {
		t.Fatal(err)
	}
	created, err := env.Store.CreateRoom(ctx, p.Actor(), in)
	if err != nil {
		t.Fatal(err)
	}
	room := created.Room
	tr := transaction(t, env, room)
	for doc := range 2 {
		for i, part := range tr.Participants {
			for k := range 3 {
				_, err := env.Store.AddRoomTag(ctx, room.ID, doc, models.RoomTagForm{Type: "SIGNATURETEMPLATE", SignerID: part.ParticipantID,
					Page: strconv.Itoa(1 + k%2), X: strconv.Itoa(72 + 40*k), Y: strconv.Itoa(100 + 60*i), Width: "144", Height: "36", Required: "true"})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return room
}

func transaction(t *testing.T, env *modelstest.Env, room *models.Room) *models.Transaction {
	t.Helper()
	tr, err := env.Store.GetTransaction(context.Background(), room.OrganizationID, room.TransactionID)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// roomState is what a removal and its undo must bring back exactly: the
// documents in order, each with its tags (id, place, signer) in order, and
// the participants in order.
func roomState(t *testing.T, env *modelstest.Env, room *models.Room) string {
	t.Helper()
	tr := transaction(t, env, room)
	s := ""
	for _, d := range tr.Documents {
		s += fmt.Sprintf("doc %s %q pages %d:", d.DocumentID, d.Title, d.Pages)
		for _, tg := range d.Tags {
			s += fmt.Sprintf(" [%d %s p%d %.0f,%.0f %s]", tg.Position, tg.TagID, tg.Page, tg.X, tg.Y, tg.SignerID)
		}
		s += "\n"
	}
	for _, p := range tr.Participants {
		s += fmt.Sprintf("participant %s %s %s\n", p.ParticipantID, p.FirstName, p.Email)
	}
	return s + fmt.Sprintf("counts %d docs %d tags", tr.DocumentCount, tr.TagCount)
}

// ids is what the editor sends with an undo: the room's document and participant ids in order.
func ids(t *testing.T, env *modelstest.Env, room *models.Room) (docs, people string) {
	t.Helper()
	tr := transaction(t, env, room)
	var d, p []string
	for _, x := range tr.Documents {
		d = append(d, x.DocumentID)
	}
	for _, x := range tr.Participants {
		p = append(p, x.ParticipantID)
	}
	return models.JoinIDs(d), models.JoinIDs(p)
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var ve *models.ValidationError
	if !errors.As(err, &ve) || len(ve.Errors) != 1 || ve.Errors[0].Code != code {
		t.Fatalf("want a refusal %q, got %v", code, err)
	}
}

// Removing the first document and undoing it brings the document back at
// its place with its tags (same ids, places, signers, positions); the
// removal again (redo) and its undo do the same, and the kept row goes once
// restored.
func TestDocumentRemovalIsUndone(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room := removalRoom(t, env)
		before := roomState(t, env, room)
		first := transaction(t, env, room).Documents[0]
		for range 2 { // remove and undo, then redo (with current) and undo
			done, err := env.Store.RemoveRoomDocument(ctx, room.ID, 0, first.DocumentID)
			if err != nil {
				t.Fatal(err)
			}
			if done.Kind != models.RemovalDocument || done.Tags != 6 || done.Title != first.Title || done.Removal == "" {
				t.Fatalf("removal %+v", done)
			}
			tr := transaction(t, env, room)
			if len(tr.Documents) != 1 || tr.TagCount != 6 {
				t.Fatalf("after the removal: %d documents, %d tags", len(tr.Documents), tr.TagCount)
			}
			docs, people := ids(t, env, room)
			back, err := env.Store.RestoreRoomRemoval(ctx, room.ID, done.Removal, docs, people)
			if err != nil {
				t.Fatal(err)
			}
			if back.Kind != models.RestoredDocument || back.Position != 0 || back.Tags != 6 {
				t.Fatalf("restored %+v", back)
			}
			if got := roomState(t, env, room); got != before {
				t.Fatalf("after the undo:\n%s\nwant\n%s", got, before)
			}
			// The kept row is used up: a second undo of the same removal finds nothing.
			if _, err := env.Store.RestoreRoomRemoval(ctx, room.ID, done.Removal, docs, people); !errors.Is(err, models.ErrNotFound) {
				t.Fatalf("a second undo: %v", err)
			}
		}
	})
}

// Removing a participant and undoing it brings them back at their place
// with their tags, each at its old place among its document's tags.
func TestParticipantRemovalIsUndone(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room := removalRoom(t, env)
		before := roomState(t, env, room)
		pat := transaction(t, env, room).Participants[0]
		done, err := env.Store.RemoveRoomParticipant(ctx, room.ID, pat.ParticipantID)
		if err != nil {
			t.Fatal(err)
		}
		if done.Kind != models.RemovalParticipant || done.Tags != 6 || done.Title != "Pat Buyer" || done.ParticipantID != pat.ParticipantID {
			t.Fatalf("removal %+v", done)
		}
		tr := transaction(t, env, room)
		if len(tr.Participants) != 1 || tr.TagCount != 6 {
			t.Fatalf("after the removal: %d participants, %d tags", len(tr.Participants), tr.TagCount)
		}
		docs, people := ids(t, env, room)
		if _, err := env.Store.RestoreRoomRemoval(ctx, room.ID, done.Removal, docs, people); err != nil {
			t.Fatal(err)
		}
		if got := roomState(t, env, room); got != before {
			t.Fatalf("after the undo:\n%s\nwant\n%s", got, before)
		}
	})
}

// An undo made against a room that changed since (another window) is
// refused and changes nothing: a participant moved or added, a document
// removed; a redo naming another document is refused too.
func TestRemovalUndoRefusedWhenTheRoomChanged(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room := removalRoom(t, env)
		tr := transaction(t, env, room)
		pat, robin := tr.Participants[0], tr.Participants[1]
		gone, err := env.Store.RemoveRoomParticipant(ctx, room.ID, pat.ParticipantID)
		if err != nil {
			t.Fatal(err)
		}
		docs, people := ids(t, env, room)
		// Another window adds a participant.
		if _, err := env.Store.AddRoomParticipant(ctx, room.ID, models.ParticipantForm{FirstName: "Kim", LastName: "Agent", Email: "kim@example.com"}); err != nil {
			t.Fatal(err)
		}
		changed := roomState(t, env, room)
		_, err = env.Store.RestoreRoomRemoval(ctx, room.ID, gone.Removal, docs, people)
		wantCode(t, err, "room_changed")
		if got := roomState(t, env, room); got != changed {
			t.Fatalf("a refused undo changed the room:\n%s", got)
		}
		// This window, reloaded, sees the room as it is: the undo goes through.
		docs, people = ids(t, env, room)
		if _, err := env.Store.RestoreRoomRemoval(ctx, room.ID, gone.Removal, docs, people); err != nil {
			t.Fatal(err)
		}
		if got := transaction(t, env, room).Participants; got[0].ParticipantID != pat.ParticipantID || got[1].ParticipantID != robin.ParticipantID {
			t.Fatalf("participants after the undo: %+v", got)
		}

		// A document removed; another window removes the other one.
		first := transaction(t, env, room).Documents[0]
		removed, err := env.Store.RemoveRoomDocument(ctx, room.ID, 0, "")
		if err != nil {
			t.Fatal(err)
		}
		docs, people = ids(t, env, room)
		if _, err := env.Store.RemoveRoomDocument(ctx, room.ID, 0, ""); err != nil {
			t.Fatal(err)
		}
		_, err = env.Store.RestoreRoomRemoval(ctx, room.ID, removed.Removal, docs, people)
		wantCode(t, err, "room_changed")
		if n := len(transaction(t, env, room).Documents); n != 0 {
			t.Fatalf("a refused undo left %d documents", n)
		}
		// A redo naming a document that is no longer at its position.
		docs, people = ids(t, env, room)
		if _, err := env.Store.RestoreRoomRemoval(ctx, room.ID, removed.Removal, docs, people); err != nil {
			t.Fatal(err)
		}
		second, _ := ids(t, env, room)
		if second != first.DocumentID {
			t.Fatalf("documents after the undo: %s", second)
		}
		_, err = env.Store.RemoveRoomDocument(ctx, room.ID, 0, "another-version")
		wantCode(t, err, "document_changed")
	})
}

// Only the newest removals of a transaction are kept for an undo: the
// history stays bounded however many removals and undos are made.
func TestKeptRemovalsAreBounded(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room := removalRoom(t, env)
		var first string
		for i := range 105 {
			id, err := env.Store.AddRoomParticipant(ctx, room.ID, models.ParticipantForm{FirstName: "P", LastName: strconv.Itoa(i), Email: fmt.Sprintf("p%d@example.com", i)})
			if err != nil {
				t.Fatal(err)
			}
			done, err := env.Store.RemoveRoomParticipant(ctx, room.ID, id)
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = done.Removal
			}
		}
		var kept int64
		if err := env.DB.DB.Raw("SELECT COUNT(*) FROM room_removals WHERE transaction_id = ?", room.TransactionID).Scan(&kept).Error; err != nil {
			t.Fatal(err)
		}
		if kept != 100 {
			t.Fatalf("%d removals kept, want 100", kept)
		}
		docs, people := ids(t, env, room)
		if _, err := env.Store.RestoreRoomRemoval(ctx, room.ID, first, docs, people); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("the oldest removal: %v", err)
		}
	})
}

// A participant who signs in with a personal password comes back with it:
// the removal keeps its stored hash (never the password).
func TestParticipantRemovalKeepsTheirPassword(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		room := removalRoom(t, env)
		id, err := env.Store.AddRoomParticipant(ctx, room.ID, models.ParticipantForm{FirstName: "Kim", LastName: "Agent", Email: "kim@example.com",
			AuthenticationType: models.AuthPersonalPassword, PersonalPasswordQuestion: "Pet?", PersonalPassword: "rex-the-dog"})
		if err != nil {
			t.Fatal(err)
		}
		done, err := env.Store.RemoveRoomParticipant(ctx, room.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		docs, people := ids(t, env, room)
		if _, err := env.Store.RestoreRoomRemoval(ctx, room.ID, done.Removal, docs, people); err != nil {
			t.Fatal(err)
		}
		back := transaction(t, env, room).Participants
		if len(back) != 3 || back[2].ParticipantID != id || !back[2].VerifyPersonalPassword("rex-the-dog") {
			t.Fatalf("participants after the undo: %+v", back)
		}
	})
}
