package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/templates/admin"
	"github.com/markuproom/markuproom/web/i18n"
)

// adminTemplate shows one template of any organization: GET
// /admin/templates/:id, its current version's tags drawn on the pages and
// its versions.
func (h *adminHandler) adminTemplate(c *gin.Context) error {
	at, err := h.templates.AdminGetTemplate(c.Request.Context(), c.Param("id"))
	if err != nil {
		return err
	}
	t := at.Template
	v := admin.TemplateView{
		BackURL: route.AdminTemplates.Path(),
		ID:      t.ID, Name: t.Name, Description: deref(t.Description), Organization: at.Organization.Name,
		Status: templateStatus(t.ArchivedAt), Version: t.Version, Created: t.CreatedAt, Updated: t.UpdatedAt, LastUsed: t.LastUsedAt,
		Uses: t.Uses, CSRFToken: csrfToken(c),
	}
	live := t.ArchivedAt == nil
	if live {
		v.ArchiveURL = route.AdminTemplateArchive.Path(t.ID)
	}
	v.Viewer, v.Roles, v.Documents = templateViewer(i18n.From(c.Request.Context()), h.assets, t.Current, func(pos int) string {
		return route.AdminTemplateContent.Path(t.ID, strconv.Itoa(pos)) + "?v=" + url.QueryEscape(t.Current.Documents[pos].DocumentID)
	})
	for i := range at.Versions {
		ver := &at.Versions[i]
		vv := admin.TemplateVersionView{
			Version: ver.Version, Name: ver.Name, When: ver.CreatedAt,
			Actor: admin.ActorView{Kind: ver.ActorKind, ID: ver.ActorID, Name: ver.ActorName, Label: ver.ActorLabel}, Tags: ver.TagCount, Current: ver.Version == t.Version,
		}
		if ver.RestoredFrom != nil {
			vv.RestoredFrom = strconv.Itoa(*ver.RestoredFrom)
		}
		if live && !vv.Current {
			vv.RestoreURL = route.AdminTemplateRestore.Path(t.ID, strconv.Itoa(ver.Version))
		}
		v.Versions = append(v.Versions, vv)
	}
	p := h.adminPage(c, i18n.Plain(t.Name), route.AdminTemplates.Path())
	useViewerAssets(&p)
	render(c, http.StatusOK, admin.TemplatePage(p, v))
	return nil
}

// adminTemplateContent serves a document of a template's current version
// to the console's viewer: GET /admin/templates/:id/documents/:position/content.
func (h *adminHandler) adminTemplateContent(c *gin.Context) error {
	at, err := h.templates.AdminGetTemplate(c.Request.Context(), c.Param("id"))
	if err != nil {
		return err
	}
	docs := at.Template.Current.Documents
	pos, err := strconv.Atoi(c.Param("position"))
	if err != nil || pos < 0 || pos >= len(docs) {
		return models.ErrNotFound
	}
	doc, err := h.documents.GetDocument(c.Request.Context(), at.Template.OrganizationID, docs[pos].DocumentID)
	if err != nil {
		return err
	}
	return servePDF(c, h.documents, doc, "private, no-cache")
}

// adminRestoreTemplate makes a new version of a template equal to an
// older one: POST /admin/templates/:id/versions/:version/restore.
func (h *adminHandler) adminRestoreTemplate(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Param("version"))
	if err != nil || n <= 0 {
		return models.ErrNotFound
	}
	_, err = h.templates.AdminRestoreTemplateVersion(c.Request.Context(), c.Param("id"), n)
	if err != nil {
		return archivedTemplateError(c, err)
	}
	c.Redirect(http.StatusSeeOther, route.AdminTemplate.Path(c.Param("id"))+"#admin-versions-title")
	return nil
}

// adminArchiveTemplate archives a template: POST /admin/templates/:id/archive.
func (h *adminHandler) adminArchiveTemplate(c *gin.Context) error {
	if err := adminForm(c); err != nil {
		return err
	}
	if err := h.templates.AdminArchiveTemplate(c.Request.Context(), c.Param("id")); err != nil {
		return archivedTemplateError(c, err)
	}
	c.Redirect(http.StatusSeeOther, route.AdminTemplate.Path(c.Param("id")))
	return nil
}

// archivedTemplateError words the store's ErrConflict for a console change
// of a template: it was archived already.
func archivedTemplateError(c *gin.Context, err error) error {
	if errors.Is(err, models.ErrConflict) {
		return errStatus(http.StatusConflict, "admin.template.archived_error")
	}
	return err
}
