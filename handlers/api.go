package handlers

import (
	"context"
	"io"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/models/pdf/detect"
	"github.com/markuproom/markuproom/models/revise"
	"github.com/markuproom/markuproom/models/templatematch"
)

// apiHandler serves the API (/api/v1, described by
// handlers/apispec/openapi.yaml), for callers holding an API token. It may touch only the stores
// declared here.
type apiHandler struct {
	*site
	documents    DocumentStore
	transactions TransactionStore
	idempotency  IdempotencyStore
	rooms        RoomStore
	webhooks     WebhookStore
	templates    TemplateStore
	audit        AuditStore
}

// DocumentStore stages, saves and reads uploaded PDFs.
type DocumentStore interface {
	StageUpload(ctx context.Context, r io.Reader, maxBytes int64, fileName string) (*models.StagedUpload, error)
	SaveDocument(ctx context.Context, u *models.StagedUpload, in models.NewDocument) (*models.Document, error)
	GetDocument(ctx context.Context, orgID int64, id string) (*models.Document, error)
	OpenDocumentContent(ctx context.Context, d *models.Document) (models.DocumentContent, error)
	DocumentDetection(ctx context.Context, orgID int64, id string) (*detect.Detection, error)
	DocumentTemplateMatches(ctx context.Context, orgID int64, id string) ([]models.TemplateMatch, error)
	FingerprintTemplateMatches(ctx context.Context, orgID int64, fp templatematch.Fingerprint) ([]models.TemplateMatch, error)
}

// TransactionStore creates, replaces and reads e-signature transactions.
type TransactionStore interface {
	CreateTransaction(ctx context.Context, actor models.Actor, in *models.TransactionInput) (*models.Transaction, error)
	ReplaceTransaction(ctx context.Context, actor models.Actor, id string, in *models.TransactionInput, ifMatch string) (*models.Transaction, error)
	GetTransaction(ctx context.Context, orgID int64, id string) (*models.Transaction, error)
	ListTransactions(ctx context.Context, orgID int64, f models.TransactionFilter) (*models.TransactionPage, error)
	GetTransactionXFDF(ctx context.Context, orgID int64, txID, documentID string) (string, *models.TransactionDocument, error)
	ReviewTransaction(ctx context.Context, orgID int64, id string) (*models.TransactionReview, error)
	ReviewReplaced(ctx context.Context, t *models.Transaction) (*models.TransactionReview, error)
	ReviseDocument(ctx context.Context, actor models.Actor, txID, documentID, newDocumentID, ifMatch string) (*models.Revision, error)
}

// IdempotencyStore keeps the answers of requests sent with an Idempotency-Key.
type IdempotencyStore interface {
	Idempotent(ctx context.Context, req models.IdempotentRequest, run func(ctx context.Context) (models.StoredResponse, error)) (models.StoredResponse, bool, error)
}

// RoomStore creates and reads Markup Rooms for API callers.
type RoomStore interface {
	CreateRoom(ctx context.Context, actor models.Actor, in *models.RoomInput) (*models.CreatedRoom, error)
	GetRoom(ctx context.Context, orgID int64, id string) (*models.Room, error)
	ListRooms(ctx context.Context, orgID int64, f models.RoomFilter) ([]models.Room, string, error)
}

// WebhookStore manages an organization's webhook endpoints (the API's and
// the console's routes).
type WebhookStore interface {
	CreateWebhook(ctx context.Context, orgID int64, policy models.WebhookPolicy, in models.NewWebhook) (*models.WebhookEndpoint, error)
	ListWebhooks(ctx context.Context, orgID int64) ([]models.WebhookEndpoint, error)
	DeleteWebhook(ctx context.Context, orgID int64, id string) error
	GetWebhook(ctx context.Context, orgID int64, id string) (*models.WebhookEndpoint, error)
	RotateWebhookSecret(ctx context.Context, orgID int64, id string) (*models.WebhookEndpoint, error)
}

// TemplateStore creates, versions, archives and reads an organization's
// templates.
type TemplateStore interface {
	CreateTemplate(ctx context.Context, actor models.TemplateActor, in *models.TemplateInput) (*models.Template, error)
	ReplaceTemplate(ctx context.Context, actor models.TemplateActor, id string, in *models.TemplateInput, ifMatch string) (*models.Template, error)
	RestoreTemplateVersion(ctx context.Context, actor models.TemplateActor, id string, n int) (*models.Template, error)
	ReviseTemplateDocument(ctx context.Context, actor models.TemplateActor, id string, position int, newDocumentID, ifMatch string) (*models.Template, *revise.Report, error)
	ArchiveTemplate(ctx context.Context, actor models.TemplateActor, id string) error
	GetTemplate(ctx context.Context, orgID int64, id string) (*models.Template, error)
	GetTemplateVersion(ctx context.Context, orgID int64, id string, n int) (*models.TemplateVersion, error)
	ListTemplateVersions(ctx context.Context, orgID int64, id string) ([]models.TemplateVersion, error)
	ListTemplates(ctx context.Context, orgID int64, f models.TemplateFilter) (*models.TemplatePage, error)
}
