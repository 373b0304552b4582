package pdf_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// mend runs Mend and then Inspect on what it returns, as an upload does.
func mend(t testing.TB, b []byte) (pdf.Mended, pdf.Info, error) {
	t.Helper()
	m, err := pdf.Mend(context.Background(), bytes.NewReader(b))
	if err != nil {
		return m, pdf.Info{}, err
	}
	if m.Content == nil {
		info, err := inspectBytes(b)
		return m, info, err
	}
	info, err := inspectBytes(m.Content)
	if err != nil {
		t.Errorf("the mended file fails Inspect: %v", err)
	}
	return m, info, err
}

// Damage made to good files, as transfers and broken writers do.

// shiftOffsets inserts a comment before the second object without updating
// the cross-reference data: every later offset is wrong.
func shiftOffsets(t testing.TB, b []byte) []byte {
	t.Helper()
	i := bytes.Index(b, []byte("endobj"))
	if i < 0 {
		t.Fatal("no endobj")
	}
	i += len("endobj")
	return slices.Concat(b[:i], []byte("\n% a line the cross-reference table does not know about\n"), b[i:])
}

// breakStartXRef makes the last startxref point into the middle of the file.
func breakStartXRef(t testing.TB, b []byte) []byte {
	t.Helper()
	i := bytes.LastIndex(b, []byte("startxref"))
	j := bytes.LastIndex(b, []byte("%%EOF"))
	if i < 0 || j < i {
		t.Fatal("no startxref")
	}
	return slices.Concat(b[:i], []byte("startxref\n"+strconv.Itoa(len(b)/2)+"\n"), b[j:])
}

// crlf turns every line feed into CR LF, as a text-mode transfer does.
func crlf(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }

// stripEOF removes the %%EOF marker (and what follows it).
func stripEOF(t testing.TB, b []byte) []byte {
	t.Helper()
	j := bytes.LastIndex(b, []byte("%%EOF"))
	if j < 0 {
		t.Fatal("no end-of-file marker")
	}
	return bytes.Clone(b[:j])
}

func TestMendRepairs(t *testing.T) {
	good := map[string][]byte{
		"Sample(3)":       sample(t, 3, "Repair"),
		"Ghostscript":     readTestdata(t, "ghostscript.pdf"),
		"Chromium (Skia)": readTestdata(t, "chromium-skia.pdf"),
		"cairo":           readTestdata(t, "cairo.pdf"),
		"qpdf objstm":     readTestdata(t, "qpdf-objstm.pdf"),
		"qpdf linearized": readTestdata(t, "qpdf-linearized.pdf"),
	}
	damage := []struct {
		name  string
		apply func(testing.TB, []byte) []byte
		want  []string // any of these first repairs
	}{
		{"offsets shifted", shiftOffsets, []string{pdf.RepairXRefRebuilt}},
		{"startxref wrong", breakStartXRef, []string{pdf.RepairXRefRebuilt}},
		{"CRLF line endings", func(_ testing.TB, b []byte) []byte { return crlf(b) }, []string{pdf.RepairLineEndings}},
		{"no %%EOF", stripEOF, []string{pdf.RepairEOFAdded}},
		{"offsets shifted and no %%EOF", func(t testing.TB, b []byte) []byte { return stripEOF(t, shiftOffsets(t, b)) }, []string{pdf.RepairXRefRebuilt}},
	}
	for name, b := range good {
		want, err := inspectBytes(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, d := range damage {
			t.Run(name+"/"+d.name, func(t *testing.T) {
				bad := d.apply(t, b)
				if _, err := inspectBytes(bad); !errors.Is(err, pdf.ErrMalformed) {
					t.Fatalf("Inspect(damaged) = %v, want ErrMalformed (the damage must be real)", err)
				}
				m, info, err := mend(t, bad)
				if err != nil {
					t.Fatalf("Mend = %v", err)
				}
				if m.Content == nil || m.Decrypted || len(m.Repairs) == 0 || !slices.Contains(d.want, m.Repairs[0]) {
					t.Fatalf("Mend = content %t, decrypted %t, repairs %v; want a repaired file with %v", m.Content != nil, m.Decrypted, m.Repairs, d.want)
				}
				if len(info.Pages) != len(want.Pages) {
					t.Errorf("repaired file has %d pages, want %d", len(info.Pages), len(want.Pages))
				}
			})
		}
	}
}

// TestMendStreamLengths rebuilds a file whose offsets and stream lengths are
// wrong: the lengths come from the endstream keywords (a direct /Length too
// short, an indirect one too long).
func TestMendStreamLengths(t *testing.T) {
	content := "BT /F1 12 Tf 72 700 Td (Signature: ______) Tj ET\n0 0 m 100 100 l S"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content)-10, content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		"<< /Length 6 0 R >>\nstream\nq Q\nendstream",
		"3",
	}
	b := shiftOffsets(t, pdftest.RawPDF(objs))
	m, info, err := mend(t, b)
	if err != nil {
		t.Fatalf("Mend = %v", err)
	}
	if !slices.Equal(m.Repairs, []string{pdf.RepairXRefRebuilt, pdf.RepairStreamLength}) || len(info.Pages) != 1 {
		t.Fatalf("Mend: repairs %v, %d pages; want xref_rebuilt, stream_length_fixed and 1 page", m.Repairs, len(info.Pages))
	}
	if !bytes.Contains(m.Content, []byte(content+"\nendstream")) || !bytes.Contains(m.Content, []byte(fmt.Sprintf("/Length %d", len(content)))) {
		t.Errorf("the stream was not kept whole with its true length:\n%s", m.Content)
	}
}

