package pdftest

import (
	"bytes"
	"fmt"
	"io"
)

// DroppedFontSubset is a two-page PDF laid out as cairo 1.16's PDF surface
// writes one in which a font subset was dropped: the second page's
// resources name a font (object 11) that was never written, and the
// cross-reference table still lists it in use, at the offset where cairo
// reserved its number (inside the page's content stream, which was being
// written then). Every file of cairo 1.16 with a font subset it dropped has
// this shape; viewers read the reference as null (ISO 32000-1 7.3.10) and
// show both pages, the text in the dropped font left out. The fonts are not
// embedded here (cairo embeds its subsets), to keep the file small.
func DroppedFontSubset() []byte {
	const (
		pages     = 1
		page1     = 2
		res1      = 3
		content1  = 4
		length1   = 5
		page2     = 6
		res2      = 7
		content2  = 8
		length2   = 9
		font      = 10
		dropped   = 11 // never written
		info      = 12
		catalog   = 13
		numbering = 14
	)
	var out bytes.Buffer
	offsets := make([]int, numbering)
	begin := func(n int) {
		offsets[n] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n", n)
	}
	stream := func(n, length int, content string) (dataAt int) {
		data := deflate(func(w io.Writer) { _, _ = io.WriteString(w, content) })
		begin(n)
		fmt.Fprintf(&out, "<< /Length %d 0 R\n   /Filter /FlateDecode\n>>\nstream\n", length)
		dataAt = out.Len()
		out.Write(data)
		out.WriteString("endstream\nendobj\n")
		begin(length)
		fmt.Fprintf(&out, "   %d\nendobj\n", len(data))
		return dataAt
	}
	resources := func(n int, fonts string) {
		begin(n)
		fmt.Fprintf(&out, "<< /ExtGState <<\n      /a0 << /CA 1 /ca 1 >>\n   >>\n   /Font <<\n%s   >>\n>>\nendobj\n", fonts)
	}
	page := func(n, number, contents, res int) {
		begin(n)
		fmt.Fprintf(&out, "<< /Type /Page %% %d\n   /Parent %d 0 R\n   /MediaBox [ 0 0 595.275591 841.889764 ]\n   /Contents %d 0 R\n"+
			"   /Group <<\n      /Type /Group\n      /S /Transparency\n      /I true\n      /CS /DeviceRGB\n   >>\n   /Resources %d 0 R\n>>\nendobj\n",
			number, pages, contents, res)
	}
	out.WriteString("%PDF-1.5\n%\xb5\xed\xae\xfb\n")
	stream(content1, length1, "0 g\nBT\n/f-0-0 1 Tf\n12 0 0 -12 72 100 Tm\n(Page one) Tj\nET\n")
	resources(res1, fmt.Sprintf("      /f-0-0 %d 0 R\n", font))
	page(page1, 1, content1, res1)
	reservedAt := stream(content2, length2, "0 g\nBT\n/f-0-0 1 Tf\n12 0 0 -12 72 100 Tm\n(Page two) Tj\n/f-1-0 1 Tf\n12 0 0 -12 72 130 Tm\n<0102> Tj\nET\n") + 16
	resources(res2, fmt.Sprintf("      /f-0-0 %d 0 R\n      /f-1-0 %d 0 R\n", font, dropped))
	page(page2, 2, content2, res2)
	begin(font)
	out.WriteString("<< /Type /Font\n   /Subtype /Type1\n   /BaseFont /Helvetica\n   /Encoding /WinAnsiEncoding\n>>\nendobj\n")
	offsets[dropped] = reservedAt
	begin(pages)
	fmt.Fprintf(&out, "<< /Type /Pages\n   /Kids [ %d 0 R %d 0 R ]\n   /Count 2\n>>\nendobj\n", page1, page2)
	begin(info)
	out.WriteString("<< /Producer (cairo 1.16.0 \\(https://cairographics.org\\))\n   /CreationDate (D:20240101000000Z)\n>>\nendobj\n")
	begin(catalog)
	fmt.Fprintf(&out, "<< /Type /Catalog\n   /Pages %d 0 R\n>>\nendobj\n", pages)
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", numbering)
	for n := 1; n < numbering; n++ {
		fmt.Fprintf(&out, "%010d 00000 n \n", offsets[n])
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d\n   /Root %d 0 R\n   /Info %d 0 R\n>>\nstartxref\n%d\n%%%%EOF\n", numbering, catalog, info, xref)
	return out.Bytes()
}
