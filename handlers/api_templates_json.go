package handlers

import (
	"time"

	"github.com/markuproom/markuproom/models"
)

// templateJSON is a template with its current version (Template in the
// OpenAPI document).
type templateJSON struct {
	ID          string                 `json:"id"`
	Name        string                 `json:"name"`
	Description *string                `json:"description,omitempty"`
	Version     int                    `json:"version"`
	Documents   []templateDocumentJSON `json:"documents"`
	Roles       []models.TemplateRole  `json:"roles"`
	Tags        []models.TemplateTag   `json:"tags"`
	Uses        int64                  `json:"uses"`
	LastUsedAt  *time.Time             `json:"lastUsedAt"`
	CreatedAt   time.Time              `json:"createdAt"`
	UpdatedAt   time.Time              `json:"updatedAt"`
}

// templateDocumentJSON is one document of a template version.
type templateDocumentJSON struct {
	Index      int    `json:"index"`
	DocumentID string `json:"documentId"`
	Title      string `json:"title"`
	Pages      int    `json:"pages"`
}

// templateSummaryJSON is one item of the template list.
type templateSummaryJSON struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	Version    int        `json:"version"`
	Documents  int        `json:"documents"`
	Pages      int        `json:"pages"`
	Tags       int        `json:"tags"`
	Roles      int        `json:"roles"`
	Uses       int64      `json:"uses"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
	UpdatedAt  time.Time  `json:"updatedAt"`
}

// templateActorJSON tells who made a template version.
type templateActorJSON struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}

// templateVersionSummaryJSON is one item of a template's version list.
type templateVersionSummaryJSON struct {
	Version      int               `json:"version"`
	CreatedAt    time.Time         `json:"createdAt"`
	Actor        templateActorJSON `json:"actor"`
	Tags         int               `json:"tags"`
	RestoredFrom *int              `json:"restoredFrom,omitempty"`
}

// templateVersionJSON is one whole version of a template.
type templateVersionJSON struct {
	Version      int                    `json:"version"`
	CreatedAt    time.Time              `json:"createdAt"`
	Actor        templateActorJSON      `json:"actor"`
	RestoredFrom *int                   `json:"restoredFrom,omitempty"`
	Name         string                 `json:"name"`
	Description  *string                `json:"description,omitempty"`
	Documents    []templateDocumentJSON `json:"documents"`
	Roles        []models.TemplateRole  `json:"roles"`
	Tags         []models.TemplateTag   `json:"tags"`
}

func toTemplateJSON(t *models.Template) templateJSON {
	v := t.Current
	return templateJSON{
		ID: t.ID, Name: t.Name, Description: t.Description, Version: t.Version,
		Documents: toTemplateDocumentsJSON(v.Documents), Roles: v.Roles, Tags: v.Tags,
		Uses: t.Uses, LastUsedAt: t.LastUsedAt, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
	}
}

func toTemplateDocumentsJSON(docs []models.TemplateDocument) []templateDocumentJSON {
	out := make([]templateDocumentJSON, len(docs))
	for i, d := range docs {
		out[i] = templateDocumentJSON{Index: d.Position, DocumentID: d.DocumentID, Title: d.Title, Pages: d.Pages}
	}
	return out
}

func toTemplateSummaryJSON(t *models.Template) templateSummaryJSON {
	return templateSummaryJSON{
		ID: t.ID, Name: t.Name, Version: t.Version, Documents: t.DocumentCount, Pages: t.PageCount,
		Tags: t.TagCount, Roles: t.RoleCount, Uses: t.Uses, LastUsedAt: t.LastUsedAt, UpdatedAt: t.UpdatedAt,
	}
}

func toTemplateVersionSummaryJSON(v *models.TemplateVersion) templateVersionSummaryJSON {
	return templateVersionSummaryJSON{
		Version: v.Version, CreatedAt: v.CreatedAt, Actor: templateActorJSON{Kind: v.ActorKind, ID: v.ActorID},
		Tags: v.TagCount, RestoredFrom: v.RestoredFrom,
	}
}

func toTemplateVersionJSON(v *models.TemplateVersion) templateVersionJSON {
	return templateVersionJSON{
		Version: v.Version, CreatedAt: v.CreatedAt, Actor: templateActorJSON{Kind: v.ActorKind, ID: v.ActorID},
		RestoredFrom: v.RestoredFrom, Name: v.Name, Description: v.Description,
		Documents: toTemplateDocumentsJSON(v.Documents), Roles: v.Roles, Tags: v.Tags,
	}
}
