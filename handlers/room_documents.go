package handlers

import (
	"encoding/json"
	"mime"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// addRoomDocument uploads a PDF into the room: POST /rooms/:id/documents,
// multipart/form-data with parts "csrf" (unless the X-CSRF-Token header is
// sent), "file" and an optional "title". The room is checked before the file
// is read (completed 409, expired 410, not allowed 403). Same checks and
// limits as the API's upload (413 too large, 415 not multipart, 422 not a
// valid PDF). The document's own text tags and form fields are placed as at
// room creation (models.AddRoomDocument). An htmx request gets the room with
// a note when the file was decrypted or repaired and the text tags that
// could not be read, and, when tags were placed, the HX-Trigger event
// "markuproom:tags-placed" naming them (the editor's one undo step).
func (h *roomHandler) addRoomDocument(c *gin.Context) error {
	id, err := h.boundRoomID(c)
	if err != nil {
		return err
	}
	mediaType, params, err := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if err != nil || mediaType != "multipart/form-data" {
		return &models.ValidationError{Kind: models.KindUnsupportedMedia, Message: models.Msg("problem.upload.room_media_type"),
			Errors: []models.FieldError{{Pointer: "header:Content-Type", Code: "unsupported_media_type", Message: models.Msg("problem.upload.use_multipart")}}}
	}
	staged, title, err := h.stageRoomUpload(c, id, params["boundary"])
	if err != nil {
		return err
	}
	defer staged.Close()
	added, err := h.documents.AddRoomDocument(c.Request.Context(), id, staged, title)
	if err != nil {
		return err
	}
	if c.GetHeader("HX-Request") != "true" {
		return h.afterRoomChange(c, id)
	}
	if len(added.TagIDs) > 0 {
		if b, err := json.Marshal(tagsPlacedTrigger{Placed: tagsPlaced{
			DocumentID: added.Document.ID, Position: added.Position, Title: added.Document.Title, TagIDs: added.TagIDs, Problems: len(added.Problems),
		}}); err == nil {
			c.Header("HX-Trigger", string(b))
		}
	}
	// The room as afterRoomChange renders it, with what the upload did.
	return h.renderRoomWith(c, id, func(v *templates.RoomView) {
		v.UploadDecrypted, v.UploadRepairs = staged.Decrypted(), staged.Repairs()
		v.UploadTitle, v.UploadDocumentID = added.Document.Title, added.Document.ID
		l := i18n.From(c.Request.Context())
		for _, p := range added.Problems {
			v.UploadProblems = append(v.UploadProblems, templates.UploadProblemView{Page: p.Page, Text: p.Text, Detail: sayDetectProblem(l, p)})
		}
	})
}

// renderRoomWith answers an htmx room change with the room as
// afterRoomChange renders it, and what the change did (with sets it on the
// view model).
func (h *roomHandler) renderRoomWith(c *gin.Context, id string, with func(v *templates.RoomView)) error {
	addVary(c, "HX-Request")
	ws, err := h.rooms.RoomWorkspace(c.Request.Context(), id)
	if err != nil {
		return err
	}
	v := roomView(h.assets, ws, h.clock.Now(), nil)
	h.withTemplateOffers(c, ws, &v)
	with(&v)
	h.renderRoomView(c, http.StatusOK, v)
	return nil
}

// stageRoomUpload reads a PDF posted into room id as multipart/form-data
// (the parts "csrf", unless the X-CSRF-Token header is sent, "file" and an
// optional "title"), the room checked first: no PDF is read for an upload
// the room would refuse. The request's changes are the room session's.
func (h *roomHandler) stageRoomUpload(c *gin.Context, id, boundary string) (*models.StagedUpload, string, error) {
	withRoomActor(c, id)
	if err := h.documents.CheckRoomUpload(c.Request.Context(), id); err != nil {
		return nil, "", err
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, h.cfg.MaxUploadBytes+1<<20)
	checkToken := func(csrf string) error {
		if header := c.GetHeader(csrfHeader); header != "" {
			csrf = header
		}
		return verifyCSRF(roomCSRFToken(c, id), csrf)
	}
	return h.stageMultipart(c, h.files, boundary, checkToken)
}

// tagsPlacedTrigger is the HX-Trigger header of a room upload that placed
// tags: the htmx event "markuproom:tags-placed", from which the editor's
// undo history records them as one step.
type tagsPlacedTrigger struct {
	Placed tagsPlaced `json:"markuproom:tags-placed"`
}

// tagsPlaced names the tags an upload placed and the document they are on;
// Problems counts the text tags that could not be read.
type tagsPlaced struct {
	DocumentID string   `json:"documentId"`
	Position   int      `json:"position"`
	Title      string   `json:"title"`
	TagIDs     []string `json:"tagIds"`
	Problems   int      `json:"problems"`
}

// roomDocumentCacheControl lets the browser keep a room PDF but not use it
// without asking: every use revalidates (If-None-Match → 304 without the
// body), so the room's current state is checked each time and an expired
// room's PDFs stop at once (410), whatever was cached.
const roomDocumentCacheControl = "private, no-cache"

// roomDocumentContent serves one of the room's current documents to the bound
// browser, by document id: a document row's content never changes (a page edit
// makes a new one), so its ETag (the content's SHA-256) revalidates for as long
// as the room is open, and a viewer still loading while a change removes
// another document never gets a different file at its URL. The room's state is
// read with the document: an expired room answers 410, as every room route does.
func (h *roomHandler) roomDocumentContent(c *gin.Context) error {
	id, err := h.boundRoomID(c)
	if err != nil {
		return err
	}
	doc, err := h.rooms.RoomDocument(c.Request.Context(), id, c.Param("document"))
	if err != nil {
		return err
	}
	return servePDF(c, h.files, doc, roomDocumentCacheControl)
}
