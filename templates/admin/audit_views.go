package admin

import (
	"context"
	"time"

	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// AuditView is the console's audit trail (/admin/audit): its filters as
// given, the page of events and the links that keep the filters.
type AuditView struct {
	// Action is the page's own address, where the filters are sent (GET).
	Action        string
	Organizations []templates.OptionView
	// Actions are the actions and prefixes the action field suggests.
	Actions []string
	// Org, Actor, ActionFilter, Transaction, From and To are the filters
	// as given.
	Org, Actor, ActionFilter, Transaction, From, To string
	// Invalid holds a message per refused filter, by parameter name.
	Invalid map[string]i18n.Words
	Rows    []AuditRowView
	// OlderURL and NewerURL page the table (empty when there is no such
	// page); ExportURL is the CSV of the filtered trail, ClearURL the page
	// without filters.
	OlderURL, NewerURL, ExportURL, ClearURL string
	// Filtered tells an empty table "no match" from "nothing yet".
	Filtered bool
}

// AuditRowView is one audit event on one line.
type AuditRowView struct {
	ID string
	// At is when the event happened; the row shows its day and time in
	// UTC, and its full date in the title.
	At           time.Time
	Organization i18n.Words
	// ActorKind is the kind's code (api_token, admin, room, operator),
	// ActorKindLabel its words; ActorName and ActorID who; Via how they
	// came in.
	ActorKind               string
	ActorKindLabel          i18n.Words
	ActorName, ActorID, Via string
	Address                 string
	Action                  string
	// Target is what the event changed ("participant p1"); TargetURL its
	// console page, when it has one (a transaction's, a template's).
	Target    i18n.Words
	TargetURL string
	// Summary is the event's record as the trail stored and sealed it
	// (docs/words.md, "The audit trail's summaries").
	Summary string
	// Unsealed is true while the sealer has not chained the event yet
	// (docs/decisions.md, "Audit sealing").
	Unsealed bool
}

// auditDescribedBy is a filter's aria-describedby: its hint's id (if any)
// and, when the filter was refused, its error message's.
func auditDescribedBy(hint, name string, invalid map[string]i18n.Words) string {
	ids := hint
	if invalid[name] != nil {
		if ids != "" {
			ids += " "
		}
		ids += "audit-" + name + "-error"
	}
	return ids
}

// auditWhen is an event's day and time of day in UTC: "22 Nov 09:14:03".
func auditWhen(ctx context.Context, t time.Time) string {
	return i18n.T(ctx, "admin.audit.when", "day", consoleDay(ctx, t), "time", t.UTC().Format("15:04:05"))
}

// auditWhenFull is an event's weekday, date and time to the millisecond:
// "Mon, 22 Nov 2026, 09:14:03.120 UTC".
func auditWhenFull(ctx context.Context, t time.Time) string {
	return i18n.T(ctx, "admin.audit.when_full", "weekday", consoleWeekday(ctx, t), "time", consoleDateTimeUTC(ctx, t, "15:04:05.000"))
}
