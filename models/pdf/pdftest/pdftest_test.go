package pdftest_test

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"reflect"
	"testing"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

func inspect(b []byte) (pdf.Info, error) {
	return pdf.Inspect(context.Background(), bytes.NewReader(b))
}

func TestFixtures(t *testing.T) {
	tests := []struct {
		name  string
		data  []byte
		pages int
		want  error
	}{
		{"ThreePages", pdftest.ThreePages(t), 3, nil},
		{"Encrypted", pdftest.Encrypted(t), 0, pdf.ErrEncrypted},
		{"EncryptedWithPassword", pdftest.EncryptedWithPassword(t), 0, pdf.ErrEncrypted},
		{"Truncated", pdftest.Truncated(t), 0, pdf.ErrMalformed},
		{"NotPDF", pdftest.NotPDF(), 0, pdf.ErrNotPDF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := inspect(tt.data)
			if !errors.Is(err, tt.want) || len(info.Pages) != tt.pages {
				t.Errorf("Inspect = %d pages, %v; want %d pages, %v", len(info.Pages), err, tt.pages, tt.want)
			}
		})
	}
}

func TestThreePagesDeterministic(t *testing.T) {
	if !bytes.Equal(pdftest.ThreePages(t), pdftest.ThreePages(t)) {
		t.Error("ThreePages differs between calls")
	}
}

func TestNotPDFIsPNG(t *testing.T) {
	img, err := png.Decode(bytes.NewReader(pdftest.NotPDF()))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1 || b.Dy() != 1 {
		t.Errorf("image is %v, want 1x1", b)
	}
}

func TestOddGeometry(t *testing.T) {
	b, want := pdftest.OddGeometry(t)
	info, err := inspect(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(info.Pages, want) {
		t.Errorf("pages:\n got %+v\nwant %+v", info.Pages, want)
	}
}
