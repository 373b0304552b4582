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

	"github.com/gin-gonic/gin"
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
// the product schema (named prod): n transactions created from body, the
// scratch table of the room baseline, and a pgx pool of maxConns connections.
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
	err = db.DB.Exec(`CREATE TABLE bench_rooms (
		id           text        PRIMARY KEY,
		sender_id    text        NOT NULL,
		documents    text        NOT NULL,
		participants text        NOT NULL,
		created_at   timestamptz NOT NULL)`).Error
	if err != nil {
		return nil, nil, fmt.Errorf("create bench_rooms: %w", err)
	}
	cfg, err := pgxpool.ParseConfig(baseURL)
	if err != nil {
		return nil, nil, err
	}
	cfg.MaxConns = maxConns
	cfg.ConnConfig.Tracer = tracer
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, nil, err
	}
	return pool, ids, nil
}

// Plain structs for the operation A body; the baseline trusts its input.
type rawTransaction struct {
	Status              string  `json:"status"`
	ReferenceID         string  `json:"referenceId"`
	SigningOrder        *bool   `json:"signingOrder"`
	PersonalizedMessage *string `json:"personalizedMessage"`
	InviteEmailSubject  *string `json:"inviteEmailSubject"`
	NotifyParticipants  *struct {
		Email *bool `json:"email"`
	} `json:"notifyParticipants"`
	Documents    []rawDocument    `json:"documents"`
	Participants []rawParticipant `json:"participants"`
}

type rawDocument struct {
	ID          string   `json:"id"`
	GCSRefID    string   `json:"gcsRefId"`
	Title       string   `json:"title"`
	Description *string  `json:"description"`
	XFDF        *string  `json:"xfdf"`
	SessionType string   `json:"sessionType"`
	Type        string   `json:"type"`
	Order       *int     `json:"order"`
	Pages       int      `json:"pages"`
	ReadOnly    *bool    `json:"readOnly"`
	Visible     *bool    `json:"visible"`
	Tags        []rawTag `json:"tags"`
}

type rawTag struct {
	Type        string          `json:"type"`
	X           float64         `json:"x"`
	Y           float64         `json:"y"`
	Width       float64         `json:"width"`
	Height      float64         `json:"height"`
	SignerID    string          `json:"signerId"`
	CustomData  json.RawMessage `json:"customData"`
	Page        int             `json:"page"`
	Required    *bool           `json:"required"`
	StateFormat *string         `json:"stateFormat"`
	DateFormat  *string         `json:"dateFormat"`
	FontSize    *float64        `json:"fontSize"`
}

type rawParticipant struct {
	ID                       string  `json:"id"`
	Order                    *int    `json:"order"`
	Email                    string  `json:"email"`
	FirstName                string  `json:"firstName"`
	MiddleName               *string `json:"middleName"`
	LastName                 string  `json:"lastName"`
	Address1                 *string `json:"address1"`
	Address2                 *string `json:"address2"`
	Country                  *string `json:"country"`
	City                     *string `json:"city"`
	State                    *string `json:"state"`
	Zip                      *string `json:"zip"`
	Phone                    *string `json:"phone"`
	KBARequired              *bool   `json:"kbaRequired"`
	CredAnalysisRequired     *bool   `json:"credAnalysisRequired"`
	ExternalID               *string `json:"externalId"`
	AuthenticationType       string  `json:"authenticationType"`
	TwoFactorContact         string  `json:"twoFactorContact"`
	PersonalPasswordQuestion *string `json:"personalPasswordQuestion"`
}

// rawReplace is the operation A baseline: plain net/http, encoding/json into
// plain structs, and the product's writes in one pgx transaction — SELECT …
// FOR UPDATE of the parent, DELETE of the three child tables, UPDATE of the
// parent, one multi-row INSERT per child table, one history INSERT, COMMIT —
// each statement its own round trip, as the product sends them. No
// authentication, no validation, no document lookup, no XFDF generation.
type rawReplace struct {
	pool    *pgxpool.Pool
	orgID   int64
	tokenID int64
	actor   string
}

func (h *rawReplace) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 10<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var in rawTransaction
	if err := json.Unmarshal(body, &in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	id := r.PathValue("id")
	version, err := h.replace(r.Context(), id, &in)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		http.Error(w, "no such transaction", http.StatusNotFound)
		return
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	out, _ := json.Marshal(map[string]any{"id": id, "version": version})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("ETag", `"`+strconv.Itoa(version)+`"`)
	_, _ = w.Write(out)
}

