package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markuproom/markuproom/models"
)

// The baselines run on a schema of their own, migrated with the product's
// migrations (so the tables, keys, foreign keys and indexes are the same)
// and holding copies of the product schema's organization, user, token and
// document rows, plus transactions of their own.

// setupBaseline prepares the baseline schema (at baseURL, named base) from
// the product schema (named prod): n transactions created from body and a
// pgx pool of maxConns connections.
func setupBaseline(ctx context.Context, sch *schemas, prod, base, baseURL string, p *productEnv, body []byte, n int, maxConns int32, tracer pgx.QueryTracer) (*pgxpool.Pool, []string, error) {
	db, err := models.OpenDatabase(ctx, models.DatabaseOptions{URL: baseURL})
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		return nil, nil, err
	}
	for _, table := range []string{"organizations", "users", "api_tokens", "documents"} {
		sql := fmt.Sprintf("INSERT INTO %s.%s SELECT * FROM %s.%s", pgx.Identifier{base}.Sanitize(), table, pgx.Identifier{prod}.Sanitize(), table)
		if err := sch.exec(ctx, sql); err != nil {
			return nil, nil, fmt.Errorf("copy %s: %w", table, err)
		}
	}
	store := models.NewStore(db, p.bucket, models.StoreOptions{TempDir: p.tempDir})
	ids, err := createTransactions(ctx, store, p.actor, body, n)
	if err != nil {
		return nil, nil, err
	}
	pool, err := openPool(ctx, baseURL, maxConns, tracer)
	if err != nil {
		return nil, nil, err
	}
	return pool, ids, nil
}

// openPool opens a pgx pool of maxConns connections to url, its statements
// counted by tracer.
func openPool(ctx context.Context, url string, maxConns int32, tracer pgx.QueryTracer) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	cfg.MaxConns = maxConns
	cfg.ConnConfig.Tracer = tracer
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// The same-work baselines do what the product does for a request, with
// none of its frameworks: net/http, pgx (its statement cache, no GORM) and
// the product's own pure functions for everything that is not storage. Per
// request: the API token and its organization in one query and the verifier
// checked (models.APITokenSelector/APITokenMatches), the body parsed and
// validated (models.ParseTransactionInput / ParseRoomInput), the referenced
// documents read in one query, the request checked against them and the rows
// built, XFDF included (Store.BuildTransaction / Store.PlanRoom, which touch
// no database), then the same rows written in one pgx transaction, one
// statement per table, and the same JSON answer encoded. So the ratio of the
// product to its baseline measures what Gin, GORM and the product's glue
// cost, and the round trips the product spends beyond these.

// sameWork holds what both baselines share.
type sameWork struct {
	pool  *pgxpool.Pool
	store *models.Store // for its pure functions only; it never reaches the baseline schema
}

// principal is the calling token as the baselines authenticate it.
type principal struct {
	orgID, tokenID int64
	name           string
}

// actor is the history's actor for the token, as models.Principal.Actor writes it.
func (p principal) actor() models.Actor {
	id := p.tokenID
	return models.Actor{OrganizationID: p.orgID, TokenID: &id, Kind: models.HistoryActorAPIToken,
		ID: strconv.FormatInt(p.tokenID, 10), Name: p.name, Via: "api"}
}

// authenticate checks the bearer token: its row and its organization in one query.
func (b *sameWork) authenticate(r *http.Request) (principal, error) {
	plaintext, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	selector, ok := models.APITokenSelector(plaintext)
	if !ok {
		return principal{}, errUnauthorized
	}
	var p principal
	var hash []byte
	var revoked *time.Time
	var enabled bool
	err := b.pool.QueryRow(r.Context(), `SELECT t.id, t.organization_id, t.name, t.secret_hash, t.revoked_at, o.api_enabled
		FROM api_tokens t JOIN organizations o ON o.id = t.organization_id WHERE t.selector = $1`, selector).
		Scan(&p.tokenID, &p.orgID, &p.name, &hash, &revoked, &enabled)
	if errors.Is(err, pgx.ErrNoRows) || err == nil && (!models.APITokenMatches(plaintext, hash) || revoked != nil || !enabled) {
		return principal{}, errUnauthorized
	}
	return p, err
}

