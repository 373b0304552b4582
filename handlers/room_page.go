package handlers

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// openRoomLink checks a capability URL, binds this browser's session to the
// room and redirects to an address without the token (303).
func (h *roomHandler) openRoomLink(c *gin.Context) error {
	roomHeaders(c)
	room, err := h.rooms.OpenRoom(c.Request.Context(), c.Param("token"))
	if errors.Is(err, models.ErrNotFound) {
		return errStatus(http.StatusNotFound, "error.room_link_invalid")
	}
	if err != nil {
		return err
	}
	if err := bindRoom(c, room, h.clock.Now()); err != nil {
		return err
	}
	if room.EmbedOrigin != "" {
		// A framed room may not get its cookie back: its address carries the
		// session, and the language the link was opened with (?lang=), which
		// the language cookie could not carry either (docs/i18n.md).
		embedHeaders(c, room.EmbedOrigin)
		var extra []string
		if c.GetBool(ctxLangChosen) {
			extra = []string{langQuery, i18n.From(c.Request.Context()).Language().Tag}
		}
		c.Redirect(http.StatusSeeOther, withSession(route.Room.Path(room.ID), takeSavedSession(c), extra...))
		return nil
	}
	c.Redirect(http.StatusSeeOther, route.Room.Path(room.ID))
	return nil
}

// roomPage renders the Markup Room.
func (h *roomHandler) roomPage(c *gin.Context) error {
	ws, err := h.roomFor(c)
	if err != nil {
		return err
	}
	v := roomView(h.assets, ws, h.clock.Now(), nil)
	if c.Query("embed_event") == "completed" && ws.Room.EmbedOrigin != "" && ws.Room.State == models.RoomCompleted {
		v.EmbedEvent = "completed"
	}
	h.withTemplateOffers(c, ws, &v)
	h.renderRoomView(c, http.StatusOK, v)
	return nil
}

// renderRoom renders the room page; form, when not nil, is a dialog to show
// again with the values and errors of a refused submission.
func (h *roomHandler) renderRoom(c *gin.Context, status int, ws *models.RoomWorkspace, form *templates.ParticipantFormView) {
	v := roomView(h.assets, ws, h.clock.Now(), form)
	h.withTemplateOffers(c, ws, &v)
	h.renderRoomView(c, status, v)
}

// renderRoomView renders the room page from its view model.
func (h *roomHandler) renderRoomView(c *gin.Context, status int, v templates.RoomView) {
	v.MaxUploadBytes = h.cfg.MaxUploadBytes
	p := h.page(c, v.Heading)
	p.BodyClass = "app"
	p.CSRFToken = roomCSRFToken(c, v.RoomID)
	if v.EmbedOrigin != "" {
		p.BodyClass = "app app--embedded" // inside the caller's app: no site header of ours
		embedHeaders(c, v.EmbedOrigin)
		carrySession(c, &p, &v)
	}
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

// carrySession makes an embedded room's page carry its session, and the
// language its visitor chose (?lang=): no cookie reaches a framed page's
// requests. htmx and the editor send them as headers (p.RoomSession,
// p.Lang), and the addresses the browser loads itself (PDFs, the
// completion form) name them.
func carrySession(c *gin.Context, p *templates.Page, v *templates.RoomView) {
	session := carriedSession(c)
	if session == "" {
		return
	}
	p.RoomSession = session
	p.Lang = carriedLang(c)
	for i := range v.Viewer.Documents {
		v.Viewer.Documents[i].ContentURL = withSession(v.Viewer.Documents[i].ContentURL, session)
	}
	v.CompleteURL = withCarried(c, v.CompleteURL)
	if v.EventsURL != "" {
		v.EventsURL = withSession(v.EventsURL, session)
	}
	if v.OpenChecklist != nil {
		v.OpenChecklist.CompleteURL = withCarried(c, v.OpenChecklist.CompleteURL)
	}
}

// carriedLang is the language an embedded room's visitor chose, which its
// page carries ("" when none was chosen: the room's own locale or the
// browser's applies).
func carriedLang(c *gin.Context) string {
	if carriedSession(c) == "" || !c.GetBool(ctxLangChosen) {
		return ""
	}
	return i18n.From(c.Request.Context()).Language().Tag
}

// withCarried names an embedded room's session and chosen language in path,
// an address the browser loads itself (with extra query pairs); path as it
// is for a room that is not embedded.
func withCarried(c *gin.Context, path string, extra ...string) string {
	s := carriedSession(c)
	if s == "" {
		return path
	}
	if l := carriedLang(c); l != "" {
		extra = append(extra, langQuery, l)
	}
	return withSession(path, s, extra...)
}
