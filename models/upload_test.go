package models_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/modelstest"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// shiftedOffsets inserts a line before the second object of b without
// updating its cross-reference table: every later offset is wrong.
func shiftedOffsets(t testing.TB, b []byte) []byte {
	t.Helper()
	i := bytes.Index(b, []byte("endobj"))
	if i < 0 {
		t.Fatal("no endobj")
	}
	i += len("endobj")
	return slices.Concat(b[:i], []byte("\n% not in the cross-reference table\n"), b[i:])
}

func hexSHA256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// An upload that viewers open is stored: an encrypted one (empty user
// password) decrypted, a damaged one repaired. The stored file is the one
// checked, and its size and hash are what the document records.
func TestStageUploadStoresWhatViewersOpen(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		tenant := env.NewTenant(t, "Acme")
		fields := pdftest.RawPDF([]string{
			"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] >> >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R] >>",
			"<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /Rect [50 700 250 720] /F 4 /P 3 0 R >>",
		})
		tests := []struct {
			name      string
			data      []byte
			pages     int
			decrypted bool
			repairs   []string
		}{
			{"ordinary", pdftest.ThreePages(t), 3, false, []string{}},
			{"text field without /DA", fields, 1, false, []string{}},
			{"empty user password", pdftest.Encrypted(t), 1, true, []string{}},
			{"offsets shifted", shiftedOffsets(t, pdftest.ThreePages(t)), 3, false, []string{pdf.RepairXRefRebuilt}},
			{"offsets shifted and encrypted", shiftedOffsets(t, pdftest.Encrypted(t)), 1, true, []string{pdf.RepairXRefRebuilt}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				staged, err := env.Store.StageUpload(ctx, bytes.NewReader(tt.data), int64(len(tt.data)), "in.pdf")
				if err != nil {
					t.Fatal(err)
				}
				defer staged.Close()
				if staged.Pages() != tt.pages || staged.Decrypted() != tt.decrypted || !slices.Equal(staged.Repairs(), tt.repairs) || staged.Repairs() == nil {
					t.Fatalf("staged: %d pages, decrypted %t, repairs %#v; want %d, %t, %#v", staged.Pages(), staged.Decrypted(), staged.Repairs(), tt.pages, tt.decrypted, tt.repairs)
				}
				if staged.ReceivedSHA256() != hexSHA256(tt.data) {
					t.Error("ReceivedSHA256 is not the hash of the bytes received")
				}
				changed := tt.decrypted || len(tt.repairs) > 0
				if (staged.SHA256() != staged.ReceivedSHA256()) != changed {
					t.Errorf("SHA256 %s, received %s: a new file is stored only when one was made", staged.SHA256(), staged.ReceivedSHA256())
				}
				d, err := env.Store.SaveDocument(ctx, staged, models.NewDocument{OrganizationID: tenant.Org.ID})
				if err != nil {
					t.Fatal(err)
				}
				r, err := env.Store.OpenDocumentContent(ctx, d)
				if err != nil {
					t.Fatal(err)
				}
				stored, err := io.ReadAll(r)
				_ = r.Close()
				if err != nil {
					t.Fatal(err)
				}
				if d.SHA256 != hexSHA256(stored) || d.SizeBytes != int64(len(stored)) || d.SHA256 != staged.SHA256() {
					t.Errorf("the document records %d bytes %s, the stored file is %d bytes %s", d.SizeBytes, d.SHA256, len(stored), hexSHA256(stored))
				}
				if info, err := pdf.Inspect(ctx, bytes.NewReader(stored)); err != nil || len(info.Pages) != tt.pages {
					t.Errorf("the stored file does not pass Inspect: %d pages, %v", len(info.Pages), err)
				}
				if changed == bytes.Equal(stored, tt.data) {
					t.Errorf("stored file equal to the upload: %t, want %t", !changed, !changed)
				}
			})
		}
		staged, err := env.Store.StageUpload(ctx, bytes.NewReader(fields), int64(len(fields)), "fields.pdf")
		if err != nil {
			t.Fatal(err)
		}
		defer staged.Close()
		if staged.DetectedTags() != 1 {
			t.Errorf("the form without /DA proposes %d tags, want its field", staged.DetectedTags())
		}
	})
}

// What viewers refuse, or show only as a shorter document, stays refused,
// each with its code.
func TestStageUploadRefusals(t *testing.T) {
	t.Parallel()
	modelstest.Each(t, func(t *testing.T, env *modelstest.Env) {
		ctx := context.Background()
		three := pdftest.ThreePages(t)
		for _, tt := range []struct {
			name, code string
			data       []byte
		}{
			{"needs a password", "password_required", pdftest.EncryptedWithPassword(t)},
			{"cut at 75%", "damaged_pdf", pdftest.Truncated(t)},
			{"cut at 40%", "damaged_pdf", three[:len(three)*40/100]},
			{"HTML", "not_pdf", []byte("<!doctype html><html><body>Not found</body></html>")},
			// The repair pass and decryption keep the decode caps.
			{"bomb with offsets shifted", "pdf_expands_too_much", shiftedOffsets(t, pdftest.Expanding{Pages: 2, Content: []int64{pdf.DefaultMaxDecodedStreamBytes + 1<<20}}.Build(t))},
		} {
			t.Run(tt.name, func(t *testing.T) {
				staged, err := env.Store.StageUpload(ctx, bytes.NewReader(tt.data), int64(len(tt.data)), "x.pdf")
				var ve *models.ValidationError
				if !errors.As(err, &ve) || len(ve.Errors) != 1 || ve.Errors[0].Code != tt.code {
					_ = staged.Close()
					t.Fatalf("StageUpload = %v, want %s", err, tt.code)
				}
				if tt.code == "password_required" && ve.Errors[0].Message.ID != "problem.upload.password" {
					t.Errorf("message %v does not say what to do", ve.Errors[0].Message)
				}
			})
		}
	})
}
