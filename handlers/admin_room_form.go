package handlers

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// Bounds of the form's text fields (the files are bounded by the upload limit).
const (
	newRoomMaxFieldBytes = 4 << 10
	newRoomMaxFields     = 1000
)

// newRoomForm is a posted "New Markup Room" form: the room it asks for,
// its uploads (staged: checked like the API's, not saved), and the
// problems found while reading it.
type newRoomForm struct {
	orgID    int64
	values   url.Values
	room     models.RoomForm
	uploads  []models.RoomUpload
	problems map[string]i18n.Words
	// addRow asks for one more participant row instead of a room.
	addRow bool
}

// close removes the staged uploads' temporary files.
func (f *newRoomForm) close() {
	if f == nil {
		return
	}
	for _, u := range f.uploads {
		_ = u.File.Close()
	}
}

// problem records the first problem of a field.
func (f *newRoomForm) problem(field string, msg i18n.Words) {
	if f.problems == nil {
		f.problems = map[string]i18n.Words{}
	}
	if f.problems[field] == nil {
		f.problems[field] = msg
	}
}

// readNewRoomForm reads the form, as multipart (with files) or URL-encoded
// (without): text fields within their bounds, the CSRF token checked
// before any file is received, each file staged under the upload limit.
func (h *adminHandler) readNewRoomForm(c *gin.Context) (*newRoomForm, error) {
	f := &newRoomForm{values: url.Values{}}
	mediaType, params, _ := mime.ParseMediaType(c.GetHeader("Content-Type"))
	switch mediaType {
	case "multipart/form-data":
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, newRoomMaxFiles*h.cfg.MaxUploadBytes+1<<20)
		if err := h.readNewRoomParts(c, f, params["boundary"]); err != nil {
			return f, err
		}
	case "application/x-www-form-urlencoded":
		if err := adminForm(c); err != nil {
			return f, err
		}
		f.values = c.Request.PostForm
	default:
		return f, errStatus(http.StatusUnsupportedMediaType, "error.form_not_multipart")
	}
	if err := verifyCSRF(csrfToken(c), f.values.Get(csrfField)); err != nil {
		return f, err
	}
	f.fill()
	return f, nil
}

// readNewRoomParts reads a multipart form part by part.
func (h *adminHandler) readNewRoomParts(c *gin.Context, f *newRoomForm, boundary string) error {
	if boundary == "" {
		return errStatus(http.StatusBadRequest, "error.form_no_boundary")
	}
	mr := multipart.NewReader(c.Request.Body, boundary)
	for n := 0; ; n++ {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if isBodyTooLarge(err) {
				return err
			}
			return errStatus(http.StatusBadRequest, "error.form_unreadable", "reason", err.Error())
		}
		if n >= newRoomMaxFields {
			return errStatus(http.StatusRequestEntityTooLarge, "error.form_too_many_fields")
		}
		if part.FormName() == "files" {
			err = h.stageNewRoomFile(c, f, part)
		} else {
			err = readFormField(f.values, part)
		}
		_ = part.Close()
		if err != nil {
			return err
		}
	}
}

// stageNewRoomFile checks one uploaded PDF (after the CSRF token, which
// the form sends first); a refused file is a problem of the form's files.
func (h *adminHandler) stageNewRoomFile(c *gin.Context, f *newRoomForm, part *multipart.Part) error {
	name := part.FileName()
	if name == "" { // the file input left empty
		_, err := io.Copy(io.Discard, part)
		return err
	}
	if err := verifyCSRF(csrfToken(c), f.values.Get(csrfField)); err != nil {
		return err
	}
	if len(f.uploads) >= newRoomMaxFiles {
		f.problem("files", i18n.Msg("admin.room_new.error.max_files", "count", newRoomMaxFiles))
		_, err := io.Copy(io.Discard, part)
		return err
	}
	staged, err := h.newRooms.StageUpload(c.Request.Context(), part, h.cfg.MaxUploadBytes, name)
	var ve *models.ValidationError
	if errors.As(err, &ve) {
		f.problem("files", i18n.List{Items: []i18n.Words{i18n.Plain(name), firstProblem(ve)}, Sep: ": "})
		_, err = io.Copy(io.Discard, part)
		return err
	}
	if err != nil {
		return err
	}
	f.uploads = append(f.uploads, models.RoomUpload{File: staged})
	return nil
}

// readFormField adds one text field, refusing one too long.
func readFormField(values url.Values, part *multipart.Part) error {
	b, err := io.ReadAll(io.LimitReader(part, newRoomMaxFieldBytes+1))
	if err != nil {
		if isBodyTooLarge(err) {
			return err
		}
		return errStatus(http.StatusBadRequest, "error.form_unreadable", "reason", err.Error())
	}
	if len(b) > newRoomMaxFieldBytes {
		return errStatus(http.StatusRequestEntityTooLarge, "error.form_field_too_long", "field", models.Quoted(part.FormName()))
	}
	values.Add(part.FormName(), string(b))
	return nil
}

// fill reads the room the form asks for from its fields; rows left empty
// are no participants.
func (f *newRoomForm) fill() {
	v := f.values
	id, err := strconv.ParseInt(strings.TrimSpace(v.Get("org")), 10, 64)
	if err != nil || id <= 0 {
		f.problem("organization", i18n.Msg("admin.room_new.error.organization"))
	}
	f.orgID = id
	f.addRow = v.Get("add") == "participant"
	f.room = models.RoomForm{SenderID: strings.TrimSpace(v.Get("sender")), Config: roomConfigFromForm(v),
		TemplateID: strings.TrimSpace(v.Get("template")), Locale: strings.TrimSpace(v.Get("locale")),
		EmbedOrigin: strings.TrimSpace(v.Get("embedOrigin"))}
	seen := map[string]bool{}
	for _, d := range v["document"] {
		if d = strings.TrimSpace(d); d != "" && !seen[d] {
			seen[d] = true
			f.room.Documents = append(f.room.Documents, d)
		}
	}
	first, last, email := v["firstName"], v["lastName"], v["email"]
	for i := range max(len(first), len(last), len(email)) {
		p := models.RoomParticipantInput{FirstName: at(first, i), LastName: at(last, i), Email: at(email, i)}
		if strings.TrimSpace(p.FirstName+p.LastName+p.Email) == "" {
			continue
		}
		f.room.Participants = append(f.room.Participants, p)
	}
	if f.room.SenderID == "" && !f.addRow {
		f.problem("sender", i18n.Msg("admin.room_new.error.sender"))
	}
}

// at is values[i], or "" past its end.
func at(values []string, i int) string {
	if i < len(values) {
		return values[i]
	}
	return ""
}

// view is the form as posted, for showing it again.
func (f *newRoomForm) view() admin.NewRoomView {
	v := admin.NewRoomView{SenderID: f.room.SenderID, TemplateID: f.room.TemplateID, Locale: f.room.Locale, EmbedOrigin: f.room.EmbedOrigin,
		FlagGroups: roomFlagGroups(f.room.Config)}
	if f.orgID > 0 {
		v.OrganizationID = strconv.FormatInt(f.orgID, 10)
	}
	for _, p := range f.room.Participants {
		v.Participants = append(v.Participants, admin.NewRoomParticipantView{FirstName: p.FirstName, LastName: p.LastName, Email: p.Email})
	}
	return v
}

// picked is the set of recent uploads the form chose.
func (f *newRoomForm) picked() map[string]bool {
	out := map[string]bool{}
	for _, d := range f.room.Documents {
		out[d] = true
	}
	return out
}
