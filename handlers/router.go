package handlers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/markuproom/markuproom/handlers/apispec"
	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/static"
)

// Config is the part of the server configuration the HTTP layer needs.
type Config struct {
	// BaseURL is the public origin, e.g. https://markup.example.com (no trailing slash).
	BaseURL string
	// MaxUploadBytes is the largest PDF accepted.
	MaxUploadBytes int64
	// MaxJSONBytes is the largest JSON request body accepted.
	MaxJSONBytes int64
	// SessionSecret signs and encrypts browser session cookies (at least 32 bytes).
	SessionSecret []byte
	// SessionMaxAge is the lifetime of a browser session cookie (the room TTL).
	SessionMaxAge time.Duration
	// AdminIdleTimeout and AdminMaxAge end an admin console session after
	// that long without a request, and that long after sign-in.
	AdminIdleTimeout time.Duration
	AdminMaxAge      time.Duration
	// Webhooks says which endpoint URLs may be registered.
	Webhooks models.WebhookPolicy
	// RateLimits are the token buckets' policies (zero fields: defaults).
	RateLimits RateLimits
	// MetricsToken, when set, serves /metrics on this handler to requests
	// bearing it; when empty /metrics is not served here (404).
	MetricsToken string
	// TrustedProxies are the IPs and CIDRs of reverse proxies whose
	// X-Forwarded-For / X-Real-IP name the client; none by default, so a
	// client cannot claim another address (sign-in limits, logs, activity).
	TrustedProxies []string
	// PseudoLocale offers the test-only pseudo-language (i18n.Pseudo,
	// ?lang=en-XA), which wraps and lengthens every message.
	PseudoLocale bool
}

// Store is what the router wires: every area's store interfaces, met by
// *models.Store. No handler holds it: New hands each area only the
// interfaces declared beside its handler type (api.go, room.go, admin.go,
// public.go).
type Store interface {
	Clock
	Readiness
	TokenAuthenticator
	RateLimiter
	DocumentStore
	TransactionStore
	IdempotencyStore
	RoomStore
	WebhookStore
	TemplateStore
	RoomSessionStore
	RoomParticipantStore
	RoomDocumentStore
	RoomTagStore
	RoomTemplateStore
	RoomEventStore
	AdminAuthStore
	AdminTransactionStore
	AdminRoomStore
	AdminRoomCreateStore
	AdminTemplateStore
	AdminExportStore
	ActivityStore
	OrganizationStore
	OutboxStore
	AuditStore
	OverviewStore
}

// Deps are the collaborators of the router.
type Deps struct {
	Config   Config
	Store    Store
	Assets   *static.Assets
	Logger   *slog.Logger
	Registry *prometheus.Registry
	// Requests, when set, counts the API's requests for the console's
	// overview (models.RollupRecorder).
	Requests RequestRecorder
}