func (h *rawReplace) replace(ctx context.Context, id string, in *rawTransaction) (int, error) {
	now := time.Now().UTC().Truncate(time.Microsecond)
	tx, err := h.pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback(ctx) }()

	var oldVersion, oldDocs, oldTags, oldParts int
	err = tx.QueryRow(ctx, `SELECT version, document_count, tag_count, participant_count FROM transactions
		WHERE id = $1 AND organization_id = $2 FOR UPDATE`, id, h.orgID).Scan(&oldVersion, &oldDocs, &oldTags, &oldParts)
	if err != nil {
		return 0, err
	}
	for _, table := range []string{"transaction_tags", "transaction_participants", "transaction_documents"} {
		if _, err := tx.Exec(ctx, "DELETE FROM "+table+" WHERE transaction_id = $1", id); err != nil {
			return 0, err
		}
	}

	var docs, tags, parts [][]any
	for i, d := range in.Documents {
		xfdf := ""
		if d.XFDF != nil {
			xfdf = *d.XFDF
		}
		docs = append(docs, []any{id, i, d.ID, d.GCSRefID, d.Title, d.Description, xfdf, d.SessionType, d.Type, d.Order, d.Pages, d.ReadOnly, d.Visible})
		for j, t := range d.Tags {
			cd := string(t.CustomData)
			if cd == "" || cd == "null" {
				cd = "{}"
			}
			tags = append(tags, []any{id, i, j, t.Type, t.X, t.Y, t.Width, t.Height, t.SignerID, cd, t.Page, t.Required, t.StateFormat, t.DateFormat, t.FontSize})
		}
	}
	signingOrder := in.SigningOrder != nil && *in.SigningOrder
	for i, p := range in.Participants {
		order := p.Order
		if signingOrder && order == nil {
			n := i + 1
			order = &n
		}
		parts = append(parts, []any{id, i, p.ID, order, p.Email, p.FirstName, p.MiddleName, p.LastName, p.Address1, p.Address2,
			p.Country, p.City, p.State, p.Zip, p.Phone, p.KBARequired, p.CredAnalysisRequired, p.ExternalID,
			p.AuthenticationType, p.TwoFactorContact, p.PersonalPasswordQuestion, nil})
	}

	subject := models.DefaultInviteSubject
	if in.InviteEmailSubject != nil {
		subject = *in.InviteEmailSubject
	}
	var notifyEmail *bool
	if in.NotifyParticipants != nil {
		notifyEmail = in.NotifyParticipants.Email
	}
	version := oldVersion + 1
	_, err = tx.Exec(ctx, `UPDATE transactions SET reference_id = $2, status = $3, signing_order = $4, personalized_message = $5,
		invite_email_subject = $6, notify_email = $7, has_notify = $8, evault = $9, send_final_enote_to = $10, version = $11,
		document_count = $12, tag_count = $13, participant_count = $14, updated_at = $15 WHERE id = $1`,
		id, in.ReferenceID, in.Status, in.SigningOrder, in.PersonalizedMessage, subject, notifyEmail, in.NotifyParticipants != nil,
		"default", `["default"]`, version, len(docs), len(tags), len(parts), now)
	if err != nil {
		return 0, err
	}
	if err := insertRows(ctx, tx, "transaction_documents", []string{"transaction_id", "position", "document_id", "gcs_ref_id", "title",
		"description", "xfdf", "session_type", "type", "display_order", "pages", "read_only", "visible"}, docs); err != nil {
		return 0, err
	}
	if err := insertRows(ctx, tx, "transaction_tags", []string{"transaction_id", "document_position", "position", "type", "x", "y",
		"width", "height", "signer_id", "custom_data", "page", "required", "state_format", "date_format", "font_size"}, tags); err != nil {
		return 0, err
	}
	if err := insertRows(ctx, tx, "transaction_participants", []string{"transaction_id", "position", "participant_id", "signing_order",
		"email", "first_name", "middle_name", "last_name", "address1", "address2", "country", "city", "state", "zip", "phone",
		"kba_required", "cred_analysis_required", "external_id", "authentication_type", "two_factor_contact",
		"personal_password_question", "personal_password_hash"}, parts); err != nil {
		return 0, err
	}

	evID, err := uuid.NewV7()
	if err != nil {
		return 0, err
	}
	summary, _ := json.Marshal(map[string]any{
		"documents":    map[string]int{"before": oldDocs, "after": len(docs)},
		"tags":         map[string]int{"before": oldTags, "after": len(tags)},
		"participants": map[string]int{"before": oldParts, "after": len(parts)},
		"version":      version,
	})
	_, err = tx.Exec(ctx, `INSERT INTO transaction_events (id, transaction_id, organization_id, kind, actor, token_id, user_id, summary, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, $8)`, evID.String(), id, h.orgID, models.EventReplaced, h.actor, h.tokenID, string(summary), now)
	if err != nil {
		return 0, err
	}
	return version, tx.Commit(ctx)
}

// insertRows writes rows with one multi-row INSERT (more only past
// PostgreSQL's 65,535 bind parameters).
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

// ginRoomRequest is the operation B body as the bare Gin baseline binds it.
type ginRoomRequest struct {
	SenderID     string   `json:"senderId" binding:"required"`
	Documents    []string `json:"documents" binding:"required,min=1,dive,required"`
	Participants []struct {
		FirstName string `json:"firstName" binding:"required"`
		LastName  string `json:"lastName" binding:"required"`
		Email     string `json:"email" binding:"required,email"`
	} `json:"participants" binding:"dive"`
}

// ginRoomBaseline is the operation B baseline: gin.New() with one route
// that binds the JSON body and does one pgx INSERT into a scratch table.
func ginRoomBaseline(pool *pgxpool.Pool) http.Handler {
	r := gin.New()
	r.POST("/api/v1/markup-rooms", func(c *gin.Context) {
		var req ginRoomRequest
		if err := c.ShouldBindJSON(&req); err != nil {
			c.JSON(http.StatusBadRequest, gin.H{"error": err.Error()})
			return
		}
		uid, err := uuid.NewV7()
		if err != nil {
			c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
			return
		}
		docs, _ := json.Marshal(req.Documents)
		parts, _ := json.Marshal(req.Participants)
		_, err = pool.Exec(c.Request.Context(), `INSERT INTO bench_rooms (id, sender_id, documents, participants, created_at)
			VALUES ($1, $2, $3, $4, $5)`, uid.String(), req.SenderID, string(docs), string(parts), time.Now().UTC())
		if err != nil {
			c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
			return
		}
		c.JSON(http.StatusOK, gin.H{"id": uid.String(), "status": "open"})
	})
	return r
}
