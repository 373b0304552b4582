package templates

// AdminLoginView is the admin console's sign-in form.
type AdminLoginView struct {
	Email string
	// Error is the one message for every refused sign-in; Locked marks a lockout.
	Error  string
	Locked bool
}

// AdminTransactionsView is the console's transactions table with its filters.
type AdminTransactionsView struct {
	Organizations []OptionView
	Statuses      []OptionView
	// OrganizationID, Status and Search are the filters as given.
	OrganizationID string
	Status         string
	Search         string
	Rows           []AdminTransactionRowView
	// NextURL and PrevURL page the table (empty when there is no such page).
	NextURL, PrevURL string
	// Filtered tells an empty table "no match" from "nothing yet".
	Filtered bool
}

// AdminTransactionRowView is one transaction of the table.
type AdminTransactionRowView struct {
	ID           string
	URL          string
	Organization string
	ReferenceID  string
	Status       string
	Participants int
	Documents    int
	Updated      string
	UpdatedISO   string
}

// AdminTransactionView is one transaction's page in the console.
type AdminTransactionView struct {
	ID, Organization, ReferenceID, Status string
	Version                               int
	Created, Updated                      string
	SigningOrder, Notify, Subject         string
	Participants                          []AdminParticipantView
	Documents                             []AdminDocumentView
	Viewer                                ViewerView
	History                               []AdminEventView
	// Messages are the transaction's invitations and webhook calls, newest first.
	Messages  []AdminMessageRowView
	CSRFToken string
}

// AdminParticipantView is a participant as the console shows it: never a
// password, its hash or an answer.
type AdminParticipantView struct {
	ID, Name, Email, Auth, Order string
	Checks                       []string
}

// AdminDocumentView is one document with its XFDF download.
type AdminDocumentView struct {
	Title   string
	Pages   int
	Tags    int
	XFDFURL string
}

// AdminEventView is one history entry in words.
type AdminEventView struct {
	When, WhenISO, Actor, Words string
}

// AdminRoomsView is the console's Markup Rooms table.
type AdminRoomsView struct {
	Rows      []AdminRoomRowView
	NextURL   string
	CSRFToken string
}

// AdminRoomRowView is one room; ExpireURL is set for an open room.
type AdminRoomRowView struct {
	ID, Organization, Sender, SenderEmail, Status, Expires, ExpiresISO string
	TransactionURL, ExpireURL                                          string
}

// AdminActivityView is the console's activity log.
type AdminActivityView struct {
	Rows     []AdminActivityRowView
	OlderURL string
}

// AdminActivityRowView is one admin action.
type AdminActivityRowView struct {
	When, WhenISO, Who, Action, Target, Address string
}

// AdminOrganizationsView is the console's list of organizations with the create form.
type AdminOrganizationsView struct {
	Rows      []AdminOrganizationRowView
	CSRFToken string
	// Error is a refused create's message; Name the name typed.
	Error, Name string
}

// AdminOrganizationRowView is one organization; ToggleURL switches its API access.
type AdminOrganizationRowView struct {
	ID, Name, URL, ToggleURL string
	APIEnabled               bool
	Users, Tokens            int
}

// AdminOrganizationView is one organization's page: its users and API tokens.
type AdminOrganizationView struct {
	ID, Name   string
	APIEnabled bool
	ToggleURL  string
	CSRFToken  string
	Users      []AdminUserRowView
	Tokens     []AdminTokenRowView
	// NewToken is a token just created, shown this once.
	NewToken, NewTokenName string
	// UserError and TokenError are a refused form's messages.
	UserError, TokenError string
	UsersURL, TokensURL   string
	// Webhooks are the organization's endpoints; WebhookEvents the choices
	// of the form; NewWebhookSecret an endpoint's secret, shown once.
	Webhooks                        []AdminWebhookRowView
	WebhooksURL                     string
	WebhookEvents                   []string
	NewWebhookSecret, NewWebhookURL string
	WebhookError                    string
	// NewWebhookRotated says NewWebhookSecret replaced an endpoint's secret.
	NewWebhookRotated bool
}

// AdminWebhookRowView is one webhook endpoint of an organization.
type AdminWebhookRowView struct {
	ID, URL, Events, Description, Created, DeleteURL string
	// RotateURL receives the "Rotate secret" form.
	RotateURL string
}

// AdminOutboxView is the console's list of outgoing messages.
type AdminOutboxView struct {
	Filters   []AdminFilterView
	Status    string
	Rows      []AdminMessageRowView
	OlderURL  string
	CSRFToken string
}

// AdminFilterView is one status filter with its count.
type AdminFilterView struct {
	Label   string
	Count   int64
	URL     string
	Current bool
}

// AdminMessageRowView is one outgoing e-mail or webhook call; RetryURL is
// set for a dead or held one.
type AdminMessageRowView struct {
	ID, Organization, KindLabel, Recipient, Event, Subject, Status string
	Attempts                                                       int
	LastError, Created, CreatedISO, NextTry, NextTryISO            string
	TransactionURL, RetryURL                                       string
}

// AdminUserRowView is one user; DisableURL is set while the user is enabled.
type AdminUserRowView struct {
	ID, Name, Email, Role, Status, DisableURL string
}

// AdminTokenRowView is one API token; RevokeURL is set while it is live.
type AdminTokenRowView struct {
	ID, Name, Created, LastUsed, Status, RevokeURL string
}
