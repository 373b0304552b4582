package pdf_test

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"testing"

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
