package handlers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/pdf"
	"github.com/markuproom/markuproom/web/i18n"
)

// documentResponse is the JSON form of an uploaded document.
type documentResponse struct {
	ID        string        `json:"id"`
	GCSRefID  string        `json:"gcsRefId"`
	Location  string        `json:"location"`
	Title     string        `json:"title"`
	FileName  string        `json:"fileName"`
	Pages     int           `json:"pages"`
	PageBoxes []pageBoxJSON `json:"pageBoxes"`
	SizeBytes int64         `json:"sizeBytes"`
	SHA256    string        `json:"sha256"`
	CreatedAt time.Time     `json:"createdAt"`
	// DetectedTags is how many tags the PDF itself proposes (the upload's
	// answer only; GET …/detected-tags lists them).
	DetectedTags *int `json:"detectedTags,omitempty"`
	// Decrypted says the upload opened without a password and its
	// decrypted copy was stored (the upload's answer only, always there).
	Decrypted *bool `json:"decrypted,omitempty"`
	// Repairs lists what was repaired in the upload's structure (the
	// upload's answer only, always there; [] when nothing).
	Repairs *[]string `json:"repairs,omitempty"`
	// TemplateMatches lists the organization's templates whose document
	// the upload resembles (the upload's answer only, always there; []
	// when none; GET …/template-matches lists them again).
	TemplateMatches *[]templateMatchJSON `json:"templateMatches,omitempty"`
}

// pageBoxJSON tells callers where tags may go on one page.
type pageBoxJSON struct {
	Page     int     `json:"page"`
	MediaBox pdf.Box `json:"mediaBox"`
	CropBox  pdf.Box `json:"cropBox"`
	Rotate   int     `json:"rotate"`
}

func (h *apiHandler) documentJSON(d *models.Document) documentResponse {
	boxes := make([]pageBoxJSON, len(d.Pages))
	for i, p := range d.Pages {
		boxes[i] = pageBoxJSON{Page: i + 1, MediaBox: p.MediaBox, CropBox: p.CropBox, Rotate: p.Rotate}
	}
	return documentResponse{
		ID: d.ID, GCSRefID: d.ObjectKey, Location: h.cfg.BaseURL + d.LocationPath(), Title: d.Title,
		FileName: d.FileName, Pages: d.PageCount, PageBoxes: boxes, SizeBytes: d.SizeBytes, SHA256: d.SHA256,
		CreatedAt: d.CreatedAt,
	}
}

// uploadDocument takes a PDF as multipart/form-data (part "file", optional
// "title") or as a raw application/pdf body (optional ?title=).
func (h *apiHandler) uploadDocument(c *gin.Context) error {
	p := principalFrom(c)
	mediaType, params, err := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if err != nil {
		mediaType = ""
	}
	// Room for the multipart envelope around a file at the limit.
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, h.cfg.MaxUploadBytes+1<<20)
	var (
		staged *models.StagedUpload
		title  string
	)
	switch mediaType {
	case "application/pdf":
		title = c.Query("title")
		staged, err = h.documents.StageUpload(c.Request.Context(), c.Request.Body, h.cfg.MaxUploadBytes, fileNameFromDisposition(c.GetHeader("Content-Disposition")))
	case "multipart/form-data":
		staged, title, err = h.stageMultipart(c, h.documents, params["boundary"], nil)
	default:
		return &models.ValidationError{Kind: models.KindUnsupportedMedia, Message: models.Msg("problem.upload.media_type"),
			Errors: []models.FieldError{{Pointer: "header:Content-Type", Code: "unsupported_media_type",
				Message: models.Msg("problem.http.content_type", "type", models.Quoted(c.GetHeader("Content-Type")))}}}
	}
	if err != nil {
		return err
	}
	defer staged.Close()
	// The bytes received identify the request: a decrypted or repaired
	// copy is written anew (with a new date and file ID) on each try.
	return h.withIdempotency(c, []byte(staged.ReceivedSHA256()+"\n"+title), func() error {
		doc, out, err := h.saveUpload(c.Request.Context(), p, staged, title)
		if err != nil {
			return err
		}
		c.Header("Location", doc.LocationPath())
		c.JSON(http.StatusCreated, out)
		return nil
	})
}

// saveUpload stores a staged upload for the caller's organization and
// builds the upload's answer: the document with its detected tags count,
// repairs and template matches. The API's upload route and the MCP tool
// upload_document both end here.
func (h *apiHandler) saveUpload(ctx context.Context, p *models.Principal, staged *models.StagedUpload, title string) (*models.Document, documentResponse, error) {
	// Matched before the document is stored, so that a failure stores nothing.
	matches, err := h.documents.FingerprintTemplateMatches(ctx, p.Organization.ID, staged.Fingerprint())
	if err != nil {
		return nil, documentResponse{}, err
	}
	doc, err := h.documents.SaveDocument(ctx, staged, models.NewDocument{
		OrganizationID: p.Organization.ID, TokenID: &p.Token.ID, Title: title,
	})
	if err != nil {
		return nil, documentResponse{}, err
	}
	out := h.documentJSON(doc)
	n, decrypted, repairs, found := staged.DetectedTags(), staged.Decrypted(), staged.Repairs(), templateMatchesJSON(matches)
	out.DetectedTags, out.Decrypted, out.Repairs, out.TemplateMatches = &n, &decrypted, &repairs, &found
	return doc, out, nil
}

