package pdftest

import (
	"fmt"
	"strings"
)

// Tolerated is a PDF holding an entry that PDF 32000-1 forbids (or allows
// only in later versions) and that viewers ignore: poppler and pdf.js open
// it and show every page. Real producers write such entries: the slide
// classes of LaTeX (powerdot, pdfscreen, pdfslide) and MetaPost slideshows
// write page transitions outside the table, attachment packages their own
// date formats, drawing programs entries of later PDF versions.
type Tolerated struct {
	// Name is the file's name in the corpus.
	Name string
	// What says what the file holds and who writes such files.
	What string
	// PDF is the file.
	PDF []byte
	// Pages is its page count.
	Pages int
}

// ToleratedFiles returns one file per kind of entry viewers ignore, each a
// few pages of text (deterministic).
func ToleratedFiles() []Tolerated {
	trans := func(name, what, version, dict string) Tolerated {
		return Tolerated{Name: name, What: what, Pages: 3, PDF: slides{version: version, pages: 3,
			entries: func(int) string { return "/Trans " + dict + " /Dur 5" }}.build()}
	}
	return []Tolerated{
		trans("trans-style-outside-table", "page transitions /S /Replace (the table has /R), as slide classes write them",
			"1.4", "<< /Type /Trans /S /Replace >>"),
		trans("trans-style-of-a-later-version", "page transitions /S /Fade in a PDF 1.4 file (Fade is PDF 1.5), as pdfTeX's slides write them",
			"1.4", "<< /Type /Trans /S /Fade /D 0.5 >>"),
		trans("trans-dimension-on-dissolve", "page transitions /S /Dissolve with /Dm and /M (only Split and Blinds have /Dm)",
			"1.5", "<< /S /Dissolve /Dm /H /M /I /D 1 >>"),
		trans("trans-direction-outside-table", "page transitions /S /Wipe /Di 45 (the table has 0, 90, 180, 270 and 315)",
			"1.5", "<< /S /Wipe /Di 45 /D 1 >>"),
		trans("trans-duration-zero", "page transitions /D 0 (the duration must be positive), as MetaPost slideshows write them",
			"1.4", "<< /S /Dissolve /D 0 >>"),
		{Name: "attachment-params-date", What: "a file attachment annotation whose embedded file's /Params dates are not PDF dates",
			Pages: 2, PDF: attachmentParams()},
		{Name: "line-annotation-later-entry", What: "a Line annotation with /LLO and /CP (PDF 1.7 entries) in a PDF 1.4 file",
			Pages: 2, PDF: slides{version: "1.4", pages: 2, entries: func(int) string { return "/Annots [5 0 R]" },
				more: []string{"<< /Type /Annot /Subtype /Line /Rect [100 100 300 120] /L [100 110 300 110] /LE [/None /OpenArrow] /LL 10 /LLO 4 /CP /Top /Cap true /C [1 0 0] >>"}}.build()},
		{Name: "font-descriptor-of-another-type", What: "a TrueType font whose font descriptor has /Type /FontDesc (viewers read the descriptor by its /FontDescriptor key)",
			Pages: 2, PDF: trueTypeFont("<< /Type /FontDesc /FontName /Arial /Flags 32 /FontBBox [-665 -325 2000 1040] /ItalicAngle 0 /Ascent 905 /Descent -212 /CapHeight 716 /StemV 80 >>")},
		{Name: "tiling-pattern-without-resources", What: "a tiling pattern without /Resources (its cell only draws a path)",
			Pages: 2, PDF: tilingPattern()},
	}
}

// slides is a PDF of a few pages of text. Objects: 1 the catalog, 2 the
// page tree, 3 the font F1, 4 the content stream every page draws, 5… more,
// then the pages.
type slides struct {
	version string // the header's version
	pages   int
	// entries gives page i's entries besides its /Type, /Parent, /MediaBox,
	// /Resources and /Contents (nil: none).
	entries func(i int) string
	// font is object 3 (empty: Helvetica); resources is each page's
	// /Resources (empty: F1 alone) and contents its /Contents (empty: 4 0 R).
	font, resources, contents string
	more                      []string
}

func (s slides) build() []byte {
	if s.font == "" {
		s.font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
	}
	if s.resources == "" {
		s.resources = "<< /Font << /F1 3 0 R >> >>"
	}
	if s.contents == "" {
		s.contents = "4 0 R"
	}
	body := "BT /F1 24 Tf 72 700 Td (A slide of the talk) Tj 0 -40 Td /F1 14 Tf (Signature) Tj ET\n72 640 m 300 640 l S\n"
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "", s.font, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(body), body)}
	objs = append(objs, s.more...)
	kids := make([]string, s.pages)
	for i := range s.pages {
		entries := ""
		if s.entries != nil {
			entries = " " + s.entries(i)
		}
		kids[i] = fmt.Sprintf("%d 0 R", len(objs)+1)
		objs = append(objs, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources %s /Contents %s%s >>", s.resources, s.contents, entries))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), s.pages)
	return rawPDFVersion(s.version, objs)
}

// attachmentParams is two pages, the first with a file attachment
// annotation whose embedded file's /Params dates are written as C's asctime
// and as ISO 8601.
func attachmentParams() []byte {
	data := "name,amount\nA,1\n"
	return slides{version: "1.6", pages: 2, entries: func(i int) string {
		if i == 0 {
			return "/Annots [5 0 R]"
		}
		return ""
	}, more: []string{
		"<< /Type /Annot /Subtype /FileAttachment /Rect [500 700 520 720] /Name /PushPin /Contents (data.csv) /FS 6 0 R >>",
		"<< /Type /Filespec /F (data.csv) /UF (data.csv) /EF << /F 7 0 R >> >>",
		fmt.Sprintf("<< /Type /EmbeddedFile /Subtype /text#2Fcsv /Params << /Size %d /CreationDate (Mon Aug 13 19:22:16 2012) /ModDate (2012-08-13 19:22) >> /Length %d >>\nstream\n%s\nendstream",
			len(data), len(data), data),
	}}.build()
}

// tilingPattern is two pages filled with a tiling pattern whose cell has
// no /Resources.
func tilingPattern() []byte {
	cell := "0 0 5 5 re f\n"
	draw := "/Pattern cs /P1 scn 72 72 468 200 re f\n"
	return slides{version: "1.4", pages: 2, resources: "<< /Font << /F1 3 0 R >> /Pattern << /P1 5 0 R >> >>", contents: "[4 0 R 6 0 R]",
		more: []string{
			fmt.Sprintf("<< /Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 10 10] /XStep 10 /YStep 10 /Length %d >>\nstream\n%s\nendstream", len(cell), cell),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(draw), draw),
		}}.build()
}

// trueTypeFont is two pages of text, partly in F2, a TrueType font (not
// embedded) with the font descriptor descriptor.
func trueTypeFont(descriptor string) []byte {
	draw := "BT /F2 12 Tf 72 600 Td (Date) Tj ET\n"
	widths := strings.TrimSpace(strings.Repeat("556 ", 95))
	return slides{version: "1.4", pages: 2, resources: "<< /Font << /F1 3 0 R /F2 5 0 R >> >>", contents: "[4 0 R 7 0 R]",
		more: []string{
			"<< /Type /Font /Subtype /TrueType /BaseFont /Arial /FirstChar 32 /LastChar 126 /Widths [" + widths + "] /Encoding /WinAnsiEncoding /FontDescriptor 6 0 R >>",
			descriptor,
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(draw), draw),
		}}.build()
}
