package models_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/models/templatematch"
)

// The fingerprint an upload takes on its one read of the pages is the one
// read again later from the stored document; both read the pages' CropBox
// sides and text.
func TestDocumentFingerprintOfAnUpload(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		acme := env.NewTenant(t, "Acme")
		other := env.NewTenant(t, "Other")
		form := writeForm(purchaseForm, purchaseFillings[0])

		staged, err := env.Store.StageUpload(ctx, bytes.NewReader(form), int64(len(form))+1, "purchase.pdf")
		if err != nil {
			t.Fatal(err)
		}
		atUpload := staged.Fingerprint()
		_ = staged.Close()
		doc := env.UploadPDF(t, acme.Org.ID, form, "Purchase")
		stored, err := env.Store.DocumentFingerprint(ctx, acme.Org.ID, doc.ID)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := atUpload.MarshalBinary()
		b, _ := stored.MarshalBinary()
		if !bytes.Equal(a, b) || stored.Pages() != 2 || !stored.HasText() {
			t.Fatalf("stored fingerprint (%d pages, %d bytes) differs from the upload's (%d bytes)", stored.Pages(), len(b), len(a))
		}
		if s := templatematch.Score(stored, atUpload); s != 1 {
			t.Fatalf("score against itself %v", s)
		}
		filled := writeForm(purchaseForm, purchaseFillings[1])
		again := env.UploadPDF(t, acme.Org.ID, filled, "Purchase again")
		fp, err := env.Store.DocumentFingerprint(ctx, acme.Org.ID, again.ID)
		if err != nil {
			t.Fatal(err)
		}
		if s := templatematch.Score(stored, fp); s < 0.9 {
			t.Fatalf("the form filled in otherwise scores %.3f", s)
		}

		if _, err := env.Store.DocumentFingerprint(ctx, other.Org.ID, doc.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("another organization's document: %v, want ErrNotFound", err)
		}

		// Pages of unusual geometry: the CropBox's sides in user space,
		// whatever /Rotate says.
		odd, geo := pdftest.OddGeometry(t)
		oddDoc := env.UploadPDF(t, acme.Org.ID, odd, "Odd")
		oddFP, err := env.Store.DocumentFingerprint(ctx, acme.Org.ID, oddDoc.ID)
		if err != nil {
			t.Fatal(err)
		}
		if oddFP.Pages() != len(geo) {
			t.Fatalf("odd geometry: %d pages, want %d", oddFP.Pages(), len(geo))
		}
		for i, p := range geo {
			w, h := oddFP.PageSize(i)
			if math.Abs(w-p.CropBox.Width()) > 0.05 || math.Abs(h-p.CropBox.Height()) > 0.05 {
				t.Errorf("odd geometry, page %d: %v × %v, want the CropBox's %v × %v", i+1, w, h, p.CropBox.Width(), p.CropBox.Height())
			}
		}

		// A document too complex to read within the caps: its sizes alone.
		complexDoc := env.UploadPDF(t, acme.Org.ID, pdftest.SelfDrawingForm(), "Complex")
		cfp, err := env.Store.DocumentFingerprint(ctx, acme.Org.ID, complexDoc.ID)
		if err != nil || cfp.Pages() != 1 || cfp.HasText() {
			t.Fatalf("too complex: %v, %d pages, text %v", err, cfp.Pages(), cfp.HasText())
		}
		complexPDF := pdftest.SelfDrawingForm()
		staged, err = env.Store.StageUpload(ctx, bytes.NewReader(complexPDF), int64(len(complexPDF))+1, "complex.pdf")
		if err != nil {
			t.Fatal(err)
		}
		defer staged.Close()
		if fp := staged.Fingerprint(); fp.Pages() != 1 || fp.HasText() {
			t.Fatalf("too complex, at upload: %d pages, text %v", fp.Pages(), fp.HasText())
		}
	})
}
