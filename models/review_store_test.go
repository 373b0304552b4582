package models_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/models/review"
)

// A stored transaction is checked with its document's page boxes and
// printed words: a signature over "Tenant signs", a participant who only
// dates, on both databases; another organization's transaction is not
// found.
func TestReviewTransactionReadsTheStoredDocument(t *testing.T) {
	t.Parallel()
	for _, dialect := range modelstest.Dialects() {
		t.Run(string(dialect), func(t *testing.T) {
			env := modelstest.New(t, dialect)
			ctx := context.Background()
			acme, other := env.NewTenant(t, "Acme"), env.NewTenant(t, "Other")
			content := "BT /F1 12 Tf 72 700 Td (Tenant signs here) Tj ET"
			doc := env.UploadPDF(t, acme.Org.ID, pdftest.RawPDF([]string{
				"<< /Type /Catalog /Pages 2 0 R >>",
				"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
				"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
				fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
				"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
			}), "lease")
			body := fmt.Sprintf(`{"status": "draft", "referenceId": "lease-1", "documents": [{"id": %q, "gcsRefId": %q, "title": "Lease", "sessionType": "esign", "type": "acknowledgment", "pages": 1,
				"tags": [{"type": "SIGNATURETEMPLATE", "x": 70, "y": 695, "width": 100, "height": 20, "signerId": "p1", "page": 1, "customData": {}},
				         {"type": "DATETEMPLATE", "x": 300, "y": 300, "width": 96, "height": 20, "signerId": "p2", "page": 1, "dateFormat": "MM/DD/YYYY", "customData": {}}]}],
				"participants": [{"id": "p1", "email": "pat@example.com", "firstName": "Pat", "lastName": "Buyer", "authenticationType": "none", "twoFactorContact": "email"},
				                 {"id": "p2", "email": "sam@example.com", "firstName": "Sam", "lastName": "Seller", "authenticationType": "none", "twoFactorContact": "email"}]}`,
				doc.ID, doc.ObjectKey)
			in, err := models.ParseTransactionInput([]byte(body))
			if err != nil {
				t.Fatal(err)
			}
			p, err := env.Store.AuthenticateAPIToken(ctx, acme.Token)
			if err != nil {
				t.Fatal(err)
			}
			tx, err := env.Store.CreateTransaction(ctx, p.Actor(), in)
			if err != nil {
				t.Fatal(err)
			}
			r, err := env.Store.ReviewTransaction(ctx, acme.Org.ID, tx.ID)
			if err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, f := range r.Findings {
				codes = append(codes, f.Code+":"+f.Participant)
			}
			want := []string{review.CodeNothingToSign + ":p2", review.CodeFillWithoutSigning + ":p2", review.CodeCoversText + ":p1"}
			if !slices.Equal(codes, want) {
				t.Errorf("findings %v, want %v", codes, want)
			}
			if !r.Blocked() {
				t.Error("a participant with nothing to sign does not block")
			}
			if _, err := env.Store.ReviewTransaction(ctx, other.Org.ID, tx.ID); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("another organization's transaction: %v, want ErrNotFound", err)
			}
		})
	}
}
