package handlers

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// adminTemplates lists every organization's templates: GET
// /admin/templates?org=&status=&q=&after=|before=. Like the transactions
// table, the URL holds the filters and htmx swaps just the table.
func (h *adminHandler) adminTemplates(c *gin.Context) error {
	f := models.AdminTemplateFilter{Status: c.Query("status"), Search: c.Query("q"), After: c.Query("after"), Before: c.Query("before")}
	if org := c.Query("org"); org != "" {
		id, err := strconv.ParseInt(org, 10, 64)
		if err != nil || id <= 0 {
			return models.Invalid("query:org", "invalid_type", "problem.list.org")
		}
		f.OrganizationID = id
	}
	page, err := h.templates.AdminListTemplates(c.Request.Context(), f)
	if err != nil {
		return err
	}
	orgs, err := h.transactions.OrganizationNames(c.Request.Context())
	if err != nil {
		return err
	}
	v := admin.TemplatesView{
		Action:         route.AdminTemplates.Path(),
		OrganizationID: c.Query("org"), Status: f.Status, Search: f.Search,
		Filtered: f.OrganizationID != 0 || f.Status != "" || f.Search != "",
	}
	for _, o := range orgs {
		v.Organizations = append(v.Organizations, templates.OptionView{Value: strconv.FormatInt(o.ID, 10), Label: i18n.Plain(o.Name)})
	}
	for _, s := range []string{models.TemplateActive, models.TemplateArchived} {
		v.Statuses = append(v.Statuses, templates.OptionView{Value: s, Label: templateStatusWord(s)})
	}
	for _, r := range page.Rows {
		v.Rows = append(v.Rows, templateRow(&r))
	}
	pageURL := func(key, id string) string {
		q := url.Values{}
		for k, val := range map[string]string{"org": v.OrganizationID, "status": f.Status, "q": f.Search, key: id} {
			if val != "" {
				q.Set(k, val)
			}
		}
		return route.AdminTemplates.Path() + "?" + q.Encode()
	}
	if page.HasNext {
		v.NextURL = pageURL("after", page.LastID)
	}
	if page.HasPrev {
		v.PrevURL = pageURL("before", page.FirstID)
	}
	addVary(c, "HX-Request")
	render(c, http.StatusOK, admin.TemplatesPage(h.adminPage(c, i18n.Msg("admin.templates.title"), route.AdminTemplates.Path()), v))
	return nil
}

// templateRow shapes one row of the templates table.
func templateRow(r *models.AdminTemplateRow) admin.TemplateRowView {
	v := admin.TemplateRowView{
		ID: r.ID, URL: route.AdminTemplate.Path(r.ID), Name: r.Name, Organization: r.OrganizationName,
		Status: templateStatus(r.ArchivedAt), Documents: r.DocumentCount, Pages: r.PageCount, Tags: r.TagCount,
		Roles: r.RoleCount, Versions: r.Version, Uses: r.Uses, LastUsed: r.LastUsedAt,
	}
	return v
}

// templateStatus is a template's state as the console shows it.
func templateStatus(archivedAt *time.Time) string {
	if archivedAt != nil {
		return models.TemplateArchived
	}
	return models.TemplateActive
}

// templateStatusWord is a template status in words.
func templateStatusWord(status string) i18n.Words {
	if status == models.TemplateArchived {
		return i18n.Msg("admin.templates.status.archived")
	}
	return i18n.Msg("admin.templates.status.active")
}
