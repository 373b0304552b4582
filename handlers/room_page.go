package handlers

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
)

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
	v := roomView(h.assets, ws, h.clock.Now(), form)
	h.withTemplateOffers(c, ws, &v)
	h.renderRoomView(c, status, v)
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
