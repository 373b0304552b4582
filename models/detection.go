package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/templatematch"
)

// ProblemLayoutNotRead is the code of a detection problem that names no text
// tag: the document is valid, but its pages could not be read for tags within
// the server's limits (or were damaged in a way only the layout sees).
const ProblemLayoutNotRead = "layout_not_read"

// inspectAndDetect checks an upload as Inspect does and, on the same read,
// finds what it proposes as tags. A document whose layout cannot be read is
// still accepted: its detection says so in one problem, on page 0 (the whole
// document).
func inspectAndDetect(ctx context.Context, l pdf.Limits, r io.ReadSeeker) (pdf.Info, detect.Detection, error) {
	info, found, _, err := inspectUpload(ctx, l, r, false)
	return info, found, err
}

// inspectUpload is inspectAndDetect that also takes the template
// fingerprint on the same read when fingerprint is true (the page sizes
// alone when the layout cannot be read).
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
		return info, notRead(le), sizesFingerprint(info.Pages), nil
	default:
		return pdf.Info{}, detect.Detection{}, templatematch.Fingerprint{}, err
	}
}

// notRead is the detection of a document whose layout could not be read.
func notRead(le *pdf.LayoutError) detect.Detection {
	detail := "The pages could not be read for tags; place the tags by hand."
	if errors.Is(le, pdf.ErrTooComplex) {
		detail = "The pages are too complex to read for tags within this server's limits; place the tags by hand."
	}
	return detect.Detection{Tags: []detect.DetectedTag{}, Problems: []detect.DetectProblem{{Code: ProblemLayoutNotRead, Detail: detail}}}
}

// DocumentDetection returns what a document of the organization proposes as
// tags: its text tags, form fields and suggested fields, and the text tags it
// could not read.
func (s *Store) DocumentDetection(ctx context.Context, orgID int64, id string) (*detect.Detection, error) {
	d, err := s.GetDocument(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	if err := s.ensureDetection(ctx, d); err != nil {
		return nil, err
	}
	return d.storedDetection()
}

// storedDetection reads what d proposes as tags from its row (the one
// reader of documents.detection); nil when it was never computed
// (ensureDetection computes it).
func (d *Document) storedDetection() (*detect.Detection, error) {
	if d.Detection == nil {
		return nil, nil
	}
	var out detect.Detection
	if err := json.Unmarshal([]byte(*d.Detection), &out); err != nil {
		return nil, fmt.Errorf("document %s: read its detection: %w", d.ID, err)
	}
	return &out, nil
}

// ensureDetection fills in d.Detection for a document uploaded before
// detection existed: it is computed now (in a PDF slot, within the decode
// caps, like an upload's check) and stored for the next time.
func (s *Store) ensureDetection(ctx context.Context, d *Document) error {
	if d.Detection != nil {
		return nil
	}
	var found detect.Detection
	err := s.readStoredPDF(ctx, d, func(content DocumentContent) (err error) {
		_, found, err = inspectAndDetect(ctx, s.pdf.Limits(), content)
		return err
	})
	if err != nil {
		return err
	}
	data, err := json.Marshal(found)
	if err != nil {
		return err
	}
	text := string(data)
	// Only where no other request stored it first: both computed the same.
	err = s.db.WithContext(ctx).Table("documents").Where("id = ? AND detection IS NULL", d.ID).Update("detection", text).Error
	if err != nil {
		return mapDBError(err)
	}
	d.Detection = &text
	return nil
}

// readStoredPDF runs fn on a stored document's content, in a PDF slot (the
// PDF work's concurrency bound) taken before it is opened; fn reads within
// s.pdf.Limits().
func (s *Store) readStoredPDF(ctx context.Context, d *Document, fn func(DocumentContent) error) error {
	release, err := s.pdf.Acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	content, err := s.OpenDocumentContent(ctx, d)
	if err != nil {
		return err
	}
	defer func() { _ = content.Close() }()
	return fn(content)
}

// placedTags are the tags a room places on a document from found, its
// stored detection (nil: none): its own text tags and form fields (suggested
// fields are only offered); signer n is the n-th participant, unassigned
// beyond them; customData says where each came from.
func placedTags(found *detect.Detection, participants []ParticipantInput) ([]TagInput, error) {
	tags := []TagInput{}
	if found == nil {
		return tags, nil
	}
	for _, t := range found.Tags {
		if t.Source == detect.SourceLabel || len(tags) == MaxTagsPerDocument {
			continue
		}
		signer := ""
		if t.Signer != nil && *t.Signer <= len(participants) {
			signer = participants[*t.Signer-1].ID
		}
		cd, err := detectedCustomData(t)
		if err != nil {
			return nil, err
		}
		tag := TagInput{Type: t.Type, X: t.X, Y: t.Y, Width: t.Width, Height: t.Height, SignerID: signer, CustomData: cd, Page: t.Page}
		required := t.Required
		tag.Required = &required
		if t.DateFormat != "" {
			df := t.DateFormat
			tag.DateFormat = &df
		}
		if t.FontSize > 0 {
			fs := t.FontSize
			tag.FontSize = &fs
		}
		tags = append(tags, tag)
	}
	return tags, nil
}

// detectedCustomData is the customData of a tag placed from what a document
// carries: where it came from and the text it was found by. Both are cut to
// detect.MaxTextRunes (a detection stored before that cap may hold longer
// ones), so the object stays far below MaxCustomDataBytes, the API's own
// limit; should it still pass it, the text is left out rather than the
// room refused.
func detectedCustomData(t detect.DetectedTag) (RawJSON, error) {
	type data struct {
		Source string `json:"detectedFrom"`
		Text   string `json:"detectedText"`
	}
	b, err := json.Marshal(data{pdf.CutRunes(t.Source, detect.MaxTextRunes), pdf.CutRunes(t.Text, detect.MaxTextRunes)})
	if err != nil {
		return nil, err
	}
	if len(b) <= MaxCustomDataBytes {
		return b, nil
	}
	return json.Marshal(data{Source: pdf.CutRunes(t.Source, 64)})
}
