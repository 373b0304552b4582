package handlers

import (
	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/web/i18n"
)

// auditTargetTypeIDs are the catalog ids of the audit trail's target types
// (stored as codes: models' AuditEntry.TargetType).
var auditTargetTypeIDs = map[string]string{
	"document":       "admin.audit.target.document",
	"organization":   "admin.audit.target.organization",
	"outbox_message": "admin.audit.target.outbox_message",
	"participant":    "admin.audit.target.participant",
	"room":           "admin.audit.target.room",
	"tag":            "admin.audit.target.tag",
	"template":       "admin.audit.target.template",
	"token":          "admin.audit.target.token",
	"transaction":    "admin.audit.target.transaction",
	"user":           "admin.audit.target.user",
	"webhook":        "admin.audit.target.webhook",
}

// auditTarget is an event's target: its type's words and its (short) id,
// "user 2"; a type the table does not know shows its code.
func auditTarget(targetType, targetID string) i18n.Words {
	var word i18n.Words = i18n.Plain(targetType)
	if id, ok := auditTargetTypeIDs[targetType]; ok {
		word = i18n.Msg(id)
	}
	if targetID == "" {
		return word
	}
	return i18n.Msg("admin.audit.target", "type", word, "id", shortAuditID(targetID))
}

// activityKindIDs are the catalog ids of the activity log's actions (stored
// as the log's own words, models.Activity*).
var activityKindIDs = map[string]string{
	models.ActivityLogin:             "admin.activity.kind.login",
	models.ActivityLogout:            "admin.activity.kind.logout",
	models.ActivityFailedLogin:       "admin.activity.kind.failed_login",
	models.ActivityLockout:           "admin.activity.kind.lockout",
	models.ActivityCreate:            "admin.activity.kind.create",
	models.ActivityToggle:            "admin.activity.kind.toggle",
	models.ActivityDisable:           "admin.activity.kind.disable",
	models.ActivityRevoke:            "admin.activity.kind.revoke",
	models.ActivityExpire:            "admin.activity.kind.expire",
	models.ActivityRetry:             "admin.activity.kind.retry",
	models.ActivityDelete:            "admin.activity.kind.delete",
	models.ActivityRestore:           "admin.activity.kind.restore",
	models.ActivityArchive:           "admin.activity.kind.archive",
	models.ActivitySignOutEverywhere: "admin.activity.kind.sign_out_everywhere",
}

// activityKind is an activity's action as words; one the table does not
// know shows as stored.
func activityKind(action string) i18n.Words {
	if id, ok := activityKindIDs[action]; ok {
		return i18n.Msg(id)
	}
	return i18n.Plain(action)
}
