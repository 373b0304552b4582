// Package pdf inspects uploaded PDF files and generates sample PDFs.
//
// Inspect decides whether an upload is a usable PDF (not encrypted, not
// truncated or damaged) and reports its page count and the geometry of every
// page (MediaBox, CropBox and Rotate with inheritance resolved), which the
// server records and later uses to check that tags lie inside their page.
// Reading and validation use pdfcpu (in its relaxed mode, which ordinary
// producers need), guarded by this package's own structural checks: pdfcpu
// silently rebuilds a missing or broken cross-reference table, so without
// them a truncated upload would pass as a shorter document.
//
// ReadLayout and EachPageLayout read what each page shows: its text runs
// with their boxes, its straight rules and rectangles and its form field
// widgets, through the same caps as Inspect plus caps on the work of
// interpreting content streams; the interpreter itself (lexer, fonts, text
// runs, widgets, work budget) is package content, which this package hands
// each checked page to. Package detect finds tags in the layout.
//
// Sample and SampleTree write small deterministic PDFs by hand for the demo
// data and for tests; package pdftest wraps them as test fixtures.
package pdf
