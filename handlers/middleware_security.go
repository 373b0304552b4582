package handlers

import (
	"strings"

	"github.com/gin-gonic/gin"
)

// contentSecurityPolicy allows only the server's own scripts and styles: no
// inline script, no inline style, no framing.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"font-src 'self'; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; " +
	"frame-ancestors 'none'; form-action 'self'"

// strictTransportSecurity keeps browsers on HTTPS for two years, subdomains
// included, once they have seen the service over HTTPS.
const strictTransportSecurity = "max-age=63072000; includeSubDomains"

// securityHeaders sets the headers every response carries; a service whose
// base URL is https adds HSTS (the router sets the Handler before this runs).
func securityHeaders() gin.HandlerFunc {
	return func(c *gin.Context) {
		h := c.Writer.Header()
		if strings.HasPrefix(siteFrom(c).cfg.BaseURL, "https://") {
			h.Set("Strict-Transport-Security", strictTransportSecurity)
		}
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		c.Next()
	}
}
