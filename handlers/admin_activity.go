package handlers

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates/admin"
)

// adminActivity shows the log of admin actions: GET /admin/activity?before=.
func (h *adminHandler) adminActivity(c *gin.Context) error {
	var before int64
	if b := c.Query("before"); b != "" {
		n, err := strconv.ParseInt(b, 10, 64)
		if err != nil || n <= 0 {
			return models.Invalid("query:before", "invalid_type", "before must be an entry's id.")
		}
		before = n
	}
	rows, err := h.activity.ListActivity(c.Request.Context(), models.AdminPageSize, before)
	if err != nil {
		return err
	}
	var v admin.ActivityView
	for _, a := range rows {
		v.Rows = append(v.Rows, admin.ActivityRowView{
			When: a.CreatedAt.UTC().Format("2 Jan 2006, 15:04:05 UTC"), WhenISO: a.CreatedAt.UTC().Format(time.RFC3339),
			Who: a.Actor, Action: activityLabel(a), Target: a.Target, Address: a.ClientAddr,
		})
	}
	if len(rows) == models.AdminPageSize {
		v.OlderURL = route.AdminActivity.Path() + "?before=" + strconv.FormatInt(rows[len(rows)-1].ID, 10)
	}
	render(c, http.StatusOK, admin.ActivityPage(h.adminPage(c, "Activity", route.AdminActivity.Path()), v))
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
