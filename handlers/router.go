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
}

// Store is everything the handlers ask of the domain layer.
type Store interface {
	TokenAuthenticator
	DocumentStore
	TransactionStore
	IdempotencyStore
	RoomStore
	RoomEditor
	AdminStore
	WebhookStore
	RateLimiter
	Ready(ctx context.Context) error
}

// Deps are the collaborators of the router.
type Deps struct {
	Config   Config
	Store    Store
	Assets   *static.Assets
	Logger   *slog.Logger
	Registry *prometheus.Registry
}

// Handler holds the dependencies shared by the route handlers.
type Handler struct {
	cfg     Config
	store   Store
	assets  *static.Assets
	openAPI []byte
	limiter *rateLimiter
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
	h := &Handler{cfg: d.Config, store: d.Store, assets: d.Assets, openAPI: openAPI}
	h.limiter = newRateLimiter(d.Store, d.Config.RateLimits)

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
	r.Use(requestContext(d.Logger), func(c *gin.Context) { c.Set(ctxHandler, h) },
		accessLog(), metrics.middleware(), recoverPanics(), securityHeaders())
	r.NoRoute(func(c *gin.Context) {
		respondError(c, errStatus(http.StatusNotFound, "There is nothing at this address."))
	})
	r.NoMethod(func(c *gin.Context) {
		respondError(c, errStatus(http.StatusMethodNotAllowed, "This method is not allowed at this address."))
	})

	r.GET("/healthz", h.healthz)
	r.GET("/readyz", h.readyz)
	if d.Config.MetricsToken != "" {
		r.GET("/metrics", metricsWithToken(d.Registry, d.Config.MetricsToken))
	}
	r.GET("/static/*path", gin.WrapH(d.Assets))
	r.HEAD("/static/*path", gin.WrapH(d.Assets))
	r.GET("/", h.home)
	r.GET("/problems/:slug", h.problemDoc)
	r.GET("/api/openapi.json", h.openAPIDocument)

	secure := strings.HasPrefix(d.Config.BaseURL, "https://")
	rooms := r.Group("", sessions.Sessions(roomSessionName, newSessionStore(d.Config.SessionSecret, secure, d.Config.SessionMaxAge)), h.limiter.roomRequests())
	rooms.GET("/markup-room/:token", wrap(h.openRoomLink))
	rooms.GET("/rooms/:id", wrap(h.roomPage))
	rooms.POST("/rooms/:id/participants", wrap(h.addRoomParticipant))
	rooms.GET("/rooms/:id/participants", wrap(h.roomFormAddress))
	rooms.GET("/rooms/:id/participants/:participantId", wrap(h.roomFormAddress))
	rooms.POST("/rooms/:id/participants/:participantId", wrap(h.updateRoomParticipant))
	rooms.POST("/rooms/:id/participants/:participantId/remove", wrap(h.removeRoomParticipant))
	rooms.POST("/rooms/:id/participants/:participantId/move", wrap(h.moveRoomParticipant))
	rooms.POST("/rooms/:id/documents/:position/title", wrap(h.renameRoomDocument))
	rooms.GET("/rooms/:id/pdf/:document", wrap(h.roomDocumentContent))
	rooms.POST("/rooms/:id/tags", wrap(h.addRoomTag))
	rooms.PUT("/rooms/:id/tags/:tagId", wrap(h.updateRoomTag))
	rooms.DELETE("/rooms/:id/tags/:tagId", wrap(h.deleteRoomTag))
	rooms.POST("/rooms/:id/documents", wrap(h.addRoomDocument))
	rooms.POST("/rooms/:id/documents/:position/remove", wrap(h.removeRoomDocument))
	rooms.POST("/rooms/:id/documents/:position/pages/:page/delete", wrap(h.deleteRoomPage))
	rooms.POST("/rooms/:id/documents/:position/pages/:page/move", wrap(h.moveRoomPage))
	rooms.POST("/rooms/:id/documents/:position/restore", wrap(h.restoreRoomDocument))
	rooms.GET("/rooms/:id/checklist", wrap(h.roomChecklist))
	rooms.POST("/rooms/:id/complete", wrap(h.completeRoom))

	admin := r.Group("/admin", sessions.Sessions(adminSessionName, newAdminSessionStore(d.Config.SessionSecret, secure, d.Config.AdminMaxAge)), h.loadAdmin())
	admin.GET("/login", wrap(h.adminLoginPage))
	admin.POST("/login", h.limiter.signIn(), wrap(h.adminLogin))
	console := admin.Group("", requireAdmin)
	console.GET("", func(c *gin.Context) { c.Redirect(http.StatusSeeOther, "/admin/transactions") })
	console.POST("/logout", wrap(h.adminLogout))
	console.POST("/sessions/revoke-all", wrap(h.adminRevokeAllSessions))
	console.GET("/transactions", wrap(h.adminTransactions))
	console.GET("/transactions/:id", wrap(h.adminTransaction))
	console.GET("/transactions/:id/documents/:position/content", wrap(h.adminDocumentContent))
	console.GET("/transactions/:id/documents/:position/xfdf", wrap(h.adminDocumentXFDF))
	console.GET("/rooms", wrap(h.adminRooms))
	console.POST("/rooms/:id/expire", wrap(h.adminExpireRoom))
	console.GET("/activity", wrap(h.adminActivity))
	console.GET("/organizations", wrap(h.adminOrganizations))
	console.POST("/organizations", wrap(h.adminCreateOrganization))
	console.GET("/organizations/:id", wrap(h.adminOrganization))
	console.POST("/organizations/:id/api-access", wrap(h.adminSetAPIAccess))
	console.POST("/organizations/:id/users", wrap(h.adminCreateUser))
	console.POST("/organizations/:id/users/:userId/disable", wrap(h.adminDisableUser))
	console.POST("/organizations/:id/tokens", wrap(h.adminCreateToken))
	console.POST("/organizations/:id/tokens/:tokenId/revoke", wrap(h.adminRevokeToken))
	console.POST("/organizations/:id/webhooks", wrap(h.adminCreateWebhook))
	console.POST("/organizations/:id/webhooks/:webhookId/delete", wrap(h.adminDeleteWebhook))
	console.POST("/organizations/:id/webhooks/:webhookId/rotate-secret", wrap(h.adminRotateWebhookSecret))
	console.GET("/outbox", wrap(h.adminOutbox))
	console.POST("/outbox/:id/retry", wrap(h.adminRetryMessage))

	api := r.Group("/api/v1", requireToken(d.Store, h.limiter))
	upload := wrap(h.uploadDocument)
	api.POST("/documents/upload", upload)
	api.POST("/document/upload", upload)
	api.GET("/documents/:id", wrap(h.getDocument))
	api.GET("/documents/:id/content", wrap(h.getDocumentContent))
	api.POST("/transactions", wrap(h.createTransaction))
	api.GET("/transactions", wrap(h.listTransactions))
	api.GET("/transactions/:id", wrap(h.getTransaction))
	api.PUT("/transactions/:id", wrap(h.replaceTransaction))
	api.GET("/transactions/:id/documents/:documentId/xfdf", wrap(h.getTransactionXFDF))
	api.POST("/markup-rooms", wrap(h.createRoom))
	api.GET("/markup-rooms", wrap(h.listRooms))
	api.GET("/markup-rooms/:id", wrap(h.getRoom))
	api.POST("/webhooks", wrap(h.createWebhook))
	api.GET("/webhooks", wrap(h.listWebhooks))
	api.DELETE("/webhooks/:id", wrap(h.deleteWebhook))
	api.POST("/webhooks/:id/rotate-secret", wrap(h.rotateWebhookSecret))
	return r, nil
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

func (h *Handler) healthz(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

func (h *Handler) readyz(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	ctx, cancel := context.WithTimeout(c.Request.Context(), 3*time.Second)
	defer cancel()
	if err := h.store.Ready(ctx); err != nil {
		loggerFrom(c).WarnContext(ctx, "not ready", "error", err)
		c.JSON(http.StatusServiceUnavailable, gin.H{"status": "unavailable"})
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ready"})
}
