package handlers

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/handlers/route"
	"github.com/markuproom/markuproom/models"
)

// RateLimiter takes tokens from the shared token buckets (the policies are in
// docs/decisions.md, "Rate limits", and the OpenAPI document's description).
type RateLimiter interface {
	// TakeRateTokens takes one token from each bucket in one database statement.
	TakeRateTokens(ctx context.Context, buckets ...models.RateBucket) (models.RateDecision, error)
	// RateRefused tells, without the database, whether a bucket refused so
	// recently that it is still empty.
	RateRefused(buckets ...models.RateBucket) (models.RateDecision, bool)
}

// RateLimits are the token buckets' policies. Zero fields take the
// defaults of DefaultRateLimits.
type RateLimits struct {
	// Off turns every limit off (benchmarks, load tests).
	Off bool
	// API is per API token.
	API models.RateLimit
	// Room is per room session (a browser bound to rooms by their links).
	Room models.RateLimit
	// Anon is per client address, for requests without a valid credential:
	// refused API tokens, room link opens, admin sign-in posts.
	Anon models.RateLimit
	// UploadsPerMinute counts uploads per API token or room session, on top
	// of their other requests.
	UploadsPerMinute int
}

// DefaultRateLimits are the limits when none are configured.
func DefaultRateLimits() RateLimits {
	return RateLimits{
		API:              models.RateLimit{PerSecond: 50, Burst: 500},
		Room:             models.RateLimit{PerSecond: 20, Burst: 200},
		Anon:             models.RateLimit{PerSecond: 10, Burst: 100},
		UploadsPerMinute: 60,
	}
}

func (l RateLimits) withDefaults() RateLimits {
	def := DefaultRateLimits()
	if !l.API.Valid() {
		l.API = def.API
	}
	if !l.Room.Valid() {
		l.Room = def.Room
	}
	if !l.Anon.Valid() {
		l.Anon = def.Anon
	}
	if l.UploadsPerMinute <= 0 {
		l.UploadsPerMinute = def.UploadsPerMinute
	}
	return l
}

// uploads is the policy of an uploads-per-minute bucket.
func (l RateLimits) uploads() models.RateLimit {
	return models.RateLimit{PerSecond: float64(l.UploadsPerMinute) / 60, Burst: l.UploadsPerMinute}
}

// rateLimiter applies the limits to requests; a nil one allows everything.
type rateLimiter struct {
	store  RateLimiter
	limits RateLimits
}

// newRateLimiter returns nil when the limits are off.
func newRateLimiter(store RateLimiter, limits RateLimits) *rateLimiter {
	if limits.Off {
		return nil
	}
	return &rateLimiter{store: store, limits: limits.withDefaults()}
}

// rateScope says whose bucket refused, for the message.
type rateScope int

const (
	scopeAPI rateScope = iota + 1
	scopeRoom
	scopeAddress
)

// rateLimitedError is a request refused by a rate limit (429, code rate_limited).
type rateLimitedError struct {
	decision models.RateDecision
	scope    rateScope
	upload   bool
}

func (e *rateLimitedError) Error() string { return e.message().String() }

// retryAfterSeconds is the Retry-After of a refusal: whole seconds, at least 1.
func retryAfterSeconds(d models.RateDecision) int {
	return max(1, int(math.Ceil(d.RetryAfter.Seconds())))
}

// setRateHeaders sends the RateLimit-* fields of a decision.
func setRateHeaders(c *gin.Context, d models.RateDecision) {
	c.Header("RateLimit-Limit", strconv.Itoa(d.Limit))
	c.Header("RateLimit-Remaining", strconv.Itoa(d.Remaining))
	c.Header("RateLimit-Reset", strconv.Itoa(int(math.Ceil(d.Reset.Seconds()))))
}

// refuse writes the 429 of a refusal: problem details for API and htmx
// callers, the error page for a browser navigation.
func refuse(c *gin.Context, d models.RateDecision, scope rateScope, upload bool) {
	setRateHeaders(c, d)
	c.Header("Retry-After", strconv.Itoa(retryAfterSeconds(d)))
	respondError(c, &rateLimitedError{decision: d, scope: scope, upload: upload})
}

// take takes a token from each bucket; on refusal it answers 429 and
// returns false. While the rate table cannot answer, the store's buckets of
// this process decide (TakeRateTokens), so the limits still hold; an error
// left (the request's context ended, an invalid bucket) lets the request
// through with a warning: it meets the same end in its own work.
func (l *rateLimiter) take(c *gin.Context, scope rateScope, buckets ...models.RateBucket) bool {
	d, err := l.store.TakeRateTokens(c.Request.Context(), buckets...)
	if err != nil {
		loggerFrom(c).WarnContext(c.Request.Context(), "rate limit not checked", "error", err)
		return true
	}
	if !d.Allowed {
		refuse(c, d, scope, strings.HasPrefix(d.Key, "upload:"))
		return false
	}
	setRateHeaders(c, d)
	return true
}

