package handlers

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// adminRooms lists every Markup Room: GET /admin/rooms?after=.
func (h *adminHandler) adminRooms(c *gin.Context) error {
	rows, more, err := h.rooms.AdminListRooms(c.Request.Context(), c.Query("after"))
	if err != nil {
		return err
	}
	now := h.clock.Now()
	v := admin.RoomsView{CSRFToken: csrfToken(c), NewRoomURL: route.AdminRoomNew.Path()}
	for _, r := range rows {
		rv := admin.RoomRowView{
			ID: r.ID, ShortID: shortID(r.ID), Title: r.Title, Organization: r.OrganizationName, Sender: r.SenderName, SenderEmail: r.SenderEmail,
			Status: r.Status(now), Expires: r.ExpiresAt, TransactionURL: route.AdminTransaction.Path(r.TransactionID),
		}
		if rv.Status == models.RoomOpen {
			rv.ExpireURL = route.AdminRoomExpire.Path(r.ID)
		}
		v.Rows = append(v.Rows, rv)
	}
	if more && len(rows) > 0 {
		v.NextURL = route.AdminRooms.Path() + "?after=" + url.QueryEscape(rows[len(rows)-1].ID)
	}
	render(c, http.StatusOK, admin.RoomsPage(h.adminPage(c, i18n.Msg("admin.rooms.title"), route.AdminRooms.Path()), v))
	return nil
}

// adminExpireRoom ends an open room at once: POST /admin/rooms/:id/expire.
func (h *adminHandler) adminExpireRoom(c *gin.Context) error {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxFormBytes)
	if err := checkCSRF(c); err != nil {
		return err
	}
	err := h.rooms.ExpireRoom(c.Request.Context(), c.Param("id"))
	if errors.Is(err, models.ErrConflict) {
		return errStatus(http.StatusConflict, "admin.rooms.already_closed")
	}
	if err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, route.AdminRooms.Path())
	return nil
}
