package handlers

import (
	"context"
	"github.com/markuproom/markuproom/web/i18n"
	"io"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markuproom/markuproom/static"
	"github.com/markuproom/markuproom/templates"
)

// Clock tells the time the domain layer goes by (a fixed clock in tests).
type Clock interface {
	Now() time.Time
}

// site is what every area's handler shares: the configuration, the static
// assets and the clock. It holds no store; each area declares the narrow
// store interfaces it calls beside its handler type (api.go, room.go,
// admin.go, public.go), and only the router (router.go) knows them all.
type site struct {
	cfg    Config
	assets *static.Assets
	clock  Clock
}

// page builds the view model every full page shares.
func (s *site) page(c *gin.Context, title i18n.Words) templates.Page {
	return templates.Page{Title: title, Assets: s.assets}
}

// readJSONBody reads a JSON request body within the size limit.
func (s *site) readJSONBody(c *gin.Context) ([]byte, error) {
	limitJSONBody(c, s.cfg.MaxJSONBytes)
	return io.ReadAll(c.Request.Body)
}

// readJSONRequest checks the content type and reads the body within its limit.
func (s *site) readJSONRequest(c *gin.Context) ([]byte, error) {
	if err := requireJSON(c); err != nil {
		return nil, err
	}
	return s.readJSONBody(c)
}

// Readiness is what /readyz asks of the domain layer.
type Readiness interface {
	Ready(ctx context.Context) error
}
