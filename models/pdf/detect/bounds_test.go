package detect_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

// pagesOf is a PDF of n pages that all draw content with Helvetica as F1.
func pagesOf(n int, content string) []byte {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", ""}
	kids := []string{}
	objs = append(objs, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content), "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	for i := range n {
		kids = append(kids, fmt.Sprintf("%d 0 R", 5+i))
		objs = append(objs, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 3 0 R >>")
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n)
	return pdftest.RawPDF(objs)
}

// grid draws text at n places of a page, each its own line.
func grid(n int, text string) string {
	var sb strings.Builder
	for i := range n {
		fmt.Fprintf(&sb, "BT /F1 4 Tf 1 0 0 1 %d %d Tm (%s) Tj ET\n", 5+(i%8)*75, 5+(i/8)*6, text)
	}
	return sb.String()
}

func count(d detect.Detection, code string) (n int, p detect.DetectProblem) {
	for _, q := range d.Problems {
		if q.Code == code {
			n, p = n+1, q
		}
	}
	return n, p
}

// TestDetectTagCaps: past MaxTagsPerPage and MaxTagsPerDocument the tags
// are dropped, and one too_many_tags problem says how many (a 22 KB PDF
// once stored 622k tags, 105 MB of JSON).
func TestDetectTagCaps(t *testing.T) {
	doc := pagesOf(12, grid(600, "{{date}}"))
	d, err := detect.Detect(context.Background(), pdf.Limits{}, doc)
	if err != nil {
		t.Fatal(err)
	}
	perPage := map[int]int{}
	for _, tag := range d.Tags {
		perPage[tag.Page]++
	}
	if len(d.Tags) != detect.MaxTagsPerDocument || perPage[1] != detect.MaxTagsPerPage || perPage[11] != 0 {
		t.Errorf("%d tags, %d on page 1, %d on page 11", len(d.Tags), perPage[1], perPage[11])
	}
	n, p := count(d, detect.ProblemTooManyTags)
	if n != 1 || p.Page != 1 || p.Args.Count != 12*600-detect.MaxTagsPerDocument || p.Args.Max != detect.MaxTagsPerPage || p.Args.MaxDocument != detect.MaxTagsPerDocument {
		t.Errorf("%d too_many_tags problems: %+v", n, p)
	}
}

// TestDetectProblemCaps: problems are capped the same way.
func TestDetectProblemCaps(t *testing.T) {
	doc := pagesOf(11, grid(150, "{{nope}}"))
	d, err := detect.Detect(context.Background(), pdf.Limits{}, doc)
	if err != nil {
		t.Fatal(err)
	}
	unknown, _ := count(d, detect.ProblemUnknownType)
	n, p := count(d, detect.ProblemTooManyProblems)
	if unknown != detect.MaxProblemsPerDocument || n != 1 || p.Args.Count != 11*150-detect.MaxProblemsPerDocument || p.Args.Max != detect.MaxProblemsPerPage {
		t.Errorf("%d problems kept, %d too_many_problems: %+v", unknown, n, p)
	}
}

// TestDetectTextCut: a tag's text and a problem's text and value are cut.
func TestDetectTextCut(t *testing.T) {
	long := strings.Repeat("x", 20_000)
	content := "BT /F1 4 Tf 0.1 Tz 1 0 0 1 5 5 Tm ({{date|1|" + long + "}}) Tj ET BT /F1 4 Tf 0.1 Tz 1 0 0 1 5 50 Tm ({{text" + strings.Repeat(" ", 20_000) + "}}) Tj ET"
	d, err := detect.Detect(context.Background(), pdf.Limits{}, pagesOf(1, content))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Problems) != 1 || utf8.RuneCountInString(d.Problems[0].Text) > detect.MaxTextRunes || utf8.RuneCountInString(d.Problems[0].Args.Value) > detect.MaxTextRunes {
		t.Fatalf("problems %d: %.300v", len(d.Problems), d.Problems)
	}
	if len(d.Tags) != 1 {
		t.Fatalf("%d tags", len(d.Tags))
	}
	for _, tag := range d.Tags {
		if utf8.RuneCountInString(tag.Text) > detect.MaxTextRunes {
			t.Errorf("a %s tag of %d runes", tag.Source, utf8.RuneCountInString(tag.Text))
		}
	}
}