func TestMendNothingToDo(t *testing.T) {
	for name, b := range map[string][]byte{
		"Sample(2)":   sample(t, 2, "Fine"),
		"qpdf objstm": readTestdata(t, "qpdf-objstm.pdf"),
		// Damage that is not in the structure is not the repair pass's.
		"page count mismatch": replace(t, sample(t, 3, "Count"), "/Count 3", "/Count 4"),
	} {
		m, err := pdf.Mend(context.Background(), bytes.NewReader(b))
		if err != nil || m.Content != nil || m.Decrypted || len(m.Repairs) != 0 {
			t.Errorf("%s: Mend = %+v, %v; want nothing to do", name, m.Repairs, err)
		}
	}
}

// TestMendRefuses: what viewers do not open (or only as a shorter document)
// stays refused.
func TestMendRefuses(t *testing.T) {
	good := sample(t, 3, "Cut")
	gs := readTestdata(t, "ghostscript.pdf")
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"cut at 40%", good[:len(good)*40/100], pdf.ErrMalformed},
		{"Ghostscript cut at 40%", gs[:len(gs)*40/100], pdf.ErrMalformed},
		{"qpdf objstm cut at 40%", func() []byte { b := readTestdata(t, "qpdf-objstm.pdf"); return b[:len(b)*40/100] }(), pdf.ErrMalformed},
		{"cut at 40% with CR LF", crlf(good[:len(good)*40/100]), pdf.ErrMalformed},
		{"HTML named .pdf", []byte("<!doctype html>\n<html><body>Not found</body></html>\n"), pdf.ErrNotPDF},
		{"header then HTML", []byte("%PDF-1.4\n<html><body>oops</body></html>\n"), pdf.ErrMalformed},
		{"needs a password", pdftest.EncryptedWithPassword(t), pdf.ErrPasswordRequired},
		{"needs a password, offsets shifted", shiftOffsets(t, pdftest.EncryptedWithPassword(t)), pdf.ErrPasswordRequired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if m, _, err := mend(t, tt.data); !errors.Is(err, tt.want) {
				t.Errorf("Mend = %v (repairs %v), want %v", err, m.Repairs, tt.want)
			}
		})
	}
}

