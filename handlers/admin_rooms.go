package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
)

// adminRooms lists every Markup Room: GET /admin/rooms?after=.
func (h *Handler) adminRooms(c *gin.Context) error {
	rows, more, err := h.store.AdminListRooms(c.Request.Context(), c.Query("after"))
	if err != nil {
		return err
	}
	now := h.store.Now()
	v := templates.AdminRoomsView{CSRFToken: csrfToken(c)}
	for _, r := range rows {
		rv := templates.AdminRoomRowView{
			ID: r.ID, Organization: r.OrganizationName, Sender: r.SenderName, SenderEmail: r.SenderEmail,
			Status: r.Status(now), Expires: r.ExpiresAt.UTC().Format("2 Jan 2006, 15:04 UTC"), ExpiresISO: r.ExpiresAt.UTC().Format(time.RFC3339),
			TransactionURL: "/admin/transactions/" + url.PathEscape(r.TransactionID),
		}
		if rv.Status == models.RoomOpen {
			rv.ExpireURL = "/admin/rooms/" + url.PathEscape(r.ID) + "/expire"
		}
		v.Rows = append(v.Rows, rv)
	}
	if more && len(rows) > 0 {
		v.NextURL = "/admin/rooms?after=" + url.QueryEscape(rows[len(rows)-1].ID)
	}
	render(c, http.StatusOK, templates.AdminRoomsPage(h.adminPage(c, "Markup Rooms", "/admin/rooms"), v))
	return nil
}

// adminExpireRoom ends an open room at once: POST /admin/rooms/:id/expire.
func (h *Handler) adminExpireRoom(c *gin.Context) error {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxFormBytes)
	if err := checkCSRF(c); err != nil {
		return err
	}
	err := h.store.ExpireRoom(c.Request.Context(), c.Param("id"))
	if errors.Is(err, models.ErrConflict) {
		return errStatus(http.StatusConflict, "This Markup Room is already completed or expired.")
	}
	if err != nil {
		return err
	}
	c.Redirect(http.StatusSeeOther, "/admin/rooms")
	return nil
}

// adminActivity shows the log of admin actions: GET /admin/activity?before=.
func (h *Handler) adminActivity(c *gin.Context) error {
	var before int64
	if b := c.Query("before"); b != "" {
		n, err := strconv.ParseInt(b, 10, 64)
		if err != nil || n <= 0 {
			return models.Invalid("query:before", "invalid_type", "before must be an entry's id.")
		}
		before = n
	}
	rows, err := h.store.ListActivity(c.Request.Context(), models.AdminPageSize, before)
	if err != nil {
		return err
	}
	var v templates.AdminActivityView
	for _, a := range rows {
		v.Rows = append(v.Rows, templates.AdminActivityRowView{
			When: a.CreatedAt.UTC().Format("2 Jan 2006, 15:04:05 UTC"), WhenISO: a.CreatedAt.UTC().Format(time.RFC3339),
			Who: a.Actor, Action: activityLabel(a), Target: a.Target, Address: a.ClientAddr,
		})
	}
	if len(rows) == models.AdminPageSize {
		v.OlderURL = "/admin/activity?before=" + strconv.FormatInt(rows[len(rows)-1].ID, 10)
	}
	render(c, http.StatusOK, templates.AdminActivityPage(h.adminPage(c, "Activity", "/admin/activity"), v))
	return nil
}

// activityLabel names an action for the log: a repeated refusal says how
// many times, and when the last was ("failed login ×37, last 09:14:03 UTC").
func activityLabel(a models.Activity) string {
	if a.Repeats <= 1 {
		return a.Action
	}
	label := a.Action + " ×" + strconv.Itoa(a.Repeats)
	if a.LastAt != nil {
		label += ", last " + a.LastAt.UTC().Format("15:04:05 UTC")
	}
	return label
}
