package pdfjob

import (
	"context"
	"io"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/revise"
)

// KindPageWords reads each page of a stored document with its printed
// words and their boxes, for carrying tags onto a revised version
// (models/revise).
const KindPageWords = "pagewords"

// PageWords is KindPageWords' result: each page's CropBox and printed
// words (at most MaxWordsPerPage a page and MaxWords in all, the words
// job's caps).
type PageWords struct {
	Pages []revise.Page `json:"pages"`
}

// ReadPageWords reads what KindPageWords answers from the PDF in r. It
// runs in a PDF worker; tests of the mapping call it on the PDFs they make.
func ReadPageWords(ctx context.Context, l pdf.Limits, r io.ReadSeeker) (PageWords, error) {
	var out PageWords
	total := 0
	_, err := l.InspectLayout(ctx, r, func(p pdf.PageLayout) error {
		c := p.CropBox
		page := revise.Page{X: c.LLX, Y: c.LLY, Width: c.URX - c.LLX, Height: c.URY - c.LLY, Words: []revise.Word{}}
		for _, run := range p.Runs {
			limit := min(MaxWordsPerPage-len(page.Words), MaxWords-total)
			if limit <= 0 {
				break
			}
			eachWord(run, limit, func(text string, b pdf.Box) {
				page.Words = append(page.Words, revise.Word{Text: text, Box: revise.Box{X: b.LLX, Y: b.LLY, Width: b.URX - b.LLX, Height: b.URY - b.LLY}})
			})
		}
		total += len(page.Words)
		out.Pages = append(out.Pages, page)
		return nil
	})
	if err := pdf.LayoutCause(err); err != nil {
		return PageWords{}, err
	}
	return out, nil
}