// TestMendTruncated cuts files viewers open at many points (valid ones, and
// one whose table lists an object never written): a cut file is refused,
// or mended into the whole document (a cut that drops only the
// cross-reference data and the trailer loses nothing a viewer shows), never
// into a shorter one.
func TestMendTruncated(t *testing.T) {
	files := []struct {
		name   string
		data   []byte
		stride int
	}{
		{"Sample(3)", sample(t, 3, "Cut"), 7},
		{"incremental update", appendUpdate(t, sample(t, 1, "Cut")), 5},
		{"Ghostscript", readTestdata(t, "ghostscript.pdf"), 7},
		{"qpdf object streams", readTestdata(t, "qpdf-objstm.pdf"), 7},
		{"Chromium (Skia)", readTestdata(t, "chromium-skia.pdf"), 41},
		{"cairo 1.16, a font subset dropped", pdftest.DroppedFontSubset(), 3},
	}
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			_, full, err := mend(t, f.data)
			if err != nil {
				t.Fatal(err)
			}
			accepted := 0
			for n := len("%PDF-1.7\n"); n < len(f.data); n += f.stride {
				_, info, err := mend(t, f.data[:n])
				switch {
				case err == nil:
					accepted++
					if len(info.Pages) != len(full.Pages) {
						t.Errorf("cut at %d of %d: mended into %d pages, want %d or a refusal", n, len(f.data), len(info.Pages), len(full.Pages))
					}
				case !errors.Is(err, pdf.ErrMalformed):
					t.Errorf("cut at %d of %d: %v, want ErrMalformed", n, len(f.data), err)
				}
			}
			t.Logf("%d of %d cuts mended into the whole document", accepted, (len(f.data)-9)/f.stride)
		})
	}
}

func TestMendDecrypts(t *testing.T) {
	api.DisableConfigDir()
	encrypt := func(conf *model.Configuration) []byte {
		var out bytes.Buffer
		if err := api.Encrypt(bytes.NewReader(sample(t, 2, "Secret")), &out, conf); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	tests := []struct {
		name    string
		data    []byte
		pages   int
		repairs []string
	}{
		{"AES-256 (pdfcpu)", pdftest.Encrypted(t), 1, nil},
		{"AES-128 (pdfcpu)", encrypt(model.NewAESConfiguration("", "owner", 128)), 2, nil},
		{"RC4-128 (pdfcpu)", encrypt(model.NewRC4Configuration("", "owner", 128)), 2, nil},
		{"RC4-40 (pdfcpu)", encrypt(model.NewRC4Configuration("", "owner", 40)), 2, nil},
		{"AES-256 (qpdf)", readTestdata(t, "qpdf-aes256.pdf"), 2, nil},
		{"RC4-40 (qpdf)", readTestdata(t, "qpdf-rc4-40.pdf"), 2, nil},
		{"AES-256 (qpdf), offsets shifted", shiftOffsets(t, readTestdata(t, "qpdf-aes256.pdf")), 2, []string{pdf.RepairXRefRebuilt}},
		{"RC4-128 (pdfcpu), CR LF", crlf(encrypt(model.NewRC4Configuration("", "owner", 128))), 2, []string{pdf.RepairLineEndings}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, info, err := mend(t, tt.data)
			if err != nil {
				t.Fatalf("Mend = %v", err)
			}
			if !m.Decrypted || len(info.Pages) != tt.pages || !slices.Equal(m.Repairs, append([]string{}, tt.repairs...)) {
				t.Errorf("Mend: decrypted %t, %d pages, repairs %v; want decrypted, %d pages, repairs %v", m.Decrypted, len(info.Pages), m.Repairs, tt.pages, tt.repairs)
			}
			if bytes.Contains(m.Content, []byte("/Encrypt")) {
				t.Error("the decrypted copy still names an encryption dictionary")
			}
		})
	}
}

