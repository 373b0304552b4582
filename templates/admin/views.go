package admin

import (
	"time"

	"github.com/markuproom/markuproom/templates"
	"github.com/markuproom/markuproom/web/i18n"
)

// LoginView is the admin console's sign-in form.
type LoginView struct {
	// Action is where the form posts.
	Action string
	Email  string
	// Error is the one message for every refused sign-in (nil: none);
	// Locked marks a lockout.
	Error  i18n.Words
	Locked bool
}

// TransactionsView is the console's transactions table with its filters.
type TransactionsView struct {
	// Action is the list's own address, where the filters are sent.
	Action        string
	Organizations []templates.OptionView
	Statuses      []templates.OptionView
	// OrganizationID, Status and Search are the filters as given.
	OrganizationID string
	Status         string
	Search         string
	Rows           []TransactionRowView
	// Now is when the table was read, which its ages count from.
	Now time.Time
	// NextURL and PrevURL page the table (empty when there is no such page).
	NextURL, PrevURL string
	// Filtered tells an empty table "no match" from "nothing yet".
	Filtered bool
	// ExportCSVURL and ExportXLSXURL download every page of the table with
	// its filters.
	ExportCSVURL, ExportXLSXURL string
}

// TransactionRowView is one transaction of the table.
type TransactionRowView struct {
	// ID is the whole id (copied); ShortID its end, the one id shown.
	ID, ShortID  string
	URL          string
	Organization string
	// Title is the first document's title ("" without one);
	// MoreDocuments how many others there are.
	Title         string
	MoreDocuments int
	// ReferenceID is the caller's referenceId, empty when none was set.
	ReferenceID string
	// Sender is the room's sender; CreatedBy who made the transaction.
	Sender, CreatedBy string
	// Participants are the participants' names (the list shows the first
	// few, then "and N more").
	Participants []string
	Documents    int
	// Status is the status' code (a CSS class's end), StatusLabel its
	// words; StatusSince when it began.
	Status      string
	StatusLabel i18n.Words
	StatusSince time.Time
	// Updated is the last change's time.
	Updated time.Time
}

// TransactionView is one transaction's page in the console.
type TransactionView struct {
	// BackURL is the list of transactions; AuditURL the transaction's
	// events in the audit trail.
	BackURL, AuditURL string
	// ID is the transaction's id, shown as ShortID with a copy button.
	ID, ShortID string
	// Title is the first document's title ("No documents" without one),
	// also the page's; MoreDocuments is how many follow.
	Title         i18n.Words
	MoreDocuments int
	// ReferenceID is the caller's referenceId, empty when none was set.
	// Status is the status' code; StatusLabel its words.
	Organization, ReferenceID, Status string
	StatusLabel                       i18n.Words
	Version                           int
	Created, Updated                  time.Time
	// SigningOrder and Notify are the transaction's switches.
	SigningOrder, Notify bool
	// Subject is the invitation subject the caller gave; "" for the
	// default, which the page says in its language.
	Subject      string
	Participants []ParticipantView
	Documents    []DocumentView
	Viewer       templates.ViewerView
	History      []EventView
	// Messages are the transaction's invitations and webhook calls, newest first.
	Messages  []MessageRowView
	CSRFToken string
}

// ParticipantView is a participant as the console shows it: never a
// password, its hash or an answer.
type ParticipantView struct {
	ID, Name, Email, Order string
	// Auth is how the participant signs in; Checks the identity checks
	// asked of them.
	Auth   i18n.Words
	Checks []i18n.Words
}

// DocumentView is one document with its XFDF download.
type DocumentView struct {
	Title   string
	Pages   int
	Tags    int
	XFDFURL string
}

// EventView is one history entry: When it was made, Words what it
// changed, Actor who made the change (as data; the view words them).
type EventView struct {
	When  time.Time
	Words i18n.Words
	Actor ActorView
}

// ActorView is who made a change, as stored (models.Actor,
// models.TemplateActor): Kind one of "api_token", "admin", "operator",
// "room" (or "" for a row of no known shape, shown by its Label as stored);
// ID the token's or room's id; Name the token's name, the admin's e-mail or
// the room's sender; For the sender a room was created for; Session and
// Address a room visitor's session short id and client address.
type ActorView struct {
	Kind, ID, Name, For, Session, Address, Label string
}

// RoomsView is the console's Markup Rooms table.
type RoomsView struct {
	// NewRoomURL is the "New Markup Room" form.
	NewRoomURL string
	Rows       []RoomRowView
	NextURL    string
	CSRFToken  string
}

