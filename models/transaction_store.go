package models

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"strings"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// batchRows is how many rows one INSERT carries: under PostgreSQL's
// bind-parameter limit, and small on SQLite, whose pure-Go driver binds
// parameters in time quadratic in their number per statement.
func (s *Store) batchRows() int {
	if s.dialect == DialectSQLite {
		return 50
	}
	return 1000
}

// Actor describes an API caller for the history (Via "api"; MCP's tools
// set "mcp").
func (p *Principal) Actor() Actor {
	return Actor{OrganizationID: p.Organization.ID, TokenID: &p.Token.ID, Kind: HistoryActorAPIToken,
		ID: formatInt(p.Token.ID), Name: p.Token.Name, Via: "api"}
}

// AuditActor names an API caller in the audit trail: its token, the
// channel it came through ("api", "mcp") and its client address.
func (p *Principal) AuditActor(via, address string) AuditActor {
	return AuditActor{Kind: AuditActorAPIToken, ID: formatInt(p.Token.ID), Name: p.Token.Name, Via: via, Address: address}
}

// prepareTransaction runs the checks that need the store (400 first, then
// 422) and builds the rows to write; nothing is written.
func (s *Store) prepareTransaction(ctx context.Context, actor Actor, id string, in *TransactionInput) (*Transaction, error) {
	if err := s.checkSettings(in); err != nil {
		return nil, err // before the documents are read: a 400 costs no query
	}
	docs, err := s.FindDocumentsByRef(ctx, actor.OrganizationID, DocumentRefs(in))
	if err != nil {
		return nil, err
	}
	if err := s.expandAnchors(ctx, in, docs); err != nil {
		return nil, err
	}
	used, err := s.expandTemplates(ctx, actor.OrganizationID, in, docs)
	if err != nil {
		return nil, err
	}
	t, err := s.BuildTransaction(id, actor.OrganizationID, in, docs)
	if err != nil {
		return nil, err
	}
	t.templatesUsed = used
	t.storedDocs = make(map[string]*Document, len(docs))
	for _, d := range docs {
		t.storedDocs[d.ID] = d
	}
	return t, nil
}

// BuildTransaction is the part of a create or replace that needs no database:
// it checks a parsed request against the documents its references name (docs,
// as FindDocumentsByRef returns them) and the service's settings, and builds
// the rows to write, XFDF included. Nothing is written.
func (s *Store) BuildTransaction(id string, orgID int64, in *TransactionInput, docs map[string]*Document) (*Transaction, error) {
	if err := s.checkSettings(in); err != nil {
		return nil, err
	}
	var unprocessable Problems
	if in.ID != nil && *in.ID != id {
		unprocessable.Add("#/id", "id_mismatch", "problem.tx.id_mismatch", "id", Quoted(truncateForDetail(*in.ID)))
	}
	checkReferences(&unprocessable, in, docs)
	if err := unprocessable.Err(KindUnprocessable, "problem.summary.tx_unprocessable"); err != nil {
		return nil, err
	}
	return s.buildTransaction(id, orgID, in, docs)
}