// getDetectedTags lists what the document itself proposes as tags: text
// tags, form fields and suggested fields, and the text tags it could not read.
func (h *apiHandler) getDetectedTags(c *gin.Context) error {
	found, err := h.documents.DocumentDetection(c.Request.Context(), principalFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, detectionOut(i18n.From(c.Request.Context()), found))
	return nil
}

// stageMultipart streams the "file" part to the store and reads the "title"
// part. beforeFile, when set, is called with the "csrf" part read so far
// just before the file is received (browser forms put it first).
func (s *site) stageMultipart(c *gin.Context, files uploadStager, boundary string, beforeFile func(csrf string) error) (*models.StagedUpload, string, error) {
	if boundary == "" {
		return nil, "", models.Invalid("header:Content-Type", "missing_boundary", "problem.upload.no_boundary")
	}
	mr := multipart.NewReader(c.Request.Body, boundary)
	var (
		staged *models.StagedUpload
		title  string
		csrf   string
	)
	fail := func(err error) (*models.StagedUpload, string, error) {
		_ = staged.Close()
		return nil, "", err
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			if isBodyTooLarge(err) {
				return fail(err)
			}
			return fail(models.Invalid("#", "malformed_multipart", "problem.upload.multipart", "reason", err.Error()))
		}
		switch part.FormName() {
		case "file":
			if staged != nil {
				return fail(models.Invalid("#/file", "duplicate_file", "problem.upload.one_file"))
			}
			if beforeFile != nil {
				if err := beforeFile(csrf); err != nil {
					return fail(err)
				}
			}
			staged, err = files.StageUpload(c.Request.Context(), part, s.cfg.MaxUploadBytes, part.FileName())
			if err != nil {
				return fail(err)
			}
		case "title":
			b, err := io.ReadAll(io.LimitReader(part, 4*models.MaxTitleLength+1))
			if err != nil {
				return fail(err)
			}
			title = string(b)
		case csrfField:
			b, err := io.ReadAll(io.LimitReader(part, 256))
			if err != nil {
				return fail(err)
			}
			csrf = string(b)
		default:
			_, _ = io.Copy(io.Discard, io.LimitReader(part, 1<<20))
		}
		_ = part.Close()
	}
	if staged == nil {
		return nil, "", models.Invalid("#/file", "required", "problem.upload.no_file")
	}
	return staged, title, nil
}

func isBodyTooLarge(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe)
}

// fileNameFromDisposition reads the filename of a raw upload's Content-Disposition, if any.
func fileNameFromDisposition(header string) string {
	if header == "" {
		return ""
	}
	_, params, err := mime.ParseMediaType(header)
	if err != nil {
		return ""
	}
	return params["filename"]
}

func (h *apiHandler) getDocument(c *gin.Context) error {
	doc, err := h.documents.GetDocument(c.Request.Context(), principalFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, h.documentJSON(doc))
	return nil
}

// getDocumentContent streams the PDF, with Range support for pdf.js.
func (h *apiHandler) getDocumentContent(c *gin.Context) error {
	doc, err := h.documents.GetDocument(c.Request.Context(), principalFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	return servePDF(c, h.documents, doc, "private, max-age=3600")
}

// servePDF sends a stored PDF with its ETag; cacheControl says how long a
// browser may keep it (an upload never changes; a room document can).
func servePDF(c *gin.Context, files contentOpener, doc *models.Document, cacheControl string) error {
	content, err := files.OpenDocumentContent(c.Request.Context(), doc)
	if err != nil {
		return err
	}
	defer content.Close()
	w := c.Writer.Header()
	w.Set("Content-Type", "application/pdf")
	w.Set("Content-Disposition", contentDisposition(doc.Title))
	w.Set("ETag", `"`+doc.SHA256+`"`)
	w.Set("Cache-Control", cacheControl)
	http.ServeContent(c.Writer, c.Request, "", doc.CreatedAt, content)
	return nil
}

// contentDisposition names the file for download, with an ASCII fallback and an RFC 5987 UTF-8 form.
func contentDisposition(title string) string {
	name := strings.TrimSpace(title)
	if name == "" {
		name = "document"
	}
	name += ".pdf"
	ascii := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '_'
		}
		return r
	}, name)
	return fmt.Sprintf(`inline; filename="%s"; filename*=UTF-8''%s`, ascii, url.PathEscape(name))
}
