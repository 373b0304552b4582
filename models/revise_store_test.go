package models_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/models/review"
	"github.com/markuproom/markuproom/models/revise"
)

// reviseBody is a transaction on doc with one tag on each of the
// contract's fields, each tag's customData naming its field.
func reviseBody(t testing.TB, doc *models.Document, base pdftest.RevisionDoc) *models.TransactionInput {
	t.Helper()
	var tags []map[string]any
	for id, f := range base.Fields {
		tags = append(tags, map[string]any{"type": "INITIALSTEMPLATE", "x": f.Box.LLX, "y": f.Box.LLY, "width": f.Box.URX - f.Box.LLX,
			"height": f.Box.URY - f.Box.LLY, "signerId": "p1", "customData": map[string]any{"field": id}, "page": f.Page})
	}
	body, _ := json.Marshal(map[string]any{
		"status": "draft", "referenceId": "revise",
		"documents": []map[string]any{{"id": doc.ID, "gcsRefId": doc.ObjectKey, "title": "Services", "sessionType": "esign", "type": "acknowledgment", "tags": tags}},
		"participants": []map[string]any{
			{"id": "p1", "email": "pat@example.com", "firstName": "Pat", "lastName": "Buyer", "authenticationType": "none", "twoFactorContact": "email"},
		},
	})
	in, err := models.ParseTransactionInput(body)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return in
}

