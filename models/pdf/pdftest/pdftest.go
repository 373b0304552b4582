// Package pdftest provides PDF fixtures for tests of packages that accept
// uploads: a valid document, an encrypted one, a truncated one, a file that is
// not a PDF, and one with unusual page geometry.
package pdftest

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/markuproom/markuproom/models/pdf"
)

// ThreePagesTitle is the document title of ThreePages.
const ThreePagesTitle = "Three Page Agreement"

// ThreePages returns a valid, deterministic 3-page US Letter PDF.
func ThreePages(t testing.TB) []byte {
	t.Helper()
	b, err := pdf.Sample(3, ThreePagesTitle)
	if err != nil {
		t.Fatalf("pdftest: sample: %v", err)
	}
	return b
}

// Encrypted returns a valid one-page PDF encrypted by pdfcpu with AES-256 and
// an empty user password, so any reader opens it without asking.
func Encrypted(t testing.TB) []byte {
	t.Helper()
	return encrypt(t, "", 256)
}

// EncryptedWithPassword returns a valid one-page PDF encrypted by pdfcpu with
// AES-128 and the user password "secret".
func EncryptedWithPassword(t testing.TB) []byte {
	t.Helper()
	return encrypt(t, "secret", 128)
}

// encrypt AES-encrypts a one-page sample and checks that Inspect rejects the
// result as encrypted.
func encrypt(t testing.TB, userPW string, keyLength int) []byte {
	t.Helper()
	// Before any pdfcpu configuration exists, or pdfcpu writes a config
	// directory under $HOME. Idempotent and safe for concurrent use.
	api.DisableConfigDir()
	conf := model.NewAESConfiguration(userPW, "pdftest-owner", keyLength)
	plain, err := pdf.Sample(1, "Encrypted Agreement")
	if err != nil {
		t.Fatalf("pdftest: sample: %v", err)
	}
	var out bytes.Buffer
	if err := api.Encrypt(bytes.NewReader(plain), &out, conf); err != nil {
		t.Fatalf("pdftest: encrypt: %v", err)
	}
	b := out.Bytes()
	if _, err := pdf.Inspect(context.Background(), bytes.NewReader(b)); !errors.Is(err, pdf.ErrEncrypted) {
		t.Fatalf("pdftest: Inspect(encrypted fixture) = %v, want ErrEncrypted", err)
	}
	return b
}

// Truncated returns the first 75% of ThreePages, a PDF cut off as by an
// interrupted upload, for which Inspect returns pdf.ErrMalformed.
func Truncated(t testing.TB) []byte {
	t.Helper()
	full := ThreePages(t)
	b := full[:len(full)*3/4]
	if _, err := pdf.Inspect(context.Background(), bytes.NewReader(b)); !errors.Is(err, pdf.ErrMalformed) {
		t.Fatalf("pdftest: Inspect(truncated fixture) = %v, want ErrMalformed", err)
	}
	return b
}

// NotPDF returns a valid 1x1 PNG image, a file that is not a PDF at all.
func NotPDF() []byte {
	return []byte{
		0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d,
		0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
		0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xde, 0x00, 0x00, 0x00,
		0x10, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x62, 0xd2, 0xce, 0xd9, 0x00,
		0x08, 0x00, 0x00, 0xff, 0xff, 0x02, 0x15, 0x01, 0x4a, 0x2a, 0x52, 0x0f,
		0x3a, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60,
		0x82,
	}
}

// OddGeometry returns a valid PDF whose pages exercise inherited and unusual
// page attributes, together with the geometry Inspect must report for it.
//
// The pages are: US Letter rotated 90 (inherited); A4 landscape with /Rotate
// 360; three pages under a Pages node with a CropBox and /Rotate -90 (one
// inheriting both, one with its own MediaBox and a CropBox reaching outside
// it, one with corners given in reverse order and /Rotate 180, one with a
// small MediaBox that clips the inherited CropBox); a page under a Pages node
// that sets A4 landscape; and a last page that must not pick up that sibling's
// MediaBox.
func OddGeometry(t testing.TB) ([]byte, []pdf.Page) {
	t.Helper()
	letter := pdf.Box{URX: 612, URY: 792}
	a4l := pdf.Box{URX: 842, URY: 595}
	crop := pdf.Box{LLX: 36, LLY: 36, URX: 576, URY: 756}
	root := pdf.SampleNode{MediaBox: letter, Rotate: 90, Kids: []pdf.SampleNode{
		{},
		{MediaBox: a4l, Rotate: 360},
		{CropBox: crop, Rotate: -90, Kids: []pdf.SampleNode{
			{},
			{MediaBox: pdf.Box{URX: 500, URY: 500}, CropBox: pdf.Box{LLX: -10, LLY: 100, URX: 400, URY: 600}},
			{MediaBox: pdf.Box{LLX: 612, LLY: 792}, Rotate: 180},
			{MediaBox: pdf.Box{URX: 300, URY: 300}},
		}},
		{MediaBox: a4l, Kids: []pdf.SampleNode{{}}},
		{},
	}}
	b, err := pdf.SampleTree(root, "Odd Geometry")
	if err != nil {
		t.Fatalf("pdftest: sample tree: %v", err)
	}
	want := []pdf.Page{
		{MediaBox: letter, CropBox: letter, Rotate: 90},
		{MediaBox: a4l, CropBox: a4l, Rotate: 0},
		{MediaBox: letter, CropBox: crop, Rotate: 270},
		{MediaBox: pdf.Box{URX: 500, URY: 500}, CropBox: pdf.Box{LLY: 100, URX: 400, URY: 500}, Rotate: 270},
		{MediaBox: letter, CropBox: crop, Rotate: 180},
		{MediaBox: pdf.Box{URX: 300, URY: 300}, CropBox: pdf.Box{LLX: 36, LLY: 36, URX: 300, URY: 300}, Rotate: 270},
		{MediaBox: a4l, CropBox: a4l, Rotate: 90},
		{MediaBox: letter, CropBox: letter, Rotate: 90},
	}
	return b, want
}
