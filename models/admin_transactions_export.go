package models

import (
	"context"
)

// ExportPageSize is how many rows an export reads from the database at once:
// the exports hold one page in memory, whatever the list's length.
const ExportPageSize = 1000

// AdminExportRow is one transaction as the console's exports write it: the
// table's row and what the table leaves out.
type AdminExportRow struct {
	AdminTransactionRow
	// ParticipantEmails are the participants' e-mail addresses, in the
	// order of Participants (position order).
	ParticipantEmails []string
	// DocumentTitles are every document's title, in position order.
	DocumentTitles []string
	// RoomIDs are the transaction's Markup Rooms, oldest first.
	RoomIDs []string
}

// AdminExportTransactions reads one page of the console's transactions
// table for an export: the rows f selects (its After and Before are not
// used), newest first, after the transaction whose id is after (empty: from
// the newest), at most limit (clamped to 1…ExportPageSize). A page shorter
// than limit is the last. Keyset paging on the time-ordered id reads every
// row once, however long the list, and never skips or repeats one that
// exists throughout the export.
func (s *Store) AdminExportTransactions(ctx context.Context, f AdminTransactionFilter, after string, limit int) ([]AdminExportRow, error) {
	limit = min(max(limit, 1), ExportPageSize)
	q, err := s.adminTransactionsQuery(ctx, &f)
	if err != nil {
		return nil, err
	}
	if after != "" {
		q = q.Where("t.id < ?", after)
	}
	var rows []AdminTransactionRow
	if err := q.Order("t.id DESC").Limit(limit).Scan(&rows).Error; err != nil {
		return nil, mapDBError(err)
	}
	out := make([]AdminExportRow, len(rows))
	for i := range rows {
		out[i].AdminTransactionRow = rows[i]
		out[i].StatusSince = rows[i].CreatedAt
		if !rows[i].LastStatusChange.IsZero() {
			out[i].StatusSince = rows[i].LastStatusChange.Time
		}
	}
	return out, s.fillAdminExportRows(ctx, out)
}

// fillAdminExportRows reads the page's participants, documents and rooms:
// three queries for the whole page, never one per row.
func (s *Store) fillAdminExportRows(ctx context.Context, rows []AdminExportRow) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]string, len(rows))
	at := make(map[string]*AdminExportRow, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
		at[rows[i].ID] = &rows[i]
	}
	db := s.db.WithContext(ctx)
	var people []struct {
		TransactionID, FirstName, LastName, Email string
		MiddleName                                *string
	}
	if err := db.Table("transaction_participants").Select("transaction_id, first_name, middle_name, last_name, email").
		Where("transaction_id IN ?", ids).Order("transaction_id, position").Scan(&people).Error; err != nil {
		return mapDBError(err)
	}
	for _, p := range people {
		r := at[p.TransactionID]
		r.Participants = append(r.Participants, (&Participant{FirstName: p.FirstName, MiddleName: p.MiddleName, LastName: p.LastName}).FullName())
		r.ParticipantEmails = append(r.ParticipantEmails, p.Email)
	}
	var docs []struct{ TransactionID, Title string }
	if err := db.Table("transaction_documents").Select("transaction_id, title").
		Where("transaction_id IN ?", ids).Order("transaction_id, position").Scan(&docs).Error; err != nil {
		return mapDBError(err)
	}
	for _, d := range docs {
		r := at[d.TransactionID]
		r.DocumentTitles = append(r.DocumentTitles, d.Title)
	}
	var rooms []struct{ TransactionID, ID string }
	if err := db.Table("markup_rooms").Select("transaction_id, id").
		Where("transaction_id IN ?", ids).Order("transaction_id, id").Scan(&rooms).Error; err != nil {
		return mapDBError(err)
	}
	for _, m := range rooms {
		r := at[m.TransactionID]
		r.RoomIDs = append(r.RoomIDs, m.ID)
	}
	return nil
}
