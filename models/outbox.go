package models

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	mathrand "math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/markuproom/markuproom/models/secret"
	"github.com/markuproom/markuproom/web/i18n"
)

// Message kinds.
const (
	MessageEmail   = "email"
	MessageWebhook = "webhook"
)

// MessageStatus is where an outgoing message stands. A pending message is due
// at NextAttemptAt; a worker that claims it holds a lease until LeaseUntil (a
// crashed worker's rows come back when the lease runs out).
type MessageStatus string

// Message statuses stored in the outbox.
const (
	MessagePending MessageStatus = "pending"
	MessageSent    MessageStatus = "sent"
	MessageHeld    MessageStatus = "held" // no SMTP server configured: logged, kept for a retry
	MessageDead    MessageStatus = "dead" // out of attempts, or refused for good
)

// MessageSending is never stored: a pending message whose lease has not run
// out is being sent (OutboxMessage.StatusAt).
const MessageSending MessageStatus = "sending"

// MessageStatuses lists every stored message status, in the order the console shows them.
func MessageStatuses() []MessageStatus {
	return []MessageStatus{MessagePending, MessageSent, MessageHeld, MessageDead}
}

// EventInvitation is the outbox event of an invitation e-mail.
const EventInvitation = "invitation"

// EventInvitationsQueued is the history kind recorded when invitations are queued.
const EventInvitationsQueued = "invitations_queued"

