package pdfjob

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/templatematch"
)

// ProblemLayoutNotRead is the code of a detection problem that names no text
// tag: the document is valid, but its pages could not be read for tags within
// the server's limits (or were damaged in a way only the layout sees).
const ProblemLayoutNotRead = "layout_not_read"

// inspectUpload checks an upload as Inspect does and, on the same read,
// finds what it proposes as tags and (when fingerprint is true) its
// template fingerprint. A document whose layout cannot be read is still
// accepted: its detection says so in one problem, on page 0 (the whole
// document), and its fingerprint holds the page sizes alone.
func inspectUpload(ctx context.Context, l pdf.Limits, r io.ReadSeeker, fingerprint bool) (pdf.Info, detect.Detection, templatematch.Fingerprint, error) {
	var fp templatematch.Builder
	var each func(pdf.PageLayout)
	if fingerprint {
		each = func(p pdf.PageLayout) { fp.Add(templatePage(p)) }
	}
	info, found, err := detect.InspectAndDetectEach(ctx, l, r, each)
	var le *pdf.LayoutError
	switch {
	case err == nil:
		return info, found, fp.Fingerprint(), nil
	case errors.As(err, &le) && ctx.Err() == nil:
		return info, notRead(le), SizesFingerprint(info.Pages), nil
	default:
		return pdf.Info{}, detect.Detection{}, templatematch.Fingerprint{}, err
	}
}

// notRead is the detection of a document whose layout could not be read.
func notRead(le *pdf.LayoutError) detect.Detection {
	p := detect.DetectProblem{Code: ProblemLayoutNotRead, Args: detect.ProblemArgs{TooComplex: errors.Is(le, pdf.ErrTooComplex)}}
	return detect.Detection{Format: detect.DetectionFormat, Tags: []detect.DetectedTag{}, Problems: []detect.DetectProblem{p}}
}

// fingerprint reads a stored document's template fingerprint one page at a
// time; LayoutRead is false when its pages cannot be read within l.
func fingerprint(ctx context.Context, l pdf.Limits, r io.ReadSeeker) (Fingerprinted, error) {
	var b templatematch.Builder
	_, err := l.InspectLayout(ctx, r, func(p pdf.PageLayout) error {
		b.Add(templatePage(p))
		return nil
	})
	var le *pdf.LayoutError
	switch {
	case err == nil:
		data, err := b.Fingerprint().MarshalBinary()
		return Fingerprinted{Fingerprint: data, LayoutRead: true}, err
	case errors.As(err, &le) && ctx.Err() == nil:
		return Fingerprinted{}, nil
	default:
		return Fingerprinted{}, err
	}
}

// templatePage is what template matching reads of one page's layout: the
// sides of its CropBox in user space (the space tags are stored in, so a page
// turned by /Rotate still takes the same tags) and the text of its runs in
// the order the page draws them, one line each, cut at
// templatematch.MaxPageTextBytes.
func templatePage(p pdf.PageLayout) templatematch.Page {
	var sb strings.Builder
	for _, r := range p.Runs {
		room := templatematch.MaxPageTextBytes - sb.Len()
		if room <= 0 {
			break
		}
		sb.WriteString(r.Text[:min(len(r.Text), room)])
		sb.WriteByte('\n')
	}
	return templatematch.Page{Width: p.CropBox.Width(), Height: p.CropBox.Height(), Text: sb.String()}
}

// SizesFingerprint is the fingerprint of pages whose text could not be read
// (a layout too complex to read within the caps): their sizes alone, which
// match no template (docs/decisions.md, "Template matching").
func SizesFingerprint(pages []pdf.Page) templatematch.Fingerprint {
	var b templatematch.Builder
	for _, p := range pages {
		b.Add(templatematch.Page{Width: p.CropBox.Width(), Height: p.CropBox.Height()})
	}
	return b.Fingerprint()
}
