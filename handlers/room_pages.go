package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
)

// maxFormBytes bounds a room form post (a participant is a few hundred bytes).
const maxFormBytes = 64 << 10

// roomHeaders keep room pages out of caches and referrers.
func roomHeaders(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	c.Header("Referrer-Policy", "no-referrer")
}

// openRoomLink checks a capability URL, binds this browser's session to the
// room and redirects to an address without the token (303).
func (h *roomHandler) openRoomLink(c *gin.Context) error {
	roomHeaders(c)
	room, err := h.rooms.OpenRoom(c.Request.Context(), c.Param("token"))
	if errors.Is(err, models.ErrNotFound) {
		return errStatus(http.StatusNotFound, "This Markup Room link is not valid. Check that you copied the whole address, or ask the sender for a new link.")
	}
	if err != nil {
		return err
	}
	if err := bindRoom(c, room, h.clock.Now()); err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.Room.Path(room.ID))
	return nil
}

// boundRoomID returns the addressed room's id if this browser opened its link.
func (h *roomHandler) boundRoomID(c *gin.Context) (string, error) {
	roomHeaders(c)
	id := c.Param("id")
	bound, expired := roomBound(c, id, h.clock.Now())
	if expired {
		return "", models.ErrRoomExpired
	}
	if !bound {
		return "", errStatus(http.StatusForbidden, "This browser has not opened this Markup Room. Open the link you received (it signs this browser in), then try again.")
	}
	return id, nil
}

// roomFor loads the room this request addresses, if this browser opened its link.
func (h *roomHandler) roomFor(c *gin.Context) (*models.RoomWorkspace, error) {
	id, err := h.boundRoomID(c)
	if err != nil {
		return nil, err
	}
	ws, err := h.rooms.RoomWorkspace(c.Request.Context(), id)
	if err != nil {
		return nil, err
	}
	if ws.Room.Status(h.clock.Now()) == models.RoomExpired {
		return nil, models.ErrRoomExpired
	}
	return ws, nil
}

// roomPage renders the Markup Room.
func (h *roomHandler) roomPage(c *gin.Context) error {
	ws, err := h.roomFor(c)
	if err != nil {
		return err
	}
	h.renderRoom(c, http.StatusOK, ws, nil)
	return nil
}

// renderRoom renders the room page; form, when not nil, is a dialog to show
// again with the values and errors of a refused submission.
func (h *roomHandler) renderRoom(c *gin.Context, status int, ws *models.RoomWorkspace, form *templates.ParticipantFormView) {
	h.renderRoomView(c, status, roomView(h.assets, ws, h.clock.Now(), form))
}

// renderRoomView renders the room page from its view model.
func (h *roomHandler) renderRoomView(c *gin.Context, status int, v templates.RoomView) {
	v.MaxUploadBytes = h.cfg.MaxUploadBytes
	p := h.page(c, v.Title)
	p.BodyClass = "app"
	p.CSRFToken = roomCSRFToken(c, v.RoomID)
	useViewerAssets(&p)
	render(c, status, templates.RoomPage(p, v))
}

// useViewerAssets adds the page viewer's stylesheet and script to a page, and
// has the browser fetch pdf.js and its worker early: they gate the first page.
func useViewerAssets(p *templates.Page) {
	p.Styles = append(p.Styles, "css/editor.css")
	p.Scripts = append(p.Scripts, "js/editor.js")
	p.ModulePreloads = append(p.ModulePreloads, "vendor/pdfjs/pdf.min.mjs")
	p.Prefetches = append(p.Prefetches, "vendor/pdfjs/pdf.worker.min.mjs")
}

// roomPost starts a state-changing room request: this browser opened the
// room, the body is bounded and the CSRF token is this room's.
func (h *roomHandler) roomPost(c *gin.Context) (string, error) {
	return h.roomPostWithin(c, maxFormBytes)
}

