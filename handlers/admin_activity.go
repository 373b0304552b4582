package handlers

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// adminActivity shows the log of admin actions: GET /admin/activity?before=.
func (h *adminHandler) adminActivity(c *gin.Context) error {
	var before int64
	if b := c.Query("before"); b != "" {
		n, err := strconv.ParseInt(b, 10, 64)
		if err != nil || n <= 0 {
			return models.Invalid("query:before", "invalid_type", "problem.list.before")
		}
		before = n
	}
	rows, err := h.activity.ListActivity(c.Request.Context(), models.AdminPageSize, before)
	if err != nil {
		return err
	}
	var v admin.ActivityView
	l := i18n.From(c.Request.Context())
	for _, a := range rows {
		v.Rows = append(v.Rows, admin.ActivityRowView{
			When: consoleDateTimeUTC(l, a.CreatedAt, "15:04:05"), WhenISO: a.CreatedAt.UTC().Format(time.RFC3339),
			Who: a.Actor, Action: activityLabel(l, a), Target: a.Target, Address: a.ClientAddr,
		})
	}
	if len(rows) == models.AdminPageSize {
		v.OlderURL = route.AdminActivity.Path() + "?before=" + strconv.FormatInt(rows[len(rows)-1].ID, 10)
	}
	render(c, http.StatusOK, admin.ActivityPage(h.adminPage(c, i18n.Msg("admin.nav.activity"), route.AdminActivity.Path()), v))
	return nil
}

// activityLabel names an action for the log: a repeated refusal says how
// many times, and when the last was ("failed login ×37, last 09:14:03 UTC").
// The action is stored as the log's own word; it is shown in l's language
// (activityKindIDs).
func activityLabel(l *i18n.Localizer, a models.Activity) string {
	action := activityKind(l, a.Action)
	if a.Repeats <= 1 {
		return action
	}
	if a.LastAt != nil {
		return l.T("admin.activity.repeated_last", "action", action, "repeats", a.Repeats, "last", consoleTimeUTC(l, *a.LastAt))
	}
	return l.T("admin.activity.repeated", "action", action, "repeats", a.Repeats)
}
