package models

// The kinds of a history entry's actor (transaction_events.actor_kind,
// migration 00025); the same words as the audit trail's actor kinds.
const (
	// HistoryActorAPIToken is an API token: ID its id, Name its name.
	HistoryActorAPIToken = AuditActorAPIToken
	// HistoryActorAdmin is an admin in the console: ID the user's id, Name
	// the e-mail address.
	HistoryActorAdmin = AuditActorAdmin
	// HistoryActorOperator is the operator's `markuproom room create`.
	HistoryActorOperator = AuditActorOperator
	// HistoryActorRoom is a Markup Room's visitor: ID the room's id, Name
	// the room's sender, Session and Address the browser session.
	HistoryActorRoom = AuditActorRoom
)

// Actor is who changes a transaction, for its history: data, worded when
// the history is read (docs/i18n.md). Kind is one of the HistoryActor*
// kinds; Via the channel ("api", "mcp", "console", "cli", "room"); For the
// room's sender an API token, admin or operator created a room for.
type Actor struct {
	OrganizationID int64
	TokenID        *int64
	UserID         *int64
	Kind, ID, Name string
	Via, For       string
	// Session is a room session's short id (ShortSessionID), Address its
	// client address.
	Session, Address string
}

// Label is the actor in English as the product stored it before the typed
// columns ("API token 1 (Demo token) for Sam Sender (Markup Room)", "Sam
// Sender · Markup Room · session d833b79a · 127.0.0.1"): the column
// transaction_events.actor keeps it for older readers, and the audit trail
// names a room's visitor by it. People read the typed fields, worded.
func (a Actor) Label() string {
	var label string
	switch a.Kind {
	case HistoryActorAPIToken:
		label = "API token " + a.ID + " (" + a.Name + ")"
	case HistoryActorAdmin:
		label = "Admin " + a.Name + " (console)"
	case HistoryActorOperator:
		label = "Operator (markuproom room create)"
	case HistoryActorRoom:
		label = "Markup Room"
		if a.Name != "" {
			label = a.Name + " · Markup Room"
		}
		if a.Session != "" {
			label += " · session " + a.Session
		}
		if a.Address != "" {
			label += " · " + a.Address
		}
		return label
	}
	if a.For != "" {
		label += " for " + a.For + " (Markup Room)"
	}
	return label
}
