package handlers

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/markuproom/markuproom/models"
)

// MetricsHandler serves the registry in the Prometheus text format at
// /metrics and nothing else (404). It checks no credentials: it is what the
// separate MARKUPROOM_METRICS_ADDR listener serves, on a private network.
func MetricsHandler(reg *prometheus.Registry) http.Handler {
	metrics := promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics)
	return mux
}

// metricsWithToken serves /metrics on the main listener only to requests
// bearing the configured token (Authorization: Bearer <token>). Anything
// else is a 401 problem with WWW-Authenticate, so a scraper with a wrong or
// missing token says so plainly. Both sides are hashed before the
// constant-time compare, so neither the token's content nor its length
// shows in the timing.
func metricsWithToken(reg *prometheus.Registry, token string) gin.HandlerFunc {
	want := sha256.Sum256([]byte(token))
	metrics := promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	return func(c *gin.Context) {
		got, err := bearerToken(c.GetHeader("Authorization"))
		if err != nil {
			writeProblem(c, err)
			return
		}
		sum := sha256.Sum256([]byte(got))
		if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			writeProblem(c, &models.AuthError{Message: models.Msg("error.metrics_token"), InvalidToken: true})
			return
		}
		metrics.ServeHTTP(c.Writer, c.Request)
	}
}
