package handlers

import (
	"net/http"
	"strconv"

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
	for _, a := range rows {
		v.Rows = append(v.Rows, admin.ActivityRowView{
			At: a.CreatedAt, Who: a.Actor, Action: activityKind(a.Action), Repeats: a.Repeats, LastAt: a.LastAt,
			Target: a.Target, Address: a.ClientAddr,
		})
	}
	if len(rows) == models.AdminPageSize {
		v.OlderURL = route.AdminActivity.Path() + "?before=" + strconv.FormatInt(rows[len(rows)-1].ID, 10)
	}
	render(c, http.StatusOK, admin.ActivityPage(h.adminPage(c, i18n.Msg("admin.nav.activity"), route.AdminActivity.Path()), v))
	return nil
}