var errUnauthorized = errors.New("unauthorized")

// documents reads the organization's documents that refs name, in one query.
func (b *sameWork) documents(ctx context.Context, orgID int64, refs []string) (map[string]*models.Document, error) {
	rows, err := b.pool.Query(ctx, `SELECT id, organization_id, object_key, title, file_name, size_bytes, sha256, page_count, pages,
		uploaded_by_token_id, created_at, detection FROM documents WHERE organization_id = $1 AND (id = ANY($2) OR object_key = ANY($2))`,
		orgID, models.DocumentLookupKeys(refs))
	if err != nil {
		return nil, err
	}
	docs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (models.Document, error) {
		var d models.Document
		var pages []byte
		err := row.Scan(&d.ID, &d.OrganizationID, &d.ObjectKey, &d.Title, &d.FileName, &d.SizeBytes, &d.SHA256, &d.PageCount,
			&pages, &d.UploadedByTokenID, &d.CreatedAt, &d.Detection)
		if err == nil {
			err = d.Pages.Scan(pages)
		}
		return d, err
	})
	if err != nil {
		return nil, err
	}
	return models.MatchDocumentRefs(refs, docs), nil
}

// fail answers an error the way a baseline can: status and text.
func fail(w http.ResponseWriter, err error) {
	var ve *models.ValidationError
	switch {
	case errors.Is(err, errUnauthorized):
		http.Error(w, err.Error(), http.StatusUnauthorized)
	case errors.As(err, &ve):
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
	case errors.Is(err, pgx.ErrNoRows):
		http.Error(w, "not found", http.StatusNotFound)
	default:
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// writeJSON encodes v as the answer.
func writeJSON(w http.ResponseWriter, status int, v any) {
	out, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

// receive authenticates the request and reads its body under the
// product's 10 MiB limit; false means it has answered the error.
func (b *sameWork) receive(w http.ResponseWriter, r *http.Request) (principal, []byte, bool) {
	p, err := b.authenticate(r)
	if err != nil {
		fail(w, err)
		return principal{}, nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 10<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return principal{}, nil, false
	}
	return p, body, true
}

// replaceBaseline is operation A's same-work baseline (PUT /api/v1/transactions/{id}).
type replaceBaseline struct{ sameWork }

func (h *replaceBaseline) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p, body, ok := h.receive(w, r)
	if !ok {
		return
	}
	in, err := models.ParseTransactionInput(body)
	if err != nil {
		fail(w, err)
		return
	}
	docs, err := h.documents(r.Context(), p.orgID, models.DocumentRefs(in))
	if err != nil {
		fail(w, err)
		return
	}
	t, err := h.store.BuildTransaction(r.PathValue("id"), p.orgID, in, docs)
	if err != nil {
		fail(w, err)
		return
	}
	if err := h.replace(r.Context(), p, t); err != nil {
		fail(w, err)
		return
	}
	w.Header().Set("ETag", t.ETag())
	writeJSON(w, http.StatusCreated, t)
}

// replace writes t over the stored transaction in one database transaction:
// the row locked, the children deleted (one statement), the row updated, one
// multi-row INSERT per child table, the history entry, the webhook endpoints
// read (the product queues a transaction.updated event for each).
func (h *replaceBaseline) replace(ctx context.Context, p principal, t *models.Transaction) error {
	tx, err := h.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var old models.Transaction
	err = tx.QueryRow(ctx, `SELECT version, status, created_at, document_count, tag_count, participant_count FROM transactions
		WHERE id = $1 AND organization_id = $2 FOR UPDATE`, t.ID, p.orgID).
		Scan(&old.Version, &old.Status, &old.CreatedAt, &old.DocumentCount, &old.TagCount, &old.ParticipantCount)
	if err != nil {
		return err
	}
	t.Version, t.CreatedAt, t.UpdatedAt = old.Version+1, old.CreatedAt, time.Now().UTC()
	_, err = tx.Exec(ctx, `WITH tags AS (DELETE FROM transaction_tags WHERE transaction_id = $1),
	participants AS (DELETE FROM transaction_participants WHERE transaction_id = $1)
DELETE FROM transaction_documents WHERE transaction_id = $1`, t.ID)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE transactions SET reference_id = $2, status = $3, signing_order = $4, personalized_message = $5,
		invite_email_subject = $6, notify_email = $7, has_notify = $8, evault = $9, send_final_enote_to = $10, version = $11,
		document_count = $12, tag_count = $13, participant_count = $14, updated_at = $15 WHERE id = $1`,
		t.ID, t.ReferenceID, t.Status, t.SigningOrder, t.PersonalizedMessage, t.InviteEmailSubject, t.NotifyEmail, t.HasNotify,
		t.EVault, t.SendFinalEnoteTo, t.Version, t.DocumentCount, t.TagCount, t.ParticipantCount, t.UpdatedAt)
	if err != nil {
		return err
	}
	if err := insertChildren(ctx, tx, t); err != nil {
		return err
	}
	summary := models.ReplacedSummary{
		Documents:    models.Count{Before: old.DocumentCount, After: t.DocumentCount},
		Tags:         models.Count{Before: old.TagCount, After: t.TagCount},
		Participants: models.Count{Before: old.ParticipantCount, After: t.ParticipantCount},
		Version:      t.Version,
	}
	if err := insertEvent(ctx, tx, t, p.actor(), summary); err != nil {
		return err
	}
	if old.Status != t.Status {
		if err := insertEvent(ctx, tx, t, p.actor(), models.StatusChangedSummary{From: old.Status, To: t.Status}); err != nil {
			return err
		}
	}
	var hooks int
	if err := tx.QueryRow(ctx, "SELECT count(*) FROM webhook_endpoints WHERE organization_id = $1", p.orgID).Scan(&hooks); err != nil {
		return err
	}
	if hooks > 0 {
		return errors.New("the baseline queues no webhook messages: its organization must have no endpoints")
	}
	return tx.Commit(ctx)
}

// roomBaseline is operation B's same-work baseline (POST /api/v1/markup-rooms).
type roomBaseline struct{ sameWork }

func (h *roomBaseline) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p, body, ok := h.receive(w, r)
	if !ok {
		return
	}
	in, err := models.ParseRoomInput(body)
	if err != nil {
		fail(w, err)
		return
	}
	senderID, err := in.SenderUserID()
	if err != nil {
		fail(w, err)
		return
	}
	var sender models.User
	err = h.pool.QueryRow(r.Context(), `SELECT id, organization_id, email, first_name, last_name, disabled_at FROM users
		WHERE id = $1 AND organization_id = $2`, senderID, p.orgID).
		Scan(&sender.ID, &sender.OrganizationID, &sender.Email, &sender.FirstName, &sender.LastName, &sender.DisabledAt)
	if err == nil && sender.DisabledAt != nil {
		err = errUnauthorized
	}
	if err != nil {
		fail(w, err)
		return
	}
	docs, err := h.documents(r.Context(), p.orgID, in.Documents)
	if err != nil {
		fail(w, err)
		return
	}
	plan, err := h.store.PlanRoom(p.actor(), &sender, in, docs)
	if err != nil {
		fail(w, err)
		return
	}
	if err := h.create(r.Context(), plan); err != nil {
		fail(w, err)
		return
	}
	room := plan.Room
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{
		"id": room.ID, "url": productBaseURL + models.RoomURLPath(plan.Token), "status": room.State, "config": room.Config,
		"expiresAt": room.ExpiresAt, "transactionId": room.TransactionID, "senderId": strconv.FormatInt(room.SenderID, 10),
		"createdAt": room.CreatedAt,
	})
}

// create writes the room's draft transaction, its children, the room and the
// history entry in one database transaction.
func (h *roomBaseline) create(ctx context.Context, plan *models.RoomPlan) error {
	t, room := plan.Transaction, plan.Room
	tx, err := h.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	_, err = tx.Exec(ctx, `INSERT INTO transactions (id, organization_id, reference_id, status, signing_order, personalized_message,
		invite_email_subject, notify_email, has_notify, evault, send_final_enote_to, version, document_count, tag_count,
		participant_count, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
		t.ID, t.OrganizationID, t.ReferenceID, t.Status, t.SigningOrder, t.PersonalizedMessage, t.InviteEmailSubject, t.NotifyEmail,
		t.HasNotify, t.EVault, t.SendFinalEnoteTo, t.Version, t.DocumentCount, t.TagCount, t.ParticipantCount, t.CreatedAt, t.UpdatedAt)
	if err != nil {
		return err
	}
	if err := insertChildren(ctx, tx, t); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO markup_rooms (id, organization_id, sender_id, transaction_id, config, token_selector, token_hash,
		status, expires_at, created_by_token_id, created_at, updated_at, completed_at, started_empty)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
		room.ID, room.OrganizationID, room.SenderID, room.TransactionID, room.Config, room.TokenSelector, room.TokenHash, room.State,
		room.ExpiresAt, room.CreatedByTokenID, room.CreatedAt, room.UpdatedAt, room.CompletedAt, room.StartedEmpty)
	if err != nil {
		return err
	}
	if err := insertEvent(ctx, tx, t, plan.Actor, plan.Created); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// insertChildren writes t's documents, tags and participants, one multi-row INSERT per table.
func insertChildren(ctx context.Context, tx pgx.Tx, t *models.Transaction) error {
	rows := models.ChildRows(t)
	cols := models.BulkInsertColumns()
	for _, table := range []string{"transaction_documents", "transaction_tags", "transaction_participants"} {
		if err := insertRows(ctx, tx, table, cols[table], rows[table]); err != nil {
			return err
		}
	}
	return nil
}

// insertEvent writes one history entry, as the product's recordEvent does.
func insertEvent(ctx context.Context, tx pgx.Tx, t *models.Transaction, actor models.Actor, summary models.HistorySummary) error {
	id, err := uuid.NewV7()
	if err != nil {
		return err
	}
	b, err := json.Marshal(summary)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO transaction_events (id, transaction_id, organization_id, kind, actor, actor_kind, actor_id,
		actor_name, actor_via, token_id, user_id, summary, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`, id.String(), t.ID, t.OrganizationID, summary.Kind(), actor.Label(),
		actor.Kind, actor.ID, actor.Name, actor.Via, actor.TokenID, actor.UserID, string(b), time.Now().UTC())
	return err
}

// insertRows writes rows with one multi-row INSERT (more only past
// PostgreSQL's 65,535 bind parameters); none for no rows.
func insertRows(ctx context.Context, tx pgx.Tx, table string, cols []string, rows [][]any) error {
	per := 65535 / len(cols)
	for start := 0; start < len(rows); start += per {
		chunk := rows[start:min(start+per, len(rows))]
		var sb strings.Builder
		sb.WriteString("INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES ")
		args := make([]any, 0, len(chunk)*len(cols))
		n := 1
		for i, row := range chunk {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteByte('(')
			for j := range cols {
				if j > 0 {
					sb.WriteString(", ")
				}
				sb.WriteByte('$')
				sb.WriteString(strconv.Itoa(n))
				n++
			}
			sb.WriteByte(')')
			args = append(args, row...)
		}
		if _, err := tx.Exec(ctx, sb.String(), args...); err != nil {
			return fmt.Errorf("insert into %s: %w", table, err)
		}
	}
	return nil
}
