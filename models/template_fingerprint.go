package models

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/templatematch"
)

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

// sizesFingerprint is the fingerprint of pages whose text could not be read
// (a layout too complex to read within the caps): their sizes alone, which
// match no template (docs/decisions.md, "Template matching").
func sizesFingerprint(pages []pdf.Page) templatematch.Fingerprint {
	var b templatematch.Builder
	for _, p := range pages {
		b.Add(templatematch.Page{Width: p.CropBox.Width(), Height: p.CropBox.Height()})
	}
	return b.Fingerprint()
}

// Fingerprint is the staged PDF's template fingerprint, taken on the same
// read as its check and its detected tags.
func (u *StagedUpload) Fingerprint() templatematch.Fingerprint { return u.fingerprint }

// DocumentFingerprint returns the template fingerprint of a stored document
// of the organization (documentFingerprint).
func (s *Store) DocumentFingerprint(ctx context.Context, orgID int64, id string) (templatematch.Fingerprint, error) {
	d, err := s.GetDocument(ctx, orgID, id)
	if err != nil {
		return templatematch.Fingerprint{}, err
	}
	return s.documentFingerprint(ctx, d)
}

// documentFingerprint returns d's template fingerprint: the one its row
// keeps (written at upload), else read from its PDF one page at a time (in a
// PDF slot, within the decode caps, as the anchor search reads it) and kept
// for the next time, as ensureDetection does. A document whose pages cannot
// be read within the caps gets its page sizes alone.
func (s *Store) documentFingerprint(ctx context.Context, d *Document) (templatematch.Fingerprint, error) {
	var fp templatematch.Fingerprint
	if d.Fingerprint != nil {
		if err := fp.UnmarshalBinary(d.Fingerprint); err != nil {
			return fp, fmt.Errorf("document %s: read its fingerprint: %w", d.ID, err)
		}
		return fp, nil
	}
	fp, err := s.readFingerprint(ctx, d)
	if err != nil {
		return fp, err
	}
	data, err := fp.MarshalBinary()
	if err != nil {
		return fp, err
	}
	err = s.db.WithContext(ctx).Table("documents").Where("id = ? AND fingerprint IS NULL", d.ID).Update("fingerprint", data).Error
	if err != nil {
		return fp, mapDBError(err)
	}
	d.Fingerprint = data
	return fp, nil
}

// readFingerprint reads d's template fingerprint from its PDF.
func (s *Store) readFingerprint(ctx context.Context, d *Document) (templatematch.Fingerprint, error) {
	var b templatematch.Builder
	err := s.readStoredPDF(ctx, d, func(content DocumentContent) error {
		_, err := s.pdf.Limits().InspectLayout(ctx, content, func(p pdf.PageLayout) error {
			b.Add(templatePage(p))
			return nil
		})
		return err
	})
	var le *pdf.LayoutError
	switch {
	case err == nil:
		return b.Fingerprint(), nil
	case errors.As(err, &le) && ctx.Err() == nil:
		return sizesFingerprint(d.Pages), nil
	default:
		return templatematch.Fingerprint{}, err
	}
}
