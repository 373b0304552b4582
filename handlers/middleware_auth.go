package handlers

import (
	"context"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/models"
)

// TokenAuthenticator checks API bearer tokens.
type TokenAuthenticator interface {
	AuthenticateAPIToken(ctx context.Context, token string) (*models.Principal, error)
}

// requireToken authenticates the bearer token of an API request; refusals
// are 401 problems carrying WWW-Authenticate: Bearer. A refused token counts
// against the client address's rate limit, and while that is exhausted the
// address gets 429 before any token lookup; an accepted one counts against
// the token's own limit.
func requireToken(auth TokenAuthenticator, limit *rateLimiter) gin.HandlerFunc {
	return func(c *gin.Context) {
		if limit.addressRefused(c) {
			return
		}
		token, err := bearerToken(c.GetHeader("Authorization"))
		var p *models.Principal
		if err == nil {
			p, err = auth.AuthenticateAPIToken(c.Request.Context(), token)
		}
		if err != nil {
			if limit.allowAddress(c) {
				respondError(c, err)
			}
			return
		}
		c.Set(ctxPrincipal, p)
		// The audit trail names the token for every change of this request.
		c.Request = c.Request.WithContext(models.WithAuditActor(c.Request.Context(), p.AuditActor("api", c.ClientIP())))
		if !limit.allowToken(c, p.Token.ID) {
			return
		}
		c.Next()
	}
}

func bearerToken(header string) (string, error) {
	if strings.TrimSpace(header) == "" {
		return "", &models.AuthError{Message: models.Msg("error.bearer_required")}
	}
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" || strings.ContainsAny(token, " \t") {
		return "", &models.AuthError{Message: models.Msg("error.bearer_form"), InvalidToken: true}
	}
	return token, nil
}

// principalFrom returns the caller authenticated by requireToken.
func principalFrom(c *gin.Context) *models.Principal {
	return c.MustGet(ctxPrincipal).(*models.Principal)
}
