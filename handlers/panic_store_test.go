package handlers_test

import (
	"context"

	"github.com/markuproom/markuproom/handlers"
	"github.com/markuproom/markuproom/models"
)

// panicOnAuth is a Store whose token check panics.
type panicOnAuth struct{ handlers.Store }

func (*panicOnAuth) AuthenticateAPIToken(context.Context, string) (*models.Principal, error) {
	panic("secret internal detail")
}
