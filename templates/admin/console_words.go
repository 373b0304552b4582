package admin

import (
	"context"

	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// copyIDLabel names the copy button of an object's short id, by the
// object's kind (one literal id per kind, docs/i18n.md).
func copyIDLabel(ctx context.Context, what string) string {
	switch what {
	case "room":
		return i18n.T(ctx, "admin.list.copy_room_id")
	case "template":
		return i18n.T(ctx, "admin.list.copy_template_id")
	}
	return i18n.T(ctx, "admin.list.copy_transaction_id")
}

// defaultInvitationSubject is the default invitation subject as a
// recipient reading tag's language gets it.
func defaultInvitationSubject(ctx context.Context, tag string) string {
	return templates.InvitationSubject(i18n.With(ctx, i18n.For(tag)), templates.InvitationView{})
}
