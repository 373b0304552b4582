package pdf_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// Each file holds an entry pdfcpu's relaxed validation refuses (so the
// strict check refused the whole document before) in a dictionary viewers
// ignore: it is accepted with poppler's page count, its layout reads, and
// its pages can be deleted and moved.
func TestToleratedFilesAreAccepted(t *testing.T) {
	ctx := context.Background()
	for _, f := range pdftest.ToleratedFiles() {
		t.Run(f.Name, func(t *testing.T) {
			if err := pdfcpuValidates(f.PDF); err == nil {
				t.Fatal("pdfcpu's relaxed validation accepts the file: it no longer shows the cause")
			} else {
				t.Logf("%s; pdfcpu: %v", f.What, err)
			}
			if n, ok, known := pdftest.PopplerPages(t, f.PDF); known && (!ok || n != f.Pages) {
				t.Fatalf("poppler: opens=%v pages=%d, want %d pages", ok, n, f.Pages)
			}
			info, err := pdf.Inspect(ctx, bytes.NewReader(f.PDF))
			if err != nil || len(info.Pages) != f.Pages {
				t.Fatalf("Inspect = %d pages, %v; want %d", len(info.Pages), err, f.Pages)
			}
			lay, err := pdf.ReadLayout(ctx, f.PDF)
			if err != nil || len(lay.Pages) != f.Pages {
				t.Fatalf("ReadLayout = %d pages, %v", len(lay.Pages), err)
			}
			if text := runsText(lay.Pages[0]); !strings.Contains(text, "A slide of the talk") {
				t.Errorf("page 1 reads %q", text)
			}
			out, after, err := pdf.DeletePage(ctx, f.PDF, 1)
			if err != nil || len(after.Pages) != f.Pages-1 {
				t.Fatalf("DeletePage = %d pages, %v", len(after.Pages), err)
			}
			if n, ok, known := pdftest.PopplerPages(t, out); known && (!ok || n != f.Pages-1) {
				t.Errorf("poppler on the edited file: opens=%v pages=%d", ok, n)
			}
			if _, moved, err := pdf.MovePage(ctx, f.PDF, 1, f.Pages); err != nil || len(moved.Pages) != f.Pages {
				t.Fatalf("MovePage = %d pages, %v", len(moved.Pages), err)
			}
		})
	}
}

// What the check still refuses in a page's own entries, whatever pdfcpu's
// validation says: content that is not a stream, resources that are not a
// dictionary, a rotation by other than quarter turns.
func TestPageEntriesTheProductReadsAreChecked(t *testing.T) {
	page := func(entries string) []byte {
		return pdftest.RawPDF([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] " + entries + " >>",
			"<< /Length 0 >>\nstream\n\nendstream",
			"<< /Font << >> >>",
			"[1 2 3]",
		})
	}
	for _, tc := range []struct {
		name, entries string
		ok            bool
	}{
		{"a content stream", "/Contents 4 0 R /Resources 5 0 R", true},
		{"an array of content streams and nulls", "/Contents [4 0 R null 9 0 R]", true},
		{"no content", "/Contents ()", true},
		{"rotated by a real 90", "/Contents 4 0 R /Rotate 90.0", true},
		{"content that is a number", "/Contents 7", false},
		{"content that is a dictionary", "/Contents 5 0 R", false},
		{"content array holding an array", "/Contents [4 0 R 6 0 R]", false},
		{"resources that are an array", "/Contents 4 0 R /Resources 6 0 R", false},
		{"rotated by 45", "/Contents 4 0 R /Rotate 45", false},
		{"rotated by 90.5", "/Contents 4 0 R /Rotate 90.5", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := inspectBytes(page(tc.entries))
			if tc.ok && err != nil {
				t.Fatalf("Inspect = %v, want accepted", err)
			}
			if !tc.ok && err == nil {
				t.Fatal("Inspect accepted it")
			}
			t.Log(err)
		})
	}
}

// pdfcpuValidates runs pdfcpu's relaxed validation as it is configured for
// uploads, without this package's checks.
func pdfcpuValidates(b []byte) error {
	api.DisableConfigDir()
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	_, err := api.ReadAndValidate(bytes.NewReader(b), conf)
	return err
}

// runsText joins the text of a page's runs.
func runsText(p pdf.PageLayout) string {
	var sb strings.Builder
	for _, r := range p.Runs {
		sb.WriteString(r.Text)
		sb.WriteString(" ")
	}
	return sb.String()
}
