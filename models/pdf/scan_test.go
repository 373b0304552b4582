package pdf_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// small are caps that let the tests use bombs of a few MiB.
var small = pdf.Limits{MaxStreamBytes: 1 << 20, MaxFileBytes: 3 << 20}

func TestInspectRefusesStreamsThatExpandPastTheCaps(t *testing.T) {
	const under, over = 512 << 10, 2 << 20
	tests := []struct {
		name      string
		doc       pdftest.Expanding
		wholeFile bool // the per-file cap, not the per-stream cap, is passed
	}{
		{"flate content stream", pdftest.Expanding{Pages: 2, Content: []int64{over}}, false},
		{"flate object stream", pdftest.Expanding{Pages: 2, ObjectStream: over}, false},
		{"LZW", pdftest.Expanding{Pages: 2, Content: []int64{over}, Filters: []string{"LZWDecode"}}, false},
		{"RunLength", pdftest.Expanding{Pages: 2, Content: []int64{over}, Filters: []string{"RunLengthDecode"}}, false},
		{"ASCIIHex then Flate", pdftest.Expanding{Pages: 2, Content: []int64{over}, Filters: []string{"ASCIIHexDecode", "FlateDecode"}}, false},
		{"Flate then Flate", pdftest.Expanding{Pages: 2, Content: []int64{over}, Filters: []string{"FlateDecode", "FlateDecode"}}, false},
		{"ASCII85 then LZW", pdftest.Expanding{Pages: 2, Content: []int64{over}, Filters: []string{"ASCII85Decode", "LZWDecode"}}, false},
		{"flate cross-reference stream", pdftest.Expanding{Pages: 2, ObjectStream: 4 << 10, XRefPadding: over}, false},
		{"several streams, each under the stream cap", pdftest.Expanding{Pages: 8, Content: []int64{900 << 10, 900 << 10, 900 << 10, 900 << 10}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.doc.Build(t)
			_, err := small.Inspect(context.Background(), bytes.NewReader(b))
			var ee *pdf.ExpandsError
			if !errors.Is(err, pdf.ErrExpandsTooMuch) || !errors.As(err, &ee) {
				t.Fatalf("Inspect = %v, want ErrExpandsTooMuch", err)
			}
			want := small.MaxStreamBytes
			if tt.wholeFile {
				want = small.MaxFileBytes
			}
			if ee.WholeFile != tt.wholeFile || ee.Limit != want || ee.Object == 0 {
				t.Fatalf("ExpandsError = %+v, want WholeFile %v, Limit %d", ee, tt.wholeFile, want)
			}
			if !strings.Contains(err.Error(), pdf.MiB(want)) {
				t.Errorf("message %q does not name the cap", err)
			}
		})
	}
	// The same documents below the caps pass: the decoders read real data.
	for _, filters := range [][]string{nil, {"LZWDecode"}, {"RunLengthDecode"}, {"ASCIIHexDecode", "FlateDecode"}, {"ASCII85Decode", "LZWDecode"}} {
		b := pdftest.Expanding{Pages: 3, Content: []int64{under, under}, Filters: filters}.Build(t)
		if info, err := small.Inspect(context.Background(), bytes.NewReader(b)); err != nil || len(info.Pages) != 3 {
			t.Errorf("%v under the caps: %d pages, %v", filters, len(info.Pages), err)
		}
	}
	b := pdftest.Expanding{Pages: 2, ObjectStream: under}.Build(t)
	if info, err := small.Inspect(context.Background(), bytes.NewReader(b)); err != nil || len(info.Pages) != 2 {
		t.Errorf("object stream under the caps: %d pages, %v", len(info.Pages), err)
	}
}

// TestDecodeAbortsEarly inspects a 100 MiB object stream bomb with the
// default caps and checks what it cost: pdfcpu's own decoding buffers what
// it decodes up to its limit (more, as its buffer doubles); the pre-scan
// holds none of it and stops at the cap.
func TestDecodeAbortsEarly(t *testing.T) {
	b := pdftest.Expanding{Pages: 1, ObjectStream: 100 << 20}.Build(t)
	src := bytes.NewReader(b)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := pdf.Inspect(context.Background(), src)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, pdf.ErrExpandsTooMuch) {
		t.Fatalf("Inspect = %v, want ErrExpandsTooMuch", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("Inspect allocated %d bytes refusing the bomb; the decoded data must not be held", alloc)
	}
}

func TestPageEditsRefuseExpandingPDFs(t *testing.T) {
	b := pdftest.Expanding{Pages: 3, Content: []int64{2 << 20}}.Build(t)
	ctx := context.Background()
	if _, _, err := small.DeletePage(ctx, b, 2); !errors.Is(err, pdf.ErrExpandsTooMuch) {
		t.Errorf("DeletePage = %v, want ErrExpandsTooMuch", err)
	}
	if _, _, err := small.MovePage(ctx, b, 1, 3); !errors.Is(err, pdf.ErrExpandsTooMuch) {
		t.Errorf("MovePage = %v, want ErrExpandsTooMuch", err)
	}
	ok := pdftest.Expanding{Pages: 3, Content: []int64{256 << 10}}.Build(t)
	if _, info, err := small.DeletePage(ctx, ok, 2); err != nil || len(info.Pages) != 2 {
		t.Errorf("DeletePage under the caps: %d pages, %v", len(info.Pages), err)
	}
}

// TestRealPDFsPassTheDefaultCaps keeps the defaults honest: every file a
// mainstream producer wrote for these tests passes (the encrypted ones are
// refused as encrypted, as before).
func TestRealPDFsPassTheDefaultCaps(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.pdf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test PDFs: %v", err)
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		_, err = pdf.DefaultLimits().Inspect(context.Background(), f)
		f.Close()
		if err != nil && !(errors.Is(err, pdf.ErrEncrypted) && strings.Contains(name, "qpdf-a") || strings.Contains(name, "qpdf-rc4")) {
			t.Errorf("%s: %v", name, err)
		}
	}
	big := pdftest.Expanding{Pages: 50, Content: []int64{20 << 20, 20 << 20, 20 << 20}}.Build(t)
	if info, err := pdf.DefaultLimits().Inspect(context.Background(), bytes.NewReader(big)); err != nil || len(info.Pages) != 50 {
		t.Errorf("60 MiB decoded in three streams: %d pages, %v", len(info.Pages), err)
	}
}
