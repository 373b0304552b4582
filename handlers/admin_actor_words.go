package handlers

import (
	"regexp"
	"strings"

	"github.com/markuproom/markuproom/models"
	"github.com/markuproom/markuproom/web/i18n"
)

// The history and the audit trail store who made a change as a label in
// English ("API token 1 (Demo token) for Sam Sender (Markup Room)", "Sam
// Sender · Markup Room · session d833b79a · 127.0.0.1"). The names in it are
// data; the words around them are put back in the page's language when it
// is shown (docs/i18n.md).
var (
	actorTokenLabel = regexp.MustCompile(`^API token (\d+) \((.*)\)$`)
	actorAdminLabel = regexp.MustCompile(`^Admin (\S+) \(console\)$`)
)

// actorOperatorLabel is the label of a room the operator's command created.
const actorOperatorLabel = "Operator (markuproom room create)"

// actorWords splits a stored actor label as models.ActorParts does and
// words each part in l's language: who made the change, and where from (a
// room session's short id and client address; empty for other labels).
func actorWords(l *i18n.Localizer, label string) (who, from string) {
	who, from = models.ActorParts(label)
	return actorWho(l, who), actorFrom(l, from)
}

// actorWho words who made a change: an API token, an admin or the
// operator, possibly for a room's sender; a room's own label ("Sam Sender ·
// Markup Room") is names only and stays as stored.
func actorWho(l *i18n.Localizer, who string) string {
	base, sender := who, ""
	if rest, ok := strings.CutSuffix(who, " (Markup Room)"); ok {
		if i := strings.LastIndex(rest, " for "); i >= 0 {
			base, sender = rest[:i], rest[i+len(" for "):]
		}
	}
	if m := actorTokenLabel.FindStringSubmatch(base); m != nil {
		base = l.T("admin.history.actor.api_token", "id", m[1], "name", m[2])
	} else if m := actorAdminLabel.FindStringSubmatch(base); m != nil {
		base = l.T("admin.history.actor.admin", "email", m[1])
	} else if base == actorOperatorLabel {
		base = l.T("admin.history.actor.operator")
	} else if sender != "" {
		return who // not a label the product writes: leave it whole
	}
	if sender == "" {
		return base
	}
	return l.T("admin.history.actor.for", "actor", base, "sender", sender)
}

// actorFrom words where a room change came from: "session d833b79a ·
// 127.0.0.1" (roomActor's words after the sender).
func actorFrom(l *i18n.Localizer, from string) string {
	rest, ok := strings.CutPrefix(from, "session ")
	if !ok {
		return from
	}
	session, addr, hasAddr := strings.Cut(rest, " · ")
	out := l.T("admin.history.actor.session", "session", session)
	if hasAddr {
		out += " · " + addr
	}
	return out
}

// auditActorName is an audit event's stored actor name with a room
// session's word in l's language.
func auditActorName(l *i18n.Localizer, name string) string {
	who, from := models.ActorParts(name)
	if from == "" {
		return name
	}
	return who + " · " + actorFrom(l, from)
}

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

// auditTarget words an event's target: its type in l's language and its
// (short) id, "user 2"; a type the table does not know shows its code.
func auditTarget(l *i18n.Localizer, targetType, targetID string) string {
	word := targetType
	if id, ok := auditTargetTypeIDs[targetType]; ok {
		word = l.T(id)
	}
	if targetID == "" {
		return word
	}
	return l.T("admin.audit.target", "type", word, "id", shortAuditID(targetID))
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

// activityKind words an activity's action in l's language; one the table
// does not know shows as stored.
func activityKind(l *i18n.Localizer, action string) string {
	if id, ok := activityKindIDs[action]; ok {
		return l.T(id)
	}
	return action
}
