package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"gocloud.dev/blob"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/templatematch"
)

// StagedUpload is an uploaded file written to a temporary file and checked to
// be a valid PDF, waiting to be saved. Close it in every case.
type StagedUpload struct {
	file     *os.File
	size     int64
	sha256   string
	info     pdf.Info
	fileName string
	// detection is what the content proposes as tags, read with info.
	detection detect.Detection
	// fingerprint is the content's template fingerprint, read with info.
	fingerprint templatematch.Fingerprint
	// receivedSHA256 is the hex SHA-256 of the bytes received.
	receivedSHA256 string
	// decrypted and repairs say how the staged file differs from the
	// bytes received (pdf.Limits.Mend).
	decrypted bool
	repairs   []string
}

// Close removes the temporary file.
func (u *StagedUpload) Close() error {
	if u == nil || u.file == nil {
		return nil
	}
	name := u.file.Name()
	err := u.file.Close()
	if rmErr := os.Remove(name); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) && err == nil {
		err = rmErr
	}
	u.file = nil
	return err
}

// SHA256 is the hex SHA-256 of the staged file, the one stored.
func (u *StagedUpload) SHA256() string { return u.sha256 }

// ReceivedSHA256 is the hex SHA-256 of the bytes received; it differs from
// SHA256 when the upload was decrypted or repaired. A retried upload sends
// the same bytes, so it is what identifies a request.
func (u *StagedUpload) ReceivedSHA256() string { return u.receivedSHA256 }

// Decrypted reports that the upload was encrypted with an empty user
// password (it opens without one) and the staged file is its decrypted copy.
func (u *StagedUpload) Decrypted() bool { return u.decrypted }

// Repairs lists what was repaired in the upload's structure, as pdf.Repair*
// codes (xref_rebuilt, stream_length_fixed, line_endings_restored,
// eof_added); empty, never nil, when nothing was.
func (u *StagedUpload) Repairs() []string {
	if u.repairs == nil {
		return []string{}
	}
	return slices.Clone(u.repairs)
}

// Pages is the page count of the staged PDF.
func (u *StagedUpload) Pages() int { return len(u.info.Pages) }

// DetectedTags is how many tags the staged PDF proposes (text tags, form
// fields and suggested fields; GET …/detected-tags lists them).
func (u *StagedUpload) DetectedTags() int { return len(u.detection.Tags) }

// StageUpload streams r into a temporary file (never holding it whole in
// memory) while hashing it, refuses it past maxBytes, and checks that it is
// a PDF that viewers open. A file the check refuses for its structure or its
// encryption goes through the repair pass and decryption (pdf.Limits.Mend):
// when they give a file, it replaces the staged one and is checked in turn
// (Decrypted and Repairs say what was done), so that every file stored
// passes the same check. fileName is the client's name for the file, kept
// for display and as the default title. The PDF work takes one of the
// Store's PDF slots (ErrPDFBusy when none comes free) and keeps within its
// decode caps.
func (s *Store) StageUpload(ctx context.Context, r io.Reader, maxBytes int64, fileName string) (*StagedUpload, error) {
	return s.stageUpload(ctx, r, maxBytes, fileName, false)
}

