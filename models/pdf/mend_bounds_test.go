package pdf_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// One compressed object named by several cross-reference entries: the
// strict check refuses the file, and the repair pass rebuilds it from the
// object stream's own header, the object once. Encrypted, the object
// stream cannot be read without the cross-reference data, and the file
// stays refused.
func TestSharedCompressedObject(t *testing.T) {
	ctx := context.Background()
	plain := pdftest.SharedCompressedObjectPlain(20, 1<<20)
	if _, err := pdf.Inspect(ctx, bytes.NewReader(plain)); !errors.Is(err, pdf.ErrMalformed) || !strings.Contains(err.Error(), "several cross-reference entries") {
		t.Fatalf("Inspect = %v, want ErrMalformed for entries sharing a place", err)
	}
	m, info, err := mend(t, plain)
	if err != nil || len(info.Pages) != 1 || !slices0(m.Repairs, pdf.RepairXRefRebuilt) {
		t.Fatalf("Mend: %d pages, repairs %v, %v; want the document rebuilt", len(info.Pages), m.Repairs, err)
	}
	if len(m.Content) > 2*len(plain) {
		t.Errorf("rebuilt into %d bytes from %d: the object was copied", len(m.Content), len(plain))
	}
	if _, _, err := mend(t, pdftest.SharedCompressedObject(20, 1<<20)); !errors.Is(err, pdf.ErrMalformed) {
		t.Errorf("Mend(encrypted) = %v, want ErrMalformed", err)
	}
}

// Decrypting keeps object streams as they are, decrypted but not decoded:
// two objects of 31 MiB of spaces stay in their 31 KB streams.
func TestMendDecryptKeepsObjectStreams(t *testing.T) {
	b := pdftest.EncryptedObjectStreams(2, 1, pdftest.RoundTwoSize)
	res := mendAndInspect(t, pdf.DefaultLimits(), b)
	if res.err != nil || len(res.info.Pages) != 1 {
		t.Fatalf("Mend and Inspect: %d pages, %v", len(res.info.Pages), res.err)
	}
	if res.outBytes > 2*len(b) {
		t.Errorf("decrypted into %d bytes from %d", res.outBytes, len(b))
	}
	if res.alloc > roundTwoAlloc {
		t.Errorf("allocated %d MB", res.alloc>>20)
	}
	t.Logf("%d bytes decrypted into %d; %d MB allocated", len(b), res.outBytes, res.alloc>>20)
}

// The repair pass reads each object of an object stream from its own span:
// entries sharing an offset, out of order, or running into the next one
// are damage.
func TestRepairObjectStreamEntries(t *testing.T) {
	for name, tt := range map[string]struct {
		pdf  []byte
		want string
	}{
		"sharing offset 0":   {pdftest.SharedOffsetObjectStream(3, 100), "share an offset"},
		"overlapping arrays": {pdftest.OverlappingObjectStream(3, 100, true), "within its span"},
	} {
		_, _, err := mend(t, tt.pdf)
		if !errors.Is(err, pdf.ErrMalformed) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Mend = %v, want ErrMalformed (%s)", name, err, tt.want)
		}
	}
	// One entry each, in order: the same shapes are repaired.
	for name, b := range map[string][]byte{
		"one object":       pdftest.SharedOffsetObjectStream(1, 100),
		"one nested array": pdftest.OverlappingObjectStream(1, 100, true),
	} {
		if _, info, err := mend(t, b); err != nil || len(info.Pages) != 1 {
			t.Errorf("%s: Mend = %d pages, %v; want the page", name, len(info.Pages), err)
		}
	}
}

// A mended file larger than MaxOutputBytes is refused with the cap named,
// whether repaired or decrypted, and so is a page edit's output.
func TestMaxOutputBytes(t *testing.T) {
	ctx := context.Background()
	gs := readTestdata(t, "ghostscript.pdf")
	for name, b := range map[string][]byte{
		"repaired":  shiftOffsets(t, gs),
		"decrypted": readTestdata(t, "qpdf-aes256.pdf"),
	} {
		free, err := pdf.DefaultLimits().Mend(ctx, bytes.NewReader(b))
		if err != nil || free.Content == nil {
			t.Fatalf("%s: Mend without a cap = %v", name, err)
		}
		capped := pdf.Limits{MaxOutputBytes: int64(len(free.Content)) - 1}
		_, err = capped.Mend(ctx, bytes.NewReader(b))
		var tooLarge *pdf.OutputTooLargeError
		if !errors.Is(err, pdf.ErrOutputTooLarge) || !errors.As(err, &tooLarge) || tooLarge.Limit != capped.MaxOutputBytes {
			t.Errorf("%s: Mend with a cap 1 byte short = %v, want an *OutputTooLargeError of %d", name, err, capped.MaxOutputBytes)
		}
		capped.MaxOutputBytes++
		if m, err := capped.Mend(ctx, bytes.NewReader(b)); err != nil || !bytes.Equal(m.Content, free.Content) {
			t.Errorf("%s: Mend with a cap of exactly the output = %v", name, err)
		}
	}

	doc := pdftest.ThreePages(t)
	deleted, _, err := pdf.DeletePage(ctx, doc, 2)
	if err != nil {
		t.Fatal(err)
	}
	small := pdf.Limits{MaxOutputBytes: int64(len(deleted)) / 2}
	if _, _, err := small.DeletePage(ctx, doc, 2); !errors.Is(err, pdf.ErrOutputTooLarge) {
		t.Errorf("DeletePage over the cap = %v, want ErrOutputTooLarge", err)
	}
	if _, _, err := small.MovePage(ctx, doc, 1, 3); !errors.Is(err, pdf.ErrOutputTooLarge) {
		t.Errorf("MovePage over the cap = %v, want ErrOutputTooLarge", err)
	}
	roomy := pdf.Limits{MaxOutputBytes: 4 * int64(len(doc))}
	if _, info, err := roomy.MovePage(ctx, doc, 1, 3); err != nil || len(info.Pages) != 3 {
		t.Errorf("MovePage within the cap = %d pages, %v", len(info.Pages), err)
	}
}

func slices0(s []string, first string) bool { return len(s) > 0 && s[0] == first }
