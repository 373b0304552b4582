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
	"time"

	"github.com/google/uuid"
	"gocloud.dev/blob"

	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/pdfjob"
	"github.com/markuproom/markuproom/models/pdfworker"
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
// memory) while hashing it, refuses it past maxBytes, and checks in a PDF
// worker that it is a PDF that viewers open. A file the check refuses for
// its structure or its encryption goes through the repair pass and
// decryption there: when they give a file (at most maxBytes, else the same
// 413 as a file too large), it replaces the staged one (Decrypted and
// Repairs say what was done), so that every file stored passes the same
// check. fileName is the client's name for the file, kept for display and
// as the default title. The job waits for a free worker (ErrPDFBusy when
// none comes free) and keeps within the decode caps and the workers' limits.
func (s *Store) StageUpload(ctx context.Context, r io.Reader, maxBytes int64, fileName string) (*StagedUpload, error) {
	u, err := s.receiveUpload(r, maxBytes, fileName)
	if err != nil {
		return nil, err
	}
	if err := s.checkStaged(ctx, u, maxBytes); err != nil {
		_ = u.Close()
		return nil, err
	}
	return u, nil
}

// receiveUpload streams r into a new staged file, hashing it, and refuses
// an empty one or one past maxBytes.
func (s *Store) receiveUpload(r io.Reader, maxBytes int64, fileName string) (*StagedUpload, error) {
	f, err := s.tempFile()
	if err != nil {
		return nil, err
	}
	u := &StagedUpload{file: f, fileName: cleanFileName(fileName)}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(r, maxBytes+1))
	switch {
	case err != nil:
		// A body cut short by the server's own size limit surfaces here too;
		// the caller's error mapping recognises it through the wrap.
		err = fmt.Errorf("receive upload: %w", err)
	case n > maxBytes:
		err = tooLargeError(maxBytes)
	case n == 0:
		err = Unprocessable("#/file", "empty_file", "problem.upload.empty")
	}
	if err != nil {
		_ = u.Close()
		return nil, err
	}
	u.size, u.sha256 = n, hex.EncodeToString(h.Sum(nil))
	u.receivedSHA256 = u.sha256
	return u, nil
}

// checkStaged reads u's file in a PDF worker and keeps what it found; a
// repaired or decrypted copy the worker wrote (at most maxOutput bytes)
// replaces the file.
func (s *Store) checkStaged(ctx context.Context, u *StagedUpload, maxOutput int64) error {
	out, err := s.tempFile()
	if err != nil {
		return err
	}
	mended := false
	defer func() {
		if !mended {
			_ = out.Close()
			_ = os.Remove(out.Name())
		}
	}()
	res, err := s.pdf.stage(ctx, u.file.Name(), out.Name(), maxOutput)
	if err != nil {
		return pdfProblem(err)
	}
	if res.Mended {
		if err := u.adopt(out, maxOutput); err != nil {
			return err
		}
		mended = true
		u.decrypted, u.repairs = res.Decrypted, res.Repairs
	}
	return u.keep(res)
}

// adopt makes f, a file a worker wrote, the staged file (removing the one
// it replaces): its size is checked against maxOutput again and its hash
// taken here, not taken from the worker's word.
func (u *StagedUpload) adopt(f *os.File, maxOutput int64) error {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, maxOutput+1))
	if err != nil {
		return fmt.Errorf("read the mended upload: %w", err)
	}
	if n > maxOutput {
		return tooLargeError(maxOutput)
	}
	if old := u.file; old != f {
		u.file = f // Close removes it from here on
		_ = old.Close()
		_ = os.Remove(old.Name())
	}
	u.size, u.sha256 = n, hex.EncodeToString(h.Sum(nil))
	return nil
}

// keep records what a worker found in the staged file.
func (u *StagedUpload) keep(res pdfjob.Staged) error {
	var fp templatematch.Fingerprint
	if err := fp.UnmarshalBinary(res.Fingerprint); err != nil {
		return fmt.Errorf("read the upload's fingerprint: %w", err)
	}
	u.info, u.detection, u.fingerprint = res.Info, res.Detection, fp
	return nil
}

// stagedUploadPrefix starts the name of every temporary file of PDF work,
// so that those a killed process left behind can be found
// (RemoveStaleUploads).
const stagedUploadPrefix = "markuproom-upload-"

// tempFile creates a temporary file for PDF work in the store's directory.
func (s *Store) tempFile() (*os.File, error) {
	f, err := os.CreateTemp(s.tempDir, stagedUploadPrefix+"*.pdf")
	if err != nil {
		return nil, fmt.Errorf("create temp file: %w", err)
	}
	return f, nil
}

func tooLargeError(maxBytes int64) error {
	return &ValidationError{Kind: KindTooLarge, Message: Msg("problem.upload.too_large", "limit", formatBytes(maxBytes)),
		Errors: []FieldError{{Pointer: "#/file", Code: "file_too_large", Message: Msg("problem.upload.max_bytes", "max", maxBytes)}}}
}

