// Package route is the one table of the server's paths. Every route is a
// named constant holding its Gin pattern; the router registers the patterns
// and handlers build URLs from them with Path, so a path is written once
// (miniflux's route.Path). Templates never build URLs: the handlers put them
// in the view models.
//
// The package imports nothing of ours, so any package may use it.
package route

import (
	"fmt"
	"net/url"
	"strings"
)

// Route is a route's pattern as Gin matches it, e.g. "/rooms/:id/tags".
type Route string

// The server's routes, grouped as the router groups them.
const (
	// Operations and public pages.
	Healthz     Route = "/healthz"
	Readyz      Route = "/readyz"
	Metrics     Route = "/metrics"
	Static      Route = "/static/*path"
	Home        Route = "/"
	ProblemType Route = "/problems/:slug"
	OpenAPI     Route = "/api/openapi.json"

	// The Markup Room: the capability link and the room's editor routes.
	RoomLink              Route = "/markup-room/:token"
	Room                  Route = "/rooms/:id"
	RoomParticipants      Route = "/rooms/:id/participants"
	RoomParticipant       Route = "/rooms/:id/participants/:participantId"
	RoomParticipantRemove Route = "/rooms/:id/participants/:participantId/remove"
	RoomParticipantMove   Route = "/rooms/:id/participants/:participantId/move"
	RoomDocuments         Route = "/rooms/:id/documents"
	RoomDocumentTitle     Route = "/rooms/:id/documents/:position/title"
	RoomDocumentRemove    Route = "/rooms/:id/documents/:position/remove"
	RoomDocumentRestore   Route = "/rooms/:id/documents/:position/restore"
	RoomDocumentRevise    Route = "/rooms/:id/documents/:position/revise"
	RoomRemovalRestore    Route = "/rooms/:id/removals/:removal/restore"
	RoomPageDelete        Route = "/rooms/:id/documents/:position/pages/:page/delete"
	RoomPageMove          Route = "/rooms/:id/documents/:position/pages/:page/move"
	RoomDocumentPDF       Route = "/rooms/:id/pdf/:document"
	RoomTags              Route = "/rooms/:id/tags"
	RoomTag               Route = "/rooms/:id/tags/:tagId"
	RoomTagBatch          Route = "/rooms/:id/tags/batch"
	RoomSuggestions       Route = "/rooms/:id/suggestions"
	RoomTemplates         Route = "/rooms/:id/templates"
	RoomTemplateApply     Route = "/rooms/:id/templates/apply"
	RoomChecklist         Route = "/rooms/:id/checklist"
	RoomComplete          Route = "/rooms/:id/complete"
	RoomEvents            Route = "/rooms/:id/events"
	RoomPresence          Route = "/rooms/:id/presence"

	// The admin console.
	Admin                Route = "/admin"
	AdminLogin           Route = "/admin/login"
	AdminLogout          Route = "/admin/logout"
	AdminRevokeSessions  Route = "/admin/sessions/revoke-all"
	AdminTransactions    Route = "/admin/transactions"
	AdminTransaction     Route = "/admin/transactions/:id"
	AdminDocumentContent Route = "/admin/transactions/:id/documents/:position/content"
	AdminDocumentXFDF    Route = "/admin/transactions/:id/documents/:position/xfdf"
	AdminRooms           Route = "/admin/rooms"
	AdminRoomExpire      Route = "/admin/rooms/:id/expire"
	AdminRoomNew         Route = "/admin/rooms/new"
	AdminRoomCreated     Route = "/admin/rooms/:id/created"
	AdminActivity        Route = "/admin/activity"
	AdminAudit           Route = "/admin/audit"
	AdminAuditCSV        Route = "/admin/audit.csv"
	AdminOrganizations   Route = "/admin/organizations"
	AdminOrganization    Route = "/admin/organizations/:id"
	AdminOrganizationAPI Route = "/admin/organizations/:id/api-access"
	// AdminOrganizationEmbed receives the organization's embedding origins.
	AdminOrganizationEmbed Route = "/admin/organizations/:id/embed-origins"
	AdminUsers             Route = "/admin/organizations/:id/users"
	AdminUserDisable       Route = "/admin/organizations/:id/users/:userId/disable"
	AdminTokens            Route = "/admin/organizations/:id/tokens"
	AdminTokenRevoke       Route = "/admin/organizations/:id/tokens/:tokenId/revoke"
	AdminWebhooks          Route = "/admin/organizations/:id/webhooks"
	AdminWebhookDelete     Route = "/admin/organizations/:id/webhooks/:webhookId/delete"
	AdminWebhookRotate     Route = "/admin/organizations/:id/webhooks/:webhookId/rotate-secret"
	AdminOutbox            Route = "/admin/outbox"
	AdminOutboxRetry       Route = "/admin/outbox/:id/retry"
	AdminTemplates         Route = "/admin/templates"
	AdminTemplate          Route = "/admin/templates/:id"
	AdminTemplateContent   Route = "/admin/templates/:id/documents/:position/content"
	AdminTemplateRestore   Route = "/admin/templates/:id/versions/:version/restore"
	AdminTemplateArchive   Route = "/admin/templates/:id/archive"

	// The MCP server (Streamable HTTP) for AI agents, beside the API.
	MCP Route = "/mcp"

	// The console's exports: its lists as files.
	AdminTransactionsCSV  Route = "/admin/transactions.csv"
	AdminTransactionsXLSX Route = "/admin/transactions.xlsx"

	// The API (every operation of handlers/apispec/openapi.yaml).
	APIUpload            Route = "/api/v1/documents/upload"
	APIUploadAlias       Route = "/api/v1/document/upload"
	APIDocument          Route = "/api/v1/documents/:id"
	APIDocumentContent   Route = "/api/v1/documents/:id/content"
	APIDocumentTags      Route = "/api/v1/documents/:id/detected-tags"
	APIDocumentMatches   Route = "/api/v1/documents/:id/template-matches"
	APITransactions      Route = "/api/v1/transactions"
	APITransaction       Route = "/api/v1/transactions/:id"
	APITransactionXFDF   Route = "/api/v1/transactions/:id/documents/:documentId/xfdf"
	APITransactionAudit  Route = "/api/v1/transactions/:id/audit-events"
	APITransactionReview Route = "/api/v1/transactions/:id/review"
	APITransactionRevise Route = "/api/v1/transactions/:id/documents/:documentId/revise"
	APIAuditEvents       Route = "/api/v1/audit-events"
	APIRooms             Route = "/api/v1/markup-rooms"
	APIRoom              Route = "/api/v1/markup-rooms/:id"
	APIWebhooks          Route = "/api/v1/webhooks"
	APIWebhook           Route = "/api/v1/webhooks/:id"
	APIWebhookRotate     Route = "/api/v1/webhooks/:id/rotate-secret"
	APITemplates         Route = "/api/v1/templates"
	APITemplate          Route = "/api/v1/templates/:id"
	APITemplateVersions  Route = "/api/v1/templates/:id/versions"
	APITemplateVersion   Route = "/api/v1/templates/:id/versions/:version"
	APITemplateRestore   Route = "/api/v1/templates/:id/versions/:version/restore"
	APITemplateRevise    Route = "/api/v1/templates/:id/documents/:position/revise"
)

// Path is the route's path with its parameters filled in, in order, each
// escaped as one path segment: RoomTag.Path("r1", "t 2") is
// "/rooms/r1/tags/t%202". A count of values that does not match the
// pattern's parameters is a programming error and panics.
func (r Route) Path(values ...string) string {
	segments := strings.Split(string(r), "/")
	n := 0
	for i, s := range segments {
		if strings.HasPrefix(s, ":") || strings.HasPrefix(s, "*") {
			if n >= len(values) {
				panic(fmt.Sprintf("route %s: %d values for more parameters", r, len(values)))
			}
			segments[i] = url.PathEscape(values[n])
			n++
		}
	}
	if n != len(values) {
		panic(fmt.Sprintf("route %s: %d values for %d parameters", r, len(values), n))
	}
	return strings.Join(segments, "/")
}

// String is the pattern.
func (r Route) String() string { return string(r) }

// IsAPI tells whether the route belongs to the API (/api/…), whose requests
// carry JSON or multipart bodies rather than forms.
func (r Route) IsAPI() bool { return strings.HasPrefix(string(r), "/api/") }