// CreateTransaction stores a new transaction from a checked request.
func (s *Store) CreateTransaction(ctx context.Context, actor Actor, in *TransactionInput) (*Transaction, error) {
	uid, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	id := uid.String()
	if in.ID != nil {
		return nil, Invalid("#/id", "read_only", "problem.tx.id_read_only")
	}
	t, err := s.prepareTransaction(ctx, actor, id, in)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	t.Version, t.CreatedAt, t.UpdatedAt = 1, now, now
	err = s.inTx(ctx, func(tx *Store) error {
		if err := tx.requirePasswords(ctx, t, nil); err != nil {
			return err
		}
		var b writeBatch
		addRows(&b, 1, "transactions", transactionColumns(), []Transaction{*t}, transactionValues)
		tx.addChildren(&b, t)
		if err := tx.addTemplateUses(ctx, &b, t); err != nil {
			return err
		}
		if err := tx.addEvent(ctx, &b, t, actor, CreatedSummary{
			Status: t.Status, Documents: t.DocumentCount, Tags: t.TagCount, Participants: t.ParticipantCount,
		}); err != nil {
			return err
		}
		if err := tx.execBatch(ctx, &b); err != nil {
			return err
		}
		return tx.queueTransactionMessages(ctx, actor, nil, t)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// ReplaceTransaction replaces a transaction's fields, documents, tags and
// participants with a checked request, as one database transaction: the
// result is exactly this request, and on any failure nothing changes.
// ifMatch, when not empty, must match the current ETag (else
// ErrPreconditionFailed). Concurrent replaces of one transaction take turns.
func (s *Store) ReplaceTransaction(ctx context.Context, actor Actor, id string, in *TransactionInput, ifMatch string) (*Transaction, error) {
	t, err := s.prepareTransaction(ctx, actor, id, in)
	if err != nil {
		// An unknown id answers 404 rather than the body's problems.
		if _, rowErr := s.getTransactionRow(ctx, s.db, actor.OrganizationID, id); errors.Is(rowErr, ErrNotFound) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	err = s.inTx(ctx, func(tx *Store) error {
		old, err := tx.lockTransaction(ctx, actor.OrganizationID, id)
		if err != nil {
			return err
		}
		if ifMatch != "" && !etagMatches(ifMatch, old.ETag()) {
			return ErrPreconditionFailed
		}
		return tx.writeReplacement(ctx, actor, old, t, "")
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// writeReplacement swaps the stored rows of old for t (inside the caller's
// database transaction, with old locked), records the history (with reason,
// ReplacedSummary.Reason: "" for an edit) and queues the messages the change
// causes (webhook events, extra among them; invitations).
func (s *Store) writeReplacement(ctx context.Context, actor Actor, old, t *Transaction, reason string, extra ...transactionWebhook) error {
	if err := s.requirePasswords(ctx, t, old); err != nil {
		return err
	}
	t.Version, t.CreatedAt, t.UpdatedAt = old.Version+1, old.CreatedAt, s.Now()
	carryTagVersions(old, t)
	// The deletes go first, on their own: the inserts that follow reuse
	// their keys, and the parts of one statement see one snapshot. The
	// history names who and what changed, from the rows they delete.
	if err := s.deleteReplacedChildren(ctx, old); err != nil {
		return err
	}
	var b writeBatch
	b.add(`UPDATE transactions SET reference_id = ?, status = ?, signing_order = ?, personalized_message = ?,
	invite_email_subject = ?, notify_email = ?, has_notify = ?, evault = ?, send_final_enote_to = ?, version = ?,
	document_count = ?, tag_count = ?, participant_count = ?, updated_at = ? WHERE id = ?`,
		t.ReferenceID, t.Status, t.SigningOrder, t.PersonalizedMessage, t.InviteEmailSubject, t.NotifyEmail, t.HasNotify,
		t.EVault, t.SendFinalEnoteTo, t.Version, t.DocumentCount, t.TagCount, t.ParticipantCount, t.UpdatedAt, t.ID)
	s.addChildren(&b, t)
	if err := s.addTemplateUses(ctx, &b, t); err != nil {
		return err
	}
	summary := ReplacedSummary{
		Documents:    Count{Before: old.DocumentCount, After: t.DocumentCount},
		Tags:         Count{Before: old.TagCount, After: t.TagCount},
		Participants: Count{Before: old.ParticipantCount, After: t.ParticipantCount},
		Reason:       reason,
		Version:      t.Version,
	}
	describeReplace(&summary, old, t)
	if err := s.addEvent(ctx, &b, t, actor, summary); err != nil {
		return err
	}
	if old.Status != t.Status {
		if err := s.addEvent(ctx, &b, t, actor, StatusChangedSummary{From: old.Status, To: t.Status}); err != nil {
			return err
		}
	}
	if err := s.execBatch(ctx, &b); err != nil {
		return err
	}
	return s.queueTransactionMessages(ctx, actor, old, t, extra...)
}

// deleteChildren deletes a transaction's tags, participants and documents:
// one statement on PostgreSQL (data-modifying CTEs, one round trip instead
// of three), three on SQLite, which has no such CTEs and no round trips.
func (s *Store) deleteChildren(ctx context.Context, id string) error {
	pool := s.db.Statement.ConnPool
	if s.dialect == DialectPostgres {
		_, err := pool.ExecContext(ctx, `WITH tags AS (DELETE FROM transaction_tags WHERE transaction_id = $1),
	participants AS (DELETE FROM transaction_participants WHERE transaction_id = $1)
DELETE FROM transaction_documents WHERE transaction_id = $1`, id)
		return mapDBError(err)
	}
	for _, table := range []string{"transaction_tags", "transaction_participants", "transaction_documents"} {
		if _, err := pool.ExecContext(ctx, "DELETE FROM "+table+" WHERE transaction_id = ?", id); err != nil {
			return mapDBError(err)
		}
	}
	return nil
}

// lockTransaction reads the transaction row and holds it until the database
// transaction ends (SELECT … FOR UPDATE on PostgreSQL; SQLite's IMMEDIATE
// transactions already serialize writers).
func (s *Store) lockTransaction(ctx context.Context, orgID int64, id string) (*Transaction, error) {
	if s.dialect == DialectPostgres {
		return s.scanTransactionRow(ctx, orgID, id, " FOR UPDATE")
	}
	return s.getTransactionRow(ctx, s.db, orgID, id)
}

// transactionRowSQL reads one transaction row by id and organization, its
// columns in the order of transactionColumns.
var transactionRowSQL = "SELECT " + strings.Join(transactionColumns(), ", ") +
	" FROM transactions WHERE id = $1 AND organization_id = $2"

// scanTransactionRow reads a transaction row on PostgreSQL straight from the
// connection (every replace locks one: GORM's reflection was a tenth of
// its CPU), suffix ending the statement (" FOR UPDATE" or "").
func (s *Store) scanTransactionRow(ctx context.Context, orgID int64, id, suffix string) (*Transaction, error) {
	var t Transaction
	err := s.db.Statement.ConnPool.QueryRowContext(ctx, transactionRowSQL+suffix, id, orgID).Scan(
		&t.ID, &t.OrganizationID, &t.ReferenceID, &t.Status, &t.SigningOrder, &t.PersonalizedMessage,
		&t.InviteEmailSubject, &t.NotifyEmail, &t.HasNotify, &t.EVault, &t.SendFinalEnoteTo, &t.Version,
		&t.DocumentCount, &t.TagCount, &t.ParticipantCount, &t.CreatedAt, &t.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, mapDBError(err)
	}
	return &t, nil
}

func (s *Store) getTransactionRow(ctx context.Context, q *gorm.DB, orgID int64, id string) (*Transaction, error) {
	var t Transaction
	if err := q.WithContext(ctx).Where("id = ? AND organization_id = ?", id, orgID).Take(&t).Error; err != nil {
		return nil, mapDBError(err)
	}
	return &t, nil
}

// requirePasswords checks that every personal-password participant has a
// password. One omitted from a replace keeps the hash stored for the same
// participant id, since responses never return it.
func (s *Store) requirePasswords(ctx context.Context, t *Transaction, old *Transaction) error {
	var missing []int
	for i, p := range t.Participants {
		if p.AuthenticationType == AuthPersonalPassword && p.PersonalPasswordHash == nil {
			missing = append(missing, i)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	kept := map[string]*string{}
	if old != nil {
		var rows []Participant
		err := s.db.WithContext(ctx).Select("participant_id", "personal_password_hash").
			Where("transaction_id = ? AND personal_password_hash IS NOT NULL", old.ID).Find(&rows).Error
		if err != nil {
			return mapDBError(err)
		}
		for _, r := range rows {
			kept[r.ParticipantID] = r.PersonalPasswordHash
		}
	}
	var p Problems
	for _, i := range missing {
		if h := kept[t.Participants[i].ParticipantID]; h != nil {
			t.Participants[i].PersonalPasswordHash = h
			continue
		}
		p.Add(pointer(pointer("#/participants", i), "personalPassword"), "password_required", "problem.tx.password_required", "type", Quoted(AuthPersonalPassword))
	}
	return p.Err(KindUnprocessable, "problem.summary.tx_unprocessable")
}

// recordEvent writes one entry of t's history; its kind is the summary's.
func (s *Store) recordEvent(ctx context.Context, t *Transaction, actor Actor, summary HistorySummary) error {
	var b writeBatch
	if err := s.addEvent(ctx, &b, t, actor, summary); err != nil {
		return err
	}
	return s.execBatch(ctx, &b)
}

// addEvent adds the INSERT of one entry of t's history to b, and queues
// its audit event (historyAudit) and its rooms' events (historyRoomEvents)
// in the same database transaction: s must
// belong to one (inTx).
func (s *Store) addEvent(ctx context.Context, b *writeBatch, t *Transaction, actor Actor, summary HistorySummary) error {
	if s.pending == nil {
		return errors.New("models: a history entry outside a database transaction")
	}
	if err := s.auditNamed(ctx, historyAudit(t, actor, summary), actor.Label()); err != nil {
		return err
	}
	s.historyRoomEvents(ctx, t, summary)
	uid, err := uuid.NewV7()
	if err != nil {
		return err
	}
	data, err := json.Marshal(summary)
	if err != nil {
		return err
	}
	ev := TransactionEvent{
		ID: uid.String(), TransactionID: t.ID, OrganizationID: t.OrganizationID, Kind: summary.Kind(), Actor: actor.Label(),
		ActorKind: actor.Kind, ActorID: actor.ID, ActorName: actor.Name, ActorVia: actor.Via, ActorFor: actor.For,
		ActorSession: actor.Session, ActorAddress: actor.Address,
		TokenID: actor.TokenID, UserID: actor.UserID, Summary: data, CreatedAt: s.Now(),
	}
	addRows(b, 1, "transaction_events", eventColumns(), []TransactionEvent{ev}, eventValues)
	return nil
}

// etagMatches implements If-Match's strong comparison against one current tag.
func etagMatches(header, current string) bool {
	for _, part := range strings.Split(header, ",") {
		part = strings.TrimSpace(part)
		if part == "*" || part == current {
			return true
		}
	}
	return false
}

// GetTransaction reads a whole transaction with four queries, whatever its size.
func (s *Store) GetTransaction(ctx context.Context, orgID int64, id string) (*Transaction, error) {
	t, err := s.getTransactionRow(ctx, s.db, orgID, id)
	if err != nil {
		return nil, err
	}
	return t, s.loadChildren(ctx, t)
}

// loadChildren reads a transaction row's documents, tags and participants (three queries).
func (s *Store) loadChildren(ctx context.Context, t *Transaction) error {
	db := s.db.WithContext(ctx)
	if err := db.Where("transaction_id = ?", t.ID).Order("position").Find(&t.Documents).Error; err != nil {
		return mapDBError(err)
	}
	tags, err := s.queryTags(ctx, "transaction_id = ? ORDER BY document_position, position", t.ID)
	if err != nil {
		return err
	}
	if err := db.Where("transaction_id = ?", t.ID).Order("position").Find(&t.Participants).Error; err != nil {
		return mapDBError(err)
	}
	attachTags(t, tags)
	return nil
}

// attachTags hands each document its tags (tags arrive ordered by document, then position).
func attachTags(t *Transaction, tags []Tag) {
	byDoc := make(map[int]int, len(t.Documents))
	for i := range t.Documents {
		byDoc[t.Documents[i].Position] = i
		t.Documents[i].Tags = []Tag{}
	}
	for _, tag := range tags {
		if i, ok := byDoc[tag.DocumentPosition]; ok {
			t.Documents[i].Tags = append(t.Documents[i].Tags, tag)
		}
	}
}

// GetTransactionXFDF returns the merged XFDF of one document of a transaction,
// found by the document's upload id or its position ("0", "1", …).
func (s *Store) GetTransactionXFDF(ctx context.Context, orgID int64, txID, documentID string) (string, *TransactionDocument, error) {
	if _, err := s.getTransactionRow(ctx, s.db, orgID, txID); err != nil {
		return "", nil, err
	}
	var docs []TransactionDocument
	if err := s.db.WithContext(ctx).Where("transaction_id = ? AND document_id = ?", txID, documentID).Order("position").Limit(1).Find(&docs).Error; err != nil {
		return "", nil, mapDBError(err)
	}
	if len(docs) == 0 {
		return "", nil, ErrNotFound
	}
	return docs[0].XFDF, &docs[0], nil
}

// ListTransactionEvents returns a transaction's history, oldest first.
func (s *Store) ListTransactionEvents(ctx context.Context, orgID int64, txID string) ([]TransactionEvent, error) {
	var out []TransactionEvent
	err := s.db.WithContext(ctx).Where("transaction_id = ? AND organization_id = ?", txID, orgID).Order("created_at, id").Find(&out).Error
	return out, mapDBError(err)
}
