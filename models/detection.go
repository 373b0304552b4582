package models

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdfjob"
)

// ProblemLayoutNotRead is the code of a detection problem that names no text
// tag: the document is valid, but its pages could not be read for tags within
// the server's limits (or were damaged in a way only the layout sees).
const ProblemLayoutNotRead = pdfjob.ProblemLayoutNotRead

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
// detection existed, or whose detection is of an older format (problems
// without their specifics): it is computed now (in a PDF worker, within the
// decode caps, like an upload's check) and stored for the next time.
func (s *Store) ensureDetection(ctx context.Context, d *Document) error {
	old := d.Detection
	if old != nil && detectionFormat(*old) >= detect.DetectionFormat {
		return nil
	}
	var found detect.Detection
	err := s.withStoredFile(ctx, d, func(path string) error {
		res, err := s.pdf.detect(ctx, path)
		found = res.Detection
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
	q := s.db.WithContext(ctx).Table("documents").Where("id = ? AND detection IS NULL", d.ID)
	if old != nil {
		q = s.db.WithContext(ctx).Table("documents").Where("id = ? AND detection = ?", d.ID, *old)
	}
	err = q.Update("detection", text).Error
	if err != nil {
		return mapDBError(err)
	}
	d.Detection = &text
	return nil
}

// withStoredFile copies a stored document's PDF into a temporary file for
// a PDF worker to read, runs fn on its path and removes it.
func (s *Store) withStoredFile(ctx context.Context, d *Document, fn func(path string) error) error {
	f, err := s.tempFile()
	if err != nil {
		return err
	}
	defer func() {
		_ = f.Close()
		_ = os.Remove(f.Name())
	}()
	content, err := s.OpenDocumentContent(ctx, d)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, content)
	if cerr := content.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("copy document %s for the pdf worker: %w", d.ID, err)
	}
	return fn(f.Name())
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

// detectionFormat is the format a stored detection was made in (0 before
// detect.DetectionFormat was written).
func detectionFormat(stored string) int {
	var f struct {
		Format int `json:"format"`
	}
	_ = json.Unmarshal([]byte(stored), &f)
	return f.Format
}

// TextTagBoxes returns where d prints its text tags ("{{signature|1}}"): the
// box of each text tag its stored detection placed a tag at (page, user-space
// points), which the room's page view covers while a tag lies over it; none
// when its detection was never computed. A tag sized by w=/h= has the box it
// was given, from the words' corner.
func (d *Document) TextTagBoxes() ([]detect.DetectedTag, error) {
	found, err := d.storedDetection()
	if err != nil || found == nil {
		return nil, err
	}
	var out []detect.DetectedTag
	for _, t := range found.Tags {
		if t.Source == detect.SourceTextTag {
			out = append(out, t)
		}
	}
	return out, nil
}
