package models_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/models/revise"
)

// reviseBody is a transaction on doc with one tag on each of the
// contract's fields, each tag's customData naming its field.
func reviseBody(t *testing.T, doc *models.Document, base pdftest.RevisionDoc) *models.TransactionInput {
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
		want := models.RevisedSummary{Document: 0, DocumentTitle: "Services", FromDocumentID: oldDoc.ID, ToDocumentID: newDoc.ID,
			Moved: r.Report.Moved, Unchanged: r.Report.Unchanged, Version: got.Version}
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
