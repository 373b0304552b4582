package models

import "context"

// AdminTransaction is everything the console shows of one transaction.
type AdminTransaction struct {
	Transaction  *Transaction
	Organization *Organization
	// Uploads give each document's page geometry, by upload id.
	Uploads map[string]*Document
	Events  []TransactionEvent
	// CallerReference is the caller's referenceId, empty when a Markup Room
	// set the reference to its own id (a room created without one).
	CallerReference string
}

// AdminGetTransaction reads any organization's transaction with its
// documents, tags, participants, page geometry and history.
func (s *Store) AdminGetTransaction(ctx context.Context, id string) (*AdminTransaction, error) {
	var row struct {
		Transaction     `gorm:"embedded"`
		ReferenceIsRoom bool
	}
	err := s.db.WithContext(ctx).Table("transactions").Where("id = ?", id).Select(`transactions.*,
		EXISTS (SELECT 1 FROM markup_rooms r WHERE r.transaction_id = transactions.id AND r.id = transactions.reference_id) AS reference_is_room`).
		Take(&row).Error
	if err != nil {
		return nil, mapDBError(err)
	}
	t := row.Transaction
	if err := s.loadChildren(ctx, &t); err != nil {
		return nil, err
	}
	var org Organization
	if err := s.db.WithContext(ctx).Where("id = ?", t.OrganizationID).Take(&org).Error; err != nil {
		return nil, mapDBError(err)
	}
	ids := make([]string, len(t.Documents))
	for i, d := range t.Documents {
		ids[i] = d.DocumentID
	}
	uploads, err := s.FindDocumentsByRef(ctx, t.OrganizationID, ids)
	if err != nil {
		return nil, err
	}
	events, err := s.ListTransactionEvents(ctx, t.OrganizationID, t.ID)
	if err != nil {
		return nil, err
	}
	at := &AdminTransaction{Transaction: &t, Organization: &org, Uploads: uploads, Events: events, CallerReference: t.ReferenceID}
	if row.ReferenceIsRoom {
		at.CallerReference = ""
	}
	return at, nil
}
