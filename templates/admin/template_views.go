package admin

import (
	"time"

	"context"

	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// TemplatesView is the console's templates table with its filters.
type TemplatesView struct {
	// Action is the list's own address, where the filters are sent.
	Action        string
	Organizations []templates.OptionView
	Statuses      []templates.OptionView
	// OrganizationID, Status and Search are the filters as given.
	OrganizationID string
	Status         string
	Search         string
	Rows           []TemplateRowView
	// NextURL and PrevURL page the table (empty when there is no such page).
	NextURL, PrevURL string
	// Filtered tells an empty table "no match" from "nothing yet".
	Filtered bool
}

// TemplateRowView is one template of the table; LastUsed is nil when it
// was never used.
type TemplateRowView struct {
	ID, URL, Name, Organization, Status     string
	Documents, Pages, Tags, Roles, Versions int
	Uses                                    int64
	LastUsed                                *time.Time
}

// TemplateView is one template's page in the console: its current version
// drawn on the pages, and its versions with "Restore" and "Archive".
type TemplateView struct {
	// BackURL is the list of templates.
	BackURL                             string
	ID, Name, Description, Organization string
	Status                              string
	Version                             int
	Created, Updated                    time.Time
	LastUsed                            *time.Time
	Uses                                int64
	Roles                               []TemplateRoleView
	Documents                           []TemplateDocumentView
	Viewer                              templates.ViewerView
	Versions                            []TemplateVersionView
	// ArchiveURL receives the "Archive" form; empty once archived.
	ArchiveURL string
	CSRFToken  string
}

// TemplateRoleView is one role with its colour on the pages and how many
// tags of the current version are for it.
type TemplateRoleView struct {
	Name, ColorClass string
	Tags             int
}

// TemplateDocumentView is one document of the current version.
type TemplateDocumentView struct {
	Title       string
	Pages, Tags int
}

// TemplateVersionView is one version of a template; RestoreURL is set for
// every version but the current one while the template is not archived.
type TemplateVersionView struct {
	Version      int
	Name         string
	When         time.Time
	Actor        ActorView
	Tags         int
	RestoredFrom string
	Current      bool
	RestoreURL   string
}

// templateStatusLabel is a template's status ("active", "archived") in the
// page's language; the badge's class keeps the code.
func templateStatusLabel(ctx context.Context, status string) string {
	switch status {
	case "active":
		return i18n.T(ctx, "admin.templates.status.active")
	case "archived":
		return i18n.T(ctx, "admin.templates.status.archived")
	}
	return status
}