// stageUpload is StageUpload; slotHeld says the caller already holds a PDF slot.
func (s *Store) stageUpload(ctx context.Context, r io.Reader, maxBytes int64, fileName string, slotHeld bool) (*StagedUpload, error) {
	f, err := os.CreateTemp(s.tempDir, "markuproom-upload-*.pdf")
	if err != nil {
		return nil, fmt.Errorf("create temp file: %w", err)
	}
	u := &StagedUpload{file: f, fileName: cleanFileName(fileName)}
	ok := false
	defer func() {
		if !ok {
			_ = u.Close()
		}
	}()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(r, maxBytes+1))
	if err != nil {
		// A body cut short by the server's own size limit surfaces here too;
		// the caller's error mapping recognises it through the wrap.
		return nil, fmt.Errorf("receive upload: %w", err)
	}
	if n > maxBytes {
		return nil, tooLargeError(maxBytes)
	}
	if n == 0 {
		return nil, Unprocessable("#/file", "empty_file", "The uploaded file is empty.")
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	if !slotHeld {
		release, err := s.pdf.Acquire(ctx)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	u.size, u.sha256 = n, hex.EncodeToString(h.Sum(nil))
	u.receivedSHA256 = u.sha256
	info, found, fp, err := inspectUpload(ctx, s.pdf.Limits(), f, true)
	if errors.Is(err, pdf.ErrMalformed) || errors.Is(err, pdf.ErrEncrypted) {
		// Only a refused file pays for the repair pass: an ordinary
		// upload is read once.
		info, found, fp, err = s.mendUpload(ctx, u, err)
	}
	if err != nil {
		return nil, pdfProblem(err)
	}
	u.info, u.detection, u.fingerprint = info, found, fp
	ok = true
	return u, nil
}

// mendUpload runs the repair pass and decryption on a staged file that
// inspection refused with cause. When they give a file, it replaces the
// staged one and is inspected; otherwise cause (or why the file cannot be
// mended) is returned.
func (s *Store) mendUpload(ctx context.Context, u *StagedUpload, cause error) (pdf.Info, detect.Detection, templatematch.Fingerprint, error) {
	m, err := s.pdf.Limits().Mend(ctx, u.file)
	if err != nil {
		return pdf.Info{}, detect.Detection{}, templatematch.Fingerprint{}, err
	}
	if m.Content == nil {
		return pdf.Info{}, detect.Detection{}, templatematch.Fingerprint{}, cause
	}
	f, err := os.CreateTemp(s.tempDir, "markuproom-upload-*.pdf")
	if err != nil {
		return pdf.Info{}, detect.Detection{}, templatematch.Fingerprint{}, fmt.Errorf("create temp file: %w", err)
	}
	old := u.file
	u.file = f // Close removes it from here on
	_ = old.Close()
	if err := os.Remove(old.Name()); err != nil && !errors.Is(err, os.ErrNotExist) {
		s.log.WarnContext(ctx, "remove replaced upload", "error", err)
	}
	if _, err := f.Write(m.Content); err != nil {
		return pdf.Info{}, detect.Detection{}, templatematch.Fingerprint{}, fmt.Errorf("write mended upload: %w", err)
	}
	sum := sha256.Sum256(m.Content)
	u.size, u.sha256 = int64(len(m.Content)), hex.EncodeToString(sum[:])
	u.decrypted, u.repairs = m.Decrypted, m.Repairs
	return inspectUpload(ctx, s.pdf.Limits(), f, true)
}

func tooLargeError(maxBytes int64) error {
	return &ValidationError{Kind: KindTooLarge, Detail: fmt.Sprintf("The file is larger than the limit of %s.", formatBytes(maxBytes)),
		Errors: []FieldError{{Pointer: "#/file", Code: "file_too_large", Detail: fmt.Sprintf("At most %d bytes are accepted.", maxBytes)}}}
}

// pdfProblem explains why a file is not an acceptable PDF.
func pdfProblem(err error) error {
	switch {
	case errors.Is(err, pdf.ErrNotPDF):
		return Unprocessable("#/file", "not_pdf", "The file is not a PDF document.")
	case errors.Is(err, pdf.ErrPasswordRequired):
		return Unprocessable("#/file", "password_required",
			"The PDF asks for a password to open. Remove the password (for example open it and print it to PDF) and upload that copy.")
	case errors.Is(err, pdf.ErrEncrypted):
		return Unprocessable("#/file", "encrypted_pdf",
			"The PDF is encrypted in a way this server cannot open. Remove the protection (for example open it and print it to PDF) and upload that copy.")
	case errors.Is(err, pdf.ErrTooManyPages):
		return Unprocessable("#/file", "too_many_pages", fmt.Sprintf("The PDF has more than %d pages.", pdf.MaxPages))
	case errors.Is(err, pdf.ErrExpandsTooMuch):
		return expandsProblem("#/file", err)
	case errors.Is(err, pdf.ErrMalformed):
		return Unprocessable("#/file", "damaged_pdf", "The PDF is damaged or incomplete and cannot be read.")
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	default:
		return Unprocessable("#/file", "damaged_pdf", "The PDF cannot be read.")
	}
}

// expandsProblem explains a refusal by the decode caps.
func expandsProblem(pointer string, err error) error {
	limit := pdf.DefaultMaxDecodedStreamBytes
	var ee *pdf.ExpandsError
	if errors.As(err, &ee) {
		limit = ee.Limit
	}
	return Unprocessable(pointer, "pdf_expands_too_much", fmt.Sprintf(
		"The PDF expands to more than %s when decoded, more than this server reads; save it again with another program (for example \"Print to PDF\") and upload that copy.",
		pdf.MiB(limit)))
}

// NewDocument is what SaveDocument records besides the staged file.
type NewDocument struct {
	OrganizationID int64
	TokenID        *int64
	// Title is optional; the file name (without .pdf) or "Document" is used when empty.
	Title string
}

// SaveDocument copies a staged upload into the bucket and records it.
// The bucket object is removed again when the record cannot be written.
func (s *Store) SaveDocument(ctx context.Context, u *StagedUpload, in NewDocument) (*Document, error) {
	title := strings.TrimSpace(in.Title)
	if title == "" {
		title = strings.TrimSpace(strings.TrimSuffix(u.fileName, filepath.Ext(u.fileName)))
	}
	if title == "" {
		title = "Document"
	}
	var p Problems
	checkLine(&p, "#/title", title, MaxTitleLength)
	if err := p.Err(KindInvalid, "The document title is not valid."); err != nil {
		return nil, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	detection, err := json.Marshal(u.detection)
	if err != nil {
		return nil, err
	}
	detectionText := string(detection)
	fingerprint, err := u.fingerprint.MarshalBinary()
	if err != nil {
		return nil, err
	}
	d := &Document{
		ID:                id.String(),
		OrganizationID:    in.OrganizationID,
		ObjectKey:         "orgs/" + strconv.FormatInt(in.OrganizationID, 10) + "/documents/" + id.String() + ".pdf",
		Title:             title,
		FileName:          u.fileName,
		SizeBytes:         u.size,
		SHA256:            u.sha256,
		PageCount:         len(u.info.Pages),
		Pages:             PageList(u.info.Pages),
		UploadedByTokenID: in.TokenID,
		CreatedAt:         s.Now(),
		Detection:         &detectionText,
		Fingerprint:       fingerprint,
	}
	if err := s.putObject(ctx, d.ObjectKey, u.file); err != nil {
		return nil, err
	}
	err = s.inTx(ctx, func(tx *Store) error {
		if err := tx.db.WithContext(ctx).Create(d).Error; err != nil {
			return mapDBError(err)
		}
		return tx.audit(ctx, AuditEntry{OrganizationID: d.OrganizationID, Action: "document.uploaded", TargetType: "document",
			TargetID: d.ID, Summary: fmt.Sprintf("Uploaded %s (%s, %s)", d.Title, count(d.PageCount, "page"), byteSize(d.SizeBytes))})
	})
	if err != nil {
		if delErr := s.bucket.Delete(context.WithoutCancel(ctx), d.ObjectKey); delErr != nil {
			s.log.WarnContext(ctx, "remove orphaned upload", "key", d.ObjectKey, "error", delErr)
		}
		return nil, err
	}
	return d, nil
}

// byteSize is a file's size for a sentence: "812 KB".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func (s *Store) putObject(ctx context.Context, key string, f *os.File) error {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	w, err := s.bucket.NewWriter(ctx, key, &blob.WriterOptions{ContentType: "application/pdf"})
	if err != nil {
		return fmt.Errorf("store document: %w", err)
	}
	if _, err := io.Copy(w, f); err != nil {
		_ = w.Close()
		return fmt.Errorf("store document: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("store document: %w", err)
	}
	return nil
}

// cleanFileName keeps the base name of a client-supplied file name, bounded in length.
func cleanFileName(name string) string {
	name = strings.TrimSpace(strings.ReplaceAll(name, "\\", "/"))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if isControl(r) {
			return -1
		}
		return r
	}, name)
	if r := []rune(name); len(r) > MaxTitleLength {
		name = string(r[:MaxTitleLength])
	}
	return name
}

func formatBytes(n int64) string {
	const mib = 1 << 20
	if n%mib == 0 {
		return strconv.FormatInt(n/mib, 10) + " MiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
