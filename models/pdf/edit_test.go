package pdf_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

func TestDeleteAndMovePagesKeepEachPagesGeometry(t *testing.T) {
	ctx := context.Background()
	src, want := pdftest.OddGeometry(t)

	out, info, err := pdf.DeletePage(ctx, src, 3)
	if err != nil {
		t.Fatal(err)
	}
	wantAfter := append(append([]pdf.Page{}, want[:2]...), want[3:]...)
	if !reflect.DeepEqual(info.Pages, wantAfter) {
		t.Fatalf("after deleting page 3:\n got %+v\nwant %+v", info.Pages, wantAfter)
	}
	if again, err := pdf.Inspect(ctx, bytes.NewReader(out)); err != nil || len(again.Pages) != len(want)-1 {
		t.Fatalf("the edited PDF does not read back: %v", err)
	}

	for _, tc := range []struct{ from, to int }{{1, 8}, {8, 1}, {3, 5}, {6, 2}, {4, 4}} {
		_, info, err := pdf.MovePage(ctx, src, tc.from, tc.to)
		if err != nil {
			t.Fatalf("move %d→%d: %v", tc.from, tc.to, err)
		}
		for newPos, old := range pdf.MovedOrder(len(want), tc.from, tc.to) {
			if info.Pages[newPos] != want[old-1] {
				t.Fatalf("move %d→%d: position %d holds %+v, want old page %d %+v", tc.from, tc.to, newPos+1, info.Pages[newPos], old, want[old-1])
			}
		}
	}
}

func TestPageEditsRefuseImpossibleRequests(t *testing.T) {
	ctx := context.Background()
	three := pdftest.ThreePages(t)
	if _, _, err := pdf.DeletePage(ctx, three, 4); !errors.Is(err, pdf.ErrPageOutOfRange) {
		t.Fatalf("delete page 4 of 3: %v", err)
	}
	if _, _, err := pdf.MovePage(ctx, three, 0, 2); !errors.Is(err, pdf.ErrPageOutOfRange) {
		t.Fatalf("move page 0: %v", err)
	}
	one, _, err := pdf.DeletePage(ctx, three, 1)
	if err != nil {
		t.Fatal(err)
	}
	one, _, err = pdf.DeletePage(ctx, one, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := pdf.DeletePage(ctx, one, 1); !errors.Is(err, pdf.ErrLastPage) {
		t.Fatalf("delete the last page: %v", err)
	}
	if _, _, err := pdf.DeletePage(ctx, pdftest.NotPDF(), 1); !errors.Is(err, pdf.ErrNotPDF) {
		t.Fatalf("not a PDF: %v", err)
	}
}

func TestMovedOrder(t *testing.T) {
	for _, tc := range []struct {
		n, from, to int
		want        []int
	}{
		{5, 1, 3, []int{2, 3, 1, 4, 5}},
		{5, 5, 1, []int{5, 1, 2, 3, 4}},
		{5, 2, 2, []int{1, 2, 3, 4, 5}},
		{3, 3, 2, []int{1, 3, 2}},
	} {
		if got := pdf.MovedOrder(tc.n, tc.from, tc.to); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("MovedOrder(%d, %d, %d) = %v, want %v", tc.n, tc.from, tc.to, got, tc.want)
		}
	}
}

// BenchmarkPageEdits50 measures deleting and moving a page of a 50-page PDF.
func BenchmarkPageEdits50(b *testing.B) {
	ctx := context.Background()
	src, err := pdf.Sample(50, "Fifty pages")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("delete", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := pdf.DeletePage(ctx, src, 25); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("move", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := pdf.MovePage(ctx, src, 50, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// editable is a 3-page PDF with a text field on page 1, a named destination
// to page 2, and what an edit does not carry (a structure tree, an
// outline), with extra page entries transition (to make pdfcpu's
// validation fail, or not).
func editable(transition string) []byte {
	page := func(n int, extra string) string {
		return fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 9 0 R /StructParents %d %s %s >>", n, transition, extra)
	}
	return pdftest.RawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [6 0 R] /DA (/Helv 0 Tf 0 g) >> /Names << /Dests 7 0 R >> /StructTreeRoot 8 0 R /Outlines << /Count 0 >> >>",
		"<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>",
		page(0, "/Annots [6 0 R]"),
		page(1, ""),
		page(2, ""),
		"<< /Type /Annot /Subtype /Widget /FT /Tx /T (Buyer name) /Rect [100 100 300 120] /P 3 0 R /F 4 >>",
		"<< /Names [(chapter2) [4 0 R /XYZ 0 792 0]] >>",
		"<< /Type /StructTreeRoot /K [<< /Type /StructElem /S /P /Pg 3 0 R /K 0 >>] >>",
		"<< /Length 0 >>\nstream\n\nendstream",
	})
}

// A page edit carries the form's fields over, and the named destinations
// when pdfcpu's validation passes (it records them); a file it fails is
// still edited, its fields carried.
func TestPageEditsCarryFormAndNamedDestinations(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, transition string
		dests            bool
	}{
		{"valid", "", true},
		{"transition outside the table", "/Trans << /S /Replace >>", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, info, err := pdf.DeletePage(ctx, editable(tc.transition), 3)
			if err != nil || len(info.Pages) != 2 {
				t.Fatalf("DeletePage = %d pages, %v", len(info.Pages), err)
			}
			lay, err := pdf.ReadLayout(ctx, out)
			if err != nil || len(lay.Pages[0].Widgets) != 1 || lay.Pages[0].Widgets[0].Name != "Buyer name" {
				t.Fatalf("page 1's field after the edit: %+v, %v", lay.Pages[0].Widgets, err)
			}
			api.DisableConfigDir()
			pc, err := api.ReadContext(bytes.NewReader(out), model.NewDefaultConfiguration())
			if err != nil {
				t.Fatal(err)
			}
			root, err := pc.Catalog()
			if err != nil {
				t.Fatal(err)
			}
			form, err := pc.DereferenceDict(root["AcroForm"])
			if err != nil || form == nil {
				t.Fatalf("no form after the edit: %v", err)
			}
			if fields, _ := pc.DereferenceArray(form["Fields"]); len(fields) != 1 {
				t.Errorf("form fields after the edit: %v", fields)
			}
			_, hasNames := root["Names"]
			if hasNames != tc.dests {
				t.Errorf("named destinations carried over: %v, want %v", hasNames, tc.dests)
			}
		})
	}
}
