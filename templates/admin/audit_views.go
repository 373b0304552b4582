package admin

import "github.com/markuproom/markuproom/templates"

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
	Invalid map[string]string
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
	// When is the time shown (UTC), WhenFull its date and time in words,
	// WhenISO the machine form.
	When, WhenFull, WhenISO string
	Organization            string
	// ActorKind is the kind's word (api_token, admin, room, operator),
	// ActorKindLabel how it reads; ActorName and ActorID who; Via how they
	// came in.
	ActorKind, ActorKindLabel, ActorName, ActorID, Via string
	Address                                            string
	Action                                             string
	// Target is what the event changed ("participant p1"); TargetURL its
	// console page, when it has one (a transaction's, a template's).
	Target, TargetURL string
	Summary           string
	// Unsealed is true while the sealer has not chained the event yet
	// (docs/decisions.md, "Audit sealing").
	Unsealed bool
}

// auditDescribedBy is a filter's aria-describedby: its hint's id (if any)
// and, when the filter was refused, its error message's.
func auditDescribedBy(hint, name string, invalid map[string]string) string {
	ids := hint
	if invalid[name] != "" {
		if ids != "" {
			ids += " "
		}
		ids += "audit-" + name + "-error"
	}
	return ids
}
