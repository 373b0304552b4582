package models

import (
	"context"
)

// insertRows writes rows to table with multi-row INSERT statements of at
// most batchRows rows each, straight on the connection (or database
// transaction) under GORM: replaces write thousands of child rows, and GORM's
// per-value reflection was most of their cost. values returns one row's
// values in the order of cols.
func insertRows[T any](ctx context.Context, s *Store, table string, cols []string, rows []T, values func(*T) []any) error {
	var b writeBatch
	addRows(&b, s.batchRows(), table, cols, rows, values)
	return s.execBatch(ctx, &b)
}

// addChildren adds the INSERTs of t's documents, tags and participants to b.
func (s *Store) addChildren(b *writeBatch, t *Transaction) {
	addRows(b, s.batchRows(), "transaction_documents", documentColumns(), t.Documents, documentValues)
	if len(t.Documents) == 1 {
		s.addTagRows(b, t.Documents[0].Tags)
	} else {
		var tags []Tag
		for i := range t.Documents {
			tags = append(tags, t.Documents[i].Tags...)
		}
		s.addTagRows(b, tags)
	}
	addRows(b, s.batchRows(), "transaction_participants", participantColumns(), t.Participants, participantValues)
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
		"signer_id", "custom_data", "page", "required", "state_format", "date_format", "font_size", "version", "needs_look"}
}

func tagValues(t *Tag) []any {
	return []any{t.TransactionID, t.DocumentPosition, t.Position, t.TagID, t.Type, t.X, t.Y, t.Width, t.Height,
		t.SignerID, string(t.CustomData.orEmpty()), t.Page, t.Required, t.StateFormat, t.DateFormat, t.FontSize, max(t.Version, 1), t.NeedsLook}
}

func participantColumns() []string {
	return []string{"transaction_id", "position", "participant_id", "signing_order", "email", "first_name",
		"middle_name", "last_name", "address1", "address2", "country", "city", "state", "zip", "phone",
		"kba_required", "cred_analysis_required", "external_id", "authentication_type", "two_factor_contact",
		"personal_password_question", "personal_password_hash", "locale"}
}

func participantValues(p *Participant) []any {
	return []any{p.TransactionID, p.Position, p.ParticipantID, p.Order, p.Email, p.FirstName,
		p.MiddleName, p.LastName, p.Address1, p.Address2, p.Country, p.City, p.State, p.Zip, p.Phone,
		p.KBARequired, p.CredAnalysisRequired, p.ExternalID, p.AuthenticationType, p.TwoFactorContact,
		p.PersonalPasswordQuestion, p.PersonalPasswordHash, p.Locale}
}

func transactionColumns() []string {
	return []string{"id", "organization_id", "reference_id", "status", "signing_order", "personalized_message",
		"invite_email_subject", "notify_email", "has_notify", "evault", "send_final_enote_to", "version",
		"document_count", "tag_count", "participant_count", "created_at", "updated_at"}
}

func transactionValues(t *Transaction) []any {
	return []any{t.ID, t.OrganizationID, t.ReferenceID, t.Status, t.SigningOrder, t.PersonalizedMessage,
		t.InviteEmailSubject, t.NotifyEmail, t.HasNotify, t.EVault, t.SendFinalEnoteTo, t.Version,
		t.DocumentCount, t.TagCount, t.ParticipantCount, t.CreatedAt, t.UpdatedAt}
}

func roomColumns() []string {
	return []string{"id", "organization_id", "sender_id", "transaction_id", "config", "token_selector", "token_hash",
		"status", "expires_at", "created_by_token_id", "created_at", "updated_at", "completed_at", "started_empty", "template_id", "embed_origin", "locale",
		"event_seq"}
}

func roomValues(r *Room) []any {
	return []any{r.ID, r.OrganizationID, r.SenderID, r.TransactionID, r.Config, r.TokenSelector, r.TokenHash,
		r.State, r.ExpiresAt, r.CreatedByTokenID, r.CreatedAt, r.UpdatedAt, r.CompletedAt, r.StartedEmpty, r.TemplateID, r.EmbedOrigin, r.Locale,
		r.EventSeq}
}

func eventColumns() []string {
	return []string{"id", "transaction_id", "organization_id", "kind", "actor", "actor_kind", "actor_id", "actor_name",
		"actor_via", "actor_for", "actor_session", "actor_address", "token_id", "user_id", "summary", "created_at"}
}

func eventValues(e *TransactionEvent) []any {
	return []any{e.ID, e.TransactionID, e.OrganizationID, e.Kind, e.Actor, e.ActorKind, e.ActorID, e.ActorName,
		e.ActorVia, e.ActorFor, e.ActorSession, e.ActorAddress, e.TokenID, e.UserID, e.Summary, e.CreatedAt}
}

// BulkInsertColumns maps each table written with hand-made INSERTs to its
// column list, for the schema tests.
func BulkInsertColumns() map[string][]string {
	return map[string][]string{
		"transactions":             transactionColumns(),
		"markup_rooms":             roomColumns(),
		"transaction_events":       eventColumns(),
		"transaction_documents":    documentColumns(),
		"transaction_tags":         tagColumns(),
		"transaction_participants": participantColumns(),
	}
}

// ChildRows returns the rows t's documents, tags and participants are
// stored as, by table, each row in the column order of BulkInsertColumns.
func ChildRows(t *Transaction) map[string][][]any {
	rows := map[string][][]any{}
	for i := range t.Documents {
		d := &t.Documents[i]
		rows["transaction_documents"] = append(rows["transaction_documents"], documentValues(d))
		for j := range d.Tags {
			rows["transaction_tags"] = append(rows["transaction_tags"], tagValues(&d.Tags[j]))
		}
	}
	for i := range t.Participants {
		rows["transaction_participants"] = append(rows["transaction_participants"], participantValues(&t.Participants[i]))
	}
	return rows
}