// RoomRowView is one room; ExpireURL is set for an open room.
type RoomRowView struct {
	// ID is the whole id (copied); ShortID its end, the one id shown.
	ID, ShortID, Organization, Sender, SenderEmail, Status string
	Expires                                                time.Time
	// Title is the transaction's first document's title ("": it has none).
	Title                     string
	TransactionURL, ExpireURL string
}

// ActivityView is the console's activity log.
type ActivityView struct {
	Rows     []ActivityRowView
	OlderURL string
}

// ActivityRowView is one admin action: when, who, what (a refusal repeated
// says how many times, and when the last was) and on what.
type ActivityRowView struct {
	At     time.Time
	Who    string
	Action i18n.Words
	// Repeats is how many times the action happened in a row (a refused
	// sign-in), LastAt when the last one did (nil: no repeats).
	Repeats int
	LastAt  *time.Time
	Target  string
	Address string
}

// OrganizationsView is the console's list of organizations with the create form.
type OrganizationsView struct {
	// CreateURL is where the new organization form posts.
	CreateURL string
	Rows      []OrganizationRowView
	CSRFToken string
	// Error is a refused create's message; Name the name typed.
	Error i18n.Words
	Name  string
}

// OrganizationRowView is one organization; ToggleURL switches its API access.
type OrganizationRowView struct {
	ID, Name, URL, ToggleURL string
	APIEnabled               bool
	Users, Tokens            int
}

// OrganizationView is one organization's page: its users and API tokens.
type OrganizationView struct {
	// BackURL is the list of organizations.
	BackURL    string
	ID, Name   string
	APIEnabled bool
	ToggleURL  string
	CSRFToken  string
	Users      []UserRowView
	Tokens     []TokenRowView
	// NewToken is a token just created, shown this once.
	NewToken, NewTokenName string
	// UserError and TokenError are a refused form's messages.
	UserError, TokenError i18n.Words
	UsersURL, TokensURL   string
	// Webhooks are the organization's endpoints; WebhookEvents the choices
	// of the form; NewWebhookSecret an endpoint's secret, shown once.
	Webhooks                        []WebhookRowView
	WebhooksURL                     string
	WebhookEvents                   []string
	NewWebhookSecret, NewWebhookURL string
	WebhookError                    i18n.Words
	// NewWebhookRotated says NewWebhookSecret replaced an endpoint's secret.
	NewWebhookRotated bool
	// EmbedOrigins are the origins allowed to frame the organization's
	// rooms, one a line (or the refused text, with EmbedErrors); EmbedURL
	// receives the form; EmbedSaved says the list was just saved.
	EmbedOrigins, EmbedURL string
	EmbedErrors            []i18n.Words
	EmbedSaved             bool
}

// WebhookRowView is one webhook endpoint of an organization.
type WebhookRowView struct {
	ID, URL, Events, Description, DeleteURL string
	Created                                 time.Time
	// RotateURL receives the "Rotate secret" form.
	RotateURL string
}

// OutboxView is the console's list of outgoing messages.
type OutboxView struct {
	Filters   []FilterView
	Status    string
	Rows      []MessageRowView
	OlderURL  string
	CSRFToken string
}

// FilterView is one status filter with its count: Status is the
// message status it keeps (a code; "" for every status).
type FilterView struct {
	Status  string
	Count   int64
	URL     string
	Current bool
}

// The next try of an outgoing message (MessageRowView.NextTry).
const (
	NextTryNone = ""    // not to be tried again (sent, dead, held)
	NextTryNow  = "now" // being sent
	NextTryDue  = "due" // waiting for the next run of the sender
	NextTryAt   = "at"  // at NextAt
)

// MessageRowView is one outgoing e-mail or webhook call, as data: Kind
// and Status are models' codes, NextTry one of the NextTry* codes; the view
// words them. RetryURL is set for a dead or held one.
type MessageRowView struct {
	ID, Organization, Kind, Recipient, Event, Subject, Status string
	// Language is an invitation's language: its default subject (Subject
	// "") is shown as the recipient reads it.
	Language                 string
	Attempts                 int
	LastError                string
	Created, NextAt          time.Time
	NextTry                  string
	TransactionURL, RetryURL string
}

// UserRowView is one user; DisableURL is set while the user is enabled.
type UserRowView struct {
	ID, Name, Email, DisableURL string
	// Role and Status are the user's role and state in words.
	Role, Status i18n.Words
}

// TokenRowView is one API token; RevokeURL is set while it is live.
type TokenRowView struct {
	ID, Name, RevokeURL string
	Created             time.Time
	// LastUsed is nil for a token never used; Status its state in words.
	LastUsed *time.Time
	Status   i18n.Words
}
