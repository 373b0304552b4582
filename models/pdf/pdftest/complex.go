package pdftest

import (
	"fmt"
	"strings"
)

// SelfDrawingForm is a valid one-page PDF whose page draws a form XObject
// that draws itself thousands of times: it passes Inspect, but reading its
// layout stops at the cap on forms drawn (pdf.ErrTooComplex).
func SelfDrawingForm() []byte {
	body := strings.Repeat("/X Do ", 5000)
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /X 5 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(body), body),
		fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /X 5 0 R >> >> /Length %d >>\nstream\n%s\nendstream", len(body), body),
	}
	return RawPDF(objs)
}

// RawPDF writes objects 1..n (object 1 the catalog) with a cross-reference
// table: a hand-made PDF for tests of what a reader does with odd content.
func RawPDF(objs []string) []byte {
	return rawPDFVersion("1.7", objs)
}

// rawPDFVersion is RawPDF with the header's version.
func rawPDFVersion(version string, objs []string) []byte {
	var sb strings.Builder
	sb.WriteString("%PDF-" + version + "\n")
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