// OutboxMessage is one outgoing e-mail or webhook call. It is written in the
// same database transaction as the change that causes it, so a rolled-back
// change sends nothing and a committed one is never forgotten.
type OutboxMessage struct {
	ID             string  `gorm:"column:id;primaryKey"`
	OrganizationID int64   `gorm:"column:organization_id"`
	TransactionID  *string `gorm:"column:transaction_id"`
	EndpointID     *string `gorm:"column:endpoint_id"`
	Kind           string  `gorm:"column:kind"`
	Event          string  `gorm:"column:event"`
	Recipient      string  `gorm:"column:recipient"` // an e-mail address or an endpoint URL
	// Subject is an e-mail's subject as its caller gave it ("" for the
	// default, said in Language); Language an invitation's language.
	Subject       string        `gorm:"column:subject"`
	Language      string        `gorm:"column:language"`
	Payload       RawJSON       `gorm:"column:payload"` // an Invitation, or the webhook event body
	Status        MessageStatus `gorm:"column:status"`
	Attempts      int           `gorm:"column:attempts"`
	LastError     string        `gorm:"column:last_error"`
	NextAttemptAt time.Time     `gorm:"column:next_attempt_at"`
	LeaseUntil    *time.Time    `gorm:"column:lease_until"`
	LeaseToken    string        `gorm:"column:lease_token"`
	SentAt        *time.Time    `gorm:"column:sent_at"`
	CreatedAt     time.Time     `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt     time.Time     `gorm:"column:updated_at;autoUpdateTime:false"`
}

// TableName implements gorm's tabler.
func (OutboxMessage) TableName() string { return "outbox" }

// StatusAt is the message's status as the console shows it at now: a pending
// message under a lease that has not run out is MessageSending.
func (m *OutboxMessage) StatusAt(now time.Time) MessageStatus {
	if m.Status == MessagePending && m.LeaseUntil != nil && m.LeaseUntil.After(now) {
		return MessageSending
	}
	return m.Status
}

// Invitation is the payload of an invitation e-mail: everything the message
// says, fixed when the change that caused it commits.
type Invitation struct {
	To   string `json:"to"`
	Name string `json:"name"`
	// Subject is the subject the caller gave; "" for the default, which the
	// mail and the console say in Language.
	Subject       string   `json:"subject"`
	Organization  string   `json:"organization"`
	Message       string   `json:"message,omitempty"`
	Documents     []string `json:"documents"`
	TransactionID string   `json:"transactionId"`
	ReferenceID   string   `json:"referenceId,omitempty"`
	// Language is the tag of the e-mail's language, fixed when it is queued:
	// the participant's locale, else the room's, else English ("" in
	// messages queued before languages: English).
	Language string `json:"language,omitempty"`
}

// HeaderText makes s safe for a mail header: control characters (CR and LF
// among them) become spaces, runs of spaces one space.
func HeaderText(s string) string {
	s = strings.Map(func(r rune) rune {
		if isControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// isControl reports C0 and C1 control characters (CR, LF, tab among them),
// DEL, and the Unicode line and paragraph separators.
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029'
}

// newMessage is a pending message due now.
func (s *Store) newMessage(orgID int64, txID *string, kind, event, recipient string, payload []byte) (*OutboxMessage, error) {
	uid, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	now := s.Now()
	return &OutboxMessage{
		ID: uid.String(), OrganizationID: orgID, TransactionID: txID, Kind: kind, Event: event,
		Recipient: recipient, Payload: payload, Status: MessagePending, NextAttemptAt: now,
		CreatedAt: now, UpdatedAt: now,
	}, nil
}

// transactionWebhook makes the data of an extra webhook event of a
// transaction change from the transaction as changed.
type transactionWebhook func(t *Transaction) WebhookData

// queueTransactionMessages writes, inside the caller's database transaction,
// what a transaction change causes: webhook events (transaction.updated for
// a change of an existing one, transaction.esign_pending when it becomes
// esign_pending, and extra, such as a room's completion, made from the
// transaction) and invitations
// when it becomes esign_pending with e-mail notification asked for, and
// counts a creation and a send for the overview (metric_rollups). old is
// nil for a new transaction. The endpoints are read once, and only when an
// event is due.
func (s *Store) queueTransactionMessages(ctx context.Context, actor Actor, old, t *Transaction, extra ...transactionWebhook) error {
	becamePending := t.Status == StatusESignPending && (old == nil || old.Status != StatusESignPending)
	if err := s.countTransactionChange(ctx, t.OrganizationID, old == nil, becamePending); err != nil {
		return err
	}
	fields := TransactionWebhookFields{TransactionID: t.ID, ReferenceID: t.ReferenceID, Status: t.Status, Version: t.Version}
	var events []WebhookData
	if old != nil {
		events = append(events, TransactionUpdatedData{fields})
	}
	if becamePending {
		events = append(events, TransactionESignPendingData{fields})
	}
	for _, e := range extra {
		events = append(events, e(t))
	}
	if len(events) > 0 {
		hooks, err := s.ListWebhooks(ctx, t.OrganizationID)
		if err != nil {
			return err
		}
		for _, e := range events {
			if err := s.queueEvent(ctx, hooks, &t.ID, e); err != nil {
				return err
			}
		}
	}
	if !becamePending || t.NotifyEmail == nil || !*t.NotifyEmail {
		return nil
	}
	return s.queueInvitations(ctx, actor, t)
}

// queueInvitations queues one invitation per participant and records it in the history.
func (s *Store) queueInvitations(ctx context.Context, actor Actor, t *Transaction) error {
	var org Organization
	if err := s.db.WithContext(ctx).Select("name").First(&org, t.OrganizationID).Error; err != nil {
		return mapDBError(err)
	}
	// A subject the caller gave stays as given; the default one (stored as
	// NULL, inviteSubject) stays "" here, and the mail says it in the
	// invitation's language when it is written (docs/words.md).
	subject := ""
	if t.InviteEmailSubject != nil {
		subject = *t.InviteEmailSubject
	}
	roomLocale, err := s.transactionRoomLocale(ctx, t.ID)
	if err != nil {
		return err
	}
	docs := make([]string, len(t.Documents))
	for i, d := range t.Documents {
		docs[i] = d.Title
	}
	var recipients []string
	var rows []*OutboxMessage
	for i := range t.Participants {
		p := &t.Participants[i]
		lang := invitationLanguage(p.Locale, roomLocale)
		inv := Invitation{
			To: p.Email, Name: HeaderText(p.FullName()), Subject: HeaderText(subject), Organization: org.Name,
			Documents: docs, TransactionID: t.ID, ReferenceID: t.ReferenceID, Language: lang.Tag,
		}
		if t.PersonalizedMessage != nil {
			inv.Message = *t.PersonalizedMessage
		}
		b, err := json.Marshal(inv)
		if err != nil {
			return err
		}
		m, err := s.newMessage(t.OrganizationID, &t.ID, MessageEmail, EventInvitation, p.Email, b)
		if err != nil {
			return err
		}
		m.Subject, m.Language = inv.Subject, inv.Language
		rows = append(rows, m)
		recipients = append(recipients, p.Email)
	}
	if len(rows) == 0 {
		return nil
	}
	if err := s.db.WithContext(ctx).Create(rows).Error; err != nil {
		return mapDBError(err)
	}
	return s.recordEvent(ctx, t, actor, InvitationsQueuedSummary{Count: len(rows), Recipients: recipients})
}

// transactionRoomLocale reads the locale of the Markup Room that edits the
// transaction ("" for none, or for a transaction without a room).
func (s *Store) transactionRoomLocale(ctx context.Context, transactionID string) (string, error) {
	return s.roomLocaleWhere(ctx, "transaction_id = ?", transactionID)
}

// invitationLanguage is the language of a participant's invitation: the
// participant's locale, else the room's, else English (docs/i18n.md).
func invitationLanguage(participant *string, room string) i18n.Language {
	if participant != nil {
		if l, ok := i18n.Lookup(*participant); ok {
			return l
		}
	}
	if l, ok := i18n.Lookup(room); ok {
		return l
	}
	return i18n.Fallback()
}

// ClaimMessages leases up to limit due messages to one worker for lease. On
// PostgreSQL the rows are picked with FOR UPDATE SKIP LOCKED, so workers on
// several instances never claim the same row; SQLite serializes writers. The
// attempt is counted at the claim, so a message that crashes its worker
// still runs out of attempts.
func (s *Store) ClaimMessages(ctx context.Context, limit int, lease time.Duration) ([]OutboxMessage, error) {
	now := s.Now()
	token, err := secret.RandomHex(16)
	if err != nil {
		return nil, err
	}
	lock := ""
	if s.dialect == DialectPostgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	q := `UPDATE outbox SET lease_until = ?, lease_token = ?, attempts = attempts + 1, updated_at = ?
WHERE id IN (SELECT id FROM outbox WHERE status = ? AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)
ORDER BY next_attempt_at, id LIMIT ?` + lock + `) RETURNING *`
	var rows []OutboxMessage
	err = s.db.WithContext(ctx).Raw(q, now.Add(lease), token, now, MessagePending, now, now, limit).Scan(&rows).Error
	return rows, mapDBError(err)
}

// Outcome is what became of one send.
type Outcome struct {
	// Err is nil when the message was delivered.
	Err error
	// Permanent marks a refusal that a retry cannot fix (the message goes dead at once).
	Permanent bool
	// Held marks an e-mail kept back because no SMTP server is configured.
	Held bool
}

// RetryPolicy spaces out attempts: Base·2^(n−1), at most Max, each spread by
// ±50 % jitter so that failed messages do not come back in step; after
// Attempts tries a message is dead.
type RetryPolicy struct {
	Base     time.Duration
	Max      time.Duration
	Attempts int
	// Jitter returns a number in [0, 1) and is safe for concurrent use
	// (NewJitter); nil spreads nothing (every delay is exactly Base·2^(n−1)).
	Jitter func() float64
}

// DefaultRetryPolicy retries for about four hours: 30 s, 1 min, 2 min … up to
// 1 h, 10 tries. It has no Jitter: the caller passes its random source.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{Base: 30 * time.Second, Max: time.Hour, Attempts: 10}
}

// NewJitter makes a RetryPolicy.Jitter from a random source, safe for the
// worker's concurrent sends.
func NewJitter(src mathrand.Source) func() float64 {
	r := mathrand.New(src)
	var mu sync.Mutex
	return func() float64 {
		mu.Lock()
		defer mu.Unlock()
		return r.Float64()
	}
}

// Delay is the wait before the attempt after the n-th (1-based) failed one.
func (p RetryPolicy) Delay(n int) time.Duration {
	d := float64(p.Base) * math.Pow(2, float64(max(n-1, 0)))
	d = min(d, float64(p.Max))
	spread := 0.5
	if p.Jitter != nil {
		spread = p.Jitter()
	}
	return time.Duration(d * (0.5 + spread))
}

// Next is the status an attempt's outcome leaves a message in, after its
// attempts-th try: sent, held, dead (refused for good or out of attempts) or
// pending again for a retry — the one rule for when a message is given up on.
func (p RetryPolicy) Next(out Outcome, attempts int) MessageStatus {
	switch {
	case out.Err == nil:
		return MessageSent
	case out.Held:
		return MessageHeld
	case out.Permanent || attempts >= p.Attempts:
		return MessageDead
	default:
		return MessagePending
	}
}

// ReleaseMessage returns a claimed message that was never sent to the queue
// (the worker is stopping); the attempt it was claimed for is not counted.
func (s *Store) ReleaseMessage(ctx context.Context, m *OutboxMessage) error {
	return mapDBError(s.db.WithContext(ctx).Model(&OutboxMessage{}).Where("id = ? AND lease_token = ?", m.ID, m.LeaseToken).
		Updates(map[string]any{"lease_until": nil, "lease_token": "", "attempts": max(m.Attempts-1, 0), "updated_at": s.Now()}).Error)
}

// RetryMessage puts a dead or held message back in the queue, due now, with
// its attempts counted afresh. Other statuses answer ErrConflict.
func (s *Store) RetryMessage(ctx context.Context, id string) (*OutboxMessage, error) {
	var m OutboxMessage
	err := s.audited(ctx, ActivityRetry, func(tx *Store) (string, error) {
		now := tx.Now()
		res := tx.db.WithContext(ctx).Model(&OutboxMessage{}).Where("id = ? AND status IN ?", id, []MessageStatus{MessageDead, MessageHeld}).
			Updates(map[string]any{"status": MessagePending, "attempts": 0, "next_attempt_at": now, "updated_at": now})
		if res.Error != nil {
			return "", mapDBError(res.Error)
		}
		if err := tx.db.WithContext(ctx).First(&m, "id = ?", id).Error; err != nil {
			return "", mapDBError(err)
		}
		if res.RowsAffected == 0 {
			return "", ErrConflict
		}
		e := AuditEntry{OrganizationID: m.OrganizationID, Action: "outbox.retried", TargetType: "outbox_message", TargetID: m.ID,
			Summary: "Queued the " + m.Kind + " to " + m.Recipient + " again"}
		if m.TransactionID != nil {
			e.TransactionID = *m.TransactionID
		}
		return m.Kind + " " + m.ID + " to " + m.Recipient, tx.audit(ctx, e)
	})
	switch {
	case errors.Is(err, ErrConflict):
		return &m, err
	case err != nil:
		return nil, err
	}
	return &m, nil
}

// MessageFilter selects outgoing messages for the console.
type MessageFilter struct {
	Status        MessageStatus
	Kind          string
	TransactionID string
	// Before pages backwards: only messages created before this one.
	Before string
	Limit  int
}

// ListMessages lists outgoing messages, newest first.
func (s *Store) ListMessages(ctx context.Context, f MessageFilter) ([]OutboxMessage, error) {
	if f.Status != "" && !slices.Contains(MessageStatuses(), f.Status) {
		names := make([]string, 0, 4)
		for _, st := range MessageStatuses() {
			names = append(names, string(st))
		}
		return nil, Invalid("query:status", "invalid_enum", "problem.list.status_one_of", "allowed", strings.Join(names, ", "))
	}
	q := s.db.WithContext(ctx).Model(&OutboxMessage{}).Omit("payload")
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	if f.Kind != "" {
		q = q.Where("kind = ?", f.Kind)
	}
	if f.TransactionID != "" {
		q = q.Where("transaction_id = ?", f.TransactionID)
	}
	if f.Before != "" {
		q = q.Where("id < ?", f.Before)
	}
	limit := f.Limit
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	var rows []OutboxMessage
	err := q.Order("id DESC").Limit(limit).Find(&rows).Error
	return rows, mapDBError(err)
}

// CountMessages counts messages by status.
func (s *Store) CountMessages(ctx context.Context) (map[MessageStatus]int64, error) {
	var rows []struct {
		Status MessageStatus
		N      int64
	}
	err := s.db.WithContext(ctx).Model(&OutboxMessage{}).Select("status, count(*) AS n").Group("status").Scan(&rows).Error
	out := map[MessageStatus]int64{}
	for _, r := range rows {
		out[r.Status] = r.N
	}
	return out, mapDBError(err)
}

// ResumeHeld puts every held e-mail back in the queue (an SMTP server is
// configured now) and reports how many.
func (s *Store) ResumeHeld(ctx context.Context) (int64, error) {
	now := s.Now()
	res := s.db.WithContext(ctx).Model(&OutboxMessage{}).Where("status = ?", MessageHeld).
		Updates(map[string]any{"status": MessagePending, "attempts": 0, "next_attempt_at": now, "updated_at": now})
	return res.RowsAffected, mapDBError(res.Error)
}