// roomPostWithin is roomPost with a body limit of its own (a route that
// takes more than a form, such as a batch of tag edits).
func (h *roomHandler) roomPostWithin(c *gin.Context, limit int64) (string, error) {
	id, err := h.boundRoomID(c)
	if err != nil {
		return "", err
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
	if err := checkRoomCSRF(c, id); err != nil {
		return "", err
	}
	return id, nil
}

// roomDocumentPost is roomPost for a route about one document of the room
// (/rooms/:id/documents/:position/…): the room id and the position, which
// must be a number (else 404).
func (h *roomHandler) roomDocumentPost(c *gin.Context) (string, int, error) {
	id, err := h.roomPost(c)
	if err != nil {
		return "", 0, err
	}
	pos, err := strconv.Atoi(c.Param("position"))
	if err != nil {
		return "", 0, models.ErrNotFound
	}
	return id, pos, nil
}

// roomChange runs one room edit posted by a form: CSRF check, change (which
// checks the room's state and flags itself), then back to the room (303), or
// the room again with the form's errors.
func (h *roomHandler) roomChange(c *gin.Context, change func(roomID string) (*templates.ParticipantFormView, error)) error {
	id, err := h.roomPost(c)
	if err != nil {
		return err
	}
	form, err := change(id)
	var ve *models.ValidationError
	if errors.As(err, &ve) && form != nil {
		form.Errors = fieldErrors(ve)
		ws, err := h.rooms.RoomWorkspace(c.Request.Context(), id)
		if err != nil {
			return err
		}
		// The current state with the refused form open again.
		h.renderRoom(c, http.StatusUnprocessableEntity, ws, form)
		return nil
	}
	if err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.Room.Path(id))
	return nil
}

func (h *roomHandler) addRoomParticipant(c *gin.Context) error {
	return h.roomChange(c, func(roomID string) (*templates.ParticipantFormView, error) {
		f := participantFormFromRequest(c)
		_, err := h.participants.AddRoomParticipant(c.Request.Context(), roomID, f)
		v := participantFormView("", f)
		v.Action = route.RoomParticipants.Path(roomID)
		return v, err
	})
}

func (h *roomHandler) updateRoomParticipant(c *gin.Context) error {
	return h.roomChange(c, func(roomID string) (*templates.ParticipantFormView, error) {
		f := participantFormFromRequest(c)
		err := h.participants.UpdateRoomParticipant(c.Request.Context(), roomID, c.Param("participantId"), f)
		v := participantFormView(c.Param("participantId"), f)
		v.Action = route.RoomParticipant.Path(roomID, c.Param("participantId"))
		return v, err
	})
}

// roomFormAddress answers a GET of an address a room form posts to (a page
// reloaded after a refused form without JavaScript): back to the room (303),
// not 405.
func (h *roomHandler) roomFormAddress(c *gin.Context) error {
	id, err := h.boundRoomID(c)
	if err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.Room.Path(id))
	return nil
}

func (h *roomHandler) renameRoomDocument(c *gin.Context) error {
	return h.roomChange(c, func(roomID string) (*templates.ParticipantFormView, error) {
		pos, err := strconv.Atoi(c.Param("position"))
		if err != nil {
			return nil, models.ErrNotFound
		}
		return nil, h.documents.RenameRoomDocument(c.Request.Context(), roomID, pos, c.PostForm("title"))
	})
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

func participantFormFromRequest(c *gin.Context) models.ParticipantForm {
	return models.ParticipantForm{
		FirstName:                c.PostForm("firstName"),
		MiddleName:               c.PostForm("middleName"),
		LastName:                 c.PostForm("lastName"),
		Email:                    c.PostForm("email"),
		Phone:                    c.PostForm("phone"),
		AuthenticationType:       c.PostForm("authenticationType"),
		TwoFactorContact:         c.PostForm("twoFactorContact"),
		PersonalPasswordQuestion: c.PostForm("personalPasswordQuestion"),
		PersonalPassword:         c.PostForm("personalPassword"),
		KBARequired:              c.PostForm("kbaRequired") != "",
		CredAnalysisRequired:     c.PostForm("credAnalysisRequired") != "",
	}
}

// fieldErrors indexes a validation error's messages by form field name: the
// last part of each pointer ("#/email", and "#/participants/2/personalPassword"
// from the checks of the whole transaction, both name a field of the form).
func fieldErrors(ve *models.ValidationError) map[string]string {
	out := map[string]string{}
	for _, f := range ve.Errors {
		name := f.Pointer
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		if name == "" || name == "#" {
			name = "form"
		}
		detail := f.Detail
		if f.Code == "password_required" {
			detail = "Enter a password: this participant signs with a personal password."
		}
		if _, seen := out[name]; !seen {
			out[name] = detail
		}
	}
	return out
}

// moveRoomParticipant changes a participant's place in the signing order:
// POST /rooms/:id/participants/:participantId/move with the form field "to".
func (h *roomHandler) moveRoomParticipant(c *gin.Context) error {
	id, err := h.roomPost(c)
	if err != nil {
		return err
	}
	to, ok := models.ParseIndex(c.PostForm("to"))
	if !ok {
		return models.Invalid("#/to", "invalid_type", "to must be the participant's new position (1, 2, …).")
	}
	if err := h.participants.MoveRoomParticipant(c.Request.Context(), id, c.Param("participantId"), to); err != nil {
		return err
	}
	return h.afterRoomChange(c, id)
}