// addressBucket is the bucket of the request's client address. IPv6
// addresses count per /64, the block one subscriber usually gets.
func (l *rateLimiter) addressBucket(c *gin.Context) models.RateBucket {
	addr := c.ClientIP()
	if ip := net.ParseIP(addr); ip != nil && ip.To4() == nil {
		addr = ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return models.RateBucket{Key: "anon:" + addr, Limit: l.limits.Anon}
}

// addressRefused answers 429 when this process saw the client address's
// bucket refuse so recently that it is still empty; the caller then does
// no work at all (no token lookup, no database statement).
func (l *rateLimiter) addressRefused(c *gin.Context) bool {
	if l == nil {
		return false
	}
	if d, refused := l.store.RateRefused(l.addressBucket(c)); refused {
		refuse(c, d, scopeAddress, false)
		return true
	}
	return false
}

// allowAddress counts a request without a valid credential against its client address.
func (l *rateLimiter) allowAddress(c *gin.Context) bool {
	if l == nil {
		return true
	}
	return l.take(c, scopeAddress, l.addressBucket(c))
}

// tokenBucketKey names an API token's requests bucket;
// tokenUploadsBucketKey its uploads bucket, which the upload routes and the
// MCP tool upload_document share.
func tokenBucketKey(tokenID int64) string { return "api:" + strconv.FormatInt(tokenID, 10) }

func tokenUploadsBucketKey(tokenID int64) string { return "upload:" + tokenBucketKey(tokenID) }

// allowToken counts an authenticated API request against its token (and
// an upload against the token's uploads too).
func (l *rateLimiter) allowToken(c *gin.Context, tokenID int64) bool {
	if l == nil {
		return true
	}
	buckets := []models.RateBucket{{Key: tokenBucketKey(tokenID), Limit: l.limits.API}}
	if isUpload(c) {
		buckets = append(buckets, models.RateBucket{Key: tokenUploadsBucketKey(tokenID), Limit: l.limits.uploads()})
	}
	return l.take(c, scopeAPI, buckets...)
}

// allowUpload counts an upload that comes in through no upload route (the
// MCP tool upload_document) against the token's uploads bucket, the one the
// API's upload routes count against; a refusal is the 429's error. As in
// take, a bucket that cannot be read lets the upload through with a warning.
func (l *rateLimiter) allowUpload(ctx context.Context, log *slog.Logger, tokenID int64) error {
	if l == nil {
		return nil
	}
	d, err := l.store.TakeRateTokens(ctx, models.RateBucket{Key: tokenUploadsBucketKey(tokenID), Limit: l.limits.uploads()})
	if err != nil {
		log.WarnContext(ctx, "rate limit not checked", "error", err)
		return nil
	}
	if !d.Allowed {
		return &rateLimitedError{decision: d, scope: scopeAPI, upload: true}
	}
	return nil
}

// roomRequests limits the browser routes of Markup Rooms: a room link
// open counts against the client address; a request of a browser bound to
// a room against its room session (and an upload against its uploads too);
// any other request against the client address.
func (l *rateLimiter) roomRequests() gin.HandlerFunc {
	return func(c *gin.Context) {
		if l == nil {
			return
		}
		sid := rateSessionID(sessions.Default(c))
		if route.Route(c.FullPath()) == route.RoomLink || sid == "" {
			if l.addressRefused(c) || !l.allowAddress(c) {
				return
			}
			c.Next()
			return
		}
		key := "room:" + sid
		buckets := []models.RateBucket{{Key: key, Limit: l.limits.Room}}
		if isUpload(c) {
			buckets = append(buckets, models.RateBucket{Key: "upload:" + key, Limit: l.limits.uploads()})
		}
		if !l.take(c, scopeRoom, buckets...) {
			return
		}
		c.Next()
	}
}

// signIn limits admin sign-in posts per client address, before any password work.
func (l *rateLimiter) signIn() gin.HandlerFunc {
	return func(c *gin.Context) {
		if l.addressRefused(c) || !l.allowAddress(c) {
			return
		}
		c.Next()
	}
}

// isUpload tells whether the matched route uploads a PDF: the two API
// upload routes and the room's "Add document".
func isUpload(c *gin.Context) bool {
	if c.Request.Method != http.MethodPost {
		return false
	}
	switch route.Route(c.FullPath()) {
	case route.APIUpload, route.APIUploadAlias, route.RoomDocuments:
		return true
	}
	return false
}

// rateSessionKey is the session value naming a room session's rate bucket.
const rateSessionKey = "rl"

// rateSessionID returns the room session's rate bucket id, "" before the
// browser opened a room link.
func rateSessionID(s sessions.Session) string {
	id, _ := s.Get(rateSessionKey).(string)
	return id
}

// ensureRateSessionID gives a room session its rate bucket id.
func ensureRateSessionID(s sessions.Session) {
	if rateSessionID(s) != "" {
		return
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	s.Set(rateSessionKey, hex.EncodeToString(b))
}
