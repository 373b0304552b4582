package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markuproom/markuproom/models"
)

// The raw-pgx baseline of scenario A (issue 38): pgx writing the rows a
// replace writes and nothing else. Per request it reads the body (and does
// not parse it), then in one database transaction sends the same
// statements the product's replace ends in, one at a time: the
// transaction's UPDATE (which takes its row lock), the children's DELETE,
// one multi-row INSERT each of documents, tags and participants, the
// history entry and the audit event (unsealed, as the product writes it:
// the sealer chains it afterwards); then it answers 201 with no body. No
// token check, no JSON, no validation, no XFDF: the rows were built once,
// when the baseline was set up, from the same body. Its throughput is the
// physical limit the product is measured against (docs/benchmarks.md).

// rawStmt is one prepared-once INSERT: its SQL and arguments.
type rawStmt struct {
	sql  string
	args []any
}

// rawRows are the rows one transaction's replace writes, built once.
type rawRows struct {
	t       *models.Transaction
	inserts []rawStmt
	summary string // the history entry's summary (JSON)
	audit   string // the audit event's summary
	tokenID int64
	actor   models.Actor
}

// rawReplace is scenario A's raw-pgx baseline.
type rawReplace struct {
	pool  *pgxpool.Pool
	orgID int64
	byID  map[string]*rawRows
}

// newRawReplace builds the rows of a replace of each of ids with body, as
// the product would (models.ParseTransactionInput, Store.BuildTransaction),
// once, before the load.
func newRawReplace(ctx context.Context, same sameWork, p *productEnv, body []byte, ids []string) (*rawReplace, error) {
	h := &rawReplace{pool: same.pool, orgID: p.org.ID, byID: make(map[string]*rawRows, len(ids))}
	in, err := models.ParseTransactionInput(body)
	if err != nil {
		return nil, err
	}
	docs, err := same.documents(ctx, p.org.ID, models.DocumentRefs(in))
	if err != nil {
		return nil, err
	}
	actor := p.actor
	for _, id := range ids {
		t, err := same.store.BuildTransaction(id, p.org.ID, in, docs)
		if err != nil {
			return nil, err
		}
		r := &rawRows{t: t, tokenID: p.tokenID, actor: actor}
		rows := models.ChildRows(t)
		cols := models.BulkInsertColumns()
		for _, table := range []string{"transaction_documents", "transaction_tags", "transaction_participants"} {
			r.inserts = append(r.inserts, rawInsert(table, cols[table], rows[table]))
		}
		r.summary = fmt.Sprintf(`{"documents":{"before":%d,"after":%d},"participants":{"before":%d,"after":%d},"tags":{"before":%d,"after":%d},"version":0}`,
			t.DocumentCount, t.DocumentCount, t.ParticipantCount, t.ParticipantCount, t.TagCount, t.TagCount)
		r.audit = fmt.Sprintf("Replaced the transaction: %d documents, %d participants, %d tags", t.DocumentCount, t.ParticipantCount, t.TagCount)
		h.byID[id] = r
	}
	return h, nil
}

// rawInsert is one multi-row INSERT of rows into table.
func rawInsert(table string, cols []string, rows [][]any) rawStmt {
	var sb strings.Builder
	sb.WriteString("INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES ")
	var args []any
	n := 1
	for i, row := range rows {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteByte('(')
		for j := range cols {
			if j > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString("$" + strconv.Itoa(n))
			n++
		}
		sb.WriteByte(')')
		args = append(args, row...)
	}
	return rawStmt{sql: sb.String(), args: args}
}

func (h *rawReplace) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if _, err := io.Copy(io.Discard, r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rows := h.byID[r.PathValue("id")]
	if rows == nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	if err := h.replace(r.Context(), rows); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

// replace writes rows in one database transaction, one statement at a time.
func (h *rawReplace) replace(ctx context.Context, rows *rawRows) error {
	t := rows.t
	tx, err := h.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	now := time.Now().UTC()
	var version int
	err = tx.QueryRow(ctx, `UPDATE transactions SET reference_id = $3, status = $4, signing_order = $5, personalized_message = $6,
		invite_email_subject = $7, notify_email = $8, has_notify = $9, evault = $10, send_final_enote_to = $11, version = version + 1,
		document_count = $12, tag_count = $13, participant_count = $14, updated_at = $15 WHERE id = $1 AND organization_id = $2 RETURNING version`,
		t.ID, h.orgID, t.ReferenceID, t.Status, t.SigningOrder, t.PersonalizedMessage, t.InviteEmailSubject, t.NotifyEmail, t.HasNotify,
		t.EVault, t.SendFinalEnoteTo, t.DocumentCount, t.TagCount, t.ParticipantCount, now).Scan(&version)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `WITH tags AS (DELETE FROM transaction_tags WHERE transaction_id = $1),
	participants AS (DELETE FROM transaction_participants WHERE transaction_id = $1)
DELETE FROM transaction_documents WHERE transaction_id = $1`, t.ID); err != nil {
		return err
	}
	for _, st := range rows.inserts {
		if _, err := tx.Exec(ctx, st.sql, st.args...); err != nil {
			return err
		}
	}
	id, err := uuid.NewV7()
	if err != nil {
		return err
	}
	a := rows.actor
	if _, err := tx.Exec(ctx, `INSERT INTO transaction_events (id, transaction_id, organization_id, kind, actor, actor_kind, actor_id,
		actor_name, actor_via, actor_for, actor_session, actor_address, token_id, user_id, summary, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, NULL, $14, $15)`, id.String(), t.ID, h.orgID, models.EventReplaced,
		a.Label(), a.Kind, a.ID, a.Name, a.Via, a.For, a.Session, a.Address, rows.tokenID, rows.summary, now); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO audit_events (organization_id, at, actor_kind, actor_id, actor_name, via, client_addr,
		action, target_type, target_id, transaction_id, summary)
		VALUES ($1, $2, 'api_token', $3, 'loadbench', 'api', '127.0.0.1', 'transaction.replaced', 'transaction', $4, $4, $5)`,
		h.orgID, now, strconv.FormatInt(rows.tokenID, 10), t.ID, rows.audit); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
