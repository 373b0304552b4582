package pdf

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// formsPDF is a PDF of pages pages, each drawing the form object 4 (shared,
// shared bytes of spaces when decoded) and a form of its own; objects:
// 1 catalog, 2 page tree, 3 an empty content, 4 the shared form, then per
// page the page and its form.
func formsPDF(t *testing.T, pages int, shared int) []byte {
	t.Helper()
	var data bytes.Buffer
	z := zlib.NewWriter(&data)
	if _, err := z.Write(bytes.Repeat([]byte(" "), shared)); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Length 0 >>\nstream\n\nendstream",
		fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", data.Len(), data.Bytes())}
	kids := make([]string, pages)
	for i := range pages {
		page := len(objs) + 1
		kids[i] = fmt.Sprintf("%d 0 R", page)
		own := fmt.Sprintf("0 0 m %d 10 l S", i)
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /S 4 0 R /F %d 0 R >> >> /Contents 3 0 R >>", page+1),
			fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Length %d >>\nstream\n%s\nendstream", len(own), own))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), pages)
	var sb strings.Builder
	sb.WriteString("%PDF-1.7\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = sb.Len()
		fmt.Fprintf(&sb, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := sb.Len()
	fmt.Fprintf(&sb, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offs {
		fmt.Fprintf(&sb, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&sb, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return []byte(sb.String())
}

// readForms reads formsPDF through a streamReader as the layout reader
// does, each page reading the shared form and its own, and returns the
// reader at the end.
func readForms(t *testing.T, content []byte, pages int, l Limits, maxKept int64) *streamReader {
	t.Helper()
	doc, err := l.read(context.Background(), bytes.NewReader(content), MaxPages, false)
	if err != nil {
		t.Fatal(err)
	}
	r := newStreamReader(doc.pc.XRefTable, l.withDefaults())
	r.maxKept = maxKept
	for i := range pages {
		r.endPage()
		for _, nr := range []int{4, 6 + 2*i} {
			if b := r.Stream(*types.NewIndirectRef(nr, 0), 1<<40, true); b == nil {
				t.Fatalf("page %d: form %d not read: %v", i+1, nr, r.Err())
			}
		}
	}
	r.endPage()
	return r
}

// A form every page draws is kept from page to page; a page's own form is
// dropped at the end of its page, so what is kept does not grow with the
// page count.
func TestStreamReaderKeepsOnlyWhatPagesShare(t *testing.T) {
	const pages = 40
	r := readForms(t, formsPDF(t, pages, 1000), pages, Limits{}, maxKeptStreamBytes)
	if len(r.cache) != 1 || r.cache[4] == nil || r.cache[4].pages != pages {
		kept := []int{}
		for nr := range r.cache {
			kept = append(kept, nr)
		}
		t.Fatalf("kept %v, want only the shared form 4 (read on %d pages)", kept, pages)
	}
	if r.kept != 1000 {
		t.Errorf("kept %d bytes, want the shared form's 1000", r.kept)
	}
}

// A shared form larger than the bytes kept (lowered here to 64 KiB) is
// dropped and decoded again on the next page, but counts toward the
// whole-file cap once: a file whose streams are within the cap reads.
func TestStreamReaderCountsAStreamOnce(t *testing.T) {
	const pages, shared = 3, 100 << 10
	content := formsPDF(t, pages, shared)
	l := Limits{MaxStreamBytes: 1 << 20, MaxFileBytes: shared + 1<<10, MaxLayoutTime: time.Minute}
	r := readForms(t, content, pages, l, 64<<10)
	if r.Err() != nil {
		t.Fatalf("the file cap was passed: %v", r.Err())
	}
	if len(r.cache) != 0 || r.kept != 0 {
		t.Errorf("kept %d streams (%d bytes) past maxKeptStreamBytes", len(r.cache), r.kept)
	}
	if want := int64(shared + 3*len("0 0 m 0 10 l S")); r.total != want {
		t.Errorf("counted %d bytes, want %d (each stream once)", r.total, want)
	}
}
