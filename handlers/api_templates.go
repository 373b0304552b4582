package handlers

import (
	"context"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
)

func (h *apiHandler) createTemplate(c *gin.Context) error {
	body, err := h.readJSONRequest(c)
	if err != nil {
		return err
	}
	return h.withIdempotency(c, body, func() error {
		in, err := models.ParseTemplateInput(body)
		if err != nil {
			return err
		}
		t, err := h.templates.CreateTemplate(c.Request.Context(), principalFrom(c).TemplateActor(), in)
		if err != nil {
			return err
		}
		c.Header("Location", route.APITemplate.Path(t.ID))
		respondTemplate(c, http.StatusCreated, t)
		return nil
	})
}

func (h *apiHandler) replaceTemplate(c *gin.Context) error {
	body, err := h.readJSONRequest(c)
	if err != nil {
		return err
	}
	in, err := models.ParseTemplateInput(body)
	if err != nil {
		return err
	}
	t, err := h.templates.ReplaceTemplate(c.Request.Context(), principalFrom(c).TemplateActor(), c.Param("id"), in, c.GetHeader("If-Match"))
	if err != nil {
		return err
	}
	respondTemplate(c, http.StatusOK, t)
	return nil
}

func (h *apiHandler) getTemplate(c *gin.Context) error {
	t, err := h.templates.GetTemplate(c.Request.Context(), principalFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	respondTemplate(c, http.StatusOK, t)
	return nil
}

func (h *apiHandler) archiveTemplate(c *gin.Context) error {
	if err := h.templates.ArchiveTemplate(c.Request.Context(), principalFrom(c).TemplateActor(), c.Param("id")); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

func (h *apiHandler) listTemplates(c *gin.Context) error {
	limit, err := queryLimit(c)
	if err != nil {
		return err
	}
	f := models.TemplateFilter{Query: c.Query("q"), Limit: limit, Cursor: c.Query("cursor")}
	body, err := h.templateList(c.Request.Context(), principalFrom(c).Organization.ID, f)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, body)
	return nil
}

// templateListJSON is one page of the template list.
type templateListJSON struct {
	Items      []templateSummaryJSON `json:"items"`
	NextCursor string                `json:"nextCursor,omitempty"`
}

// templateList reads one page of the organization's templates (the API's
// list and the MCP tool list_templates).
func (h *apiHandler) templateList(ctx context.Context, orgID int64, f models.TemplateFilter) (templateListJSON, error) {
	page, err := h.templates.ListTemplates(ctx, orgID, f)
	if err != nil {
		return templateListJSON{}, err
	}
	items := make([]templateSummaryJSON, len(page.Items))
	for i := range page.Items {
		items[i] = toTemplateSummaryJSON(&page.Items[i])
	}
	return templateListJSON{Items: items, NextCursor: page.NextCursor}, nil
}

func (h *apiHandler) listTemplateVersions(c *gin.Context) error {
	versions, err := h.templates.ListTemplateVersions(c.Request.Context(), principalFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	items := make([]templateVersionSummaryJSON, len(versions))
	for i := range versions {
		items[i] = toTemplateVersionSummaryJSON(&versions[i])
	}
	c.JSON(http.StatusOK, gin.H{"items": items})
	return nil
}

func (h *apiHandler) getTemplateVersion(c *gin.Context) error {
	n, _ := models.ParseIndex(c.Param("version")) // checked by checkInput
	v, err := h.templates.GetTemplateVersion(c.Request.Context(), principalFrom(c).Organization.ID, c.Param("id"), n)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, toTemplateVersionJSON(v))
	return nil
}

func (h *apiHandler) restoreTemplateVersion(c *gin.Context) error {
	id := c.Param("id")
	n, _ := models.ParseIndex(c.Param("version")) // checked by checkInput
	return h.withIdempotency(c, []byte("template "+id+" version "+strconv.Itoa(n)), func() error {
		t, err := h.templates.RestoreTemplateVersion(c.Request.Context(), principalFrom(c).TemplateActor(), id, n)
		if err != nil {
			return err
		}
		c.Header("Location", route.APITemplate.Path(t.ID))
		respondTemplate(c, http.StatusCreated, t)
		return nil
	})
}

// respondTemplate answers with a template's current version and its ETag.
func respondTemplate(c *gin.Context, status int, t *models.Template) {
	c.Header("ETag", t.ETag())
	c.JSON(status, toTemplateJSON(t))
}