// TestMendKeepsCaps: a decompression bomb inside a damaged or encrypted file
// is still refused by the decode caps; an encrypted one by Mend itself,
// its streams measured before anything is decrypted.
func TestMendKeepsCaps(t *testing.T) {
	api.DisableConfigDir()
	limits := pdf.Limits{MaxStreamBytes: 1 << 20, MaxFileBytes: 2 << 20}
	bomb := pdftest.Expanding{Pages: 2, Content: []int64{3 << 20}}.Build(t)
	objStmBomb := pdftest.Expanding{Pages: 2, ObjectStream: 3 << 20}.Build(t)
	spread := pdftest.Expanding{Pages: 3, Content: []int64{900 << 10, 900 << 10, 900 << 10}}.Build(t)
	encrypt := func(b []byte, conf *model.Configuration) []byte {
		var out bytes.Buffer
		if err := api.Encrypt(bytes.NewReader(b), &out, conf); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	tests := []struct {
		name string
		data []byte
		// byMend: Mend refuses it itself, before decrypting.
		byMend bool
	}{
		{"damaged", shiftOffsets(t, bomb), false},
		{"CR LF", crlf(bomb), false},
		{"object stream bomb damaged", breakStartXRef(t, objStmBomb), true},
		{"encrypted AES-256", encrypt(bomb, model.NewAESConfiguration("", "owner", 256)), true},
		{"encrypted AES-128", encrypt(bomb, model.NewAESConfiguration("", "owner", 128)), true},
		{"encrypted RC4-128", encrypt(bomb, model.NewRC4Configuration("", "owner", 128)), true},
		{"encrypted RC4-40", encrypt(bomb, model.NewRC4Configuration("", "owner", 40)), true},
		{"encrypted object stream (RC4-128)", pdftest.EncryptedObjectStreams(1, 1, 3<<20), true},
		{"encrypted, three streams together", encrypt(spread, model.NewRC4Configuration("", "owner", 128)), true},
		{"encrypted and damaged", shiftOffsets(t, encrypt(bomb, model.NewAESConfiguration("", "owner", 128))), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			m, err := limits.Mend(ctx, bytes.NewReader(tt.data))
			if tt.byMend && !errors.Is(err, pdf.ErrExpandsTooMuch) {
				t.Fatalf("Mend = %v (decrypted %t), want ErrExpandsTooMuch before decrypting", err, m.Decrypted)
			}
			if err == nil {
				_, err = limits.Inspect(ctx, bytes.NewReader(m.Content))
			}
			if !errors.Is(err, pdf.ErrExpandsTooMuch) {
				t.Errorf("Mend then Inspect = %v, want ErrExpandsTooMuch", err)
			}
		})
	}
}

// TestInspectFormWithoutDA: text fields without /DA (as jsPDF writes them)
// pass, as they do in poppler, pdf.js and Acrobat; the stored file is not
// changed (Inspect reads only).
func TestInspectFormWithoutDA(t *testing.T) {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R 5 0 R] >> >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R 5 0 R] >>",
		"<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /Rect [50 700 250 720] /F 4 /P 3 0 R >>",
		"<< /Type /Annot /Subtype /Widget /FT /Tx /T (date) /Rect [50 650 250 670] /F 4 /P 3 0 R /MK << >> >>",
	}
	b := pdftest.RawPDF(objs)
	info, err := inspectBytes(b)
	if err != nil || len(info.Pages) != 1 {
		t.Fatalf("Inspect(form without /DA) = %d pages, %v; want 1 page", len(info.Pages), err)
	}
	if !bytes.Equal(b, pdftest.RawPDF(objs)) || strings.Contains(string(b), "/DA") {
		t.Fatal("the input was changed")
	}
	// An empty /DA on the form is the same as none.
	objs[0] = "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R 5 0 R] /DA () >> >>"
	if _, err := inspectBytes(pdftest.RawPDF(objs)); err != nil {
		t.Errorf("Inspect(form with an empty /DA) = %v", err)
	}
}

// TestMendDecryptKeepsEveryObject: the decrypted copy holds every object of
// the file, a form field's parents too (pdfcpu's own writer drops them), so
// the field keeps its full name.
func TestMendDecryptKeepsEveryObject(t *testing.T) {
	m, info, err := mend(t, readTestdata(t, "qpdf-aes128-form.pdf"))
	if err != nil || !m.Decrypted || len(info.Pages) != 1 {
		t.Fatalf("Mend: decrypted %t, %d pages, %v", m.Decrypted, len(info.Pages), err)
	}
	found, err := detect.Detect(context.Background(), pdf.DefaultLimits(), m.Content)
	if err != nil {
		t.Fatal(err)
	}
	if len(found.Tags) != 1 || found.Tags[0].Text != "client.name" {
		t.Errorf("the decrypted form proposes %+v, want its field client.name", found.Tags)
	}
}