// pdfProblem explains why a file is not an acceptable PDF.
func pdfProblem(err error) error {
	switch {
	case errors.Is(err, pdf.ErrNotPDF):
		return Unprocessable("#/file", "not_pdf", "problem.upload.not_pdf")
	case errors.Is(err, pdf.ErrPasswordRequired):
		return Unprocessable("#/file", "password_required", "problem.upload.password")
	case errors.Is(err, pdf.ErrEncrypted):
		return Unprocessable("#/file", "encrypted_pdf", "problem.upload.encrypted")
	case errors.Is(err, pdf.ErrTooManyPages):
		return Unprocessable("#/file", "too_many_pages", "problem.upload.too_many_pages", "max", pdf.MaxPages)
	case errors.Is(err, pdf.ErrExpandsTooMuch):
		return expandsProblem("#/file", err)
	case errors.Is(err, pdf.ErrTooManyObjects):
		var oe *pdf.ObjectsError
		errors.As(err, &oe)
		return Unprocessable("#/file", "pdf_too_complex", "problem.upload.objects", "objects", oe.Objects, "max", oe.Limit)
	case errors.Is(err, pdf.ErrMalformed):
		return Unprocessable("#/file", "damaged_pdf", "problem.upload.damaged")
	case errors.Is(err, pdf.ErrOutputTooLarge):
		var oe *pdf.OutputTooLargeError
		errors.As(err, &oe)
		return tooLargeError(oe.Limit)
	case errors.Is(err, pdfworker.ErrLimit):
		return tooComplexProblem("#/file", err)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), errors.Is(err, ErrPDFBusy):
		return err
	}
	var je *pdfworker.JobError
	if errors.As(err, &je) {
		return Unprocessable("#/file", "damaged_pdf", "problem.upload.unreadable")
	}
	return err
}

// tooComplexProblem explains a PDF whose reading passed a limit of the PDF
// workers (a *pdfworker.LimitError), naming the limit.
func tooComplexProblem(pointer string, err error) error {
	var le *pdfworker.LimitError
	errors.As(err, &le)
	var m Message
	switch le.Reason {
	case pdfworker.ReasonMemory:
		m = Msg("problem.upload.limit_memory", "bytes", formatBytes(le.Bytes))
	case pdfworker.ReasonCPU:
		m = Msg("problem.upload.limit_cpu", "duration", le.Duration.String())
	case pdfworker.ReasonTime:
		m = Msg("problem.upload.limit_time", "duration", le.Duration.String())
	case pdfworker.ReasonOutput:
		m = Msg("problem.upload.limit_output", "bytes", formatBytes(le.Bytes))
	default:
		m = Msg("problem.upload.limit_crash")
	}
	return Refusal(KindUnprocessable, pointer, "pdf_too_complex", m)
}

// expandsProblem explains a refusal by the decode caps.
func expandsProblem(pointer string, err error) error {
	limit := pdf.DefaultMaxDecodedStreamBytes
	var ee *pdf.ExpandsError
	if errors.As(err, &ee) {
		limit = ee.Limit
	}
	return Unprocessable(pointer, "pdf_expands_too_much", "problem.upload.expands", "limit", pdf.MiB(limit))
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
	if err := p.Err(KindInvalid, "problem.summary.title_invalid"); err != nil {
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

// cleanFileName keeps the base name of a client-supplied file name, bounded
// in length, without control or bidirectional control characters (a file
// name is not refused: the title made of it must read as it is stored).
func cleanFileName(name string) string {
	name = strings.TrimSpace(strings.ReplaceAll(name, "\\", "/"))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if isControl(r) || isBidiControl(r) {
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
	const mib, gib = 1 << 20, 1 << 30
	if n%gib == 0 {
		return strconv.FormatInt(n/gib, 10) + " GiB"
	}
	if n%mib == 0 {
		return strconv.FormatInt(n/mib, 10) + " MiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// StaleUploadAge is how old a temporary file of PDF work must be for
// RemoveStaleUploads to remove it.
const StaleUploadAge = time.Hour

// RemoveStaleUploads removes the temporary files of PDF work (staged
// uploads, copies for the PDF workers, their outputs) last written before
// olderThan: what a process killed mid-upload left behind. A request's own
// files live seconds, so an hour-old one belongs to no request. It returns
// how many it removed.
func (s *Store) RemoveStaleUploads(olderThan time.Time) (int, error) {
	names, err := filepath.Glob(filepath.Join(s.tempDir, stagedUploadPrefix+"*.pdf"))
	if err != nil {
		return 0, err
	}
	removed := 0
	var errs []error
	for _, name := range names {
		fi, err := os.Lstat(name)
		if err != nil || !fi.Mode().IsRegular() || !fi.ModTime().Before(olderThan) {
			continue
		}
		if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed++
	}
	return removed, errors.Join(errs...)
}
