package detect_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
	"github.com/markuproom/markuproom/models/tagtype"
)

// TestTypesAgreeWithModels keeps the text tag names and label rules of this
// package on the tag types of models/tagtype, and its date formats equal to
// the product's (models cannot be imported here without making models/pdf
// depend on models).
func TestTypesAgreeWithModels(t *testing.T) {
	codes := tagtype.Codes()
	seen := map[string]bool{}
	for name, typ := range detect.TypeNames() {
		if !slices.Contains(codes, typ) {
			t.Errorf("%s names %s, not a tag type of models/tagtype", name, typ)
		}
		seen[typ] = true
	}
	for _, code := range codes {
		if !seen[code] {
			t.Errorf("no text tag name stands for %s", code)
		}
	}
	if !slices.Equal(detect.DateFormats(), models.DateFormats()) {
		t.Errorf("date formats %v, models say %v", detect.DateFormats(), models.DateFormats())
	}
	for _, r := range detect.LabelRules() {
		if !slices.Contains(codes, r.Type) {
			t.Errorf("label rule %v proposes %s, not a tag type of models/tagtype", r.Pattern, r.Type)
		}
	}
}

func layoutOf(t *testing.T, b []byte) pdf.Layout {
	t.Helper()
	l, err := pdf.ReadLayout(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestFindText(t *testing.T) {
	b, err := pdf.Sample(2, "Find Test")
	if err != nil {
		t.Fatal(err)
	}
	lay := layoutOf(t, b)
	count := func(anchor string, cs, ww bool) int { return len(detect.FindText(lay, anchor, cs, ww)) }
	// Per page: "…starts on the date of the last signature below.", "Please
	// sign, initial and date on the lines below." and the label "Date".
	for _, c := range []struct {
		anchor string
		cs, ww bool
		want   int
	}{
		{"Date", true, false, 2},
		{"date", false, true, 6},
		{"DATE", false, false, 6},
		{"sign", false, true, 2},
		{"sign", false, false, 6}, // "sign" and the "sign" of two "signature"s
		{"lines   below", false, false, 2},
		{"ate", false, true, 0},
		{"", false, false, 0},
		{"   ", false, false, 0},
	} {
		if got := count(c.anchor, c.cs, c.ww); got != c.want {
			t.Errorf("FindText(%q, caseSensitive %v, wholeWord %v): %d matches, want %d", c.anchor, c.cs, c.ww, got, c.want)
		}
	}
	ms := detect.FindText(lay, "Printed name", true, true)
	if len(ms) != 2 || ms[0].Page != 1 || ms[1].Page != 2 {
		t.Fatalf("Printed name: %+v", ms)
	}
	var label pdf.TextRun
	for _, r := range lay.Pages[0].Runs {
		if r.Text == "Printed name" {
			label = r
		}
	}
	if ms[0].Box != label.Box || ms[0].Display != label.Box {
		t.Errorf("match box %+v / %+v, run box %+v", ms[0].Box, ms[0].Display, label.Box)
	}
	// A part of a run gets the box of its own glyphs.
	part := detect.FindText(lay, "name", true, true)[0]
	if part.Box.LLX <= label.Box.LLX || math.Abs(part.Box.URX-label.Box.URX) > 0.01 {
		t.Errorf("\"name\" box %+v within %+v", part.Box, label.Box)
	}
}

// TestFindTextRotated: on a rotated page the display box turns with it.
func TestFindTextRotated(t *testing.T) {
	var doc pdftest.CorpusDoc
	for _, d := range pdftest.Corpus() {
		if d.Name == "rotated-90" {
			doc = d
		}
	}
	lay := layoutOf(t, doc.PDF)
	ms := detect.FindText(lay, "Landscape Certificate", true, true)
	if len(ms) != 1 {
		t.Fatalf("%d matches", len(ms))
	}
	m := ms[0]
	// Drawn at display (72, 540) in Helvetica-Bold 16: wide on screen, tall in user space.
	if m.Display.Width() < m.Display.Height() || m.Box.Width() > m.Box.Height() {
		t.Errorf("display %+v, user %+v", m.Display, m.Box)
	}
	if math.Abs(m.Display.LLX-72) > 0.01 || math.Abs(m.Display.LLY-(540-0.207*16)) > 0.01 {
		t.Errorf("display box %+v, want its bottom-left at (72, %.3f)", m.Display, 540-0.207*16)
	}
}

// TestDetectRealWorld: the Chromium and cairo files print
// "Signature: ________________ Date: ________".
func TestDetectRealWorld(t *testing.T) {
	for _, name := range []string{"chromium-skia.pdf", "cairo.pdf"} {
		b, err := os.ReadFile("../testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		d, err := detect.Detect(context.Background(), pdf.Limits{}, b)
		if err != nil {
			t.Fatal(err)
		}
		var types []string
		for _, tag := range d.Tags {
			types = append(types, tag.Type)
			if tag.Source != detect.SourceLabel || tag.Page != 1 || tag.Confidence <= 0 || tag.Confidence > 1 || tag.Signer != nil {
				t.Errorf("%s: %+v", name, tag)
			}
		}
		if !slices.Equal(types, []string{"SIGNATURETEMPLATE", "DATETEMPLATE"}) {
			t.Errorf("%s: %v", name, types)
		}
	}
}

// TestDetectCaps: detection reads through the capped path.
func TestDetectCaps(t *testing.T) {
	bomb := pdftest.Expanding{Pages: 2, Content: []int64{200 << 20}}.Build(t)
	if _, err := detect.Detect(context.Background(), pdf.Limits{}, bomb); !errors.Is(err, pdf.ErrExpandsTooMuch) {
		t.Errorf("bomb: %v", err)
	}
	if _, err := detect.Detect(context.Background(), pdf.Limits{}, pdftest.Truncated(t)); !errors.Is(err, pdf.ErrMalformed) {
		t.Errorf("truncated: %v", err)
	}
	if _, err := detect.Detect(context.Background(), pdf.Limits{}, pdftest.Encrypted(t)); !errors.Is(err, pdf.ErrEncrypted) {
		t.Errorf("encrypted: %v", err)
	}
}

// TestDetectEmpty: a document without anything to find gives empty lists
// (JSON arrays, not null).
func TestDetectEmpty(t *testing.T) {
	b := pdftest.Expanding{Pages: 1}.Build(t)
	d, err := detect.Detect(context.Background(), pdf.Limits{}, b)
	if err != nil {
		t.Fatal(err)
	}
	if d.Tags == nil || d.Problems == nil || len(d.Tags)+len(d.Problems) != 0 {
		t.Errorf("%+v", d)
	}
}

// TestDetectCrowdedPage: thousands of labels over thousands of rules and
// table borders cost a bounded amount of work (maxSuggestWork).
func TestDetectCrowdedPage(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("0.5 w\n")
	for i := range 4000 {
		x, y := float64(i%8)*70, float64(i/8)*1.5
		fmt.Fprintf(&sb, "BT /F1 6 Tf 1 0 0 1 %g %g Tm (Date) Tj ET %g %g m %g %g l S %g %g m %g %g l S\n", x, y, x+20, y, x+60, y, x+40, y-1, x+40, y+1)
	}
	content := sb.String()
	doc := pdftest.RawPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
	})
	start := time.Now()
	d, err := detect.Detect(context.Background(), pdf.Limits{}, doc)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v", took)
	}
	// The budget runs out on the second page, which gets no suggestions.
	for _, tag := range d.Tags {
		if tag.Page != 1 {
			t.Fatalf("a suggestion on page %d: the work budget did not hold", tag.Page)
		}
	}
	t.Logf("%d suggestions in %v", len(d.Tags), time.Since(start))
}
