package admin

import (
	"context"

	"github.com/markuproom/markuproom/web/i18n"
)

// actorBase words an API token, an admin or the operator (actorWho).
func actorBase(ctx context.Context, a ActorView) string {
	switch a.Kind {
	case "api_token":
		return i18n.T(ctx, "admin.history.actor.api_token", "id", a.ID, "name", a.Name)
	case "admin":
		return i18n.T(ctx, "admin.history.actor.admin", "email", a.Name)
	}
	return i18n.T(ctx, "admin.history.actor.operator")
}
