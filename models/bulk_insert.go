package models

import (
	"context"
	"strconv"
	"strings"
)

// insertRows writes rows to table with multi-row INSERT statements of at
// most batch rows each, straight on the connection (or database transaction)
// under GORM: replaces write thousands of child rows, and GORM's per-value
// reflection was most of their cost. values returns one row's values in the
// order of cols.
func insertRows[T any](ctx context.Context, s *Store, table string, cols []string, rows []T, values func(*T) []any) error {
	batch := s.batchRows()
	pool := s.db.Statement.ConnPool
	for start := 0; start < len(rows); start += batch {
		chunk := rows[start:min(start+batch, len(rows))]
		var sql strings.Builder
		sql.WriteString("INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES ")
		args := make([]any, 0, len(chunk)*len(cols))
		for i := range chunk {
			if i > 0 {
				sql.WriteString(", ")
			}
			sql.WriteByte('(')
			for c := range cols {
				if c > 0 {
					sql.WriteString(", ")
				}
				sql.WriteString(s.placeholder(len(args) + c + 1))
			}
			sql.WriteByte(')')
			args = append(args, values(&chunk[i])...)
		}
		if _, err := pool.ExecContext(ctx, sql.String(), args...); err != nil {
			return mapDBError(err)
		}
	}
	return nil
}

// Column lists of the child tables, in the order their value functions use.
func documentColumns() []string {
	return []string{"transaction_id", "position", "document_id", "gcs_ref_id", "title", "description", "xfdf",
		"session_type", "type", "display_order", "pages", "read_only", "visible"}
}

func documentValues(d *TransactionDocument) []any {
	return []any{d.TransactionID, d.Position, d.DocumentID, d.GCSRefID, d.Title, d.Description, d.XFDF,
		d.SessionType, d.Type, d.Order, d.Pages, d.ReadOnly, d.Visible}
}

func tagColumns() []string {
	return []string{"transaction_id", "document_position", "position", "tag_id", "type", "x", "y", "width", "height",
		"signer_id", "custom_data", "page", "required", "state_format", "date_format", "font_size"}
}

func tagValues(t *Tag) []any {
	return []any{t.TransactionID, t.DocumentPosition, t.Position, t.TagID, t.Type, t.X, t.Y, t.Width, t.Height,
		t.SignerID, string(t.CustomData.orEmpty()), t.Page, t.Required, t.StateFormat, t.DateFormat, t.FontSize}
}

func participantColumns() []string {
	return []string{"transaction_id", "position", "participant_id", "signing_order", "email", "first_name",
		"middle_name", "last_name", "address1", "address2", "country", "city", "state", "zip", "phone",
		"kba_required", "cred_analysis_required", "external_id", "authentication_type", "two_factor_contact",
		"personal_password_question", "personal_password_hash"}
}

func participantValues(p *Participant) []any {
	return []any{p.TransactionID, p.Position, p.ParticipantID, p.Order, p.Email, p.FirstName,
		p.MiddleName, p.LastName, p.Address1, p.Address2, p.Country, p.City, p.State, p.Zip, p.Phone,
		p.KBARequired, p.CredAnalysisRequired, p.ExternalID, p.AuthenticationType, p.TwoFactorContact,
		p.PersonalPasswordQuestion, p.PersonalPasswordHash}
}

// BulkInsertColumns maps each child table to its insert column list, for the schema tests.
func BulkInsertColumns() map[string][]string {
	return map[string][]string{
		"transaction_documents":    documentColumns(),
		"transaction_tags":         tagColumns(),
		"transaction_participants": participantColumns(),
	}
}

// placeholder is the n-th (1-based) bind parameter in the dialect's SQL, for
// statements sent straight to the connection.
func (s *Store) placeholder(n int) string {
	if s.dialect == DialectPostgres {
		return "$" + strconv.Itoa(n)
	}
	return "?"
}