// A revision replaces the document and moves each tag to where its field
// went, in one change with one history entry; a stale If-Match, another
// organization's transaction or document and an unknown upload are
// refused, and so is the transaction of a completed room.
func TestReviseDocumentCarriesTheTags(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		base, revisions := pdftest.RevisionCorpus()
		revised := revisions[0] // a paragraph added on page 1
		if revised.Kind != pdftest.RevisionParagraphAdded {
			t.Fatalf("the first revision is %s", revised.Kind)
		}
		tenant := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other")
		oldDoc := env.UploadPDF(t, tenant.Org.ID, base.PDF, "Services")
		newDoc := env.UploadPDF(t, tenant.Org.ID, revised.PDF, "Services v2")
		foreign := env.UploadPDF(t, other.Org.ID, revised.PDF, "Services v2")
		p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
		if err != nil {
			t.Fatal(err)
		}
		tx, err := env.Store.CreateTransaction(ctx, p.Actor(), reviseBody(t, oldDoc, base))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.Store.ReviseDocument(ctx, p.Actor(), tx.ID, oldDoc.ID, newDoc.ID, `"99"`); !errors.Is(err, models.ErrPreconditionFailed) {
			t.Errorf("a stale If-Match: %v", err)
		}
		var ve *models.ValidationError
		if _, err := env.Store.ReviseDocument(ctx, p.Actor(), tx.ID, oldDoc.ID, foreign.ID, ""); !errors.As(err, &ve) || ve.Kind != models.KindUnprocessable {
			t.Errorf("another organization's upload: %v", err)
		}
		op, err := env.Store.AuthenticateAPIToken(ctx, other.Token)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.Store.ReviseDocument(ctx, op.Actor(), tx.ID, oldDoc.ID, foreign.ID, ""); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("another organization's transaction: %v", err)
		}
		if _, err := env.Store.ReviseDocument(ctx, p.Actor(), tx.ID, newDoc.ID, newDoc.ID, ""); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("a document the transaction does not hold: %v", err)
		}

		r, err := env.Store.ReviseDocument(ctx, p.Actor(), tx.ID, oldDoc.ID, newDoc.ID, tx.ETag())
		if err != nil {
			t.Fatal(err)
		}
		if r.Report.Moved+r.Report.Unchanged+r.Report.Flagged != len(base.Fields) || r.Report.Flagged != 0 || r.Report.Moved == 0 {
			t.Errorf("report: %d moved, %d unchanged, %d flagged", r.Report.Moved, r.Report.Unchanged, r.Report.Flagged)
		}
		got, err := env.Store.GetTransaction(ctx, tenant.Org.ID, tx.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != tx.Version+1 || got.Documents[0].DocumentID != newDoc.ID || got.Documents[0].GCSRefID != newDoc.ObjectKey {
			t.Fatalf("version %d, document %s", got.Version, got.Documents[0].DocumentID)
		}
		if len(got.Documents[0].Tags) != len(base.Fields) {
			t.Fatalf("%d tags, want %d", len(got.Documents[0].Tags), len(base.Fields))
		}
		for _, g := range got.Documents[0].Tags {
			var cd struct{ Field string }
			_ = json.Unmarshal(g.CustomData, &cd)
			f := revised.Fields[cd.Field]
			if g.Page != f.Page || math.Abs(g.X-f.Box.LLX) > 2 || math.Abs(g.Y-f.Box.LLY) > 2 {
				t.Errorf("%s on page %d at (%.1f, %.1f); its field is on page %d at (%.1f, %.1f)", cd.Field, g.Page, g.X, g.Y, f.Page, f.Box.LLX, f.Box.LLY)
			}
		}
		events, err := env.Store.ListTransactionEvents(ctx, tenant.Org.ID, tx.ID)
		if err != nil {
			t.Fatal(err)
		}
		last := events[len(events)-1]
		s, err := last.Decode()
		if err != nil {
			t.Fatal(err)
		}
		// The tags as they were are kept for the room's undo, named by their digest.
		kept, _ := s.(models.RevisedSummary)
		if len(kept.TagsKept) != 64 {
			t.Errorf("the history keeps no tags for an undo: %+v", s)
		}
		want := models.RevisedSummary{Document: 0, DocumentTitle: "Services", FromDocumentID: oldDoc.ID, ToDocumentID: newDoc.ID,
			Moved: r.Report.Moved, Unchanged: r.Report.Unchanged, Version: got.Version, TagsKept: kept.TagsKept}
		if s != want {
			t.Errorf("history %+v, want %+v", s, want)
		}
		for _, p := range r.Report.Tags {
			if p.Outcome == revise.Flagged {
				t.Errorf("%+v flagged", p)
			}
		}

		// A completed room's transaction is what was sent: no revision.
		in, err := models.ParseRoomInput([]byte(`{"senderId": "` + strconv.FormatInt(tenant.Sender.ID, 10) + `", "documents": ["` + oldDoc.ID +
			`"], "participants": [{"firstName": "Pat", "lastName": "Buyer", "email": "pat@example.com"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		room, err := env.Store.CreateRoom(ctx, p.Actor(), in)
		if err != nil {
			t.Fatal(err)
		}
		if err := env.DB.DB.Model(&models.Room{}).Where("id = ?", room.Room.ID).Update("status", models.RoomCompleted).Error; err != nil {
			t.Fatal(err)
		}
		if _, err := env.Store.ReviseDocument(ctx, p.Actor(), room.Room.TransactionID, oldDoc.ID, newDoc.ID, ""); !errors.Is(err, models.ErrRoomCompleted) {
			t.Errorf("a completed room's transaction: %v", err)
		}
	})
}

// A tag a revision could not carry surely keeps its reason until someone
// edits it: the pre-send check lists it (tag_needs_look, with Show); a room
// change that leaves it as it is keeps it; an edit of the tag in the room
// is the look, and the finding goes.
func TestAFlaggedTagNeedsALookUntilEdited(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		base, revisions := pdftest.RevisionCorpus()
		var other pdftest.RevisionDoc
		for _, r := range revisions {
			if r.Kind == pdftest.RevisionOtherDocument {
				other = r
			}
		}
		tenant := env.NewTenant(t, "Acme")
		oldDoc := env.UploadPDF(t, tenant.Org.ID, base.PDF, "Services")
		newDoc := env.UploadPDF(t, tenant.Org.ID, other.PDF, "Something else")
		p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
		if err != nil {
			t.Fatal(err)
		}
		in, err := models.ParseRoomInput([]byte(`{"senderId": "` + strconv.FormatInt(tenant.Sender.ID, 10) + `", "documents": ["` + oldDoc.ID +
			`"], "participants": [{"firstName": "Pat", "lastName": "Buyer", "email": "pat@example.com"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		room, err := env.Store.CreateRoom(ctx, p.Actor(), in)
		if err != nil {
			t.Fatal(err)
		}
		tx, err := env.Store.GetTransaction(ctx, tenant.Org.ID, room.Room.TransactionID)
		if err != nil {
			t.Fatal(err)
		}
		signer := tx.Participants[0].ParticipantID
		var ids []string
		for _, f := range base.Fields {
			e, err := env.Store.AddRoomTag(ctx, room.Room.ID, 0, models.RoomTagForm{Type: "SIGNATURETEMPLATE", SignerID: signer,
				Page: strconv.Itoa(f.Page), X: fmtPt(f.Box.LLX), Y: fmtPt(f.Box.LLY), Width: fmtPt(f.Box.URX - f.Box.LLX), Height: fmtPt(f.Box.URY - f.Box.LLY)})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, e.Tag.TagID)
		}
		r, err := env.Store.ReviseDocument(ctx, p.Actor(), tx.ID, oldDoc.ID, newDoc.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		if r.Report.Flagged != len(ids) {
			t.Fatalf("another document: %d of %d tags flagged", r.Report.Flagged, len(ids))
		}
		needsLook := func() []string {
			t.Helper()
			rv, err := env.Store.ReviewTransaction(ctx, tenant.Org.ID, tx.ID)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, f := range rv.Findings {
				if f.Code == review.CodeTagNeedsLook {
					if f.Severity != review.Warning || f.Fix == nil || f.Fix.Kind != review.FixShow || f.Fix.Tag != f.Tags[0] {
						t.Fatalf("finding %+v", f)
					}
					out = append(out, f.Tags[0])
				}
			}
			return out
		}
		if got := needsLook(); len(got) != len(ids) {
			t.Fatalf("%d tags need a look, want %d", len(got), len(ids))
		}
		// A participant renamed in the room rewrites the transaction: the flags stay.
		if err := env.Store.UpdateRoomParticipant(ctx, room.Room.ID, signer, models.ParticipantForm{FirstName: "Patricia", LastName: "Buyer",
			Email: "pat@example.com", AuthenticationType: "none", TwoFactorContact: "email"}); err != nil {
			t.Fatal(err)
		}
		if got := needsLook(); len(got) != len(ids) {
			t.Fatalf("after a rename: %d tags need a look, want %d", len(got), len(ids))
		}
		// Moving one in the room is the look.
		tag := r.Transaction.Documents[0].Tags[0]
		if _, err := env.Store.UpdateRoomTag(ctx, room.Room.ID, tag.TagID, models.RoomTagForm{Type: tag.Type, SignerID: signer,
			Page: strconv.Itoa(tag.Page), X: fmtPt(tag.X + 5), Y: fmtPt(tag.Y), Width: fmtPt(tag.Width), Height: fmtPt(tag.Height)}); err != nil {
			t.Fatal(err)
		}
		got := needsLook()
		if len(got) != len(ids)-1 || slices.Contains(got, tag.TagID) {
			t.Fatalf("after the look: %v", got)
		}
	})
}

// fmtPt writes a coordinate as a form sends it.
func fmtPt(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// BenchmarkReviseDocument50Pages times a whole revision through the store,
// as the API and the room make it: a 50-page contract with its 582 tags
// revised (both versions' words read in the PDF workers, the tags mapped,
// written and the history recorded in one database transaction), then
// revised back, on SQLite and, with TEST_DATABASE_URL, on PostgreSQL
// (docs/revise.md, "Speed": the aim is under 2 s a revision).
func BenchmarkReviseDocument50Pages(b *testing.B) {
	base, revised := pdftest.RevisionContract(50)
	for _, dialect := range modelstest.Dialects() {
		b.Run(string(dialect), func(b *testing.B) {
			env := modelstest.New(b, dialect)
			ctx := context.Background()
			tenant := env.NewTenant(b, "Bench")
			p, err := env.Store.AuthenticateAPIToken(ctx, tenant.Token)
			if err != nil {
				b.Fatal(err)
			}
			docs := [2]*models.Document{env.UploadPDF(b, tenant.Org.ID, base.PDF, "Contract"), env.UploadPDF(b, tenant.Org.ID, revised.PDF, "Contract v2")}
			tx, err := env.Store.CreateTransaction(ctx, p.Actor(), reviseBody(b, docs[0], base))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(base.Fields)), "tags")
			i := 0
			for b.Loop() {
				r, err := env.Store.ReviseDocument(ctx, p.Actor(), tx.ID, docs[i%2].ID, docs[(i+1)%2].ID, "")
				if err != nil {
					b.Fatal(err)
				}
				if r.Report.Flagged > len(base.Fields)/20 {
					b.Fatalf("%d of %d tags flagged", r.Report.Flagged, len(base.Fields))
				}
				i++
			}
		})
	}
}