// New builds the HTTP handler with every route and middleware.
func New(d Deps) (http.Handler, error) {
	if d.Store == nil || d.Assets == nil || d.Registry == nil {
		return nil, errors.New("handlers.New: Store, Assets and Registry are required")
	}
	if len(d.Config.SessionSecret) < 32 {
		return nil, errors.New("handlers.New: SessionSecret must have at least 32 bytes")
	}
	if d.Config.SessionMaxAge <= 0 {
		d.Config.SessionMaxAge = 24 * time.Hour
	}
	if d.Config.AdminIdleTimeout <= 0 {
		d.Config.AdminIdleTimeout = 30 * time.Minute
	}
	if d.Config.AdminMaxAge <= 0 {
		d.Config.AdminMaxAge = 12 * time.Hour
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	d.Config.BaseURL = strings.TrimRight(d.Config.BaseURL, "/")
	if d.Config.MaxJSONBytes <= 0 {
		d.Config.MaxJSONBytes = 10 << 20
	}
	if d.Config.MaxUploadBytes <= 0 {
		d.Config.MaxUploadBytes = 50 << 20
	}
	metrics, err := newHTTPMetrics(d.Registry)
	if err != nil {
		return nil, err
	}
	openAPI, err := apispec.JSON()
	if err != nil {
		return nil, fmt.Errorf("load OpenAPI document: %w", err)
	}
	st := d.Store
	s := &site{cfg: d.Config, assets: d.Assets, clock: st}
	public := &publicHandler{site: s, ready: st, openAPI: openAPI}
	api := &apiHandler{site: s, documents: st, transactions: st, idempotency: st, rooms: st, webhooks: st, templates: st, audit: st}
	room := &roomHandler{site: s, rooms: st, participants: st, documents: st, tags: st, templates: st, files: st, events: st}
	console := &adminHandler{site: s, auth: st, transactions: st, documents: st, rooms: st, activity: st,
		organizations: st, webhooks: st, outbox: st, templates: st, newRooms: st, exports: st, audit: st, overview: st}
	limiter := newRateLimiter(st, d.Config.RateLimits)
	agents, err := newMCPHandler(api, limiter, d.Logger, openAPI)
	if err != nil {
		return nil, fmt.Errorf("handlers.New: MCP server: %w", err)
	}

	r := gin.New()
	r.HandleMethodNotAllowed = true
	r.RedirectTrailingSlash = false
	r.RedirectFixedPath = false
	r.UseRawPath = true
	r.UnescapePathValues = true
	r.ContextWithFallback = true
	if err := r.SetTrustedProxies(d.Config.TrustedProxies); err != nil {
		return nil, fmt.Errorf("handlers.New: trusted proxies: %w", err)
	}
	r.Use(requestContext(d.Logger), func(c *gin.Context) { c.Set(ctxSite, s) },
		accessLog(), metrics.middleware(), recoverPanics(), securityHeaders(), s.localize())
	r.NoRoute(englishForAPI, func(c *gin.Context) {
		respondError(c, errStatus(http.StatusNotFound, "error.nothing_here"))
	})
	r.NoMethod(englishForAPI, func(c *gin.Context) {
		respondError(c, errStatus(http.StatusMethodNotAllowed, "error.method_not_allowed"))
	})

	r.GET(route.Healthz.String(), sameInEveryLanguage, public.healthz)
	r.GET(route.Readyz.String(), sameInEveryLanguage, public.readyz)
	if d.Config.MetricsToken != "" {
		r.GET(route.Metrics.String(), sameInEveryLanguage, metricsWithToken(d.Registry, d.Config.MetricsToken))
	}
	r.GET(route.Static.String(), sameInEveryLanguage, gin.WrapH(d.Assets))
	r.HEAD(route.Static.String(), sameInEveryLanguage, gin.WrapH(d.Assets))
	r.GET(route.Home.String(), public.home)
	r.GET(route.ProblemType.String(), public.problemDoc)
	r.GET(route.OpenAPI.String(), sameInEveryLanguage, public.openAPIDocument)

	secure := strings.HasPrefix(d.Config.BaseURL, "https://")
	rooms := r.Group("", carryRoomSession(), sessions.Sessions(roomSessionName, newSessionStore(d.Config.SessionSecret, secure, d.Config.SessionMaxAge)), limiter.roomRequests())
	handle(rooms, http.MethodGet, route.RoomLink, room.openRoomLink)
	handle(rooms, http.MethodGet, route.Room, room.roomPage)
	handle(rooms, http.MethodPost, route.RoomParticipants, room.addRoomParticipant)
	handle(rooms, http.MethodGet, route.RoomParticipants, room.roomFormAddress)
	handle(rooms, http.MethodGet, route.RoomParticipant, room.roomFormAddress)
	handle(rooms, http.MethodPost, route.RoomParticipant, room.updateRoomParticipant)
	handle(rooms, http.MethodPost, route.RoomParticipantRemove, room.removeRoomParticipant)
	handle(rooms, http.MethodPost, route.RoomParticipantMove, room.moveRoomParticipant)
	handle(rooms, http.MethodPost, route.RoomDocumentTitle, room.renameRoomDocument)
	handle(rooms, http.MethodGet, route.RoomDocumentPDF, room.roomDocumentContent)
	handle(rooms, http.MethodPost, route.RoomTags, room.addRoomTag)
	handle(rooms, http.MethodPut, route.RoomTag, room.updateRoomTag)
	handle(rooms, http.MethodDelete, route.RoomTag, room.deleteRoomTag)
	handle(rooms, http.MethodPost, route.RoomTagBatch, room.applyRoomTagBatch)
	handle(rooms, http.MethodPost, route.RoomSuggestions, room.decideRoomSuggestions)
	handle(rooms, http.MethodGet, route.RoomTemplates, room.listRoomTemplates)
	handle(rooms, http.MethodPost, route.RoomTemplates, room.saveRoomTemplate)
	handle(rooms, http.MethodPost, route.RoomTemplateApply, room.applyRoomTemplate)
	handle(rooms, http.MethodPost, route.RoomDocuments, room.addRoomDocument)
	handle(rooms, http.MethodPost, route.RoomDocumentRemove, room.removeRoomDocument)
	handle(rooms, http.MethodPost, route.RoomRemovalRestore, room.restoreRoomRemoval)
	handle(rooms, http.MethodPost, route.RoomPageDelete, room.deleteRoomPage)
	handle(rooms, http.MethodPost, route.RoomPageMove, room.moveRoomPage)
	handle(rooms, http.MethodPost, route.RoomDocumentRestore, room.restoreRoomDocument)
	handle(rooms, http.MethodPost, route.RoomDocumentRevise, room.reviseRoomDocument)
	handle(rooms, http.MethodGet, route.RoomChecklist, room.roomChecklist)
	handle(rooms, http.MethodPost, route.RoomComplete, room.completeRoom)
	handle(rooms, http.MethodGet, route.RoomEvents, room.roomEvents)
	handle(rooms, http.MethodPost, route.RoomPresence, room.roomPresenceSelect)

	admin := r.Group("", sessions.Sessions(adminSessionName, newAdminSessionStore(d.Config.SessionSecret, secure, d.Config.AdminMaxAge)), console.loadAdmin())
	handle(admin, http.MethodGet, route.AdminLogin, console.adminLoginPage)
	handle(admin.Group("", limiter.signIn()), http.MethodPost, route.AdminLogin, console.adminLogin)
	signedIn := admin.Group("", requireAdmin)
	handle(signedIn, http.MethodGet, route.Admin, console.adminOverview)
	handle(signedIn, http.MethodPost, route.AdminLogout, console.adminLogout)
	handle(signedIn, http.MethodPost, route.AdminRevokeSessions, console.adminRevokeAllSessions)
	handle(signedIn, http.MethodGet, route.AdminTransactions, console.adminTransactions)
	handle(signedIn, http.MethodGet, route.AdminTransactionsCSV, console.adminTransactionsCSV)
	handle(signedIn, http.MethodGet, route.AdminTransactionsXLSX, console.adminTransactionsXLSX)
	handle(signedIn, http.MethodGet, route.AdminAuditCSV, console.adminAuditCSV)
	handle(signedIn, http.MethodGet, route.AdminTemplates, console.adminTemplates)
	handle(signedIn, http.MethodGet, route.AdminTemplate, console.adminTemplate)
	handle(signedIn, http.MethodGet, route.AdminTemplateContent, console.adminTemplateContent)
	handle(signedIn, http.MethodPost, route.AdminTemplateRestore, console.adminRestoreTemplate)
	handle(signedIn, http.MethodPost, route.AdminTemplateArchive, console.adminArchiveTemplate)
	handle(signedIn, http.MethodGet, route.AdminTransaction, console.adminTransaction)
	handle(signedIn, http.MethodGet, route.AdminDocumentContent, console.adminDocumentContent)
	handle(signedIn, http.MethodGet, route.AdminDocumentXFDF, console.adminDocumentXFDF)
	handle(signedIn, http.MethodGet, route.AdminRooms, console.adminRooms)
	handle(signedIn, http.MethodPost, route.AdminRoomExpire, console.adminExpireRoom)
	handle(signedIn, http.MethodGet, route.AdminRoomNew, console.adminNewRoom)
	handle(signedIn, http.MethodPost, route.AdminRoomNew, console.adminCreateRoom)
	handle(signedIn, http.MethodGet, route.AdminRoomCreated, console.adminRoomCreated)
	handle(signedIn, http.MethodGet, route.AdminActivity, console.adminActivity)
	handle(signedIn, http.MethodGet, route.AdminAudit, console.adminAudit)
	handle(signedIn, http.MethodGet, route.AdminOrganizations, console.adminOrganizations)
	handle(signedIn, http.MethodPost, route.AdminOrganizations, console.adminCreateOrganization)
	handle(signedIn, http.MethodGet, route.AdminOrganization, console.adminOrganization)
	handle(signedIn, http.MethodPost, route.AdminOrganizationAPI, console.adminSetAPIAccess)
	handle(signedIn, http.MethodPost, route.AdminOrganizationEmbed, console.adminSetEmbedOrigins)
	handle(signedIn, http.MethodPost, route.AdminUsers, console.adminCreateUser)
	handle(signedIn, http.MethodPost, route.AdminUserDisable, console.adminDisableUser)
	handle(signedIn, http.MethodPost, route.AdminTokens, console.adminCreateToken)
	handle(signedIn, http.MethodPost, route.AdminTokenRevoke, console.adminRevokeToken)
	handle(signedIn, http.MethodPost, route.AdminWebhooks, console.adminCreateWebhook)
	handle(signedIn, http.MethodPost, route.AdminWebhookDelete, console.adminDeleteWebhook)
	handle(signedIn, http.MethodPost, route.AdminWebhookRotate, console.adminRotateWebhookSecret)
	handle(signedIn, http.MethodGet, route.AdminOutbox, console.adminOutbox)
	handle(signedIn, http.MethodPost, route.AdminOutboxRetry, console.adminRetryMessage)

	apiGroup := r.Group("", inEnglish, recordAPIRequests(d.Requests), requireToken(st, limiter))
	handle(apiGroup, http.MethodPost, route.APIUpload, api.uploadDocument)
	handle(apiGroup, http.MethodPost, route.APIUploadAlias, api.uploadDocument)
	handle(apiGroup, http.MethodGet, route.APIDocument, api.getDocument)
	handle(apiGroup, http.MethodGet, route.APIDocumentContent, api.getDocumentContent)
	handle(apiGroup, http.MethodGet, route.APIDocumentTags, api.getDetectedTags)
	handle(apiGroup, http.MethodGet, route.APIDocumentMatches, api.getTemplateMatches)
	handle(apiGroup, http.MethodPost, route.APITransactions, api.createTransaction)
	handle(apiGroup, http.MethodGet, route.APITransactions, api.listTransactions)
	handle(apiGroup, http.MethodGet, route.APITransaction, api.getTransaction)
	handle(apiGroup, http.MethodPut, route.APITransaction, api.replaceTransaction)
	handle(apiGroup, http.MethodGet, route.APITransactionXFDF, api.getTransactionXFDF)
	handle(apiGroup, http.MethodGet, route.APITransactionAudit, api.listTransactionAuditEvents)
	handle(apiGroup, http.MethodGet, route.APITransactionReview, api.reviewTransaction)
	handle(apiGroup, http.MethodPost, route.APITransactionRevise, api.reviseDocument)
	handle(apiGroup, http.MethodGet, route.APIAuditEvents, api.listAuditEvents)
	handle(apiGroup, http.MethodPost, route.APIRooms, api.createRoom)
	handle(apiGroup, http.MethodGet, route.APIRooms, api.listRooms)
	handle(apiGroup, http.MethodGet, route.APIRoom, api.getRoom)
	handle(apiGroup, http.MethodPost, route.APIWebhooks, api.createWebhook)
	handle(apiGroup, http.MethodGet, route.APIWebhooks, api.listWebhooks)
	handle(apiGroup, http.MethodDelete, route.APIWebhook, api.deleteWebhook)
	handle(apiGroup, http.MethodPost, route.APIWebhookRotate, api.rotateWebhookSecret)
	handle(apiGroup, http.MethodPost, route.APITemplates, api.createTemplate)
	handle(apiGroup, http.MethodGet, route.APITemplates, api.listTemplates)
	handle(apiGroup, http.MethodGet, route.APITemplate, api.getTemplate)
	handle(apiGroup, http.MethodPut, route.APITemplate, api.replaceTemplate)
	handle(apiGroup, http.MethodDelete, route.APITemplate, api.archiveTemplate)
	handle(apiGroup, http.MethodGet, route.APITemplateVersions, api.listTemplateVersions)
	handle(apiGroup, http.MethodGet, route.APITemplateVersion, api.getTemplateVersion)
	handle(apiGroup, http.MethodPost, route.APITemplateRestore, api.restoreTemplateVersion)
	handle(apiGroup, http.MethodPost, route.APITemplateRevise, api.reviseTemplateDocument)
	// The MCP server is stateless: every message is a POST, authenticated
	// and counted like an API request (docs/decisions.md, "MCP server").
	handle(apiGroup, http.MethodPost, route.MCP, agents.serve)
	return r, nil
}

// handle registers one route of the table on a group; fn's error goes to
// respondError (see wrap).
func handle(g *gin.RouterGroup, method string, rt route.Route, fn func(*gin.Context) error) {
	g.Handle(method, rt.String(), wrap(fn))
}

// wrap adapts a handler that returns an error to Gin; the error goes to
// respondError. The request's path, query and form are checked first
// (checkInput), so no handler reads an id or a value it cannot use.
func wrap(fn func(*gin.Context) error) gin.HandlerFunc {
	return func(c *gin.Context) {
		err := checkInput(c)
		if err == nil {
			err = fn(c)
		}
		if err != nil {
			respondError(c, err)
		}
	}
}

// limitJSONBody caps a JSON request body at max bytes.
func limitJSONBody(c *gin.Context, max int64) {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, max)
}

func (h *publicHandler) healthz(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

func (h *publicHandler) readyz(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	ctx, cancel := context.WithTimeout(c.Request.Context(), 3*time.Second)
	defer cancel()
	if err := h.ready.Ready(ctx); err != nil {
		loggerFrom(c).WarnContext(ctx, "not ready", "error", err)
		c.JSON(http.StatusServiceUnavailable, gin.H{"status": "unavailable"})
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ready"})
}
