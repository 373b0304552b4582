package models_test

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// corpusDoc returns the detection corpus document called name.
func corpusDoc(t *testing.T, name string) pdftest.CorpusDoc {
	t.Helper()
	for _, d := range pdftest.Corpus() {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("no corpus document %q", name)
	return pdftest.CorpusDoc{}
}

// What an upload proposes is stored with it, equal to what the detector
// finds in the same bytes; a document stored before detection existed gets
// it on first request (and keeps it); another organization's is not found.
func TestDocumentDetectionIsStoredAtUploadAndComputedForOlderDocuments(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other")
		doc := corpusDoc(t, "text-tags-helvetica")
		want, err := detect.Detect(ctx, pdf.DefaultLimits(), doc.PDF)
		if err != nil || len(want.Tags) == 0 {
			t.Fatalf("the corpus file proposes %d tags (%v)", len(want.Tags), err)
		}

		staged, err := env.Store.StageUpload(ctx, bytes.NewReader(doc.PDF), int64(len(doc.PDF)), "tags.pdf")
		if err != nil {
			t.Fatal(err)
		}
		defer staged.Close()
		if staged.DetectedTags() != len(want.Tags) {
			t.Fatalf("staged upload counts %d tags, want %d", staged.DetectedTags(), len(want.Tags))
		}
		d, err := env.Store.SaveDocument(ctx, staged, models.NewDocument{OrganizationID: tenant.Org.ID})
		if err != nil {
			t.Fatal(err)
		}
		got, err := env.Store.DocumentDetection(ctx, tenant.Org.ID, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Tags, want.Tags) || !reflect.DeepEqual(got.Problems, want.Problems) {
			t.Fatalf("stored detection differs:\n got %+v\nwant %+v", *got, want)
		}
		if _, err := env.Store.DocumentDetection(ctx, other.Org.ID, d.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("another organization's request: %v, want ErrNotFound", err)
		}

		// As if uploaded before detection existed.
		if err := env.DB.DB.Table("documents").Where("id = ?", d.ID).Update("detection", nil).Error; err != nil {
			t.Fatal(err)
		}
		got, err = env.Store.DocumentDetection(ctx, tenant.Org.ID, d.ID)
		if err != nil || !reflect.DeepEqual(got.Tags, want.Tags) || !reflect.DeepEqual(got.Problems, want.Problems) {
			t.Fatalf("computed on request: %+v, %v", got, err)
		}
		var stored *string
		if err := env.DB.DB.Table("documents").Select("detection").Where("id = ?", d.ID).Row().Scan(&stored); err != nil || stored == nil {
			t.Fatalf("detection not stored after the first request (%v)", err)
		}
	})
}

// A document whose pages cannot be read for tags is still accepted, and its
// detection says so instead of proposing nothing silently.
func TestAnUploadWhoseLayoutCannotBeReadIsAcceptedWithAProblem(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		d := env.UploadPDF(t, tenant.Org.ID, pdftest.SelfDrawingForm(), "Too complex")
		got, err := env.Store.DocumentDetection(ctx, tenant.Org.ID, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Tags) != 0 || len(got.Problems) != 1 || got.Problems[0].Code != models.ProblemLayoutNotRead || got.Problems[0].Page != 0 {
			t.Fatalf("detection of a too complex PDF: %+v", *got)
		}
	})
}

// A new room places its documents' text tags and form fields (signer n is
// the room's n-th participant, unassigned beyond them), not the suggested
// fields; with config.documents.detectTags false it places nothing.
func TestARoomPlacesTheTagsItsDocumentsCarry(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		doc := corpusDoc(t, "text-tags-helvetica")
		d := env.UploadPDF(t, tenant.Org.ID, doc.PDF, "Tagged")
		found, err := detect.Detect(ctx, pdf.DefaultLimits(), doc.PDF)
		if err != nil {
			t.Fatal(err)
		}
		var want []detect.DetectedTag
		for _, tag := range found.Tags {
			if tag.Source != detect.SourceLabel {
				want = append(want, tag)
			}
		}
		if len(want) == 0 {
			t.Fatal("the corpus file carries no text tags")
		}
		create := func(config string) *models.Transaction {
			t.Helper()
			room := createRoomOn(t, env, tenant, d.ID, config)
			tx, err := env.Store.GetTransaction(ctx, tenant.Org.ID, room.TransactionID)
			if err != nil {
				t.Fatal(err)
			}
			return tx
		}
		tx := create(`{}`)
		tags := tx.Documents[0].Tags
		if len(tags) != len(want) || tx.TagCount != len(want) {
			t.Fatalf("%d tags placed, want the %d text tags and form fields", len(tags), len(want))
		}
		pat := tx.Participants[0].ParticipantID
		for i, tag := range tags {
			w := want[i]
			if tag.Type != w.Type || tag.Page != w.Page || tag.X != w.X || tag.Y != w.Y || tag.Width != w.Width || tag.Height != w.Height {
				t.Fatalf("tag %d: %+v, want %+v", i, tag, w)
			}
			switch {
			case w.Signer != nil && *w.Signer == 1 && tag.SignerID != pat:
				t.Fatalf("tag %d for signer 1 is %q's, want Pat's", i, tag.SignerID)
			case (w.Signer == nil || *w.Signer > 1) && tag.SignerID != "":
				t.Fatalf("tag %d for signer %v is assigned to %q", i, w.Signer, tag.SignerID)
			}
		}
		if tx := create(`{"documents": {"detectTags": false}}`); len(tx.Documents[0].Tags) != 0 {
			t.Fatalf("detectTags false placed %d tags", len(tx.Documents[0].Tags))
		}
	})
}
