package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"
)

// Kinds of audit actors: who made a change.
const (
	AuditActorAPIToken = "api_token"
	AuditActorAdmin    = "admin"
	AuditActorRoom     = "room"
	AuditActorOperator = "operator"
)

// AuditActor is who makes the changes of a request or a command, and how
// they came in; handlers and commands put it in the context
// (WithAuditActor), and every audit event written under that context names
// it. ID is the token's, the admin's or the room's id (as text), or the
// operator's login name; Name what a person reads ("Import job", an
// admin's e-mail address, "Sam Sender · Markup Room"); Via the channel
// ("api", "console", "room", "cli", "mcp").
type AuditActor struct {
	Kind    string
	ID      string
	Name    string
	Via     string
	Address string
}

type auditActorKey struct{}

// WithAuditActor returns a context whose audit events name a.
func WithAuditActor(ctx context.Context, a AuditActor) context.Context {
	return context.WithValue(ctx, auditActorKey{}, a)
}

// AuditActorFrom reads the actor WithAuditActor put in ctx. Without one
// the change is the server's own (a background job): kind operator, name
// "markuproom".
func AuditActorFrom(ctx context.Context) AuditActor {
	if a, ok := ctx.Value(auditActorKey{}).(AuditActor); ok {
		return a
	}
	return AuditActor{Kind: AuditActorOperator, Name: "markuproom", Via: "server"}
}

// AuditEntry is what a change tells the audit trail: whose organization it
// belongs to (0: none), the action (a stable dotted word such as
// "transaction.replaced"), the target, the transaction it concerns (for the
// transaction's own trail) and a summary a person reads.
type AuditEntry struct {
	OrganizationID int64
	Action         string
	TargetType     string
	TargetID       string
	TransactionID  string
	Summary        string
}

// AuditEvent is one stored row of the audit trail. Seq numbers the events
// of one organization from 1; Hash is a SHA-256 over the row's content and
// PrevHash, the hash of the organization's previous event (auditGenesis for
// the first). The three are set by the sealer after the event's change
// commits; until then they are NULL in the table and zero here (Sealed).
type AuditEvent struct {
	ID             int64     `gorm:"column:id;primaryKey"`
	OrganizationID int64     `gorm:"column:organization_id"`
	Seq            int64     `gorm:"column:seq"`
	At             time.Time `gorm:"column:at"`
	ActorKind      string    `gorm:"column:actor_kind"`
	ActorID        string    `gorm:"column:actor_id"`
	ActorName      string    `gorm:"column:actor_name"`
	Via            string    `gorm:"column:via"`
	ClientAddr     string    `gorm:"column:client_addr"`
	Action         string    `gorm:"column:action"`
	TargetType     string    `gorm:"column:target_type"`
	TargetID       string    `gorm:"column:target_id"`
	TransactionID  string    `gorm:"column:transaction_id"`
	Summary        string    `gorm:"column:summary"`
	PrevHash       string    `gorm:"column:prev_hash"`
	Hash           string    `gorm:"column:hash"`
}

// TableName implements gorm's tabler.
func (AuditEvent) TableName() string { return "audit_events" }

// Sealed reports whether the sealer has chained the event (seq and hash
// set); an unsealed one is not covered by the chain yet.
func (e *AuditEvent) Sealed() bool { return e.Seq != 0 && e.Hash != "" }

// auditGenesis is the previous hash of an organization's first event.
const auditGenesis = "0000000000000000000000000000000000000000000000000000000000000000"

// auditTimeLayout is the canonical form of an event's time in its hash:
// UTC, microseconds (what both databases keep).
const auditTimeLayout = "2006-01-02T15:04:05.000000Z"

// ComputeHash is the SHA-256, in hex, of the event's canonical content: a
// JSON array of its fields in a fixed order, PrevHash last. The row's id is
// not part of it (the database assigns it); Seq is.
func (e *AuditEvent) ComputeHash() string {
	canonical, _ := json.Marshal([]string{
		"markuproom-audit-v1",
		strconv.FormatInt(e.OrganizationID, 10), strconv.FormatInt(e.Seq, 10),
		e.At.UTC().Truncate(time.Microsecond).Format(auditTimeLayout),
		e.ActorKind, e.ActorID, e.ActorName, e.Via, e.ClientAddr,
		e.Action, e.TargetType, e.TargetID, e.TransactionID, e.Summary,
		e.PrevHash,
	})
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}
