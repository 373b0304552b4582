package pdf_test

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// fuzzAllocPerByte and fuzzAllocBase bound what one call of Mend may
// allocate in all (runtime.MemStats.TotalAlloc) on a fuzz input of n bytes:
// fuzzAllocPerByte×n + fuzzAllocBase. The repair pass holds the file, its
// copy and the objects' text (a few times n); pdfcpu's reading costs some
// tens of times n on small files. The base covers what does not grow with
// the input: pdfcpu's configuration and reader set-up, the decode
// counters' buffers, and decoding object streams within fuzzLimits (a
// 1 MiB stream decoded into a buffer that grows by doubling, then parsed).
// A fuzz input that passes the bound is a bug: some work that does not
// follow the input, such as a copy per cross-reference entry.
const (
	fuzzAllocPerByte = 64
	fuzzAllocBase    = 24 << 20
)

// mendWithinMemory runs fuzzLimits.Mend on data, failing t when it
// allocates more than the bound above.
func mendWithinMemory(t *testing.T, data []byte) (pdf.Mended, error) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m, err := fuzzLimits.Mend(context.Background(), bytes.NewReader(data))
	runtime.ReadMemStats(&after)
	if alloc, bound := after.TotalAlloc-before.TotalAlloc, uint64(fuzzAllocPerByte*len(data)+fuzzAllocBase); alloc > bound {
		t.Fatalf("Mend of %d bytes allocated %d bytes, more than %d×%d + %d MiB (%v)", len(data), alloc, fuzzAllocPerByte, len(data), fuzzAllocBase>>20, err)
	}
	return m, err
}

// roundTwoSeeds are the round-two hostile files at small sizes.
func roundTwoSeeds() [][]byte {
	const size = 64 << 10
	return [][]byte{
		pdftest.SharedCompressedObject(5, size),
		pdftest.SharedCompressedObjectPlain(5, size),
		pdftest.EncryptedObjectStreams(3, 1, 900<<10),
		pdftest.SharedOffsetObjectStream(8, size),
		pdftest.OverlappingObjectStream(8, size, true),
		pdftest.OverlappingObjectStream(8, size, false),
		pdftest.WhitespaceRuns(256<<10, 16),
		pdftest.DroppedFontSubset(),
	}
}

// checkMended checks what Mend gave: a classified refusal, or a file no
// larger than a copy may be that passes the structural checks (Mend finds
// nothing more to do in it) and that Inspect accepts or refuses with a
// classified error.
func checkMended(t *testing.T, data []byte, m pdf.Mended, err error) {
	t.Helper()
	ctx := context.Background()
	if err != nil {
		if !knownError(err) && !errors.Is(err, pdf.ErrPasswordRequired) {
			t.Fatalf("unclassified error: %v", err)
		}
		if strings.Contains(err.Error(), "internal parser failure") {
			t.Fatalf("recovered panic: %v", err)
		}
		return
	}
	if m.Content == nil {
		if m.Decrypted || len(m.Repairs) != 0 {
			t.Fatalf("repairs %v, decrypted %t without a new file", m.Repairs, m.Decrypted)
		}
		return
	}
	growth := 4 // a repaired copy holds the objects as written
	if m.Decrypted {
		growth = 8 // pdfcpu writes a real with 12 decimals
	}
	if len(m.Content) > growth*len(data)+1<<20 {
		t.Fatalf("%d bytes in, %d bytes out", len(data), len(m.Content))
	}
	again, err := fuzzLimits.Mend(ctx, bytes.NewReader(m.Content))
	if err != nil || again.Content != nil {
		t.Fatalf("the mended file does not re-check clean: %v (repairs %v)", err, again.Repairs)
	}
	if m.Decrypted && bytes.Contains(m.Content, []byte("/Encrypt")) {
		t.Fatal("the decrypted copy names an encryption dictionary")
	}
	if _, err := fuzzLimits.Inspect(ctx, bytes.NewReader(m.Content)); err != nil && (!knownError(err) || strings.Contains(err.Error(), "internal parser failure")) {
		t.Fatalf("Inspect of the mended file: %v", err)
	}
}

// FuzzRepair feeds damaged files to Mend: it must never panic, classify
// every refusal, allocate no more than its bound, keep its output within a
// few times the input, and give a file that passes the structural checks
// and that Inspect accepts or refuses with a classified error.
func FuzzRepair(f *testing.F) {
	good := [][]byte{
		pdftest.ThreePages(f), readTestdata(f, "ghostscript.pdf"), readTestdata(f, "qpdf-objstm.pdf"),
		readTestdata(f, "qpdf-aes256.pdf"),
	}
	for _, b := range good {
		f.Add(shiftOffsets(f, b))
		f.Add(breakStartXRef(f, b))
		f.Add(crlf(b))
		f.Add(stripEOF(f, b))
		f.Add(b[:len(b)*40/100])
	}
	f.Add(shiftOffsets(f, pdftest.Expanding{Pages: 2, ObjectStream: 3 << 20}.Build(f)))
	f.Add([]byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n"))
	f.Add([]byte("%PDF-1.4\n99999999 0 obj\n<< /Type /Catalog >>\nendobj\n"))
	for _, b := range roundTwoSeeds() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := mendWithinMemory(t, data)
		checkMended(t, data, m, err)
	})
}

// FuzzDecrypt feeds encrypted files to Mend, which measures their streams
// (decrypting them on the way) and decrypts them: the same checks as
// FuzzRepair, and a decrypted copy names no encryption.
func FuzzDecrypt(f *testing.F) {
	api.DisableConfigDir()
	plain := pdftest.ThreePages(f)
	bomb := pdftest.Expanding{Pages: 2, Content: []int64{3 << 20}}.Build(f)
	for _, conf := range []*model.Configuration{
		model.NewRC4Configuration("", "owner", 40),
		model.NewRC4Configuration("", "owner", 128),
		model.NewAESConfiguration("", "owner", 128),
		model.NewAESConfiguration("", "owner", 256),
		model.NewAESConfiguration("secret", "owner", 128),
	} {
		for _, b := range [][]byte{plain, bomb} {
			var out bytes.Buffer
			if err := api.Encrypt(bytes.NewReader(b), &out, conf); err != nil {
				f.Fatal(err)
			}
			f.Add(out.Bytes())
		}
	}
	for _, name := range []string{"qpdf-aes256.pdf", "qpdf-rc4-40.pdf", "qpdf-aes128-form.pdf"} {
		f.Add(readTestdata(f, name))
	}
	f.Add(pdftest.SharedCompressedObject(5, 64<<10))
	f.Add(pdftest.EncryptedObjectStreams(3, 1, 900<<10))
	f.Add(pdftest.EncryptedObjectStreams(1, 2, 1<<10))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := mendWithinMemory(t, data)
		checkMended(t, data, m, err)
	})
}
