package models

import (
	"context"
	"fmt"

	"github.com/markuproom/markuproom/models/pdfjob"
	"github.com/markuproom/markuproom/models/templatematch"
)

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

// readFingerprint reads d's template fingerprint from its PDF, in a PDF
// worker; a document whose pages cannot be read within the caps gets its
// page sizes alone.
func (s *Store) readFingerprint(ctx context.Context, d *Document) (templatematch.Fingerprint, error) {
	var fp templatematch.Fingerprint
	err := s.withStoredFile(ctx, d, func(path string) error {
		res, err := s.pdf.fingerprint(ctx, path)
		if err != nil {
			return err
		}
		if !res.LayoutRead {
			fp = pdfjob.SizesFingerprint(d.Pages)
			return nil
		}
		return fp.UnmarshalBinary(res.Fingerprint)
	})
	return fp, err
}
