package detect

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/markuproom/markuproom/models/pdf"
)

// TestDetectionNoticesCancellation: detection's loops check the context
// once 10 ms of work have passed (pdf.Ticker), however few steps that is.
func TestDetectionNoticesCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	at := time.Unix(0, 0)
	c := pdf.NewTickerAt(ctx, func() time.Time { at = at.Add(5 * time.Millisecond); return at })
	glyphs := make([]pdf.Box, 8)
	runs := make([]pdf.TextRun, 1000)
	for i := range runs {
		runs[i] = pdf.TextRun{Text: "{{date}}", Glyphs: glyphs}
	}
	_, err := textTags(1, pdf.PageLayout{Page: pdf.Page{CropBox: pdf.Box{URX: 612, URY: 792}, MediaBox: pdf.Box{URX: 612, URY: 792}}}, runs, c, MaxTagsPerPage, MaxProblemsPerPage)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("textTags: %v, want context.Canceled", err)
	}
	_, err = suggestions(1, pdf.PageLayout{}, []pdf.TextRun{{Text: strings.Repeat("Date ", 1), Glyphs: make([]pdf.Box, 5)}}, nil, labelRules, new(int), c)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("suggestions: %v, want context.Canceled", err)
	}
}
