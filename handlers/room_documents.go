package handlers

import (
	"mime"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/pdf"
)

// addRoomDocument uploads a PDF into the room: POST /rooms/:id/documents,
// multipart/form-data with parts "csrf" (unless the X-CSRF-Token header is
// sent), "file" and an optional "title". The room is checked before the file
// is read (completed 409, expired 410, not allowed 403). Same checks and
// limits as the API's upload (413 too large, 415 not multipart, 422 not a
// valid PDF). An htmx request gets the room with a note when the file was
// decrypted or repaired.
func (h *roomHandler) addRoomDocument(c *gin.Context) error {
	id, err := h.boundRoomID(c)
	if err != nil {
		return err
	}
	mediaType, params, err := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if err != nil || mediaType != "multipart/form-data" {
		return &models.ValidationError{Kind: models.KindUnsupportedMedia, Detail: "Send the PDF as multipart/form-data with a part named \"file\".",
			Errors: []models.FieldError{{Pointer: "header:Content-Type", Code: "unsupported_media_type", Detail: "Use a multipart/form-data upload."}}}
	}
	// The room first: no PDF is read for an upload the room would refuse.
	if err := h.documents.CheckRoomUpload(c.Request.Context(), id); err != nil {
		return err
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, h.cfg.MaxUploadBytes+1<<20)
	checkToken := func(csrf string) error {
		if header := c.GetHeader(csrfHeader); header != "" {
			csrf = header
		}
		return verifyCSRF(roomCSRFToken(c, id), csrf)
	}
	staged, title, err := h.stageMultipart(c, h.files, params["boundary"], checkToken)
	if err != nil {
		return err
	}
	defer staged.Close()
	if _, err := h.documents.AddRoomDocument(c.Request.Context(), id, staged, title); err != nil {
		return err
	}
	note := uploadNote(staged.Decrypted(), staged.Repairs())
	if note == "" || c.GetHeader("HX-Request") != "true" {
		return h.afterRoomChange(c, id)
	}
	// The room as afterRoomChange renders it, with the note.
	c.Header("Vary", "HX-Request")
	ws, err := h.rooms.RoomWorkspace(c.Request.Context(), id)
	if err != nil {
		return err
	}
	v := roomView(h.assets, ws, h.clock.Now(), nil)
	v.UploadNote = note
	h.renderRoomView(c, http.StatusOK, v)
	return nil
}

// repairNotes says in words what each repair of the upload pass did.
var repairNotes = map[string]string{
	pdf.RepairXRefRebuilt:  "cross-reference table rebuilt",
	pdf.RepairStreamLength: "stream lengths corrected",
	pdf.RepairLineEndings:  "line endings restored",
	pdf.RepairEOFAdded:     "end-of-file marker added",
}

// uploadNote is the room's note after an upload that was decrypted or
// repaired (see the upload answer's decrypted and repairs); "" otherwise.
func uploadNote(decrypted bool, repairs []string) string {
	var parts []string
	if decrypted {
		parts = append(parts, "Opened without a password and stored unprotected.")
	}
	var done []string
	for _, r := range repairs {
		if n, ok := repairNotes[r]; ok {
			done = append(done, n)
		}
	}
	if len(done) > 0 {
		parts = append(parts, "Repaired: "+strings.Join(done, ", ")+".")
	}
	return strings.Join(parts, " ")
}

// removeRoomDocument removes a document and its tags from the room:
// POST /rooms/:id/documents/:position/remove (documents.advancedEdit).
func (h *roomHandler) removeRoomDocument(c *gin.Context) error {
	id, pos, err := h.roomDocumentPost(c)
	if err != nil {
		return err
	}
	if err := h.documents.RemoveRoomDocument(c.Request.Context(), id, pos); err != nil {
		return err
	}
	return h.afterRoomChange(c, id)
}
