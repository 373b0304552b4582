package handlers

import (
	"context"

	"github.com/markuproom/markuproom/models"
)

// adminHandler serves the admin console (/admin) to signed-in admins. It may
// touch only the stores declared here.
type adminHandler struct {
	*site
	auth          AdminAuthStore
	transactions  AdminTransactionStore
	documents     AdminDocumentStore
	rooms         AdminRoomStore
	activity      ActivityStore
	organizations OrganizationStore
	webhooks      WebhookStore
	outbox        OutboxStore
	templates     AdminTemplateStore
	newRooms      AdminRoomCreateStore
	exports       AdminExportStore
	audit         AuditStore
	overview      OverviewStore
}

// AdminAuthStore signs admins in and keeps their console sessions.
type AdminAuthStore interface {
	AdminSignIn(ctx context.Context, email, password, clientAddr string) (*models.User, error)
	ActiveAdmin(ctx context.Context, userID int64) (*models.User, error)
	StartAdminSession(ctx context.Context, userID int64, clientAddr string) (string, error)
	AdminSessionUser(ctx context.Context, id string, limits models.AdminSessionLimits) (*models.User, error)
	EndAdminSession(ctx context.Context, id string) error
	SignOutAdmin(ctx context.Context, id string) error
	SignOutEverywhere(ctx context.Context, userID int64) (int64, error)
}

// AdminTransactionStore lists and reads every organization's transactions.
type AdminTransactionStore interface {
	AdminListTransactions(ctx context.Context, f models.AdminTransactionFilter) (*models.AdminTransactionPage, error)
	AdminGetTransaction(ctx context.Context, id string) (*models.AdminTransaction, error)
	OrganizationNames(ctx context.Context) ([]models.Organization, error)
}

// AdminTemplateStore lists and reads every organization's templates,
// restores their versions and archives them (the store records these in the
// activity log).
type AdminTemplateStore interface {
	AdminListTemplates(ctx context.Context, f models.AdminTemplateFilter) (*models.AdminTemplatePage, error)
	AdminGetTemplate(ctx context.Context, id string) (*models.AdminTemplate, error)
	AdminRestoreTemplateVersion(ctx context.Context, id string, n int) (*models.Template, error)
	AdminArchiveTemplate(ctx context.Context, id string) error
}

// AdminExportStore reads the console's lists page after page for the
// exports (/admin/transactions.csv, .xlsx, /admin/audit.csv).
type AdminExportStore interface {
	AdminExportTransactions(ctx context.Context, f models.AdminTransactionFilter, after string, limit int) ([]models.AdminExportRow, error)
	ListAuditEvents(ctx context.Context, f models.AuditFilter, order models.AuditOrder, cursor int64, limit int) (*models.AuditPage, error)
	OrganizationNames(ctx context.Context) ([]models.Organization, error)
}

// AdminDocumentStore reads a transaction's documents for the console.
type AdminDocumentStore interface {
	GetDocument(ctx context.Context, orgID int64, id string) (*models.Document, error)
	contentOpener
}

// AdminRoomStore lists Markup Rooms and ends them early.
type AdminRoomStore interface {
	AdminListRooms(ctx context.Context, after string) ([]models.AdminRoomRow, bool, error)
	ExpireRoom(ctx context.Context, id string) error
}

// ActivityStore reads the audit log.
type ActivityStore interface {
	ListActivity(ctx context.Context, limit int, before int64) ([]models.Activity, error)
}

// OrganizationStore manages organizations, their users and API tokens.
type OrganizationStore interface {
	AdminListOrganizations(ctx context.Context) ([]models.AdminOrganizationRow, error)
	CreateOrganization(ctx context.Context, name string, apiEnabled bool) (*models.Organization, error)
	GetOrganization(ctx context.Context, id int64) (*models.Organization, error)
	SetOrganizationAPIEnabled(ctx context.Context, id int64, enabled bool) error
	SetOrganizationEmbedOrigins(ctx context.Context, id int64, origins []string) ([]string, error)
	OrganizationUsers(ctx context.Context, orgID int64) ([]models.User, error)
	OrganizationTokens(ctx context.Context, orgID int64) ([]models.APIToken, error)
	CreateUser(ctx context.Context, in models.NewUser) (*models.User, error)
	DisableUser(ctx context.Context, orgID, userID int64) error
	CreateAPIToken(ctx context.Context, orgID int64, name string) (*models.APIToken, string, error)
	RevokeOrganizationToken(ctx context.Context, orgID, tokenID int64) error
}

// OutboxStore reads and retries the outgoing messages (webhooks, e-mail).
type OutboxStore interface {
	ListMessages(ctx context.Context, f models.MessageFilter) ([]models.OutboxMessage, error)
	CountMessages(ctx context.Context) (map[models.MessageStatus]int64, error)
	RetryMessage(ctx context.Context, id string) (*models.OutboxMessage, error)
}
